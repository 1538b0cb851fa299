// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099;
// see producer.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"

#include <stdexcept>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/config_json.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.h"
#include "router/kvevents/engineadapter/adapter.h"
#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router::preciseprefixcache {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 PluginFactory
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle& handle) {
  PluginConfig parameters_;
  parameters_.IndexerConfig = kvcache::NewDefaultConfig();
  parameters_.KVEventsConfig = kvevents::DefaultConfig();
  try {
    DecodePluginConfig(parameters, parameters_, "preciseprefixcache.PluginConfig");
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse ") + PluginType + " plugin config: " + e.what());
  }
  if (!parameters_.IndexerConfig.has_value()) throw fwkplugin::PluginError("indexerConfig is required");
  // Tokens-only: reject configs that rely on the indexer's internal tokenizer.
  if (parameters_.IndexerConfig->TokenizersPoolConfig) {
    throw fwkplugin::PluginError("tokenizersPoolConfig is not supported; configure a token-producer plugin instead");
  }
  try {
    return New(&handle.Context(), name, std::move(parameters_));
  } catch (const std::invalid_argument&) {
    throw;  // not modelled by this port: named as is
  } catch (const std::exception& e) {
    throw fwkplugin::PluginError(std::string("failed to create ") + PluginType + " plugin: " + e.what());
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 New
std::shared_ptr<Producer> New(Runtime* runtime, const std::string& name, PluginConfig config) {
  if (!config.TokenProcessorConfig.has_value()) config.TokenProcessorConfig = kvblock::DefaultTokenProcessorConfig();
  if (!config.KVEventsConfig.has_value()) {
    throw std::invalid_argument("a null kvEventsConfig is not modelled by this port: upstream dereferences the nil "
                                "*kvevents.Config");
  }
  if (!config.IndexerConfig.has_value()) {
    throw std::invalid_argument("a null indexerConfig is not modelled by this port: upstream's New is reached only "
                                "through PluginFactory, which requires it");
  }

  std::shared_ptr<kvblock::TokenProcessor> tokenProcessor;
  try {
    tokenProcessor = kvblock::NewChunkedTokenDatabase(&*config.TokenProcessorConfig);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create token processor: ") + e.what());
  }

  std::shared_ptr<kvcache::Indexer> indexer;
  try {
    indexer = kvcache::NewKVCacheIndexer(&*config.IndexerConfig, tokenProcessor);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create kvcache.Indexer: ") + e.what());
  }

  kvcache::KVBlockScorerConfig scorerConfig = kvcache::DefaultKVBlockScorerConfig();
  // Go: a non-nil BackendConfigs slice (json null leaves it nil, which keeps the scorer's defaults).
  if (!config.IndexerConfig->BackendConfigs.empty()) scorerConfig.BackendConfigs = config.IndexerConfig->BackendConfigs;
  std::shared_ptr<kvcache::KVBlockScorer> kvBlockScorer;
  try {
    kvBlockScorer = kvcache::NewKVBlockScorer(scorerConfig);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create KVBlockScorer: ") + e.what());
  }

  std::shared_ptr<kvevents::EngineAdapter> adapter;
  try {
    adapter = engineadapter::NewAdapter(config.KVEventsConfig->EngineType);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("failed to create KV-events engine adapter: ") + e.what());
  }
  auto pool = std::make_shared<kvevents::Pool>(&*config.KVEventsConfig, indexer->KVBlockIndex(), tokenProcessor, adapter);

  if (!config.KVEventsConfig->ZMQEndpoint.empty()) {
    throw std::invalid_argument("kvEventsConfig.zmqEndpoint (\"" + config.KVEventsConfig->ZMQEndpoint +
                                "\") is not modelled by this port: the router opens no ZMQ socket; the host feeds each "
                                "engine's KV-event messages to Producer::AddTask");
  }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/prerequest.go@71f4f099 buildSpeculativeCache
  std::int64_t ttl = 0;
  if (config.SpeculativeIndexing) {
    ttl = defaultSpeculativeTTL;
    if (!config.SpeculativeTTL.empty()) {
      std::string err;
      std::optional<std::int64_t> parsed = ParseGoDuration(config.SpeculativeTTL, err);
      if (!parsed.has_value()) {
        throw std::runtime_error("invalid speculativeTTL \"" + config.SpeculativeTTL + "\": " + err);
      }
      if (*parsed > 0) ttl = *parsed;
    }
    if (runtime == nullptr) {
      throw std::invalid_argument("speculativeIndexing without a Runtime is not modelled by this port: the "
                                  "speculative entries' TTL runs on the router's simulated clock");
    }
  }

  auto p = std::make_shared<Producer>();
  p->typedName = fwkplugin::TypedName{PluginType, name};
  p->kvCacheIndexerInst = std::make_shared<indexerAdapter>(indexer);
  p->kvBlockScorer = kvBlockScorer;
  p->pool = pool;
  p->kvEventsConfig = *config.KVEventsConfig;
  p->dk = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(name);
  if (config.SpeculativeIndexing) p->speculative.emplace();
  p->speculativeTTL = ttl;
  p->speculativeEnabled = config.SpeculativeIndexing;
  p->blockSizeTokens = tokenProcessor->BlockSize();
  p->runtime = runtime;
  return p;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Consumes
fwkplugin::DataDependencies Producer::Consumes() const {
  return {{{tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}}, {}};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Produces
fwkplugin::DataKeyTypes Producer::Produces() const { return {{dk, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}}; }

// pkg/kvevents/zmq_subscriber.go@71f4f099 zmqSubscriber.addTask
void Producer::AddTask(const std::string& topic, std::uint64_t sequence, const std::string& payload,
                       const std::string& podIdentifier) {
  kvevents::RawMessage msg;
  msg.Topic = topic;
  msg.Sequence = sequence;
  msg.Payload = payload;
  msg.SourceEndpoint = podIdentifier;
  pool->AddTask(msg);
}

// Original to BLIS: see producer.h.
void Producer::AddTypedTask(const engine::KvEventMessage& message, const std::string& podIdentifier) {
  pool->AddTypedTask(message, podIdentifier);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.Produce
std::optional<fwksched::GoError> Producer::Produce(fwksched::InferenceRequest* request,
                                                   const std::vector<fwksched::EndpointPtr>& endpoints) {
  evictExpiredSpeculative();
  std::vector<std::vector<kvblock::BlockHash>> perPromptKeys;
  try {
    perPromptKeys = computeBlockKeys(*kvCacheIndexerInst, request, blockSizeTokens);
  } catch (const std::exception& e) {
    return fwksched::PlainError(std::string("failed to compute block keys: ") + e.what());
  }
  if (perPromptKeys.empty()) return std::nullopt;
  return produceFromBlockKeys(request, endpoints, std::move(perPromptKeys));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.go@71f4f099 Producer.produceFromBlockKeys
std::optional<fwksched::GoError> Producer::produceFromBlockKeys(fwksched::InferenceRequest* request,
                                                                const std::vector<fwksched::EndpointPtr>& endpoints,
                                                                std::vector<std::vector<kvblock::BlockHash>> perPromptKeys) {
  const std::set<std::string> endpointSet = extractEndpointSet(endpoints);

  struct promptLookup {
    const std::vector<kvblock::BlockHash>* keys;
    std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>> keyToPods;
  };

  std::map<std::string, double> aggregatedScores;
  int totalBlocks = 0;
  std::vector<promptLookup> lookups;
  lookups.reserve(perPromptKeys.size());
  for (const auto& blockKeys : perPromptKeys) {
    std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>> keyToPods;
    try {
      keyToPods = kvCacheIndexerInst->KVBlockIndex()->Lookup(blockKeys, endpointSet);
    } catch (const std::exception& e) {
      return fwksched::PlainError(std::string("failed to lookup block keys: ") + e.what());
    }
    std::map<std::string, double> scores;
    try {
      scores = kvBlockScorer->Score(blockKeys, keyToPods);
    } catch (const std::exception& e) {
      return fwksched::PlainError(std::string("failed to score block keys: ") + e.what());
    }
    for (const auto& [pod, score] : scores) aggregatedScores[pod] += score;
    totalBlocks += static_cast<int>(blockKeys.size());
    lookups.push_back(promptLookup{&blockKeys, std::move(keyToPods)});
  }

  for (const auto& ep : endpoints) {
    if (ep == nullptr) continue;
    const fwkdl::EndpointMetadata* md = ep->GetMetadata();
    if (md == nullptr) continue;
    const std::string addr = endpointPodIdentifier(*md);
    auto it = aggregatedScores.find(addr);
    const int matchLen = it == aggregatedScores.end() ? 0 : static_cast<int>(it->second);  // Go: int(float64)
    int cachedBlocks = 0;
    std::map<std::string, int> cachedBlocksByTier;
    for (const auto& lu : lookups) {
      cachedBlocks += matchedBlockCount(*lu.keys, lu.keyToPods, addr);
      for (const auto& [tier, count] : matchedBlockCountByTier(*lu.keys, lu.keyToPods, addr)) cachedBlocksByTier[tier] += count;
    }
    auto info = attrprefix::NewPrefixCacheMatchInfo(matchLen, totalBlocks, blockSizeTokens)
                    ->WithCachedBlockCount(cachedBlocks)
                    ->WithCachedBlocksByTier(std::move(cachedBlocksByTier));
    // (MM match info: never tracked here, the port's prompts carry no multimodal features.)
    ep->Put(dk.String(), info);
  }

  if (speculativeEnabled && request != nullptr) {
    pluginState.Write(request->RequestID, blockKeysStateKey, blockKeysState{std::move(perPromptKeys)});
  }
  return std::nullopt;
}

}  // namespace blis::router::preciseprefixcache
