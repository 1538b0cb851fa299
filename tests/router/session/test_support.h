// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: test support shared by the session-affinity tests: the helpers of the pinned
// util/sessionaffinity/session_id_test.go, filter/sessionaffinity/session_id_header_test.go and
// scorer/sessionaffinity/session_id_header_test.go (@71f4f099: newTestEndpoint, podKey, requestWithSession,
// schedulingResultFor), and a Handle over a runtime whose simulated clock the test sets (utils.NewTestHandle
// upstream) and which refuses random draws (none of these plugins draws).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::sessiontest {

// A runtime whose simulated time the test sets; random streams are refused.
class ManualRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return now; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
  std::int64_t now = 0;
};

// utils.NewTestHandle(utils.NewTestContext(t)): a handle over a ManualRuntime.
struct TestHandle {
  ManualRuntime runtime;
  fwkplugin::Handle handle{runtime};
  void setSeconds(double s) { runtime.now = static_cast<std::int64_t>(s * 1e6); }
};

// newTestEndpoint: an endpoint whose ID is {Namespace: namespace_, Name: name} with empty metrics.
inline fwksched::EndpointPtr newTestEndpoint(const std::string& name, const std::string& namespace_ = "") {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{namespace_, name};
  return fwksched::NewEndpoint(meta, fwkdl::Metrics{});
}

// podKey: NamespacedName{Name: name}.String() ("/" + name).
inline std::string podKey(const std::string& name) { return fwkdl::NamespacedName{"", name}.String(); }

// requestWithSession: RequestID "req-<id>", the session id in header `header`.
inline fwksched::InferenceRequest requestWithSession(const std::string& sessionID, const std::string& header) {
  fwksched::InferenceRequest r;
  r.RequestID = "req-" + sessionID;
  r.Headers[header] = sessionID;
  return r;
}

// schedulingResultFor: the endpoint as the one target of the primary profile "default".
inline fwksched::SchedulingResult schedulingResultFor(const fwksched::EndpointPtr& endpoint) {
  fwksched::SchedulingResult r;
  r.PrimaryProfileName = "default";
  auto pr = std::make_shared<fwksched::ProfileRunResult>();
  pr->TargetEndpoints = {endpoint};
  r.ProfileResults["default"] = pr;
  return r;
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

}  // namespace blis::router::sessiontest
