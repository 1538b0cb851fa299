#include "sim/environment.h"

#include <exception>
#include <utility>

#include "contracts/doc/diagnostics.h"
#include "cost/step.h"
#include "cost/transfer.h"
#include "schema/device.h"
#include "sim/wiring/cost_data.h"

namespace blis::sim {

namespace {

using engine::ContractError;

std::string known(const auto& map) {
  std::string out;
  for (const auto& [name, _] : map) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// Reads every file of `kind` in `tree` with `load`, handing each parsed value to `take`.
template <class Load, class Take>
void read_all(const data::TreeData& tree, std::string_view kind, Load load, Take take) {
  for (const auto& f : tree.of_kind(kind)) {
    doc::Diagnostics d{f->location()};
    auto v = load(f->bytes, f->path, d);
    if (!v) throw ContractError("environment: " + f->location() + ": the " + std::string(kind) + " reader refused it:\n" + d.str());
    take(*f, std::move(*v));
  }
}

// The cost model's and the topology's refusals, as the contract's error.
template <class F>
auto answer(const std::string& what, F f) -> decltype(f()) {
  try {
    return f();
  } catch (const ContractError&) {
    throw;
  } catch (const cost::CostError& e) {
    throw ContractError("environment: " + what + ": " + e.what());
  } catch (const cost::TopologyError& e) {
    throw ContractError("environment: " + what + ": " + e.what());
  }
}

cost::Coefficients read_coefficients(const data::DataSet& data) {
  return answer("coefficients", [&] { return coefficients(data); });
}

}  // namespace

SubstrateEnvironment::SubstrateEnvironment(const data::DataSet& data, cost::Topology topology, EnvironmentOptions options)
    : coefficients_(read_coefficients(data)), topology_(std::move(topology)), options_(std::move(options)) {
  read_all(data.catalog, "graph", schema::load_graph,
           [&](const data::LoadedFile&, schema::Graph g) { graphs_.emplace(g.model, std::move(g)); });
  read_all(data.catalog, "chip", schema::load_chip,
           [&](const data::LoadedFile&, schema::Chip c) { chips_.emplace(c.name, std::move(c)); });
  read_all(data.catalog, "device", schema::load_device,
           [&](const data::LoadedFile&, schema::Device d) { memory_catalog_.devices.emplace(d.name, std::move(d)); });
  read_all(data.registry, "acceptance-profile", schema::load_acceptance_profile,
           [&](const data::LoadedFile& f, schema::AcceptanceProfile set) {
             for (auto& p : set.profiles) profiles_.push_back(Profile{set.set, f.location(), std::move(p)});
           });
}

const schema::Graph& SubstrateEnvironment::graph(std::string_view model) const {
  const auto it = graphs_.find(std::string(model));
  if (it == graphs_.end())
    throw ContractError("environment: graph: model '" + std::string(model) + "' is not in the catalog (its models: " +
                        known(graphs_) + ")");
  return it->second;
}

const schema::Chip& SubstrateEnvironment::chip(std::string_view name) const {
  const auto it = chips_.find(std::string(name));
  if (it == chips_.end())
    throw ContractError("environment: chip: '" + std::string(name) + "' is not in the catalog (its chips: " +
                        known(chips_) + ")");
  return it->second;
}

void SubstrateEnvironment::check_chip(const engine::plan::PoolPlan& plan, const std::string& what) const {
  if (plan.chip && !chips_.contains(*plan.chip))
    throw ContractError("environment: " + what + ": plan.chip = " + *plan.chip + ": not a catalog chip (its chips: " +
                        known(chips_) + ")");
}

engine::MemoryBreakdown SubstrateEnvironment::memory(const engine::plan::PoolPlan& partial) const {
  check_chip(partial, "memory");
  return answer("memory", [&] { return cost::memory_breakdown(coefficients_, memory_catalog_, partial); });
}

engine::StepEstimate SubstrateEnvironment::price(const engine::plan::PoolPlan& plan,
                                                 const engine::plan::StepShape& step) const {
  check_chip(plan, "price");
  return answer("price", [&] { return cost::price_step(coefficients_, plan, step, cost::StepContext{options_.workload}); });
}

engine::TransferDemand SubstrateEnvironment::transfer_demand(const engine::plan::PoolPlan& plan,
                                                             const engine::plan::Transfer& move) const {
  return answer("transfer demand", [&] { return cost::transfer_demand(topology_, plan, move); });
}

schema::AcceptanceProfileProfile SubstrateEnvironment::acceptance(std::string_view model, std::string_view drafter,
                                                                  std::string_view workload) const {
  std::vector<const Profile*> hits;
  for (const Profile& p : profiles_) {
    const auto& d = p.profile.drafter;
    const bool same_drafter = (d.in_graph && *d.in_graph == drafter) || (d.checkpoint && *d.checkpoint == drafter);
    if (p.profile.target == model && same_drafter && p.profile.category == workload) hits.push_back(&p);
  }
  const std::string key = "model '" + std::string(model) + "', drafter '" + std::string(drafter) + "', workload category '" +
                          std::string(workload) + "'";
  if (hits.empty())
    throw ContractError("environment: acceptance: no profile of the registry has the exact key " + key +
                        " (D8's borrowing lookup is not built: only an exact key answers)");
  if (hits.size() > 1) {
    std::string list;
    for (const Profile* p : hits)
      list += "\n  set " + p->set + " (" + p->location + "): method " + p->profile.method + ", k " +
              units::to_string(p->profile.k) + ", thinking " + p->profile.thinking;
    throw ContractError("environment: acceptance: " + std::to_string(hits.size()) + " profiles have the key " + key +
                        ", and the method, K and thinking mode that would tell them apart are not part of the request:" +
                        list);
  }
  return hits.front()->profile;
}

}  // namespace blis::sim
