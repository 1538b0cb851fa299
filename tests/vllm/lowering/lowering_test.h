// Shared fixtures of the lowering tests: the embedded catalog and registry, the production Environment on
// one H100-SXM cluster, and the default configuration of a model on a chip.
#pragma once

#include <stdexcept>
#include <string>

#include "data/loader.h"
#include "data/validators.h"
#include "model_executor/lowering.h"
#include "sim/environment.h"
#include "sim/wiring/cluster.h"

namespace blis::vllm::test {

inline const data::DataSet& embedded() {
  static const data::DataSet d = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return std::move(*out.data);
  }();
  return d;
}

// Two H100-SXM nodes on InfiniBand-NDR (the cluster of tests/sim/environment_test.cpp).
inline schema::ScenarioCluster h100_cluster() {
  schema::ScenarioCluster c;
  c.chip = "H100-SXM";
  c.nodes = units::Count{2};
  c.gpus_per_node = units::Count{8};
  c.fabric = "InfiniBand-NDR";
  schema::ScenarioSwitchGroup a, b;
  a.name = "leaf-a";
  a.nodes = {0};
  a.uplink_oversubscription = units::Ratio{1.0};
  b.name = "leaf-b";
  b.nodes = {1};
  b.uplink_oversubscription = units::Ratio{1.0};
  c.switch_groups.emplace() = {a, b};
  return c;
}

inline const sim::SubstrateEnvironment& environment() {
  static const sim::SubstrateEnvironment env(embedded(), sim::cluster_topology(h100_cluster(), embedded()));
  return env;
}

inline LoweringConfig config(const std::string& model, const std::string& chip, std::int64_t tp = 1) {
  LoweringConfig c;
  c.model = model;
  c.chip = chip;
  c.tp = tp;
  return c;
}

inline const char* kLlama8B = "meta-llama/Meta-Llama-3.1-8B";

}  // namespace blis::vllm::test
