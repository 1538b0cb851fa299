// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/pool.go@71f4f099; see pool.h.
#include "router/kvevents/pool.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <set>

namespace blis::router::kvevents {

// pkg/kvevents/pool.go@71f4f099 DefaultPodReconcilerConfig
PodDiscoveryConfig DefaultPodReconcilerConfig() {
  PodDiscoveryConfig c;
  c.PodLabelSelector = "llm-d.ai/inference-serving=true";  // defaultPodSelector
  c.SocketPort = 5557;
  return c;
}

// pkg/kvevents/pool.go@71f4f099 DefaultConfig
Config DefaultConfig() {
  Config c;
  c.TopicFilter = "kv@";
  c.Concurrency = 4;
  c.DiscoverPods = true;
  c.PodDiscoveryConfig = DefaultPodReconcilerConfig();
  return c;
}

// pkg/kvevents/pool.go@71f4f099 normalizeDeviceTier (strings.ToLower: the tiers engines send are ASCII;
// non-ASCII letters are left as they are).
std::string normalizeDeviceTier(const std::string& deviceTier) {
  if (deviceTier.empty()) return defaultEventSourceDeviceTier;
  std::string out = deviceTier;
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// pkg/kvevents/pool.go@71f4f099 isPrefixIndexableSpecKind
bool isPrefixIndexableSpecKind(const KVCacheSpecKind& kind) {
  return kind == KVCacheSpecKindFullAttention || kind == KVCacheSpecKindMlaAttention || kind == KVCacheSpecKindSinkFull;
}

// pkg/kvevents/pool.go@71f4f099 blockStoredEventDigestible
std::pair<bool, std::string> blockStoredEventDigestible(const BlockStoredEvent& ev) {
  if (!ev.GroupIdx) return {true, ""};
  if (!isPrefixIndexableSpecKind(ev.KVCacheSpecKind)) return {false, "unsupported_cache_kind"};
  if (ev.Tokens.empty()) return {true, ""};
  if (ev.BlockSize <= 0) return {false, "invalid_block_size"};
  const std::size_t bs = static_cast<std::size_t>(ev.BlockSize);
  if (ev.Tokens.size() % bs != 0 || ev.Tokens.size() / bs != ev.BlockHashes.size()) return {false, "non_dense_block_span"};
  return {true, ""};
}

// pkg/kvevents/pool.go@71f4f099 realignExtraFeatures
kvblock::ExtraFeatures realignExtraFeatures(const kvblock::ExtraFeatures& engineFeatures, int canonicalBlockCount) {
  const int engineBlockCount = engineFeatures ? static_cast<int>(engineFeatures->size()) : 0;
  if (canonicalBlockCount == 0) return std::nullopt;
  if (engineBlockCount == 0 || engineBlockCount == canonicalBlockCount) return engineFeatures;
  std::vector<std::optional<kvblock::BlockExtraFeatures>> canonical(static_cast<std::size_t>(canonicalBlockCount));
  if (engineBlockCount < canonicalBlockCount) {
    // 1:many -> replicate each engine feature to its canonical sub-blocks
    for (int i = 0; i < canonicalBlockCount; ++i)
      canonical[static_cast<std::size_t>(i)] = (*engineFeatures)[static_cast<std::size_t>(i * engineBlockCount / canonicalBlockCount)];
  } else {
    // many:1 -> merge constituent engine features into each canonical block
    for (int i = 0; i < engineBlockCount; ++i) {
      const auto& ef = (*engineFeatures)[static_cast<std::size_t>(i)];
      const auto canonicalIdx = static_cast<std::size_t>(i * canonicalBlockCount / engineBlockCount);
      if (!ef) continue;
      if (!canonical[canonicalIdx]) canonical[canonicalIdx] = kvblock::BlockExtraFeatures{};
      auto& dst = canonical[canonicalIdx]->MMHashes;
      dst.insert(dst.end(), ef->MMHashes.begin(), ef->MMHashes.end());
    }
  }
  return canonical;
}

// pkg/kvevents/pool.go@71f4f099 NewPool
Pool::Pool(const Config* cfg, std::shared_ptr<kvblock::Index> index, std::shared_ptr<kvblock::TokenProcessor> tokenProcessor,
           std::shared_ptr<EngineAdapter> adapter)
    : concurrency_(cfg == nullptr ? DefaultConfig().Concurrency : cfg->Concurrency),
      index_(std::move(index)),
      tokenProcessor_(std::move(tokenProcessor)),
      adapter_(std::move(adapter)) {}

// pkg/kvevents/pool.go@71f4f099 Pool.resetForSource
void Pool::resetForSource(const std::string& topic, const std::string& sourceEndpoint) {
  RawMessage m;
  m.Topic = topic;
  m.SourceEndpoint = sourceEndpoint;
  m.reset = true;
  AddTask(m);
}

// pkg/kvevents/pool.go@71f4f099 Pool.processRawMessage
void Pool::processRawMessage(const RawMessage& msg) {
  if (msg.reset) {
    std::string podID = msg.SourceEndpoint;
    if (podID.empty()) podID = adapter_->ShardingKey(msg);
    clearPod(podID);
    return;
  }
  ParsedMessage parsed;
  try {
    parsed = adapter_->ParseMessage(msg);
  } catch (const std::exception&) {
    return;  // upstream: logger.Error(err, "Failed to parse message")
  }
  std::string podID = parsed.podID;
  if (!msg.SourceEndpoint.empty()) podID = msg.SourceEndpoint;
  processEventBatch(parsed.batch, podID, parsed.modelName);
}

// Original to BLIS: see pool.h (processRawMessage's steps after the reset branch, on the typed message).
void Pool::AddTypedTask(const engine::KvEventMessage& msg, const std::string& sourceEndpoint) {
  ParsedMessage parsed;
  try {
    parsed = adapter_->ParseTyped(msg);
  } catch (const std::exception&) {
    return;  // as processRawMessage: upstream logs "Failed to parse message"
  }
  std::string podID = parsed.podID;
  if (!sourceEndpoint.empty()) podID = sourceEndpoint;
  processEventBatch(parsed.batch, podID, parsed.modelName);
}

// pkg/kvevents/pool.go@71f4f099 Pool.clearPod
void Pool::clearPod(const std::string& podIdentifier) {
  try {
    index_->Clear(podIdentifier);
  } catch (const std::exception&) {
    // upstream logs "Failed to clear pod from index"
  }
  dedup_.clear(podIdentifier);
}

// pkg/kvevents/pool.go@71f4f099 Pool.handleDeviceTierUpdate
bool Pool::handleDeviceTierUpdate(const std::vector<std::uint32_t>& tokens,
                                  const std::vector<kvblock::BlockHash>& engineKeys,
                                  const std::vector<kvblock::PodEntry>& podEntries) {
  if (!tokens.empty() || engineKeys.empty()) return false;
  std::set<kvblock::BlockHash> seen;
  std::vector<kvblock::BlockHash> resolvedKeys;
  for (kvblock::BlockHash ek : engineKeys) {
    kvblock::BlockHash rk;
    try {
      rk = index_->GetRequestKey(ek);
    } catch (const std::exception&) {
      continue;
    }
    if (seen.insert(rk).second) resolvedKeys.push_back(rk);
  }
  if (resolvedKeys.empty()) return false;
  try {
    index_->Add(nullptr, resolvedKeys, podEntries);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// pkg/kvevents/pool.go@71f4f099 Pool.processEventBatch, the *BlockStoredEvent case.
void Pool::processBlockStored(BlockStoredEvent& ev, const std::string& podIdentifier, const std::string& modelName) {
  const std::string deviceTier = normalizeDeviceTier(ev.DeviceTier);
  const blockScope storeScope{podIdentifier, deviceTier, groupIdxOrNoGroup(ev.GroupIdx), noDataParallelRank};

  std::string effectiveModelName = modelName;
  if (ev.LoraName && !ev.LoraName->empty()) effectiveModelName = *ev.LoraName;

  std::vector<kvblock::PodEntry> podEntries{kvblock::PodEntry{podIdentifier, deviceTier}};
  if (ev.GroupIdx) {
    const kvblock::GroupID g = *ev.GroupIdx;
    if (ev.KVCacheSpecKind.empty()) {
      if (auto meta = groupCatalog_.Get(podIdentifier, g)) ev.KVCacheSpecKind = meta->Kind;
    } else {
      groupCatalog_.Learn(podIdentifier, g,
                          kvblock::GroupMetadata{ev.KVCacheSpecKind, ev.BlockSize, ev.KVCacheSpecSlidingWindowSize});
    }
    podEntries[0].HasGroup = true;
    podEntries[0].GroupIdx = g;
  }

  if (!blockStoredEventDigestible(ev).first) return;  // metrics KVEventStoresSkipped

  std::vector<kvblock::BlockHash> engineKeys(ev.BlockHashes.begin(), ev.BlockHashes.end());

  kvblock::BlockHash parentRequestKey = kvblock::EmptyBlockHash;
  if (ev.ParentHash != 0) {
    try {
      parentRequestKey = index_->GetRequestKey(ev.ParentHash);
    } catch (const std::exception&) {
      return;  // "Failed to get request key for parent block"
    }
  }

  kvblock::ExtraFeatures extraFeatures;
  if (ev.ExtraKeys) extraFeatures = kvblock::ParseRawExtraKeys(ev.ExtraKeys);

  if (extraFeatures) {
    const int canonicalBlockCount = static_cast<int>(ev.Tokens.size()) / tokenProcessor_->BlockSize();
    if (canonicalBlockCount == 0) {
      extraFeatures = std::nullopt;
    } else if (static_cast<int>(extraFeatures->size()) != canonicalBlockCount) {
      extraFeatures = realignExtraFeatures(extraFeatures, canonicalBlockCount);
    }
  }

  std::vector<kvblock::BlockHash> requestKeys;
  try {
    requestKeys = tokenProcessor_->TokensToKVBlockKeys(parentRequestKey, ev.Tokens, effectiveModelName, extraFeatures);
  } catch (const std::exception&) {
    return;  // "Failed to generate request keys"
  }

  if (requestKeys.empty()) {
    if (handleDeviceTierUpdate(ev.Tokens, engineKeys, podEntries)) dedup_.trackStore(storeScope, ev.BlockHashes);
    return;
  }

  try {
    index_->Add(&engineKeys, requestKeys, podEntries);
  } catch (const std::exception&) {
    return;  // "Failed to add event to index"
  }
  dedup_.trackStore(storeScope, ev.BlockHashes);
}

// pkg/kvevents/pool.go@71f4f099 Pool.processEventBatch, the *BlockRemovedEvent case.
void Pool::processBlockRemoved(const BlockRemovedEvent& ev, const std::string& podIdentifier) {
  const std::string deviceTier = normalizeDeviceTier(ev.DeviceTier);
  if (ev.GroupIdx) {
    auto meta = groupCatalog_.Get(podIdentifier, *ev.GroupIdx);
    if (!meta || !isPrefixIndexableSpecKind(meta->Kind)) return;  // metrics KVEventRemovalsSkipped
  }
  std::vector<kvblock::PodEntry> podEntries{kvblock::PodEntry{podIdentifier, deviceTier}};
  if (ev.GroupIdx) {
    podEntries[0].HasGroup = true;
    podEntries[0].GroupIdx = *ev.GroupIdx;
  }
  const blockScope removeScope{podIdentifier, deviceTier, groupIdxOrNoGroup(ev.GroupIdx), noDataParallelRank};
  for (std::uint64_t hash : dedup_.filterRemove(removeScope, ev.BlockHashes)) {
    try {
      index_->Evict(hash, kvblock::KeyType::EngineKey, podEntries);
    } catch (const std::exception&) {
      continue;  // "Failed to evict engine key from index"
    }
  }
}

// pkg/kvevents/pool.go@71f4f099 Pool.processEventBatch
void Pool::processEventBatch(EventBatch& batch, const std::string& podIdentifier, const std::string& modelName) {
  for (auto& genericEvent : batch.Events) {
    if (auto* stored = std::get_if<BlockStoredEvent>(&genericEvent)) {
      processBlockStored(*stored, podIdentifier, modelName);
    } else if (auto* removed = std::get_if<BlockRemovedEvent>(&genericEvent)) {
      processBlockRemoved(*removed, podIdentifier);
    } else {
      // AllBlocksCleared is pod-wide: every tier of the pod is cleared (a tier on the event is ignored, as
      // upstream, which only logs it).
      clearPod(podIdentifier);
    }
  }
}

}  // namespace blis::router::kvevents
