// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099
// (Producer.PreRequest and the TTL-eviction callback of buildSpeculativeCache, run on the simulated clock);
// logging is not ported.
#include <stdexcept>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.h"

namespace blis::router::preciseprefixcache {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 buildSpeculativeCache
// (its OnEviction callback for EvictionReasonExpired): the expired items' speculative rows are evicted from
// the index (as request keys), in request-id order.
void Producer::evictExpiredSpeculative() {
  if (!speculative.has_value() || runtime == nullptr) return;
  const std::int64_t now = runtime->now_us();
  auto index = kvCacheIndexerInst->KVBlockIndex();
  for (auto it = speculative->items.begin(); it != speculative->items.end();) {
    if (now > it->second.expiresAtUs) {
      const speculativeEntries& entries = it->second.value;
      for (const auto& promptKeys : entries.perPromptKeys) {
        for (const kvblock::BlockHash reqKey : promptKeys) {
          try {
            index->Evict(reqKey, kvblock::KeyType::RequestKey, entries.podEntries);
          } catch (const std::exception&) {
            // best-effort cleanup on TTL expiry (upstream ignores the error)
          }
        }
      }
      it = speculative->items.erase(it);
    } else {
      ++it;
    }
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 Producer.PreRequest
std::optional<fwksched::GoError> Producer::PreRequest(fwksched::InferenceRequest* request,
                                                      fwksched::SchedulingResult* schedulingResult) {
  if (!speculativeEnabled) return std::nullopt;
  if (request == nullptr) throw std::invalid_argument("precise-prefix-cache-producer: nil request (a nil dereference upstream)");
  evictExpiredSpeculative();

  const std::optional<blockKeysState> state =
      fwkplugin::ReadPluginStateKey<blockKeysState>(pluginState, request->RequestID, blockKeysStateKey);
  if (!state.has_value()) return std::nullopt;  // no plugin state: skip speculative indexing
  pluginState.Delete(request->RequestID);

  bool hasKeys = false;
  for (const auto& pk : state->perPromptKeys) {
    if (!pk.empty()) {
      hasKeys = true;
      break;
    }
  }
  if (!hasKeys || schedulingResult == nullptr) return std::nullopt;

  auto primaryIt = schedulingResult->ProfileResults.find(schedulingResult->PrimaryProfileName);
  if (primaryIt == schedulingResult->ProfileResults.end() || primaryIt->second == nullptr ||
      primaryIt->second->TargetEndpoints.empty()) {
    return std::nullopt;
  }
  const fwksched::EndpointPtr& targetEndpoint = primaryIt->second->TargetEndpoints[0];
  const fwkdl::EndpointMetadata* targetMeta = targetEndpoint ? targetEndpoint->GetMetadata() : nullptr;
  if (targetMeta == nullptr) return std::nullopt;
  kvblock::PodEntry speculativePod;
  speculativePod.PodIdentifier = endpointPodIdentifier(*targetMeta);
  speculativePod.Speculative = true;

  auto index = kvCacheIndexerInst->KVBlockIndex();
  // Insert per-prompt keys separately to preserve correct block adjacency (errors are logged upstream).
  for (const auto& promptKeys : state->perPromptKeys) {
    try {
      index->Add(nullptr, promptKeys, {speculativePod});
    } catch (const std::exception&) {
    }
  }
  std::vector<kvblock::PodEntry> allPodEntries = {speculativePod};

  // P/D disagg: seed the prefill endpoint too.
  auto pr = schedulingResult->ProfileResults.find(experimentalPrefillProfile);
  if (pr != schedulingResult->ProfileResults.end() && pr->second != nullptr && !pr->second->TargetEndpoints.empty()) {
    const auto& prefillEp = pr->second->TargetEndpoints[0];
    if (const fwkdl::EndpointMetadata* prefillMeta = prefillEp ? prefillEp->GetMetadata() : nullptr; prefillMeta != nullptr) {
      kvblock::PodEntry prefillPod;
      prefillPod.PodIdentifier = endpointPodIdentifier(*prefillMeta);
      prefillPod.Speculative = true;
      for (const auto& promptKeys : state->perPromptKeys) {
        try {
          index->Add(nullptr, promptKeys, {prefillPod});
        } catch (const std::exception&) {
        }
      }
      allPodEntries.push_back(prefillPod);
    }
  }

  if (speculative.has_value()) {
    speculative->Set(request->RequestID, speculativeEntries{state->perPromptKeys, allPodEntries},
                     runtime != nullptr ? runtime->now_us() : 0, speculativeTTL);
  }
  return std::nullopt;
}

}  // namespace blis::router::preciseprefixcache
