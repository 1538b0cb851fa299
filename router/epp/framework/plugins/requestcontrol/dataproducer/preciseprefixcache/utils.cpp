// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099;
// see utils.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.h"

#include <algorithm>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::preciseprefixcache {

// Original to BLIS: see utils.h.
std::string endpointPodIdentifier(const fwkdl::EndpointMetadata& md) {
  if (md.Address.empty()) return md.Name;
  return md.Address + ":" + md.Port;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 extractEndpointSet
std::set<std::string> extractEndpointSet(const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::set<std::string> endpointSet;
  for (const auto& ep : endpoints) {
    if (ep == nullptr) continue;
    if (const fwkdl::EndpointMetadata* m = ep->GetMetadata(); m != nullptr) endpointSet.insert(endpointPodIdentifier(*m));
  }
  return endpointSet;
}

namespace {
// Original to BLIS: a helper of the port's own.
const std::vector<kvblock::PodEntry>* podsOf(const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods,
                                             kvblock::BlockHash key) {
  auto it = keyToPods.find(key);
  return it == keyToPods.end() ? nullptr : &it->second;
}
}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 matchedBlockCount
int matchedBlockCount(const std::vector<kvblock::BlockHash>& keys,
                      const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods,
                      const std::string& podID) {
  int count = 0;
  for (const kvblock::BlockHash key : keys) {
    const auto* pods = podsOf(keyToPods, key);
    if (pods == nullptr ||
        std::none_of(pods->begin(), pods->end(), [&](const kvblock::PodEntry& e) { return e.PodIdentifier == podID; })) {
      break;
    }
    ++count;
  }
  return count;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 matchedBlockCountByTier
std::map<std::string, int> matchedBlockCountByTier(
    const std::vector<kvblock::BlockHash>& keys,
    const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods, const std::string& podID) {
  std::map<std::string, int> counts;
  bool started = false;  // Go: alive == nil before the first key
  std::set<std::string> alive;
  for (const kvblock::BlockHash key : keys) {
    std::set<std::string> tiersAtKey;
    if (const auto* pods = podsOf(keyToPods, key); pods != nullptr) {
      for (const auto& e : *pods) {
        if (e.PodIdentifier != podID) continue;
        tiersAtKey.insert(e.Speculative ? std::string(attrprefix::SpeculativeTierKey) : e.DeviceTier);
      }
    }
    if (!started) {
      alive = std::move(tiersAtKey);
      started = true;
    } else {
      std::set<std::string> both;
      std::set_intersection(alive.begin(), alive.end(), tiersAtKey.begin(), tiersAtKey.end(),
                            std::inserter(both, both.begin()));
      alive = std::move(both);
    }
    if (alive.empty()) break;
    for (const auto& tier : alive) counts[tier]++;
  }
  return counts;
}

}  // namespace blis::router::preciseprefixcache
