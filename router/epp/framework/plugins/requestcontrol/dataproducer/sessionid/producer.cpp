// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099;
// see producer.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.h"

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/session/data_types.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/strings.h"

namespace blis::router::sessionid {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Factory (the Producer it builds)
Producer::Producer(const std::string& name, std::string headerName, std::string cookieName)
    : typedName_{SessionIDProducerType, name},
      dk_(attrsession::SessionIDDataKey.WithNonEmptyProducerName(name)),
      headerName_(std::move(headerName)),
      cookieName_(std::move(cookieName)) {}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  Parameters params;
  try {
    fwkplugin::StrictObject obj(parameters, "sessionid.Parameters");
    obj.Field("headerName", params.HeaderName).Field("cookieName", params.CookieName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + std::string(SessionIDProducerType) +
                                 "' producer: " + e.what());
  }
  const std::string header = sessionutil::ToLower(sessionutil::TrimSpace(params.HeaderName));
  const std::string cookie = sessionutil::TrimSpace(params.CookieName);
  if (header.empty() && cookie.empty()) {
    throw fwkplugin::PluginError("'" + std::string(SessionIDProducerType) +
                                 "' requires exactly one of headerName or cookieName to be set");
  }
  if (!header.empty() && !cookie.empty()) {
    throw fwkplugin::PluginError("'" + std::string(SessionIDProducerType) +
                                 "' requires exactly one of headerName or cookieName to be set, not both");
  }
  return std::make_shared<Producer>(name, header, cookie);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.Produces
fwkplugin::DataKeyTypes Producer::Produces() const {
  return {{dk_, attrsession::SessionID{}}};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.Produce
std::optional<fwksched::GoError> Producer::Produce(fwksched::InferenceRequest* request,
                                                   const std::vector<fwksched::EndpointPtr>& /*endpoints*/) {
  if (request == nullptr) return std::nullopt;
  const std::string id = extract(request);
  if (id.empty()) return std::nullopt;
  request->PutAttribute(dk_.String(), attrsession::SessionID{id});
  return std::nullopt;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.extract
// (Go's nil Headers map is the empty map here: a missing header reads as "", as Go's nil-map read does.)
std::string Producer::extract(const fwksched::InferenceRequest* request) const {
  if (request == nullptr) return "";
  auto headerValue = [&](const std::string& key) -> std::string {
    auto it = request->Headers.find(key);
    return it == request->Headers.end() ? std::string() : it->second;
  };
  if (!headerName_.empty()) return sessionutil::TrimSpace(headerValue(headerName_));
  return sessionutil::TrimSpace(cookieValue(headerValue(cookieHeader), cookieName_));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 cookieValue
std::string cookieValue(const std::string& header, const std::string& name) {
  if (header.empty() || name.empty()) return "";
  std::size_t start = 0;
  while (true) {  // strings.SplitSeq(header, ";")
    const std::size_t end = header.find(';', start);
    const std::string pair =
        sessionutil::TrimSpace(header.substr(start, end == std::string::npos ? std::string::npos : end - start));
    const std::size_t eq = pair.find('=');  // strings.Cut(pair, "=")
    if (eq != std::string::npos && pair.substr(0, eq) == name) return pair.substr(eq + 1);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

}  // namespace blis::router::sessionid
