// Original to BLIS: the production Environment on the embedded data (one H100-SXM node of 8 GPUs), for tests
// that build engines through the registry (tests/vllm/engine, tests/sglang/engine, tests/sim's plan-difference
// trace), and the one-scalar document node their engine arguments are written with.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "contracts/doc/node.h"
#include "data/loader.h"
#include "data/validators.h"
#include "sim/environment.h"
#include "sim/wiring/cluster.h"

namespace blis::test_support {

inline const data::DataSet& embedded() {
  static const data::DataSet d = [] {
    data::LoadOutcome out = data::load({}, data::standard_validators());
    if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
    return std::move(*out.data);
  }();
  return d;
}

inline const sim::SubstrateEnvironment& environment() {
  static const sim::SubstrateEnvironment env = [] {
    schema::ScenarioCluster c;
    c.chip = "H100-SXM";
    c.nodes = units::Count{1};
    c.gpus_per_node = units::Count{8};
    return sim::SubstrateEnvironment(embedded(), sim::cluster_topology(c, embedded()));
  }();
  return env;
}

inline doc::Node scalar(std::string s) {
  doc::Node n;
  n.kind = doc::Kind::Scalar;
  n.scalar = std::move(s);
  return n;
}

}  // namespace blis::test_support
