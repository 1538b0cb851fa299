// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099;
// single-threaded: PreRequest updates the indexer at once (upstream does it in a goroutine the tests wait
// for); the factory takes the decoded config (JSON decoding is the config loader's); the pod-liveness
// ticker goroutine becomes one call (CleanUpInactivePods with the active pods); metrics, logging, the
// plugin handle and DumpState's JSON are not ported (snapshotState is); the multicluster variant
// (multicluster.go) is refused by name; no Go context.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/scheduling/types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.h"

namespace blis::router::approximateprefix {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 ApproxPrefixCachePluginType
inline constexpr std::string_view ApproxPrefixCachePluginType = approxprefixconstants::ApproxPrefixCachePluginType;
// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/multicluster.go@71f4f099 MultiClusterPluginType (refused)
inline constexpr std::string_view MultiClusterPluginType = "multicluster-approx-prefix-cache-producer";

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 minBlockSizeTokens
// The floor applied to GetBlockSize's result. Upstream's package var (lowered by its tests) is the
// per-producer field dataProducer::minBlockSizeTokens here, initialised to this value.
inline constexpr int defaultMinBlockSizeTokens = 64;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 maxDebugDumpPods
inline constexpr int maxDebugDumpPods = 100;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 podBlockCount
struct podBlockCount {
  std::string Pod;
  int Blocks = 0;
  bool operator==(const podBlockCount&) const = default;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 prefixIndexState
// The sanitized snapshot DumpState marshals: per-pod block counts, never the block hashes.
struct prefixIndexState {
  std::vector<podBlockCount> Pods;
  int TotalPods = 0;
  int MaxPods = 0;
  bool operator==(const prefixIndexState&) const = default;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer
// Before scheduling, Produce hashes the request's tokenized prompt into blocks and writes on every
// candidate endpoint the PrefixCacheMatchInfo (matched blocks, total blocks, block size) the prefix-cache
// scorer reads; after the pick, PreRequest records the chosen endpoint's blocks in the indexer.
class dataProducer final : public fwkplugin::ProducerPlugin, public fwkplugin::ConsumerPlugin {
 public:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Produces
  fwkplugin::DataKeyTypes Produces() const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Consumes
  // TokenizedPrompt, Required (the token producer runs first and is auto-created when none is configured).
  fwkplugin::DataDependencies Consumes() const override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Produce
  // Upstream's error result is always nil. An endpoint without metadata (a nil dereference upstream) is
  // refused with std::invalid_argument.
  void Produce(const fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& pods);

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.PreRequest
  // Adds the request's block hashes to the indexer for the primary profile's first target endpoint (and
  // the "prefill" profile's, when present), then deletes the request's plugin state. Returns without
  // recording when the primary profile picked nothing or Produce left no state for the request. A primary
  // profile result that is missing or nullptr (a nil dereference upstream) is refused with
  // std::invalid_argument.
  void PreRequest(const fwksched::InferenceRequest* request, const fwksched::SchedulingResult& schedulingResult);

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.CleanUpInactivePods
  // One tick of upstream's ticker loop: removes from the indexer every pod not in podNames.
  void CleanUpInactivePods(const std::vector<fwkdl::NamespacedName>& podNames);

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.GetBlockSize
  int GetBlockSize(const std::vector<fwksched::EndpointPtr>& endpoints) const;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.indexer
  indexerInterface* indexer() const { return indexerInst.get(); }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.PluginState
  fwkplugin::PluginState& PluginState() { return pluginState; }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.snapshotState
  prefixIndexState snapshotState() const;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.resolveMaxBlocks
  int resolveMaxBlocks(int blockSize) const { return approximateprefix::resolveMaxBlocks(config, blockSize); }

  // The attribute key Produce writes (Go's dk.String()).
  std::string AttributeKey() const { return dk.String(); }

  // Go's unexported fields, which upstream's in-package tests read.
  fwkplugin::TypedName typedName;
  approximateprefix::config config;
  std::unique_ptr<indexerInterface> indexerInst;
  fwkplugin::PluginState pluginState;
  fwkplugin::DataKey dk;
  int minBlockSizeTokens = defaultMinBlockSizeTokens;

 private:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.makeserver
  server makeserver(const fwksched::Endpoint& targetEndpoint) const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.matchLongestPrefix
  std::map<ServerID, int> matchLongestPrefix(const std::vector<blockHash>& hashes) const;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 newDataProducer
// Throws std::invalid_argument with upstream's message for an invalid config.
std::shared_ptr<dataProducer> newDataProducer(const std::string& name, const approximateprefix::config& cfg);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 ApproxPrefixCacheFactory
// parameters: the decoded config (std::nullopt for Go's nil decoder: defaultConfig). The deprecated
// BlockSize is mapped into BlockSizeTokens when that is left at its default, then cleared.
std::shared_ptr<dataProducer> ApproxPrefixCacheFactory(const std::string& name,
                                                       const std::optional<approximateprefix::config>& parameters);

// The factory of MultiClusterPluginType: always throws std::invalid_argument (not modelled).
[[noreturn]] void MultiClusterApproxPrefixCacheFactory(const std::string& name);

}  // namespace blis::router::approximateprefix
