#include "contracts/engine/engine.h"

#include <utility>

#include "contracts/doc/diagnostics.h"

namespace blis::engine {

namespace {

std::string quoted(const EngineKey& key) { return "{kind '" + key.kind + "', version '" + key.version + "'}"; }

std::string registered(const std::map<EngineKey, EngineFactory>& factories) {
  if (factories.empty()) return "none";
  std::string out;
  for (const auto& [k, f] : factories) out += (out.empty() ? "" : ", ") + to_string(k);
  return out;
}

}  // namespace

std::string to_string(const EngineKey& key) { return key.kind + " " + key.version; }

void EngineRegistry::add(EngineKey key, EngineFactory factory) {
  if (key.kind.empty() || key.version.empty())
    throw ContractError("engine registry: refused " + quoted(key) + ": kind and version must both be stated");
  if (!factory) throw ContractError("engine registry: refused " + quoted(key) + ": the factory is empty");
  if (factories_.contains(key))
    throw ContractError("engine registry: " + quoted(key) +
                        " is already registered: a kind registers one factory per release (SIM-1)");
  factories_.emplace(std::move(key), std::move(factory));
}

const EngineFactory& EngineRegistry::factory(const EngineKey& key) const {
  if (auto it = factories_.find(key); it != factories_.end()) return it->second;
  std::string releases;
  for (const auto& [k, f] : factories_)
    if (k.kind == key.kind) releases += (releases.empty() ? "" : ", ") + k.version;
  std::string why = releases.empty() ? "no engine of kind '" + key.kind + "' is registered"
                                     : "this build runs " + key.kind + " at release " + releases + " only";
  throw ContractError("engine registry: unknown engine " + quoted(key) + ": " + why +
                      " (registered: " + registered(factories_) + ")");
}

std::vector<EngineKey> EngineRegistry::keys() const {
  std::vector<EngineKey> out;
  out.reserve(factories_.size());
  for (const auto& [k, f] : factories_) out.push_back(k);
  return out;
}

std::unique_ptr<Engine> build_engine(const EngineRegistry& registry, const Spec& spec, const Environment& env) {
  const EngineKey key = spec.key();
  const std::string who = "engine " + to_string(key) + " (pool '" + spec.pool + "')";
  std::unique_ptr<Engine> engine = registry.factory(key)(spec, env);
  if (!engine) throw ContractError(who + ": the factory returned no engine");

  // Phase 1 done: the partial plan.
  const plan::PoolPlan& partial = engine->plan();
  if (partial.kv_budget)
    throw ContractError(who + ": the partial plan already states kv_budget; the budget is filled only after "
                        "the environment has sized the plan's memory (design §6.3)");
  if (!partial.profiling_step)
    throw ContractError(who + ": the partial plan states no profiling_step, so its activation memory cannot "
                        "be sized (design §6.3)");

  // Phase 2: size the memory, then the engine's own budget rule.
  const MemoryBreakdown memory = env.memory(partial);
  engine->fill_budget(memory);

  const plan::PoolPlan& whole = engine->plan();
  if (!whole.kv_budget) throw ContractError(who + ": fill_budget left kv_budget unstated");
  const std::int64_t stages = whole.layout && whole.layout->pp ? whole.layout->pp->value() : 1;
  if (static_cast<std::int64_t>(whole.kv_budget->size()) != stages)
    throw ContractError(who + ": kv_budget states " + std::to_string(whole.kv_budget->size()) +
                        " value(s), but the plan has " + std::to_string(stages) +
                        " pipeline stage(s) (layout.pp): one value per stage");
  doc::Diagnostics d{"plan of " + who};
  schema::validate(whole, "", d);
  if (!d.ok()) throw ContractError(who + ": the plan breaks the pool-plan schema:\n" + d.str());
  return engine;
}

}  // namespace blis::engine
