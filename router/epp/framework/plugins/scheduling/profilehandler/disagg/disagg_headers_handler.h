// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); tracing is not ported, no Go context.
#pragma once

#include <memory>
#include <string>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 DisaggHeadersHandlerType
// (deprecated upstream: disagg-profile-handler implements PreRequest natively)
inline constexpr const char* DisaggHeadersHandlerType = "disagg-headers-handler";
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 PrefillHeaderHandlerType
// (a deprecated alias of DisaggHeadersHandlerType)
inline constexpr const char* PrefillHeaderHandlerType = "prefill-header-handler";

// Original to BLIS: the PreRequest body that disagg_headers_handler.go@71f4f099 HeadersHandler.PreRequest and
// disagg_profile_handler.go@71f4f099 Handler.PreRequest both carry (upstream duplicates it): clears and
// sets routing::PrefillEndpointHeader to the first prefill target's <ip:port> and
// routing::EncoderEndpointsHeader to the comma-joined encode targets. A null request or result is a no-op.
void setDisaggregationHeaders(fwksched::InferenceRequest* request, const fwksched::SchedulingResult* schedulingResult,
                              const std::string& prefillProfile, const std::string& encodeProfile);

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandler
// A PreRequest plugin that sets the prefill and encode disaggregation headers (deprecated upstream).
class HeadersHandler final : public requestcontrol::PreRequestPlugin,
                             public std::enable_shared_from_this<HeadersHandler> {
 public:
  HeadersHandler(std::string prefillProfile, std::string encodeProfile)
      : typedName_{DisaggHeadersHandlerType, ""},
        prefillProfile_(std::move(prefillProfile)),
        encodeProfile_(std::move(encodeProfile)) {}

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandler.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandler.WithName
  std::shared_ptr<HeadersHandler> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandler.PreRequest
  // Upstream's error is always nil.
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* schedulingResult) override {
    setDisaggregationHeaders(request, schedulingResult, prefillProfile_, encodeProfile_);
    return std::nullopt;
  }

  // Go's unexported fields, which upstream's tests read in-package.
  const std::string& prefillProfile() const { return prefillProfile_; }
  const std::string& encodeProfile() const { return encodeProfile_; }

 private:
  fwkplugin::TypedName typedName_;
  std::string prefillProfile_;
  std::string encodeProfile_;
};

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 NewHeadersHandler
inline std::shared_ptr<HeadersHandler> NewHeadersHandler(const std::string& prefillProfile,
                                                         const std::string& encodeProfile) {
  return std::make_shared<HeadersHandler>(prefillProfile, encodeProfile);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandlerFactory
std::shared_ptr<fwkplugin::Plugin> HeadersHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                         fwkplugin::Handle& handle);

}  // namespace blis::router::disagg
