// The Engine contract (design §6.3) and the engine registry keyed by {kind, version} (SIM-1).
//
// An engine is built in two phases, and build_engine() is the one place that runs them, in order:
//   1. Plan: the registered factory resolves the spec's configuration as the upstream does and lowers the
//      model into a partial PoolPlan: no kv_budget yet, but its profiling step shape and the graphs it
//      will capture, its resident weights and its buffers.
//   2. Budget: the environment sizes the partial plan's memory (Environment::memory), and the engine
//      applies its upstream's budget rule to that breakdown and fills kv_budget (Engine::fill_budget).
// Then the engine runs steps, asking Environment::price for each; the step and transfer interfaces come
// with the scheduler ports, each as a separate interface so that this one never gains a required
// function (SUB-1).
//
// Several kinds register factories into one registry in one binary: each engine directory offers a
// registration function, and the simulator's one build site calls them all (X3).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/environment.h"
#include "contracts/engine/errors.h"
#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "contracts/units.h"
#include "schema/deployment.h"

namespace blis::engine {

// Which engine port, at which upstream release (a deployment's `engine: {kind, version}`).
struct EngineKey {
  std::string kind;
  std::string version;
  friend auto operator<=>(const EngineKey&, const EngineKey&) = default;
};

// "kind version", as messages name a key.
std::string to_string(const EngineKey& key);

// What an engine is built from: the pool's engine block as the user wrote it, and what the real engine
// would learn from its environment (the hardware and where its GPUs sit, X1).
struct Spec {
  schema::DeploymentEngine engine;      // kind, version and the upstream's own args and env, verbatim
  std::string pool;                     // the pool's name in the deployment
  std::string chip;                     // the catalog chip of the pool's GPUs
  std::optional<std::string> fabric;    // the catalog network between nodes; absent on one node
  units::Count nodes{};                 // nodes one instance may span
  units::CountPerNode gpus_per_node{};  // GPUs an instance may use on each node

  EngineKey key() const { return EngineKey{engine.kind, engine.version}; }
};

class Engine {
 public:
  virtual ~Engine() = default;

  // The pool's plan: the partial plan after phase 1, the whole plan once build_engine() returns. A plan
  // against which transfers are priced is this one (the design's engine.Planned).
  virtual const plan::PoolPlan& plan() const = 0;

  // Phase 2: apply the upstream's budget rule to the environment's breakdown of the partial plan and fill
  // kv_budget, one value per pipeline stage. Called once, by build_engine().
  virtual void fill_budget(const MemoryBreakdown& memory) = 0;
};

// Phase 1 for one kind at one release: resolves spec and lowers the model; the environment outlives the
// engine, which may keep a reference to it. Throws ContractError (or the upstream's own configuration
// error, by its upstream name, X1) when the spec cannot be served.
using EngineFactory = std::function<std::unique_ptr<Engine>(const Spec& spec, const Environment& env)>;

class EngineRegistry {
 public:
  // Registers the factory of one kind at one release. Refuses an empty kind or version, an empty factory
  // and a key already registered, naming the key.
  void add(EngineKey key, EngineFactory factory);

  // The factory of a key. Refuses a key not registered, naming it and every registered key; when the kind
  // is registered at another release, the message says which release this build runs (SIM-1).
  const EngineFactory& factory(const EngineKey& key) const;

  bool contains(const EngineKey& key) const { return factories_.contains(key); }

  // Every registered key, in (kind, version) order.
  std::vector<EngineKey> keys() const;

 private:
  std::map<EngineKey, EngineFactory> factories_;
};

// Builds the engine the spec names, running both phases in order and refusing, with ContractError naming
// the engine and the field, an engine that breaks them: no engine from the factory; a partial plan that
// already has kv_budget or lacks its profiling step; a finished plan without kv_budget, with a stage count
// other than layout.pp, or that breaks a rule of the pool-plan schema.
std::unique_ptr<Engine> build_engine(const EngineRegistry& registry, const Spec& spec, const Environment& env);

}  // namespace blis::engine
