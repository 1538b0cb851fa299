// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099
// and of dataProducer.resolveMaxBlocks (plugin.go) on the plain config; SchedulingContextState does not
// derive from plugin.StateData yet (framework types come later); podActiveCheckInterval (a ticker period
// of the pod-liveness goroutine, not ported) is not ported.
#pragma once

#include <compare>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.h"

namespace blis::router::approximateprefix {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 ServerID
// (k8stypes.NamespacedName). Ordered by (Namespace, Name) so sets and maps of servers iterate
// deterministically.
struct ServerID {
  std::string Namespace;
  std::string Name;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 ServerID.String
  // (NamespacedName.String: "<namespace>/<name>").
  std::string String() const;

  friend auto operator<=>(const ServerID&, const ServerID&) = default;
  friend bool operator==(const ServerID&, const ServerID&) = default;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 podSet
// (Go: map[ServerID]struct{}; here ordered).
using podSet = std::set<ServerID>;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 blockHash
using blockHash = prefixhash::BlockHash;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 server
// (Go embeds ServerID; here it is the field ServerID).
struct server {
  approximateprefix::ServerID ServerID;
  int NumOfGPUBlocks = 0;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 indexerInterface
class indexerInterface {
 public:
  virtual ~indexerInterface() = default;
  virtual podSet Get(blockHash hash) const = 0;
  virtual void Add(const std::vector<blockHash>& hashes, const server& s) = 0;
  virtual void RemovePod(const ServerID& s) = 0;
  virtual std::vector<ServerID> Pods() const = 0;
  virtual std::map<ServerID, int> PodBlockCounts() const = 0;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 SchedulingContextState
struct SchedulingContextState {
  // The prefix hashes for each prompt in the request, one inner vector per prompt.
  std::vector<std::vector<blockHash>> PerPromptHashes;
  // A map of server to its longest prefix cache match length in blocks.
  std::map<ServerID, int> PrefixCacheServers;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 SchedulingContextState.Clone
  // (a deep copy; Go returns it as plugin.StateData).
  SchedulingContextState Clone() const;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 constants
inline constexpr std::string_view experimentalDefaultPrefillProfile = "prefill";
inline constexpr int defaultBlockSizeTokens = 16;
inline constexpr int defaultMaxPrefixBlocks = 2048;
inline constexpr int defaultMaxPrefixTokens = 131072;
// Go: math.MaxInt (2^63-1 on 64-bit); block counts are int here, so the int maximum. Either exceeds any
// prompt's block count, which is all the cap is compared against.
inline constexpr int unlimitedPrefixBlocks = std::numeric_limits<int>::max();
inline constexpr int defaultLRUCapacityPerServer = 31250;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 config
// (JSON decoding is the plugin factory's, not ported here).
struct config {
  bool AutoTune = false;
  int BlockSizeTokens = 0;
  int BlockSize = 0;  // Deprecated: legacy block size in characters.
  int MaxPrefixBlocksToMatch = 0;
  int MaxPrefixTokensToMatch = 0;
  int LRUCapacityPerServer = 0;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go@71f4f099 defaultConfig
inline constexpr config defaultConfig{
    .AutoTune = true,
    .BlockSizeTokens = defaultBlockSizeTokens,
    .BlockSize = 0,
    .MaxPrefixBlocksToMatch = defaultMaxPrefixBlocks,
    .MaxPrefixTokensToMatch = defaultMaxPrefixTokens,
    .LRUCapacityPerServer = defaultLRUCapacityPerServer,
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.resolveMaxBlocks
// (p.config passed in): the per-request cap on hashed prefix blocks for GetBlockHashes.
int resolveMaxBlocks(const config& cfg, int blockSize);

}  // namespace blis::router::approximateprefix
