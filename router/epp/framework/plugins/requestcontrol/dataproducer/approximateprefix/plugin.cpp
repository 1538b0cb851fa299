// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099;
// see plugin.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/prefixhash/hashing.h"
#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router::approximateprefix {
namespace {

// Original to BLIS: Go's ServerID(pod.GetMetadata().ID) in Produce and makeserver; a nil metadata is a
// nil dereference upstream.
ServerID serverIDOf(const fwksched::Endpoint& endpoint) {
  const fwkdl::EndpointMetadata* meta = endpoint.GetMetadata();
  if (meta == nullptr) {
    throw std::invalid_argument("approx-prefix-cache-producer: endpoint has no metadata (a nil dereference upstream)");
  }
  return ServerID{meta->ID.Namespace, meta->ID.Name};
}

}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 newDataProducer
std::shared_ptr<dataProducer> newDataProducer(const std::string& name, const approximateprefix::config& cfg) {
  if (!cfg.AutoTune && cfg.BlockSizeTokens <= 0) {
    throw std::invalid_argument(
        "invalid configuration: BlockSizeTokens must be > 0 when AutoTune is disabled (current value: " +
        std::to_string(cfg.BlockSizeTokens) + ")");
  }
  if (cfg.MaxPrefixTokensToMatch < 0) {
    throw std::invalid_argument("invalid configuration: MaxPrefixTokensToMatch must be >= 0 (current value: " +
                                std::to_string(cfg.MaxPrefixTokensToMatch) + ")");
  }
  auto p = std::make_shared<dataProducer>();
  p->typedName = fwkplugin::TypedName{std::string(ApproxPrefixCachePluginType), name};
  p->config = cfg;
  p->indexerInst = newIndexer(cfg.LRUCapacityPerServer, name, std::string(ApproxPrefixCachePluginType));
  p->dk = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(name);
  return p;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 ApproxPrefixCacheFactory
std::shared_ptr<dataProducer> ApproxPrefixCacheFactory(const std::string& name,
                                                       const std::optional<approximateprefix::config>& parameters) {
  approximateprefix::config cfg = parameters.value_or(defaultConfig);
  // Deprecated 'blockSize' is accepted and mapped to 'blockSizeTokens'.
  if (cfg.BlockSize > 0) {
    if (cfg.BlockSizeTokens == defaultBlockSizeTokens) cfg.BlockSizeTokens = cfg.BlockSize;
    cfg.BlockSize = 0;
  }
  return newDataProducer(name, cfg);
}

// Original to BLIS: the refusal of multicluster.go's cluster-scoped producer (not modelled).
void MultiClusterApproxPrefixCacheFactory(const std::string& name) {
  throw std::invalid_argument(std::string(MultiClusterPluginType) + " (" + name +
                              ") is not modelled by this port: the cluster-scoped producer indexes multicluster "
                              "endpoints, which the simulator does not model");
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.CleanUpInactivePods
void dataProducer::CleanUpInactivePods(const std::vector<fwkdl::NamespacedName>& podNames) {
  std::set<ServerID> activePods;
  for (const auto& nsn : podNames) activePods.insert(ServerID{nsn.Namespace, nsn.Name});
  for (const ServerID& pod : indexerInst->Pods()) {
    if (!activePods.contains(pod)) indexerInst->RemovePod(pod);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.snapshotState
prefixIndexState dataProducer::snapshotState() const {
  prefixIndexState state;
  state.MaxPods = maxDebugDumpPods;
  if (indexerInst == nullptr) return state;
  const std::map<ServerID, int> counts = indexerInst->PodBlockCounts();
  state.TotalPods = static_cast<int>(counts.size());
  for (const auto& [pod, blocks] : counts) state.Pods.push_back(podBlockCount{pod.String(), blocks});
  std::stable_sort(state.Pods.begin(), state.Pods.end(), [](const podBlockCount& a, const podBlockCount& b) {
    if (a.Blocks != b.Blocks) return a.Blocks > b.Blocks;
    return a.Pod < b.Pod;
  });
  if (state.Pods.size() > static_cast<std::size_t>(maxDebugDumpPods)) state.Pods.resize(maxDebugDumpPods);
  return state;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Produces
fwkplugin::DataKeyTypes dataProducer::Produces() const { return {{dk, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}}; }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Consumes
fwkplugin::DataDependencies dataProducer::Consumes() const {
  return {{{tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}}, {}};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Produce
void dataProducer::Produce(const fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& pods) {
  const int blockSize = GetBlockSize(pods);
  std::vector<std::vector<blockHash>> perPromptHashes =
      prefixhash::GetBlockHashes(request, blockSize, resolveMaxBlocks(blockSize));

  std::map<ServerID, int> prefixCacheServers;
  int totalBlocks = 0;
  for (const auto& hashes : perPromptHashes) {
    for (const auto& [srv, matchLen] : matchLongestPrefix(hashes)) prefixCacheServers[srv] += matchLen;
    totalBlocks += static_cast<int>(hashes.size());
  }

  for (const fwksched::EndpointPtr& pod : pods) {
    auto it = prefixCacheServers.find(serverIDOf(*pod));
    const int matchLen = it == prefixCacheServers.end() ? 0 : it->second;
    pod->Put(dk.String(), attrprefix::NewPrefixCacheMatchInfo(matchLen, totalBlocks, blockSize));
  }

  SchedulingContextState state;
  state.PerPromptHashes = std::move(perPromptHashes);
  state.PrefixCacheServers = std::move(prefixCacheServers);
  // Go: request.RequestID (a nil request is a nil dereference upstream).
  if (request == nullptr) throw std::invalid_argument("approx-prefix-cache-producer: nil request");
  pluginState.Write(request->RequestID, typedName.Name, std::move(state));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.PreRequest
void dataProducer::PreRequest(const fwksched::InferenceRequest* request,
                              const fwksched::SchedulingResult& schedulingResult) {
  if (request == nullptr) throw std::invalid_argument("approx-prefix-cache-producer: nil request");
  // Delete the state to avoid memory leak (Go defers it; here the state is read first, then deleted).
  const std::optional<SchedulingContextState> state =
      fwkplugin::ReadPluginStateKey<SchedulingContextState>(pluginState, request->RequestID, typedName.Name);
  pluginState.Delete(request->RequestID);

  auto primary = schedulingResult.ProfileResults.find(schedulingResult.PrimaryProfileName);
  if (primary == schedulingResult.ProfileResults.end() || primary->second == nullptr) {
    throw std::invalid_argument("approx-prefix-cache-producer: no result for the primary profile \"" +
                                schedulingResult.PrimaryProfileName + "\" (a nil dereference upstream)");
  }
  const fwksched::ProfileRunResult& primaryProfileResult = *primary->second;
  if (primaryProfileResult.TargetEndpoints.empty()) return;

  const fwksched::EndpointPtr& targetEndpoint = primaryProfileResult.TargetEndpoints[0];
  std::vector<server> servers = {makeserver(*targetEndpoint)};

  // Also record for prefill node if present in P/D disaggregated mode.
  auto pr = schedulingResult.ProfileResults.find(std::string(experimentalDefaultPrefillProfile));
  if (pr != schedulingResult.ProfileResults.end() && pr->second != nullptr && !pr->second->TargetEndpoints.empty()) {
    servers.push_back(makeserver(*pr->second->TargetEndpoints[0]));
  }

  // Read state saved during Produce (upstream logs the error and returns nil).
  if (!state.has_value()) return;

  // Upstream updates the indexer in a goroutine; here at once.
  for (const server& s : servers) {
    for (const auto& hashes : state->PerPromptHashes) indexerInst->Add(hashes, s);
  }
  // The prefix-cache-match metric upstream records here is not ported.
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.makeserver
server dataProducer::makeserver(const fwksched::Endpoint& targetEndpoint) const {
  int gpuBlocks = defaultLRUCapacityPerServer;
  const fwkdl::Metrics* metrics = targetEndpoint.GetMetrics();
  if (config.AutoTune && metrics != nullptr && metrics->CacheNumBlocks > 0) {
    gpuBlocks = metrics->CacheNumBlocks;
  } else if (config.LRUCapacityPerServer > 0) {
    gpuBlocks = config.LRUCapacityPerServer;
  }
  return server{serverIDOf(targetEndpoint), gpuBlocks};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.matchLongestPrefix
std::map<ServerID, int> dataProducer::matchLongestPrefix(const std::vector<blockHash>& hashes) const {
  std::map<ServerID, int> res;
  // Use a greedy strategy to search from the longest prefix.
  for (const blockHash hash : hashes) {
    const podSet cachedServers = indexerInst->Get(hash);
    if (cachedServers.empty()) break;
    for (const ServerID& srv : cachedServers) res[srv]++;
  }
  return res;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.GetBlockSize
int dataProducer::GetBlockSize(const std::vector<fwksched::EndpointPtr>& endpoints) const {
  int blockSize = config.BlockSizeTokens;
  if (config.AutoTune && !endpoints.empty()) {
    if (const fwkdl::Metrics* m = endpoints[0]->GetMetrics(); m != nullptr) {
      if (const int metric = m->CacheBlockSize; metric > 0) blockSize = metric;
    }
  }
  if (blockSize < minBlockSizeTokens) return minBlockSizeTokens;
  return blockSize;
}

}  // namespace blis::router::approximateprefix
