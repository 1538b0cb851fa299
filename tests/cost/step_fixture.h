// The step tests' fixtures: the documents under tests/cost/fixtures/step/ and the embedded data.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cost_data.h"
#include "schema/pool-plan.h"
#include "schema/step-shape.h"

namespace blis::cost::testing {

inline std::string step_fixture_path(const std::string& name) { return source_root() + "/tests/cost/fixtures/step/" + name; }

template <class T, class Load>
T load_step_doc(const std::string& name, Load load) {
  const std::string path = step_fixture_path(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  doc::Diagnostics d{path};
  auto v = load(s.str(), path, d);
  if (!v) throw std::runtime_error(path + ": refused:\n" + d.str());
  return *v;
}

// The embedded registry's coefficients, read once per test program.
inline const Coefficients& embedded_coefficients() {
  static const data::DataSet data = load_data();
  static const Coefficients c = coefficients(data);
  return c;
}

inline schema::PoolPlan plan_fixture(const std::string& name) { return load_step_doc<schema::PoolPlan>(name, schema::load_pool_plan); }
inline schema::StepShape step_fixture(const std::string& name) { return load_step_doc<schema::StepShape>(name, schema::load_step_shape); }

}  // namespace blis::cost::testing
