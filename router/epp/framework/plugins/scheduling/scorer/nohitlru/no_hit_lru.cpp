// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099;
// see no_hit_lru.h.
#include "router/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.h"

#include <cstdio>
#include <map>
#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::nohitlru {
namespace {

// Original to BLIS: a helper of the port's own.
// Go's json.Marshal of a string (encoding/json escaping for ASCII; bytes >= 0x80 copied).
std::string goJSONString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    char buf[8];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == '<' || c == '>' || c == '&') {
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// Original to BLIS: a helper of the port's own.
const fwkdl::EndpointMetadata& metadataOf(const fwksched::EndpointPtr& endpoint) {
  const fwkdl::EndpointMetadata* m = endpoint->GetMetadata();
  if (m == nullptr) {
    throw std::invalid_argument(std::string(NoHitLRUType) +
                                ": an endpoint without metadata is not modelled by this port "
                                "(upstream dereferences nil metadata)");
  }
  return *m;
}

// Original to BLIS: the refusal of a zero-value scorer's cache use (a nil dereference upstream).
std::string noCacheRefusal() {
  return std::string(NoHitLRUType) +
         ": a scorer without an LRU cache (Go's zero value) is not modelled by this port beyond DumpState "
         "(upstream dereferences the nil cache)";
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NewNoHitLRU (the fields it sets)
NoHitLRU::NoHitLRU(const std::string& name, int lruSize, const std::string& producerName)
    : typedName_{NoHitLRUType, name},
      lruCache_(std::in_place, lruSize, nullptr),
      dk_(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producerName)) {}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NewNoHitLRU
// (lru.New fails only for a size <= 0, which the default rules out, so Go's nil return is unreachable.)
std::shared_ptr<NoHitLRU> NewNoHitLRU(const std::string& name, const Parameters* params) {
  int lruSize = defaultLRUSize;
  std::string producerName;
  if (params != nullptr) {
    if (!params->PrefixMatchInfoProducerName.empty()) producerName = params->PrefixMatchInfoProducerName;
    if (params->LRUSize > 0) lruSize = params->LRUSize;
  }
  return std::make_shared<NoHitLRU>(name, lruSize, producerName);
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  Parameters p;
  try {
    fwkplugin::StrictObject obj(parameters, "nohitlru.Parameters");
    obj.Field("prefixPluginType", p.PrefixPluginType)
        .Field("prefixPluginName", p.PrefixPluginName)
        .Field("lruSize", p.LRUSize)
        .Field("prefixMatchInfoProducerName", p.PrefixMatchInfoProducerName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + std::string(NoHitLRUType) +
                                 "' scorer - " + e.what());
  }
  // Upstream does not require the prefix plugin: missing prefix-cache data makes every request cold.
  return NewNoHitLRU(name, &p);
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.DumpState
// {"endpoints":[...],"totalEndpoints":N,"maxEndpoints":100}: least recently used first, at most
// maxDebugDumpEndpoints of them; "endpoints" is null for a scorer without a cache (Go's nil slice).
std::string NoHitLRU::DumpState() const {
  std::string endpoints = "null";
  std::size_t total = 0;
  if (lruCache_.has_value()) {
    const std::vector<std::string> keys = lruCache_->Keys();
    total = keys.size();
    endpoints = "[";
    for (std::size_t i = 0; i < keys.size() && i < static_cast<std::size_t>(maxDebugDumpEndpoints); ++i) {
      if (i > 0) endpoints += ",";
      endpoints += goJSONString(keys[i]);
    }
    endpoints += "]";
  }
  return "{\"endpoints\":" + endpoints + ",\"totalEndpoints\":" + std::to_string(total) +
         ",\"maxEndpoints\":" + std::to_string(maxDebugDumpEndpoints) + "}";
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.isColdRequest
// Cold when no endpoint's PrefixCacheMatchInfo reports a matched block (or none carries it).
bool NoHitLRU::isColdRequest(const std::vector<fwksched::EndpointPtr>& endpoints) const {
  const std::string key = dk_.String();
  for (const auto& ep : endpoints) {
    const auto info = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(ep->Get(key));
    if (info != nullptr && info->MatchBlocks() > 0) return false;
  }
  return true;
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.scoreNeutral
fwksched::ScoreMap NoHitLRU::scoreNeutral(const std::vector<fwksched::EndpointPtr>& endpoints) const {
  fwksched::ScoreMap scoredEndpoints;
  for (const auto& endpoint : endpoints) scoredEndpoints[endpoint] = 0.5;
  return scoredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.scoreColdRequestByLRU
// (with getLRUPositions, partitionPodsByUsage, scoreNeverUsedPods and scoreUsedPods inlined): never-used
// endpoints first, in input order, then used ones by LRU position (oldest first); rank r scores
// 1 - r/(n-1), floored at 0.
fwksched::ScoreMap NoHitLRU::scoreColdRequestByLRU(const std::vector<fwksched::EndpointPtr>& endpoints) const {
  fwksched::ScoreMap scoredEndpoints;
  const int totalEndpoints = static_cast<int>(endpoints.size());
  if (totalEndpoints == 1) {  // avoid dividing by zero
    scoredEndpoints[endpoints[0]] = 1.0;
    return scoredEndpoints;
  }
  // getLRUPositions: position 0 is the least recently used.
  std::map<std::string, int> lruPosition;
  if (!lruCache_.has_value()) throw std::invalid_argument(noCacheRefusal());
  const std::vector<std::string> lruKeys = lruCache_->Keys();
  for (std::size_t i = 0; i < lruKeys.size(); ++i) lruPosition[lruKeys[i]] = static_cast<int>(i);
  // partitionPodsByUsage
  std::vector<fwksched::EndpointPtr> usedEndpoints;
  std::vector<fwksched::EndpointPtr> neverUsedEndpoints;
  for (const auto& endpoint : endpoints) {
    if (lruPosition.count(metadataOf(endpoint).ID.String())) {
      usedEndpoints.push_back(endpoint);
    } else {
      neverUsedEndpoints.push_back(endpoint);
    }
  }
  if (totalEndpoints <= 1) return scoredEndpoints;  // scoreNeverUsedPods/scoreUsedPods: avoid dividing by zero
  // scoreNeverUsedPods
  for (std::size_t i = 0; i < neverUsedEndpoints.size(); ++i) {
    scoredEndpoints[neverUsedEndpoints[i]] =
        1.0 - static_cast<double>(i) / static_cast<double>(totalEndpoints - 1);
  }
  // scoreUsedPods: a never-used endpoint always ranks above a used one.
  const int neverUsedCount = static_cast<int>(neverUsedEndpoints.size());
  for (const auto& endpoint : usedEndpoints) {
    const int rank = neverUsedCount + lruPosition.at(metadataOf(endpoint).ID.String());
    double score = 1.0 - static_cast<double>(rank) / static_cast<double>(totalEndpoints - 1);
    if (score < 0) score = 0;
    scoredEndpoints[endpoint] = score;
  }
  return scoredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Score
fwksched::ScoreMap NoHitLRU::Score(fwksched::InferenceRequest* request,
                                   const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (request == nullptr) {
    throw std::invalid_argument(std::string(NoHitLRUType) +
                                ": a nil request is not modelled by this port (upstream dereferences it)");
  }
  const bool isCold = isColdRequest(endpoints);
  // Stored for PreRequest.
  pluginState_.Write(request->RequestID, typedName_.String(), coldRequestState{isCold});
  if (!isCold) return scoreNeutral(endpoints);
  return scoreColdRequestByLRU(endpoints);
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.PreRequest
void NoHitLRU::PreRequest(const fwksched::InferenceRequest* request,
                          const fwksched::SchedulingResult* schedulingResult) {
  if (schedulingResult == nullptr || schedulingResult->ProfileResults.empty()) return;  // no scheduling result
  if (request == nullptr) {
    throw std::invalid_argument(std::string(NoHitLRUType) +
                                ": a nil request is not modelled by this port (upstream dereferences it)");
  }
  const auto coldState =
      fwkplugin::ReadPluginStateKey<coldRequestState>(pluginState_, request->RequestID, typedName_.String());
  // Dropped at once (otherwise it would hang around until stale).
  pluginState_.Delete(request->RequestID);
  if (!coldState.has_value()) return;  // no cold state: treated as not cold
  if (!coldState->isCold) return;
  const auto& results = schedulingResult->ProfileResults;
  if (auto it = results.find(schedulingResult->PrimaryProfileName);
      it != results.end() && it->second != nullptr && !it->second->TargetEndpoints.empty()) {
    moveTargetPodToFront(*it->second);
  }
  if (auto it = results.find(defaultPrefillProfile);
      it != results.end() && it->second != nullptr && !it->second->TargetEndpoints.empty()) {
    moveTargetPodToFront(*it->second);
  }
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.moveTargetPodToFront
// Moves the profile's first target endpoint to the most-recent end of the LRU.
void NoHitLRU::moveTargetPodToFront(const fwksched::ProfileRunResult& targetProfile) {
  const std::string endpointName = metadataOf(targetProfile.TargetEndpoints[0]).ID.String();
  if (!lruCache_.has_value()) throw std::invalid_argument(noCacheRefusal());
  lruCache_->Add(endpointName, true);
}

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Consumes
fwkplugin::DataDependencies NoHitLRU::Consumes() const {
  return {{{dk_, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}}, {}};
}

}  // namespace blis::router::nohitlru
