// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099;
// all of it (Go's nil map and nil *MMMatchInfo become std::nullopt).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/plugin/datakey.h"

// Namespace attrprefix: upstream's import name for this package (the scorer's package is also "prefix").
namespace blis::router::attrprefix {

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfoDataKey
// ("PrefixCacheMatchInfoDataKey" produced by approxprefixconstants.ApproxPrefixCachePluginType).
extern const fwkplugin::DataKey PrefixCacheMatchInfoDataKey;

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 SpeculativeTierKey
inline constexpr const char* SpeculativeTierKey = "speculative";

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 MMMatchInfo
struct MMMatchInfo {
  int MatchBlocks = 0;
  bool operator==(const MMMatchInfo&) const = default;
};

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo
// The endpoint attribute the prefix producer writes and the prefix-cache scorer reads.
class PrefixCacheMatchInfo final : public fwkdl::Cloneable,
                                   public std::enable_shared_from_this<PrefixCacheMatchInfo> {
 public:
  PrefixCacheMatchInfo(int matchBlocks, int totalBlocks, int blockSizeTokens)
      : matchBlocks_(matchBlocks),
        totalBlocks_(totalBlocks),
        blockSizeTokens_(blockSizeTokens),
        cachedBlockCount_(matchBlocks) {}

  // pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithCachedBlockCount
  std::shared_ptr<PrefixCacheMatchInfo> WithCachedBlockCount(int cachedBlockCount);
  // pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithMM
  std::shared_ptr<PrefixCacheMatchInfo> WithMM(MMMatchInfo mm);
  // pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithCachedBlocksByTier
  std::shared_ptr<PrefixCacheMatchInfo> WithCachedBlocksByTier(std::map<std::string, int> cachedBlocksByTier);

  // pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 the getters
  int MatchBlocks() const { return matchBlocks_; }
  int TotalBlocks() const { return totalBlocks_; }
  int BlockSizeTokens() const { return blockSizeTokens_; }
  const std::optional<MMMatchInfo>& MM() const { return mm_; }
  int CachedBlockCount() const { return cachedBlockCount_; }
  // std::nullopt where Go's map is nil (the producer supplies no tier data). Mutable, as Go's map is shared.
  std::optional<std::map<std::string, int>>& CachedBlocksByTier() { return cachedBlocksByTier_; }
  const std::optional<std::map<std::string, int>>& CachedBlocksByTier() const { return cachedBlocksByTier_; }

  // pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.Clone
  fwkdl::CloneablePtr Clone() const override;
  bool DeepEqual(const fwkdl::Cloneable& other) const override;

 private:
  int matchBlocks_;       // matched prefix length in blocks
  int totalBlocks_;       // total length in blocks
  int blockSizeTokens_;   // block length in tokens
  int cachedBlockCount_;  // unweighted count of contiguous cached prefix blocks (defaults to matchBlocks)
  std::optional<std::map<std::string, int>> cachedBlocksByTier_;
  std::optional<MMMatchInfo> mm_;
};

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 NewPrefixCacheMatchInfo
std::shared_ptr<PrefixCacheMatchInfo> NewPrefixCacheMatchInfo(int matchBlocks, int totalBlocks, int blockSizeTokens);

}  // namespace blis::router::attrprefix
