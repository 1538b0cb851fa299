// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099
// (PluginType, PluginConfig, Producer, PluginFactory, New, Produce, produceFromBlockKeys, Produces, Consumes) and
// prerequest.go@71f4f099 (speculative indexing, PreRequest). Tokens only: the request's TokenizedPrompt (from the
// token producer) is hashed; no tokenizer. The KV events arrive through AddTask (each engine message as bytes, the
// port of zmqSubscriber.addTask) or, in a run, AddTypedTask (the engine's typed message), instead of ZMQ subscribers: kvEventsConfig.zmqEndpoint
// (the local subscriber) is refused by name, and extractor.go (per-pod subscribers installed on endpoint
// events) is not ported. The speculative entries' TTL runs on the router Runtime's simulated clock (ttlcache's
// timer: expired entries are evicted before each Produce and PreRequest). Not ported: DumpState (a debug JSON
// dump), tracing spans, logging, multimodal features (see blockkeys.h); no Go context.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.h"
#include "router/kvcache/indexer.h"
#include "router/kvcache/kvblock/token_processor.h"
#include "router/kvcache/kvblock_scorer.h"
#include "router/kvevents/pool.h"

namespace blis::router::preciseprefixcache {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 PluginType
inline constexpr const char* PluginType = "precise-prefix-cache-producer";

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 defaultSpeculativeTTL (2s, in ns)
inline constexpr std::int64_t defaultSpeculativeTTL = 2'000'000'000;
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 experimentalPrefillProfile
inline constexpr const char* experimentalPrefillProfile = "prefill";
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 blockKeysStateKey
inline constexpr const char* blockKeysStateKey = "precise-prefix-cache-producer.block-keys";

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 PluginConfig
// Go's nil pointers are std::nullopt.
struct PluginConfig {
  std::optional<kvblock::TokenProcessorConfig> TokenProcessorConfig;  // json "tokenProcessorConfig"
  std::optional<kvcache::Config> IndexerConfig;                        // json "indexerConfig"
  std::optional<kvevents::Config> KVEventsConfig;                      // json "kvEventsConfig"
  bool SpeculativeIndexing = false;                                    // json "speculativeIndexing"
  std::string SpeculativeTTL;                                          // json "speculativeTTL" (Go duration)
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 speculativeEntries
struct speculativeEntries {
  std::vector<std::vector<kvblock::BlockHash>> perPromptKeys;
  std::vector<kvblock::PodEntry> podEntries;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 blockKeysState
struct blockKeysState {
  std::vector<std::vector<kvblock::BlockHash>> perPromptKeys;
};

// Original to BLIS: ttlcache.Cache[string, *speculativeEntries] on the simulated clock. An item set at time t
// with ttl d expires once now > t + d (ttlcache's time.Now().After(expiresAt)); Set on an existing key
// replaces its value and expiry without the eviction callback (ttlcache's EvictionReasonExpired only).
struct speculativeCache {
  struct item {
    speculativeEntries value;
    std::int64_t expiresAtUs = 0;
  };
  std::map<std::string, item> items;  // by request id
  // ttlcache.Cache.Set
  void Set(const std::string& key, speculativeEntries value, std::int64_t nowUs, std::int64_t ttlNs) {
    items[key] = item{std::move(value), nowUs + ttlNs / 1000};
  }
  // ttlcache.Cache.Keys (sorted here)
  std::vector<std::string> Keys() const {
    std::vector<std::string> out;
    for (const auto& [k, v] : items) out.push_back(k);
    return out;
  }
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer
// Maintains a KV-block index from the engines' KV events (AddTask) and writes on every candidate endpoint the
// PrefixCacheMatchInfo (under PrefixCacheMatchInfoDataKey with this instance's name) the prefix-cache scorer
// reads (set its prefixMatchInfoProducerName to this producer's name).
class Producer final : public requestcontrol::DataProducer,
                       public requestcontrol::PreRequestPlugin,
                       public fwkplugin::ProducerPlugin,
                       public fwkplugin::ConsumerPlugin {
 public:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Produces
  // The attribute key written per endpoint, with a PrefixCacheMatchInfo.
  fwkplugin::DataKeyTypes Produces() const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Consumes
  // Required: the token producer's TokenizedPrompt key ("TokenizedPrompt/token-producer").
  fwkplugin::DataDependencies Consumes() const override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Produce
  // A no-op when the request carries no tokens (or no full block); errors carry upstream's texts ("failed to
  // compute block keys: ...", "failed to lookup block keys: ...", "failed to score block keys: ...").
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest* request,
                                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 Producer.PreRequest
  // With speculativeIndexing, seeds speculative index entries for the primary profile's first target (and the
  // "prefill" profile's) from the block keys Produce stashed, to expire after speculativeTTL. Never an error.
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* schedulingResult) override;

