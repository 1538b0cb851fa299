// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099;
// the factory takes decoded Config (JSON decoding is the config loader's); logging is not ported; the
// multicluster variant (multicluster.go) is refused by name; no Go context.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::prefix {

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Config
struct Config {
  // The name of the data producer that produces PrefixCacheMatchInfo ("" for the default producer).
  std::string PrefixMatchInfoProducerName;
  // The weight assigned to match length, between 0.0 and 1.0.
  double MatchLengthWeight = 0.0;
  // Normalization factor for match length in terms of tokens; used only when MatchLengthWeight > 0.
  int MatchLengthScaleTokens = 0;
};

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 PrefixCacheScorerPluginType
inline constexpr const char* PrefixCacheScorerPluginType = "prefix-cache-scorer";
// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 defaultMatchLengthWeight
inline constexpr double defaultMatchLengthWeight = 0.0;
// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 defaultMatchLengthScaleTokens
inline constexpr int defaultMatchLengthScaleTokens = 8192;
// pkg/epp/framework/plugins/scheduling/scorer/prefix/multicluster.go@71f4f099 MultiClusterScorerType (refused)
inline constexpr const char* MultiClusterScorerType = "multicluster-prefix-cache-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin
// Scores endpoints by the share of the request's prefix blocks they have cached, read from the
// PrefixCacheMatchInfo attribute the approximate prefix producer writes on each endpoint.
class Plugin final : public fwksched::Scorer, public fwkplugin::ProducerPlugin, public fwkplugin::ConsumerPlugin {
 public:
  Plugin(const std::string& name, const std::string& producerName);

  // pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Category (Affinity)
  fwksched::ScorerCategory Category() const override { return fwksched::Affinity; }
  // pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Score
  // Every endpoint gets a score: 0 when its attribute is missing, of another type, or has 0 total blocks.
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) override;

  // pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Produces
  // Nothing (an empty map).
  fwkplugin::DataKeyTypes Produces() const override { return {}; }
  // pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Consumes
  // Required: the prefix match info key it reads.
  fwkplugin::DataDependencies Consumes() const override;

  // The attribute key this scorer reads (Go's prefixMatchDataKey).
  const fwkplugin::DataKey& prefixMatchDataKey() const { return prefixMatchDataKey_; }

  // Go's unexported fields, which upstream's in-package tests set and read.
  double matchLengthWeight = 0.0;
  int matchLengthScaleTokens = 0;

 private:
  fwkplugin::TypedName typedName_;
  fwkplugin::DataKey prefixMatchDataKey_;
};

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 New
std::shared_ptr<Plugin> New(const std::string& name, const std::string& producerName);

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 PrefixCachePluginFactory
// parameters: the decoded Config (std::nullopt for Go's nil decoder: the defaults). Throws
// std::invalid_argument with upstream's error text for an out-of-range weight or scale.
std::shared_ptr<Plugin> PrefixCachePluginFactory(const std::string& name, const std::optional<Config>& parameters);

// The decoded Config with upstream's defaults (Go: the cfg the factory decodes into).
Config DefaultConfig();

// pkg/epp/framework/plugins/scheduling/scorer/prefix/multicluster.go@71f4f099 (the factory of
// MultiClusterScorerType): always throws std::invalid_argument, the cluster-scoped variant is not modelled.
[[noreturn]] void MultiClusterPrefixCacheScorerFactory(const std::string& name);

}  // namespace blis::router::prefix
