// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099;
// all but logging; the exploration draw (Go's math/rand Float64) comes from the RandomStream the factory takes
// from handle.Context().stream("filter/<plugin name>"); no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "contracts/router/runtime.h"

namespace blis::router::prefixcacheaffinity {

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 PluginType
inline constexpr const char* PluginType = "prefix-cache-affinity-filter";

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 TTFTSource
using TTFTSource = std::string;
// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 TTFTSourceLatencyPredictor
inline constexpr const char* TTFTSourceLatencyPredictor = "latencyPredictor";
// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 TTFTSourcePrefillThroughput
inline constexpr const char* TTFTSourcePrefillThroughput = "prefillThroughput";

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Config
// (the member defaults are Go's zero values; DefaultConfig() holds upstream's defaults).
struct Config {
  double AffinityThreshold = 0;
  double ExplorationProbability = 0;
  double MaxTTFTPenaltyMs = 0;
  std::string TTFTSource;  // a prefixcacheaffinity::TTFTSource value
  double PeakPrefillThroughput = 0;
  std::string PrefixMatchInfoProducerName;
  std::string LatencyPredictionInfoProducerName;
  std::string InFlightLoadProducerName;

  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Config.validate
  // Throws fwkplugin::PluginError with upstream's text.
  void validate() const;
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Config.usesLatencyPredictor
  bool usesLatencyPredictor() const { return TTFTSource == TTFTSourceLatencyPredictor; }
};

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 DefaultConfig
Config DefaultConfig();

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin
// Narrows the candidates to the "sticky" ones (prefix-cache score >= AffinityThreshold), unless exploring
// (probability ExplorationProbability), none is sticky, or the best sticky endpoint's TTFT exceeds the best
// non-sticky one's by more than MaxTTFTPenaltyMs.
class Plugin final : public fwksched::FilterPlugin, public fwkplugin::ConsumerPlugin {
 public:
  // Builds the plugin with the data keys the config names (upstream's struct literal, as in its Factory and
  // tests). stream supplies the exploration draws and must outlive the plugin.
  Plugin(const std::string& name, const Config& config, RandomStream& stream);

  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.Filter
  // A prefix-cache attribute of another type (a panic in Go's type assertion) is refused with
  // std::invalid_argument; likewise a latency attribute on the predictor path.
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.Consumes
  // Required only (no Optional keys).
  fwkplugin::DataDependencies Consumes() const override;

  // Go's unexported fields.
  fwkplugin::TypedName typedName;
  Config config;
  fwkplugin::DataKey prefixMatchDataKey;
  fwkplugin::DataKey latencyPredictionInfoDataKey;
  fwkplugin::DataKey inFlightLoadDataKey;

 private:
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.prefixCacheScore
  double prefixCacheScore(const fwksched::Endpoint& ep) const;
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.bestTTFT
  double bestTTFT(const std::vector<fwksched::EndpointPtr>& endpoints) const;
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.endpointTTFT
  double endpointTTFT(const fwksched::Endpoint& ep) const;
  // pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.inFlightTokens
  std::int64_t inFlightTokens(const fwksched::Endpoint& ep) const;

  RandomStream* stream_;
};

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters rawParameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::prefixcacheaffinity
