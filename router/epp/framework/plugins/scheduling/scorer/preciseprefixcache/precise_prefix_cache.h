// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099
// (PrecisePrefixCachePluginType, PluginConfig, Plugin, PluginFactory, findExistingPreciseProducer, anyMMHit) and
// legacy_producer.go@71f4f099 (newLegacyProducer without its tokenizer pool: indexerConfig.tokenizersPoolConfig
// needs a real tokenizer and is refused by name; the legacy producer is then the plain producer, as upstream's
// without a pool). Not ported: the deprecation log line, tracing spans (Score only delegates), EndpointExtractor
// (Extract; see the producer), no Go context.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"

// Namespace preciseprefixcachescorer: the Go package is also named preciseprefixcache (the producer's), so the
// scorer's package takes a distinct C++ namespace.
namespace blis::router::preciseprefixcachescorer {

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 PrecisePrefixCachePluginType
inline constexpr const char* PrecisePrefixCachePluginType = "precise-prefix-cache-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 PluginConfig
// (its fields forward verbatim to the producer's PluginConfig, so it is that struct).
using PluginConfig = preciseprefixcache::PluginConfig;

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin
// A precise-prefix-cache-producer and a prefix-cache-scorer behind one plugin (Scorer, DataProducer and
// PreRequest by delegation). Deprecated upstream: configure the two plugins directly.
class Plugin final : public fwksched::Scorer,
                     public requestcontrol::DataProducer,
                     public requestcontrol::PreRequestPlugin,
                     public fwkplugin::ProducerPlugin,
                     public fwkplugin::ConsumerPlugin {
 public:
  Plugin(fwkplugin::TypedName typedName, std::shared_ptr<preciseprefixcache::Producer> producer,
         std::shared_ptr<prefix::Plugin> scorer, std::string matchInfoKey)
      : typedName_(std::move(typedName)),
        producer_(std::move(producer)),
        scorer_(std::move(scorer)),
        matchInfoKey_(std::move(matchInfoKey)) {}

  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Category
  fwksched::ScorerCategory Category() const override { return scorer_->Category(); }
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request, const std::vector<fwksched::EndpointPtr>& endpoints) override {
    return scorer_->Score(request, endpoints);
  }
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Produces
  fwkplugin::DataKeyTypes Produces() const override { return producer_->Produces(); }
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Consumes
  // The union of the producer's (TokenizedPrompt) and the inner scorer's (its PrefixCacheMatchInfo key)
  // dependencies, Required and Optional each.
  fwkplugin::DataDependencies Consumes() const override;
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Produce
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest* request,
                                           const std::vector<fwksched::EndpointPtr>& endpoints) override {
    return producer_->Produce(request, endpoints);
  }
  // pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.PreRequest
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* result) override {
    return producer_->PreRequest(request, result);
  }

  // The inner producer: the host feeds its KV events through Producer()->AddTask (see producer.h).
  const std::shared_ptr<preciseprefixcache::Producer>& Producer() const { return producer_; }
  const std::shared_ptr<prefix::Plugin>& Scorer() const { return scorer_; }
  const std::string& matchInfoKey() const { return matchInfoKey_; }

 private:
  fwkplugin::TypedName typedName_;
  std::shared_ptr<preciseprefixcache::Producer> producer_;
  std::shared_ptr<prefix::Plugin> scorer_;
  std::string matchInfoKey_;
};

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 PluginFactory
// (fwkplugin::FactoryFunc). With one precise-prefix-cache-producer in the handle: a prefix::Plugin (the
// prefix-cache-scorer) bound to it, the parameters ignored. Otherwise a Plugin over an internal producer and
// scorer, both named `name`. Throws fwkplugin::PluginError with upstream's texts.
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 findExistingPreciseProducer
// nullptr when none; throws fwkplugin::PluginError when more than one (in the handle's name order).
std::shared_ptr<preciseprefixcache::Producer> findExistingPreciseProducer(const fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 anyMMHit
// (hit, tracked): tracked when some endpoint's PrefixCacheMatchInfo under key carries MM info; hit when one
// of those has MatchBlocks > 0.
std::pair<bool, bool> anyMMHit(const std::vector<fwksched::EndpointPtr>& endpoints, const std::string& key);

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/legacy_producer.go@71f4f099 newLegacyProducer
// Throws std::invalid_argument for indexerConfig.tokenizersPoolConfig (the wrapper-owned tokenizer pool).
std::shared_ptr<preciseprefixcache::Producer> newLegacyProducer(Runtime* runtime, const std::string& name,
                                                                preciseprefixcache::PluginConfig cfg);

}  // namespace blis::router::preciseprefixcachescorer
