// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: test support shared by the scorer/filter tests: the createEndpoint helpers of the pinned
// bylabel, contextlengthaware and nohitlru _test.go files (@71f4f099), and a Handle over a runtime that
// refuses random draws (none of these plugins draws; upstream's tests pass a nil or fake handle).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::scorertest {

// A runtime at time 0 whose streams are refused: a plugin that drew would fail the test.
class NoDrawRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

// A handle for factory calls (Go's tests pass nil or a fake handle).
struct TestHandle {
  NoDrawRuntime runtime;
  fwkplugin::Handle handle{runtime};
};

// The createEndpoint helper of the bylabel and contextlengthaware tests: metadata with the ID, address and
// labels given, and metrics (an empty snapshot; contextlengthaware's helper passes nil metrics).
inline fwksched::EndpointPtr createEndpoint(const fwkdl::NamespacedName& nsn, const std::string& ipaddr,
                                            const std::map<std::string, std::string>& labels,
                                            bool withMetrics = true) {
  fwkdl::EndpointMetadata meta;
  meta.ID = nsn;
  meta.Address = ipaddr;
  meta.Labels = labels;
  return fwksched::NewEndpoint(meta, withMetrics ? std::optional<fwkdl::Metrics>(fwkdl::Metrics{}) : std::nullopt);
}

// The endpoints' ID names, in order.
inline std::vector<std::string> names(const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<std::string> out;
  for (const auto& e : endpoints) out.push_back(e->GetMetadata()->ID.Name);
  return out;
}

// testify's ElementsMatch on names: the same multiset.
inline bool elementsMatch(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace blis::router::scorertest
