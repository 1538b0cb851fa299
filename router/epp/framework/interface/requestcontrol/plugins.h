// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099; the
// extension-point names and the PreRequest, ResponseHeaderProcessor, ResponseBodyProcessor and DataProducer
// interfaces (PreRequest is PreRequestPlugin; Screener, Admitter, RequestHeaderProcessor and TimeoutAwareProducer are not ported: no ported
// plugin implements them; DataProducer does not embed ProducerPlugin, whose data-layer DAG is not modelled).
// Go interfaces become abstract classes deriving virtually from fwkplugin::Plugin; no Go context; a Go error
// result becomes std::optional<fwksched::GoError> (std::nullopt is nil).
#pragma once

#include <optional>
#include <vector>

#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/requestcontrol/types.h"
#include "router/epp/framework/interface/scheduling/errors.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::requestcontrol {

// pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099 the extension-point names
inline constexpr const char* RequestHeaderExtensionPoint = "RequestHeader";
inline constexpr const char* ScreenerExtensionPoint = "Screener";
inline constexpr const char* AdmissionExtensionPoint = "Admission";
inline constexpr const char* DataProducerExtensionPoint = "DataProducer";
inline constexpr const char* PreRequestExtensionPoint = "PreRequest";
inline constexpr const char* ResponseReceivedExtensionPoint = "ResponseReceived";
inline constexpr const char* ResponseStreamingExtensionPoint = "ResponseStreaming";
inline constexpr const char* ResponseCompleteExtensionPoint = "ResponseComplete";

// pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099 PreRequest
// Named PreRequestPlugin: C++ cannot give a class a member function of its own name (as fwksched's
// FilterPlugin). Called by the director after scheduling returned a result and before the request is sent to the selected
// model server. Side effects published here must be cleaned up by ResponseBody, which the director also
// invokes (with EndOfStream) on abort for every request that picked an endpoint.
class PreRequestPlugin : public virtual fwkplugin::Plugin {
 public:
  virtual std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                                      fwksched::SchedulingResult* schedulingResult) = 0;
};

// pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099 ResponseHeaderProcessor
// Called after the response headers are received (the beginning of the response).
class ResponseHeaderProcessor : public virtual fwkplugin::Plugin {
 public:
  virtual void ResponseHeader(fwksched::InferenceRequest* request, Response* response,
                              const fwkdl::EndpointMetadata* targetEndpoint) = 0;
};

// pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099 ResponseBodyProcessor
// Called for every chunk of a streamed response, or once for a non-streamed one; the call with
// response->EndOfStream == true is the final lifecycle hook.
class ResponseBodyProcessor : public virtual fwkplugin::Plugin {
 public:
  virtual void ResponseBody(fwksched::InferenceRequest* request, Response* response,
                            const fwkdl::EndpointMetadata* targetEndpoint) = 0;
};

// pkg/epp/framework/interface/requestcontrol/plugins.go@71f4f099 DataProducer
// Produce is called by the director before scheduling the request.
class DataProducer : public virtual fwkplugin::Plugin {
 public:
  virtual std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest* request,
                                                   const std::vector<fwksched::EndpointPtr>& pods) = 0;
};

}  // namespace blis::router::requestcontrol
