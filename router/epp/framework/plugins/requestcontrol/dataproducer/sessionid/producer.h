// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099;
// all of it; no Go context.
#pragma once

#include <any>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/constants/constants.h"

namespace blis::router::sessionid {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 SessionIDProducerType
inline constexpr const char* SessionIDProducerType = sessionidconstants::SessionIDProducerType;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 cookieHeader
// The standard HTTP request header carrying cookies (request headers are lowercase).
inline constexpr const char* cookieHeader = "cookie";

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Parameters
// Exactly one of HeaderName or CookieName must be set.
struct Parameters {
  std::string HeaderName;
  std::string CookieName;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer
// Extracts a session identifier from each request (a header, or a named cookie of the "cookie" header) and
// publishes it as an attrsession::SessionID request attribute under SessionIDDataKey with the producer's
// instance name.
class Producer final : public requestcontrol::DataProducer, public fwkplugin::ProducerPlugin {
 public:
  Producer(const std::string& name, std::string headerName, std::string cookieName);

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.Produces
  // The SessionID attribute key written by this producer, with its zero value.
  fwkplugin::DataKeyTypes Produces() const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.Produce
  // A no-op for a nullptr request or when no identifier is found; never an error.
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest* request,
                                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  std::string extract(const fwksched::InferenceRequest* request) const;

  fwkplugin::TypedName typedName_;
  fwkplugin::DataKey dk_;
  std::string headerName_;
  std::string cookieName_;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 cookieValue
// The value of the named cookie within an HTTP Cookie header ("" when the header or name is empty or the
// cookie is absent): pairs separated by ';', each trimmed and cut at its first '='.
std::string cookieValue(const std::string& header, const std::string& name);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Factory
// Throws fwkplugin::PluginError with upstream's text when the parameters do not decode or name neither or
// both sources.
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::sessionid
