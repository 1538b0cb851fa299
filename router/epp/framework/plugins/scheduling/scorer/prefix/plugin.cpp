// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099;
// see plugin.h.
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::prefix {
namespace {

// Original to BLIS: Go's %f (six digits after the point) for the factory's error text.
std::string formatF(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%f", v);
  return buf;
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 New (the fields it sets)
Plugin::Plugin(const std::string& name, const std::string& producerName)
    : typedName_{PrefixCacheScorerPluginType, name},
      prefixMatchDataKey_(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producerName)) {}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 New
std::shared_ptr<Plugin> New(const std::string& name, const std::string& producerName) {
  return std::make_shared<Plugin>(name, producerName);
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 PrefixCachePluginFactory (the cfg
// defaults it decodes into)
Config DefaultConfig() {
  Config cfg;
  cfg.MatchLengthWeight = defaultMatchLengthWeight;
  cfg.MatchLengthScaleTokens = defaultMatchLengthScaleTokens;
  return cfg;
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 PrefixCachePluginFactory
std::shared_ptr<Plugin> PrefixCachePluginFactory(const std::string& name, const std::optional<Config>& parameters) {
  const Config cfg = parameters.value_or(DefaultConfig());
  std::shared_ptr<Plugin> p = New(name, cfg.PrefixMatchInfoProducerName);
  if (cfg.MatchLengthWeight < 0.0 || cfg.MatchLengthWeight > 1.0) {
    throw std::invalid_argument("matchLengthWeight must be between 0.0 and 1.0, got " + formatF(cfg.MatchLengthWeight));
  }
  p->matchLengthWeight = cfg.MatchLengthWeight;
  if (p->matchLengthWeight > 0.0 && cfg.MatchLengthScaleTokens <= 0) {
    throw std::invalid_argument(
        "matchLengthScaleTokens must be greater than 0 when matchLengthWeight is greater than 0, got " +
        std::to_string(cfg.MatchLengthScaleTokens));
  }
  p->matchLengthScaleTokens = cfg.MatchLengthScaleTokens;
  return p;
}

// Original to BLIS: the refusal of multicluster.go's cluster-scoped scorer (not modelled).
void MultiClusterPrefixCacheScorerFactory(const std::string& name) {
  throw std::invalid_argument(std::string(MultiClusterScorerType) + " (" + name +
                              ") is not modelled by this port: the cluster-scoped scorer reads per-cluster match info "
                              "of multicluster endpoints, which the simulator does not model");
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Score
fwksched::ScoreMap Plugin::Score(fwksched::InferenceRequest* /*request*/,
                                 const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::ScoreMap scores;
  const std::string key = prefixMatchDataKey_.String();
  for (const fwksched::EndpointPtr& endpoint : endpoints) {
    // Default to score 0 if PrefixCacheMatchInfo is missing or invalid.
    scores[endpoint] = 0.0;
    const fwkdl::CloneablePtr info = endpoint->Get(key);
    if (info == nullptr) continue;  // PrefixCacheMatchInfo not found for endpoint
    const auto prefixMatchInfo = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(info);
    if (prefixMatchInfo == nullptr) continue;  // PrefixCacheMatchInfo has unexpected type

    const int matchBlocks = prefixMatchInfo->MatchBlocks();
    const int totalBlocks = prefixMatchInfo->TotalBlocks();
    if (totalBlocks == 0) continue;  // totalBlocks is set to 0

    const double matchRatioScore = static_cast<double>(matchBlocks) / static_cast<double>(totalBlocks);
    const int blockSize = prefixMatchInfo->BlockSizeTokens();
    double matchLengthScore = 0.0;
    // Calculate matchLengthScore when match length is considered.
    if (matchLengthWeight > 0.0 && blockSize > 0) {
      // (matchBlocks * blockSize / matchLengthScaleTokens) ^ 2
      const double normalizedMatchLength =
          std::min(1.0, static_cast<double>(matchBlocks) * static_cast<double>(blockSize) /
                            static_cast<double>(matchLengthScaleTokens));
      matchLengthScore = normalizedMatchLength * normalizedMatchLength;
    }
    const double weighted = matchLengthWeight * matchLengthScore;
    const double ratio = (1.0 - matchLengthWeight) * matchRatioScore;
    scores[endpoint] += weighted + ratio;
  }
  return scores;
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Consumes
fwkplugin::DataDependencies Plugin::Consumes() const {
  return {{{prefixMatchDataKey_, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}}, {}};
}

}  // namespace blis::router::prefix
