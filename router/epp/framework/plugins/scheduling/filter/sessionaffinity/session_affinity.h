// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099,
// encoded_endpoint_header.go@71f4f099 and session_id_header.go@71f4f099 (all of them but logging; no Go context);
// multicluster.go@71f4f099 (the multicluster-session-affinity-filter) is not ported: its factory refuses.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/header.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.h"

// Namespace sessionaffinityfilter: the name cmd/epp/runner/runner.go@71f4f099 imports this package under (the
// scorer's package and the util package are also named sessionaffinity).
namespace blis::router::sessionaffinityfilter {

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinityType
inline constexpr const char* SessionAffinityType = "session-affinity-filter";
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 StrategyEncodedEndpointHeader
// Echoes the picked pod back to the client, which resends it on subsequent requests.
inline constexpr const char* StrategyEncodedEndpointHeader = "encoded_endpoint_header";
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 StrategySessionID
// Maps an opaque client-supplied session identifier, from a header or request attribute, to a pod.
inline constexpr const char* StrategySessionID = "session_id";
// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/multicluster.go@71f4f099 MultiClusterFilterType
inline constexpr const char* MultiClusterFilterType = "multicluster-session-affinity-filter";

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 parameters
struct parameters {
  // StrategyEncodedEndpointHeader (the default) or StrategySessionID; only the matching config is used.
  std::string Strategy;
  sessionutil::EncodedEndpointHeaderConfig EncodedEndpointHeaderConfig;
  sessionutil::SessionIDConfig SessionIDConfig;
  // Which pod of the SchedulingResult this instance pins; empty: the primary (decode) pod.
  std::string ProfileName;

  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 parameters.applyDefaults
  void applyDefaults();
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 parameters.validate
  // The Go error's text, std::nullopt for nil.
  std::optional<std::string> validate() const;
};

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 defaultParameters
parameters defaultParameters();

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 strategy
// How a session's candidate set is filtered, how a fresh pick is recorded, what is written back to the client.
class strategy {
 public:
  virtual ~strategy() = default;
  virtual std::vector<fwksched::EndpointPtr> filter(const fwksched::InferenceRequest* request,
                                                    const std::vector<fwksched::EndpointPtr>& endpoints) = 0;
  virtual void preRequest(const fwksched::InferenceRequest* request,
                          const fwksched::SchedulingResult* schedulingResult) = 0;
  virtual void responseHeader(const fwksched::InferenceRequest* request, requestcontrol::Response* response,
                              const fwkdl::EndpointMetadata* targetPod) = 0;
};

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy
// Stateless: pins to the pod the client-supplied base64 token names when it is a candidate.
class encodedEndpointHeaderStrategy final : public strategy {
 public:
  encodedEndpointHeaderStrategy(std::string sessionHeader, std::string profileName)
      : sessionHeader_(std::move(sessionHeader)), profileName_(std::move(profileName)) {}
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.filter
  // The session's pod alone when it is a candidate (the first match), otherwise all candidates. A nullptr
  // request or candidate metadata (nil dereferences upstream) is refused with std::invalid_argument.
  std::vector<fwksched::EndpointPtr> filter(const fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.preRequest
  void preRequest(const fwksched::InferenceRequest*, const fwksched::SchedulingResult*) override {}
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 encodedEndpointHeaderStrategy.responseHeader
  void responseHeader(const fwksched::InferenceRequest* request, requestcontrol::Response* response,
                      const fwkdl::EndpointMetadata* targetPod) override;

 private:
  std::string sessionHeader_;
  std::string profileName_;
};

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/encoded_endpoint_header.go@71f4f099 newEncodedEndpointHeaderStrategy
std::unique_ptr<strategy> newEncodedEndpointHeaderStrategy(const parameters& params);

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy
// Filters the candidates to the session's pinned pod, over the shared sessionutil::SessionIDHeader (Go embeds
// it; here it is a member, reached through header()).
class sessionIDHeaderStrategy final : public strategy {
 public:
  explicit sessionIDHeaderStrategy(std::unique_ptr<sessionutil::SessionIDHeader> header)
      : header_(std::move(header)) {}
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy.filter
  // The pinned pod alone when it is a candidate, otherwise all candidates (never empties a non-empty set).
  std::vector<fwksched::EndpointPtr> filter(const fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy.preRequest
  void preRequest(const fwksched::InferenceRequest* request,
                  const fwksched::SchedulingResult* schedulingResult) override {
    header_->PreRequest(request, schedulingResult);
  }
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 sessionIDHeaderStrategy.responseHeader
  void responseHeader(const fwksched::InferenceRequest* request, requestcontrol::Response* response,
                      const fwkdl::EndpointMetadata* targetPod) override {
    header_->ResponseHeader(request, response, targetPod);
  }
  sessionutil::SessionIDHeader& header() { return *header_; }

 private:
  std::unique_ptr<sessionutil::SessionIDHeader> header_;
};

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_id_header.go@71f4f099 newSessionIDHeaderStrategy
std::unique_ptr<strategy> newSessionIDHeaderStrategy(const parameters& params, fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 newStrategy
std::unique_ptr<strategy> newStrategy(const parameters& params, fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinity
// A filter pinning a session's requests to the pod its first request went to, per its strategy. Also a
// PreRequest plugin (records the pick) and a ResponseHeaderProcessor (writes the session header back).
class SessionAffinity final : public fwksched::FilterPlugin,
                              public requestcontrol::PreRequestPlugin,
                              public requestcontrol::ResponseHeaderProcessor {
 public:
  SessionAffinity(const std::string& name, std::unique_ptr<strategy> s)
      : typedName_{SessionAffinityType, name}, strategy_(std::move(s)) {}

  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinity.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinity.Filter
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override {
    return strategy_->filter(request, endpoints);
  }
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinity.PreRequest
  // Records the picked pod for the session (always nil error).
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* schedulingResult) override {
    strategy_->preRequest(request, schedulingResult);
    return std::nullopt;
  }
  // pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 SessionAffinity.ResponseHeader
  void ResponseHeader(fwksched::InferenceRequest* request, requestcontrol::Response* response,
                      const fwkdl::EndpointMetadata* targetEndpoint) override {
    strategy_->responseHeader(request, response, targetEndpoint);
  }

 private:
  fwkplugin::TypedName typedName_;
  std::unique_ptr<strategy> strategy_;
};

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 NewSessionAffinity
// A filter using encoded_endpoint_header; an empty sessionHeader means x-session-token.
std::shared_ptr<SessionAffinity> NewSessionAffinity(const std::string& name, const std::string& sessionHeader,
                                                    const std::string& profileName);

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/session_affinity.go@71f4f099 Factory
// Throws fwkplugin::PluginError with upstream's text for undecodable or invalid parameters.
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/filter/sessionaffinity/multicluster.go@71f4f099 MultiClusterFactory
// Not ported: always throws std::invalid_argument naming multicluster-session-affinity-filter (cluster
// identity from multi-cluster discovery is not modelled).
std::shared_ptr<fwkplugin::Plugin> MultiClusterFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                       fwkplugin::Handle& handle);

}  // namespace blis::router::sessionaffinityfilter
