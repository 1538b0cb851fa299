// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/pool.go@71f4f099 (Config, PodDiscoveryConfig, the Pool's
// message processing: processRawMessage, processEventBatch, clearPod, handleDeviceTierUpdate,
// realignExtraFeatures, the store/remove digestibility rules). Not ported: the sharded work queues and
// worker goroutines (Start/Shutdown; AddTask processes the message at once, so messages apply in call
// order, which keeps upstream's per-pod ordering), metrics, logging. Errors upstream logs and skips are
// skipped here too.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/hma.h"
#include "router/kvcache/kvblock/index.h"
#include "router/kvcache/kvblock/token_processor.h"
#include "router/kvevents/event_dedup_filter.h"
#include "router/kvevents/events.h"

namespace blis::router::kvevents {

// pkg/kvevents/pool.go@71f4f099 defaultEventSourceDeviceTier
inline const std::string defaultEventSourceDeviceTier = "gpu";

// pkg/kvevents/pool.go@71f4f099 PodDiscoveryConfig (Kubernetes discovery: carried, not used by the Pool)
struct PodDiscoveryConfig {
  std::string PodLabelSelector;
  std::string PodNamespace;
  int SocketPort = 0;
  int ReplaySocketPort = 0;
  // pkg/kvevents/pool.go@71f4f099 PodDiscoveryConfig.EffectiveReplayPort
  int EffectiveReplayPort() const { return ReplaySocketPort <= 0 ? -1 : ReplaySocketPort; }
};

// pkg/kvevents/pool.go@71f4f099 DefaultPodReconcilerConfig
PodDiscoveryConfig DefaultPodReconcilerConfig();

// pkg/kvevents/pool.go@71f4f099 Config (the transport fields are carried; the Pool reads none of them)
struct Config {
  std::string ZMQEndpoint;
  std::string TopicFilter;
  int Concurrency = 0;
  std::string EngineType;
  bool DiscoverPods = false;
  std::optional<::blis::router::kvevents::PodDiscoveryConfig> PodDiscoveryConfig;
};

// pkg/kvevents/pool.go@71f4f099 DefaultConfig
Config DefaultConfig();

// pkg/kvevents/pool.go@71f4f099 normalizeDeviceTier
std::string normalizeDeviceTier(const std::string& deviceTier);
// pkg/kvevents/pool.go@71f4f099 isPrefixIndexableSpecKind
bool isPrefixIndexableSpecKind(const KVCacheSpecKind& kind);
// pkg/kvevents/pool.go@71f4f099 blockStoredEventDigestible: (digestible, reason)
std::pair<bool, std::string> blockStoredEventDigestible(const BlockStoredEvent& ev);
// pkg/kvevents/pool.go@71f4f099 realignExtraFeatures
kvblock::ExtraFeatures realignExtraFeatures(const kvblock::ExtraFeatures& engineFeatures, int canonicalBlockCount);

// pkg/kvevents/pool.go@71f4f099 Pool
class Pool {
 public:
  // pkg/kvevents/pool.go@71f4f099 NewPool (cfg may be nullptr = DefaultConfig()).
  Pool(const Config* cfg, std::shared_ptr<kvblock::Index> index, std::shared_ptr<kvblock::TokenProcessor> tokenProcessor,
       std::shared_ptr<EngineAdapter> adapter);

  // pkg/kvevents/pool.go@71f4f099 Pool.GroupCatalog
  kvblock::GroupCatalog& GroupCatalog() { return groupCatalog_; }

  // pkg/kvevents/pool.go@71f4f099 Pool.AddTask: upstream queues the message on the shard of its source
  // endpoint (or sharding key); here it is processed at once.
  void AddTask(const RawMessage& task) { processRawMessage(task); }
  // Original to BLIS: AddTask on an engine's typed message (INTERFACES.md: inside a run KV events pass without
  // re-encoding): processRawMessage with the adapter's ParseTyped in place of ParseMessage; sourceEndpoint,
  // when not empty, is the pod the events are indexed under. A message the adapter cannot parse is skipped.
  void AddTypedTask(const engine::KvEventMessage& msg, const std::string& sourceEndpoint);
  // pkg/kvevents/pool.go@71f4f099 Pool.resetForSource
  void resetForSource(const std::string& topic, const std::string& sourceEndpoint);
  // pkg/kvevents/pool.go@71f4f099 Pool.processRawMessage
  void processRawMessage(const RawMessage& msg);
  // pkg/kvevents/pool.go@71f4f099 Pool.processEventBatch
  void processEventBatch(EventBatch& batch, const std::string& podIdentifier, const std::string& modelName);

  // For tests (upstream's tests read p.dedup inside the package).
  const eventDedupFilter& dedup() const { return dedup_; }

 private:
  // pkg/kvevents/pool.go@71f4f099 Pool.clearPod
  void clearPod(const std::string& podIdentifier);
  // pkg/kvevents/pool.go@71f4f099 Pool.handleDeviceTierUpdate
  bool handleDeviceTierUpdate(const std::vector<std::uint32_t>& tokens, const std::vector<kvblock::BlockHash>& engineKeys,
                              const std::vector<kvblock::PodEntry>& podEntries);
  void processBlockStored(BlockStoredEvent& ev, const std::string& podIdentifier, const std::string& modelName);
  void processBlockRemoved(const BlockRemovedEvent& ev, const std::string& podIdentifier);

  int concurrency_;
  std::shared_ptr<kvblock::Index> index_;
  std::shared_ptr<kvblock::TokenProcessor> tokenProcessor_;
  std::shared_ptr<EngineAdapter> adapter_;
  kvblock::GroupCatalog groupCatalog_;
  eventDedupFilter dedup_;
};

}  // namespace blis::router::kvevents
