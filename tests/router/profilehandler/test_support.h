// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: test support shared by the profile-handler tests: the createEndpoint /
// newMockProfileRunResult / mockSchedulerProfile helpers of the pinned dataparallel and disagg _test.go
// files (pkg/epp/framework/plugins/scheduling/profilehandler/dataparallel/dp_profile_handler_test.go@71f4f099,
// disagg/pd_profile_handler_test.go@71f4f099), and a Handle over a runtime that refuses random draws (none of
// these plugins draws).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::profiletest {

// A runtime at time 0 whose streams are refused: a plugin that drew would fail the test.
class NoDrawRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

// A handle for factory calls (Go's tests use plugin.NewEppHandle).
struct TestHandle {
  NoDrawRuntime runtime;
  fwkplugin::Handle handle{runtime};
};

// createEndpoint of the pinned tests: metadata with the ID, address, port and labels given, nil metrics
// and an empty attribute map.
inline fwksched::EndpointPtr createEndpoint(const fwkdl::NamespacedName& nsn, const std::string& ipaddr,
                                            const std::string& port,
                                            const std::map<std::string, std::string>& labels = {}) {
  fwkdl::EndpointMetadata meta;
  meta.ID = nsn;
  meta.Address = ipaddr;
  meta.Port = port;
  meta.Labels = labels;
  return fwksched::NewEndpoint(meta, std::nullopt, fwkdl::NewAttributes());
}

// newMockProfileRunResult / makeProfileRunResult of the pinned tests: one endpoint per name, at 10.0.0.<i+1>.
inline std::shared_ptr<fwksched::ProfileRunResult> newMockProfileRunResult(const std::string& port,
                                                                           const std::vector<std::string>& names) {
  auto r = std::make_shared<fwksched::ProfileRunResult>();
  for (std::size_t i = 0; i < names.size(); ++i) {
    r->TargetEndpoints.push_back(
        createEndpoint({"default", names[i]}, "10.0.0." + std::to_string(i + 1), port, {}));
  }
  return r;
}

// mockSchedulerProfile / mockProfile of the pinned tests: Run returns an empty result.
class mockSchedulerProfile final : public fwksched::SchedulerProfile {
 public:
  fwksched::Outcome<fwksched::ProfileRunResult> Run(fwksched::InferenceRequest*,
                                                    const std::vector<fwksched::EndpointPtr>&) override {
    return {std::make_shared<fwksched::ProfileRunResult>(), std::nullopt};
  }
};

// profileNames / getProfilesFromResult of the pinned tests, sorted (testify's ElementsMatch ignores order).
inline std::vector<std::string> profileNames(const fwksched::ProfileMap& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

// Sorted copy, to compare with profileNames.
inline std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace blis::router::profiletest
