#include "environment.h"

#include <algorithm>
#include <string>

#include "contracts/engine/quant_format.h"

namespace blis::conformance {

namespace {

using engine::ContractError;

std::string mem_name(const std::optional<schema::TransferMoveMemory>& m) {
  if (!m) return "?";
  if (m->device) return *m->device;
  return "gpu";
}

}  // namespace

const schema::Graph& Environment::graph(std::string_view model) const {
  auto it = graphs_.find(std::string(model));
  if (it == graphs_.end()) throw ContractError("conformance environment: graph: model '" + std::string(model) + "' was not given by the test");
  return it->second;
}

const schema::Chip& Environment::chip(std::string_view name) const {
  auto it = chips_.find(std::string(name));
  if (it == chips_.end()) throw ContractError("conformance environment: chip: '" + std::string(name) + "' was not given by the test");
  return it->second;
}

engine::MemoryBreakdown Environment::memory(const engine::plan::PoolPlan& p) const {
  const std::int64_t stages = p.layout && p.layout->pp ? p.layout->pp->value() : 1;
  const std::int64_t per_node = p.layout && p.layout->ranks_per_node ? p.layout->ranks_per_node->value() : 1;
  const std::int64_t nodes = p.layout && p.layout->nodes ? p.layout->nodes->value() : 1;
  std::int64_t profile_tokens = 0;
  if (p.profiling_step && p.profiling_step->padded)
    for (const auto& s : *p.profiling_step->padded) profile_tokens = std::max(profile_tokens, s.tokens ? s.tokens->value() : 0);
  if (p.profiling_step && p.profiling_step->ranks)
    for (const auto& r : *p.profiling_step->ranks) {
      std::int64_t t = 0;
      if (r.requests)
        for (const auto& q : *r.requests) t += q.new_tokens ? q.new_tokens->value() : 0;
      profile_tokens = std::max(profile_tokens, t);
    }
  engine::MemoryBreakdown out;
  std::int64_t host_tensors = 0, pinned = 0, pageable = 0;
  for (std::int64_t s = 0; s < stages; ++s) {
    engine::StageMemory m;
    m.stage = s;
    std::int64_t weights = 0, buffers = 0, graphs = 0;
    if (p.weights)
      for (std::size_t i = 0; i < p.weights->size(); ++i) {
        const auto& t = (*p.weights)[i];
        if (t.stage && *t.stage != s) continue;
        if (!t.format) throw ContractError("conformance environment: memory: weights[" + std::to_string(i) + "].format is not stated");
        const auto bytes = engine::stored_bytes(*t.format, t.shape.value_or(std::vector<units::Count>{})).value();
        if (t.location.value_or("device") == "host") {
          if (s == 0) host_tensors += bytes;
        } else {
          weights += bytes;
        }
        if (t.name) m.weights.sources.push_back(*t.name);
      }
    if (p.buffers)
      for (const auto& b : *p.buffers) {
        if (b.stage && *b.stage != s) continue;
        const std::int64_t bytes = b.bytes ? b.bytes->value() : 0;
        if (b.location.value_or("device") == "device") buffers += bytes;
        else if (b.location == "pinned_host" && s == 0) pinned += bytes;
        else if (b.location == "host" && s == 0) pageable += bytes;
        if (b.name) m.engine_buffers.sources.push_back(*b.name);
      }
    if (p.graphs && p.graphs->buckets)
      for (const auto& g : *p.graphs->buckets)
        if (g.stage.value_or(0) == s) graphs += values_.graph_pool_bytes_per_graph;
    m.weights.bytes = units::BytesPerRank{weights};
    m.engine_buffers.bytes = units::BytesPerRank{buffers};
    m.activations.bytes = units::BytesPerRank{values_.activation_bytes_per_token * profile_tokens};
    m.graph_pool.bytes = units::BytesPerRank{graphs};
    m.outside_allocator.bytes = units::BytesPerRank{values_.outside_allocator_bytes};
    out.stages.push_back(std::move(m));
  }
  for (std::int64_t n = 0; n < nodes; ++n) {
    engine::HostNodeMemory h;
    h.node = n;
    h.weights.bytes = units::BytesPerNode{host_tensors * per_node};
    h.pinned_buffers.bytes = units::BytesPerNode{pinned * per_node};
    h.pageable_buffers.bytes = units::BytesPerNode{pageable * per_node};
    std::int64_t tier = 0;
    if (p.tiers)
      for (const auto& t : *p.tiers)
        if (t.bytes) tier += t.bytes->value() * per_node;  // a shared tier states each rank's even share
    h.kv_tier.bytes = units::BytesPerNode{tier};
    out.host.push_back(h);
  }
  return out;
}

engine::StepEstimate Environment::price(const engine::plan::PoolPlan&, const engine::plan::StepShape& step) const {
  double slowest = 0;
  const bool forward = step.mode.value_or("mixed") != "prebuilt";
  const std::size_t ranks = std::max<std::size_t>(1, step.ranks ? step.ranks->size() : 0);
  for (std::size_t i = 0; forward && i < ranks; ++i) {
    std::int64_t tokens = 0, requests = 0, rank = static_cast<std::int64_t>(i);
    if (step.ranks && i < step.ranks->size()) {
      const auto& r = (*step.ranks)[i];
      rank = r.rank.value_or(rank);
      if (r.requests) {
        requests = static_cast<std::int64_t>(r.requests->size());
        for (const auto& q : *r.requests) tokens += q.new_tokens ? q.new_tokens->value() : 0;
      }
    }
    if (step.padded)
      for (const auto& p : *step.padded)
        if (p.rank.value_or(0) == rank) {
          if (p.tokens) tokens = p.tokens->value();
          if (p.requests) requests = p.requests->value();
        }
    slowest = std::max(slowest, values_.seconds_per_token * static_cast<double>(tokens) +
                                    values_.seconds_per_request * static_cast<double>(requests));
  }
  engine::StepEstimate e;
  e.stages.push_back({step.stage.value_or(0), units::Seconds{values_.seconds_per_step + slowest}});
  return e;
}

engine::TransferDemand Environment::transfer_demand(const engine::plan::PoolPlan&, const engine::plan::Transfer& m) const {
  if (!m.tokens) throw ContractError("conformance environment: transfer_demand: tokens is not stated");
  if (!m.bytes_per_token) throw ContractError("conformance environment: transfer_demand: bytes_per_token is not stated");
  if (!m.source || !m.destination) throw ContractError("conformance environment: transfer_demand: source and destination are both needed");
  const std::int64_t a = m.source->node.value_or(0), b = m.destination->node.value_or(0);
  const std::string link = a == b ? "node" + std::to_string(a) + ":" + mem_name(m.source->memory) + "->" + mem_name(m.destination->memory)
                                  : "node" + std::to_string(a) + "->" + std::to_string(b);
  engine::TransferDemand d;
  d.bytes_per_link.emplace(link, units::Bytes{m.tokens->value() * m.bytes_per_token->value()});
  return d;
}

schema::AcceptanceProfileProfile Environment::acceptance(std::string_view model, std::string_view drafter,
                                                         std::string_view workload) const {
  auto it = profiles_.find({std::string(model), std::string(drafter), std::string(workload)});
  if (it == profiles_.end())
    throw ContractError("conformance environment: acceptance: no profile for model '" + std::string(model) + "', drafter '" +
                        std::string(drafter) + "', workload '" + std::string(workload) + "' was given by the test");
  return it->second;
}

}  // namespace blis::conformance
