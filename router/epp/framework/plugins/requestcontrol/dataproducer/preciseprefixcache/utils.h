// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099
// (extractEndpointSet, matchedBlockCount, matchedBlockCountByTier), plus the pod-identifier rule BLIS adds for
// endpoints without an address (endpointPodIdentifier). Go's sets.Set is a std::set; maps are std::map.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "router/kvcache/kvblock/index.h"

namespace blis::router::preciseprefixcache {

// Original to BLIS (upstream writes fmt.Sprintf("%s:%s", md.Address, md.Port) inline in Produce, PreRequest,
// extractEndpointSet and Extract): the identifier under which an endpoint's KV blocks are indexed.
// Upstream's "<address>:<port>" when the metadata carries an address (llm-d's pods, and upstream's tests);
// otherwise the metadata's Name -- a BLIS endpoint has no address and is named "<pool>/<instance>", so the
// host passes that name as the pod identifier of the engine's KV-event messages (Producer::AddTask).
std::string endpointPodIdentifier(const fwkdl::EndpointMetadata& md);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 extractEndpointSet
// The pod identifiers of the endpoints (endpoints without metadata are skipped).
std::set<std::string> extractEndpointSet(const std::vector<fwksched::EndpointPtr>& endpoints);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 matchedBlockCount
// The number of contiguous cached prefix blocks podID holds, from the first block to the first it lacks
// (every tier counts as one).
int matchedBlockCount(const std::vector<kvblock::BlockHash>& keys,
                      const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods,
                      const std::string& podID);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.go@71f4f099 matchedBlockCountByTier
// Per device tier, the contiguous cached prefix blocks podID holds in that tier; speculative entries count
// under attrprefix::SpeculativeTierKey. Never absent (an empty map where nothing matches).
std::map<std::string, int> matchedBlockCountByTier(
    const std::vector<kvblock::BlockHash>& keys,
    const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods, const std::string& podID);

}  // namespace blis::router::preciseprefixcache
