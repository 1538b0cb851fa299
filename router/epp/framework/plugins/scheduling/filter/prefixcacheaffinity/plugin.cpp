// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099;
// see plugin.h.
#include "router/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/latency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::prefixcacheaffinity {
namespace {

// Original to BLIS: Go's fmt "%f" of a float64 (six decimals).
std::string goFloatF(double v) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%f", v);
  return buf;
}

// Original to BLIS: Go's fmt "%q" of a string (quotes and backslashes escaped, control and non-ASCII bytes
// as \xNN; Go would print valid UTF-8 runes as they are).
std::string goQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 DefaultConfig
Config DefaultConfig() {
  Config c;
  c.AffinityThreshold = 0.80;
  c.ExplorationProbability = 0;
  c.MaxTTFTPenaltyMs = 18000;
  c.TTFTSource = TTFTSourcePrefillThroughput;
  c.PeakPrefillThroughput = 15928;  // calibrated upstream for Qwen 32B on 2x H100 80GB (TP=2), vLLM 0.19
  return c;
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Config.validate
void Config::validate() const {
  if (AffinityThreshold > 1.0) {
    throw fwkplugin::PluginError("affinityThreshold must be <= 1.0, got " + goFloatF(AffinityThreshold));
  }
  if (ExplorationProbability < 0 || ExplorationProbability > 1.0) {
    throw fwkplugin::PluginError("explorationProbability must be in [0, 1], got " + goFloatF(ExplorationProbability));
  }
  if (MaxTTFTPenaltyMs < 0) {
    throw fwkplugin::PluginError("maxTTFTPenaltyMs must be >= 0, got " + goFloatF(MaxTTFTPenaltyMs));
  }
  if (PeakPrefillThroughput < 0) {
    throw fwkplugin::PluginError("peakPrefillThroughput must be >= 0, got " + goFloatF(PeakPrefillThroughput));
  }
  if (TTFTSource != TTFTSourceLatencyPredictor && TTFTSource != TTFTSourcePrefillThroughput) {
    throw fwkplugin::PluginError("ttftSource must be " + goQuote(TTFTSourceLatencyPredictor) + " or " +
                                 goQuote(TTFTSourcePrefillThroughput) + ", got " + goQuote(TTFTSource));
  }
  if (!usesLatencyPredictor() && MaxTTFTPenaltyMs > 0 && PeakPrefillThroughput == 0) {
    throw fwkplugin::PluginError("peakPrefillThroughput must be > 0 when ttftSource is prefillThroughput");
  }
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Factory (the struct literal)
Plugin::Plugin(const std::string& name, const Config& cfg, RandomStream& stream)
    : typedName{PluginType, name},
      config(cfg),
      prefixMatchDataKey(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(cfg.PrefixMatchInfoProducerName)),
      latencyPredictionInfoDataKey(
          latency::LatencyPredictionInfoDataKey.WithNonEmptyProducerName(cfg.LatencyPredictionInfoProducerName)),
      inFlightLoadDataKey(concurrency::InFlightLoadDataKey.WithNonEmptyProducerName(cfg.InFlightLoadProducerName)),
      stream_(&stream) {}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters rawParameters,
                                           fwkplugin::Handle& handle) {
  Config config = DefaultConfig();
  try {
    fwkplugin::StrictObject obj(rawParameters, "prefixcacheaffinity.Config");
    obj.Field("affinityThreshold", config.AffinityThreshold);
    obj.Field("explorationProbability", config.ExplorationProbability);
    obj.Field("maxTTFTPenaltyMs", config.MaxTTFTPenaltyMs);
    obj.Field("ttftSource", config.TTFTSource);
    obj.Field("peakPrefillThroughput", config.PeakPrefillThroughput);
    obj.Field("prefixMatchInfoProducerName", config.PrefixMatchInfoProducerName);
    obj.Field("latencyPredictionInfoProducerName", config.LatencyPredictionInfoProducerName);
    obj.Field("inFlightLoadProducerName", config.InFlightLoadProducerName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to unmarshal config: ") + e.what());
  }
  try {
    config.validate();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("invalid config: ") + e.what());
  }
  return std::make_shared<Plugin>(name, config, handle.Context().stream("filter/" + name));
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.Filter
std::vector<fwksched::EndpointPtr> Plugin::Filter(fwksched::InferenceRequest* /*request*/,
                                                  const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (endpoints.size() <= 1 || config.AffinityThreshold <= 0) return endpoints;

  // Exploration: skip the gate with the configured probability (Go's rand.Float64 is on [0, 1); the stream's
  // draw is on (0, 1), which gives the same outcome at probabilities 0 and 1).
  if (stream_->uniform01() < config.ExplorationProbability) return endpoints;

  std::vector<fwksched::EndpointPtr> sticky;
  std::vector<fwksched::EndpointPtr> nonSticky;
  for (const auto& ep : endpoints) {
    if (prefixCacheScore(*ep) >= config.AffinityThreshold) {
      sticky.push_back(ep);
    } else {
      nonSticky.push_back(ep);
    }
  }
  if (sticky.empty()) return endpoints;  // no sticky endpoint: keep all

  // TTFT load gate: break stickiness when the sticky endpoints are too slow.
  if (config.MaxTTFTPenaltyMs > 0 && !nonSticky.empty()) {
    const double bestStickyTTFT = bestTTFT(sticky);
    const double bestNonStickyTTFT = bestTTFT(nonSticky);
    if (bestStickyTTFT - bestNonStickyTTFT > config.MaxTTFTPenaltyMs) return endpoints;
  }
  return sticky;
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.Consumes
fwkplugin::DataDependencies Plugin::Consumes() const {
  fwkplugin::DataKeyTypes required{{prefixMatchDataKey, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}};
  if (config.MaxTTFTPenaltyMs > 0) {
    if (config.usesLatencyPredictor()) {
      required.emplace(latencyPredictionInfoDataKey, latency::LatencyPredictionInfo(false, false, 0, 0, 0, 0, 0));
    } else {
      required.emplace(inFlightLoadDataKey, concurrency::InFlightLoad{});
    }
  }
  return {required, {}};
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.prefixCacheScore
double Plugin::prefixCacheScore(const fwksched::Endpoint& ep) const {
  auto raw = ep.Get(prefixMatchDataKey.String());
  if (raw == nullptr) return 0;
  auto info = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(raw);
  if (info == nullptr) {
    throw std::invalid_argument("prefix-cache-affinity-filter: a prefix-cache attribute of another type is not "
                                "modelled by this port (upstream's type assertion panics)");
  }
  if (info->TotalBlocks() > 0) {
    const double score = static_cast<double>(info->MatchBlocks()) / static_cast<double>(info->TotalBlocks());
    if (!std::isnan(score)) return score;
  }
  return 0;
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.bestTTFT
double Plugin::bestTTFT(const std::vector<fwksched::EndpointPtr>& endpoints) const {
  double best = std::numeric_limits<double>::max();
  for (const auto& ep : endpoints) {
    const double ttft = endpointTTFT(*ep);
    if (ttft < best) best = ttft;
  }
  return best;
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.endpointTTFT
double Plugin::endpointTTFT(const fwksched::Endpoint& ep) const {
  if (config.usesLatencyPredictor()) {
    auto raw = ep.Get(latencyPredictionInfoDataKey.String());
    if (raw == nullptr) return std::numeric_limits<double>::max();
    auto info = std::dynamic_pointer_cast<latency::LatencyPredictionInfo>(raw);
    if (info == nullptr) {
      throw std::invalid_argument("prefix-cache-affinity-filter: a latency attribute of another type is not "
                                  "modelled by this port (upstream's type assertion panics)");
    }
    return info->TTFT();
  }
  return static_cast<double>(inFlightTokens(ep)) / config.PeakPrefillThroughput * 1000;
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.go@71f4f099 Plugin.inFlightTokens
std::int64_t Plugin::inFlightTokens(const fwksched::Endpoint& ep) const {
  auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(ep.Get(inFlightLoadDataKey.String()));
  return load == nullptr ? 0 : load->Tokens;
}

}  // namespace blis::router::prefixcacheaffinity
