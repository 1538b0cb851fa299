// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099;
// see data_types.h.
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.h"

namespace blis::router::attrprefix {

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfoDataKey
const fwkplugin::DataKey PrefixCacheMatchInfoDataKey = fwkplugin::NewDataKey(
    "PrefixCacheMatchInfoDataKey", std::string(approxprefixconstants::ApproxPrefixCachePluginType));

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 NewPrefixCacheMatchInfo
std::shared_ptr<PrefixCacheMatchInfo> NewPrefixCacheMatchInfo(int matchBlocks, int totalBlocks, int blockSizeTokens) {
  return std::make_shared<PrefixCacheMatchInfo>(matchBlocks, totalBlocks, blockSizeTokens);
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithCachedBlockCount
std::shared_ptr<PrefixCacheMatchInfo> PrefixCacheMatchInfo::WithCachedBlockCount(int cachedBlockCount) {
  cachedBlockCount_ = cachedBlockCount;
  return shared_from_this();
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithMM
std::shared_ptr<PrefixCacheMatchInfo> PrefixCacheMatchInfo::WithMM(MMMatchInfo mm) {
  mm_ = mm;
  return shared_from_this();
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.WithCachedBlocksByTier
std::shared_ptr<PrefixCacheMatchInfo> PrefixCacheMatchInfo::WithCachedBlocksByTier(
    std::map<std::string, int> cachedBlocksByTier) {
  cachedBlocksByTier_ = std::move(cachedBlocksByTier);
  return shared_from_this();
}

// pkg/epp/framework/plugins/datalayer/attribute/prefix/data_types.go@71f4f099 PrefixCacheMatchInfo.Clone
fwkdl::CloneablePtr PrefixCacheMatchInfo::Clone() const {
  auto clone = std::make_shared<PrefixCacheMatchInfo>(matchBlocks_, totalBlocks_, blockSizeTokens_);
  clone->cachedBlockCount_ = cachedBlockCount_;
  clone->cachedBlocksByTier_ = cachedBlocksByTier_;  // maps.Clone: a deep copy (nil stays nil)
  clone->mm_ = mm_;
  return clone;
}

// Original to BLIS: reflect.DeepEqual on two PrefixCacheMatchInfo values (every field).
bool PrefixCacheMatchInfo::DeepEqual(const fwkdl::Cloneable& other) const {
  const auto* o = dynamic_cast<const PrefixCacheMatchInfo*>(&other);
  return o != nullptr && matchBlocks_ == o->matchBlocks_ && totalBlocks_ == o->totalBlocks_ &&
         blockSizeTokens_ == o->blockSizeTokens_ && cachedBlockCount_ == o->cachedBlockCount_ &&
         cachedBlocksByTier_ == o->cachedBlocksByTier_ && mm_ == o->mm_;
}

}  // namespace blis::router::attrprefix
