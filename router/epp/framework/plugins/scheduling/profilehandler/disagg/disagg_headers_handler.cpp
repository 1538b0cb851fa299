// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099; tracing is
// not ported.
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.h"

#include <vector>

#include "router/common/routing/common.h"
#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.go@71f4f099 HeadersHandlerFactory
std::shared_ptr<fwkplugin::Plugin> HeadersHandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                         fwkplugin::Handle&) {
  std::string prefillProfile = defaultPrefillProfile;
  std::string encodeProfile = defaultEncodeProfile;
  try {
    fwkplugin::StrictObject obj(parameters, "disagg.disaggHeadersHandlerParameters");
    obj.Field("prefillProfile", prefillProfile);
    obj.Field("encodeProfile", encodeProfile);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") + DisaggHeadersHandlerType +
                                 "' pre-request plugin - " + e.what());
  }
  return NewHeadersHandler(prefillProfile, encodeProfile)->WithName(name);
}

// Original to BLIS: the PreRequest body of disagg_headers_handler.go@71f4f099 HeadersHandler.PreRequest
// (identical to disagg_profile_handler.go@71f4f099 Handler.PreRequest).
void setDisaggregationHeaders(fwksched::InferenceRequest* request, const fwksched::SchedulingResult* schedulingResult,
                              const std::string& prefillProfile, const std::string& encodeProfile) {
  if (request == nullptr || schedulingResult == nullptr) return;

  // Prefill header: cleared, then the first prefill target's <ip:port>.
  request->Headers.erase(routing::PrefillEndpointHeader);
  auto prefill = schedulingResult->ProfileResults.find(prefillProfile);
  if (prefill != schedulingResult->ProfileResults.end() && prefill->second != nullptr &&
      !prefill->second->TargetEndpoints.empty()) {
    const fwkdl::EndpointMetadata* targetPod = prefill->second->TargetEndpoints[0]->GetMetadata();
    request->Headers[routing::PrefillEndpointHeader] = routing::JoinHostPort(targetPod->Address, targetPod->Port);
  }

  // Encode header: cleared, then every encode target's <ip:port>, comma-separated.
  request->Headers.erase(routing::EncoderEndpointsHeader);
  auto encode = schedulingResult->ProfileResults.find(encodeProfile);
  if (encode == schedulingResult->ProfileResults.end() || encode->second == nullptr) return;
  std::string encodeHostPorts;
  for (const fwksched::EndpointPtr& endpoint : encode->second->TargetEndpoints) {
    const fwkdl::EndpointMetadata* target = endpoint->GetMetadata();
    if (!encodeHostPorts.empty()) encodeHostPorts += ",";
    encodeHostPorts += routing::JoinHostPort(target->Address, target->Port);
  }
  if (encode->second->TargetEndpoints.empty()) return;
  request->Headers[routing::EncoderEndpointsHeader] = encodeHostPorts;
}

}  // namespace blis::router::disagg
