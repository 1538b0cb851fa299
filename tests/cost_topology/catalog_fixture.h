// The embedded catalog and the clusters the topology tests build on (SUB-17).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cost/topology/topology.h"
#include "data/loader.h"
#include "data/validators.h"

namespace blis::cost::testing {

inline data::DataSet load_catalog(data::LoadOptions options = {}) {
  data::LoadOutcome out = data::load(options, data::standard_validators());
  if (!out.ok()) throw std::runtime_error(out.diagnostics.text());
  return *out.data;
}

inline const data::DataSet& catalog() {
  static const data::DataSet data = load_catalog();
  return data;
}

inline SwitchGroupSpec group(std::string name, std::vector<std::int64_t> nodes, double oversubscription = 1.0) {
  return SwitchGroupSpec{std::move(name), std::move(nodes), oversubscription};
}

inline std::vector<std::int64_t> iota(std::int64_t from, std::int64_t to) {  // [from, to)
  std::vector<std::int64_t> v;
  for (std::int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

}  // namespace blis::cost::testing
