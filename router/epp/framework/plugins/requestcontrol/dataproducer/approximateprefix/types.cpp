// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099
// and of dataProducer.resolveMaxBlocks (plugin.go); see types.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.h"

namespace blis::router::approximateprefix {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 ServerID.String
std::string ServerID::String() const { return Namespace + "/" + Name; }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 SchedulingContextState.Clone
SchedulingContextState SchedulingContextState::Clone() const {
  SchedulingContextState out;
  out.PerPromptHashes = PerPromptHashes;
  out.PrefixCacheServers = PrefixCacheServers;
  return out;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.resolveMaxBlocks
int resolveMaxBlocks(const config& cfg, int blockSize) {
  if (cfg.MaxPrefixTokensToMatch > 0 && blockSize > 0) return cfg.MaxPrefixTokensToMatch / blockSize;
  if (cfg.MaxPrefixBlocksToMatch == 0) return unlimitedPrefixBlocks;
  return cfg.MaxPrefixBlocksToMatch;
}

}  // namespace blis::router::approximateprefix