  // pkg/kvevents/zmq_subscriber.go@71f4f099 zmqSubscriber.addTask (with pkg/kvevents/pool.go@71f4f099 Pool.AddTask)
  // The entry point for KV events as bytes: one engine KV-event message, as a ZMQ subscriber would receive it --
  // topic (vLLM: "kv@<anything>@<model name>"; the model name keys the block hashes and must equal the
  // requests' TargetModel), sequence, payload (the msgpack EventBatch bytes) -- and the pod identifier
  // (upstream's subscriber sourceEndpoint) under which the events are indexed: endpointPodIdentifier of the
  // endpoint that engine serves (a BLIS endpoint's metadata Name, "<pool>/<instance>"). Applied to the index
  // at once; call it in each engine's publication order. Malformed payloads are skipped (upstream logs them).
  void AddTask(const std::string& topic, std::uint64_t sequence, const std::string& payload,
               const std::string& podIdentifier);

  // Original to BLIS: AddTask on an engine's typed KV-event message, as the simulator delivers it (INTERFACES.md:
  // inside a run the typed messages pass without re-encoding): the pool's adapter reads the message as it
  // would the bytes the engine's codec makes of it, and indexes the events under podIdentifier.
  void AddTypedTask(const engine::KvEventMessage& message, const std::string& podIdentifier);

  // Original to BLIS: ttlcache's expiry timer, run on the simulated clock (see speculativeCache).
  void evictExpiredSpeculative();

  // Go's unexported fields, which upstream's in-package tests set and read.
  fwkplugin::TypedName typedName;
  std::shared_ptr<kvCacheIndexer> kvCacheIndexerInst;
  std::shared_ptr<kvcache::KVBlockScorer> kvBlockScorer;
  std::shared_ptr<kvevents::Pool> pool;  // upstream's subscribersManager holds it
  kvevents::Config kvEventsConfig;
  fwkplugin::DataKey dk;
  fwkplugin::PluginState pluginState;
  std::optional<speculativeCache> speculative;  // Go's speculativeCache (nil when disabled)
  std::int64_t speculativeTTL = 0;              // ns
  bool speculativeEnabled = false;
  int blockSizeTokens = 0;
  Runtime* runtime = nullptr;  // the simulated clock for the speculative TTL (Go: the plugin's context)

 private:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.produceFromBlockKeys
  std::optional<fwksched::GoError> produceFromBlockKeys(fwksched::InferenceRequest* request,
                                                        const std::vector<fwksched::EndpointPtr>& endpoints,
                                                        std::vector<std::vector<kvblock::BlockHash>> perPromptKeys);
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 New
// Throws std::runtime_error with upstream's wrapped texts ("failed to create token processor: ...",
// "failed to create kvcache.Indexer: ...", "failed to create KV-events engine adapter: ...",
// `invalid speculativeTTL "x": ...`) and std::invalid_argument for what this port does not model.
// runtime may be nullptr only when speculative indexing is off.
std::shared_ptr<Producer> New(Runtime* runtime, const std::string& name, PluginConfig config);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 PluginFactory
// (fwkplugin::FactoryFunc). Throws fwkplugin::PluginError with upstream's texts.
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle& handle);

}  // namespace blis::router::preciseprefixcache
