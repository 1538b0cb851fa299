// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099
// see session_affinity.h.
#include "router/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.h"

#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/params_json.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/strings.h"

namespace blis::router::sessionaffinity {

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 defaultParameters
parameters defaultParameters() {
  parameters p;
  p.Strategy = StrategyEncodedEndpointHeader;
  return p;
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 parameters.applyDefaults
void parameters::applyDefaults() {
  if (Strategy == StrategyEncodedEndpointHeader) {
    EncodedEndpointHeaderConfig.ApplyDefaults();
  } else if (Strategy == StrategySessionID) {
    SessionIDConfig.ApplyDefaults();
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 parameters.validate
// (Go's %q: sessionutil::QuoteGo.)
std::optional<std::string> parameters::validate() const {
  if (Strategy == StrategyEncodedEndpointHeader) return std::nullopt;
  if (Strategy == StrategySessionID) return SessionIDConfig.Validate();
  return "strategy must be \"" + std::string(StrategyEncodedEndpointHeader) + "\" or \"" +
         std::string(StrategySessionID) + "\", got " + sessionutil::QuoteGo(Strategy);
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle) {
  auto params = defaultParameters();
  try {
    sessionutil::DecodeStrategyParameters(
        parameters, "sessionaffinity.parameters",
        {&params.Strategy, &params.EncodedEndpointHeaderConfig, &params.SessionIDConfig, &params.ProfileName});
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + std::string(SessionAffinityType) +
                                 "' scorer - " + e.what());
  }
  params.applyDefaults();
  if (auto err = params.validate()) {
    throw fwkplugin::PluginError("invalid parameters of the '" + std::string(SessionAffinityType) +
                                 "' scorer - " + *err);
  }
  return std::make_shared<SessionAffinity>(name, newStrategy(params, handle));
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 NewSessionAffinity
std::shared_ptr<SessionAffinity> NewSessionAffinity(const std::string& name, const std::string& sessionHeader,
                                                    const std::string& profileName) {
  return std::make_shared<SessionAffinity>(
      name, std::make_unique<encodedEndpointHeaderStrategy>(sessionutil::NormalizeHeader(sessionHeader), profileName));
}

// pkg/epp/framework/plugins/scheduling/scorer/sessionaffinity/session_affinity.go@71f4f099 newStrategy
std::unique_ptr<strategy> newStrategy(const parameters& params, fwkplugin::Handle& handle) {
  if (params.Strategy == StrategySessionID) return newSessionIDHeaderStrategy(params, handle);
  return newEncodedEndpointHeaderStrategy(params);
}

}  // namespace blis::router::sessionaffinity
