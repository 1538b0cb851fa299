// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099
// and legacy_producer.go@71f4f099; see precise_prefix_cache.h.
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"

#include <stdexcept>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/config_json.h"

namespace blis::router::preciseprefixcachescorer {

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 findExistingPreciseProducer
std::shared_ptr<preciseprefixcache::Producer> findExistingPreciseProducer(const fwkplugin::Handle& handle) {
  std::shared_ptr<preciseprefixcache::Producer> found;
  for (const auto& p : handle.GetAllPlugins()) {
    auto prod = std::dynamic_pointer_cast<preciseprefixcache::Producer>(p);
    if (!prod) continue;
    if (found) {
      throw fwkplugin::PluginError(
          "multiple precise-prefix-cache-producer instances configured (" + found->TypedName().String() + ", " +
          prod->TypedName().String() +
          "); precise-prefix-cache-scorer cannot disambiguate — configure prefix-cache-scorer directly with an "
          "explicit prefixMatchInfoProducerName");
    }
    found = prod;
  }
  return found;
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/legacy_producer.go@71f4f099 newLegacyProducer
std::shared_ptr<preciseprefixcache::Producer> newLegacyProducer(Runtime* runtime, const std::string& name,
                                                                preciseprefixcache::PluginConfig cfg) {
  if (cfg.IndexerConfig.has_value() && cfg.IndexerConfig->TokenizersPoolConfig) {
    throw std::invalid_argument("indexerConfig.tokenizersPoolConfig (the precise-prefix-cache-scorer's own tokenizer "
                                "pool) is not modelled by this port: it needs a real tokenizer; configure a "
                                "token-producer, which gives the requests' token IDs");
  }
  return preciseprefixcache::New(runtime, name, std::move(cfg));
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 PluginFactory
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle& handle) {
  // (The DEPRECATION log line is not ported.)
  std::shared_ptr<preciseprefixcache::Producer> existing = findExistingPreciseProducer(handle);
  if (existing) return prefix::New(name, existing->TypedName().Name);

  // Self-host: defaults first, then overlay the operator's parameters.
  PluginConfig legacy;
  legacy.IndexerConfig = kvcache::NewDefaultConfig();
  legacy.KVEventsConfig = kvevents::DefaultConfig();
  try {
    preciseprefixcache::DecodePluginConfig(parameters, legacy, "preciseprefixcache.PluginConfig");
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse ") + PrecisePrefixCachePluginType + " config: " + e.what());
  }

  std::shared_ptr<preciseprefixcache::Producer> producer;
  try {
    producer = newLegacyProducer(&handle.Context(), name, std::move(legacy));
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw fwkplugin::PluginError(std::string("failed to create internal producer for ") + PrecisePrefixCachePluginType +
                                 ": " + e.what());
  }
  std::shared_ptr<prefix::Plugin> scorer = prefix::New(name, name);
  return std::make_shared<Plugin>(fwkplugin::TypedName{PrecisePrefixCachePluginType, name}, producer, scorer,
                                  attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(name).String());
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 Plugin.Consumes
fwkplugin::DataDependencies Plugin::Consumes() const {
  fwkplugin::DataDependencies merged;
  for (const auto& dep : {producer_->Consumes(), scorer_->Consumes()}) {
    for (const auto& [k, v] : dep.Required) merged.Required[k] = v;
    for (const auto& [k, v] : dep.Optional) merged.Optional[k] = v;
  }
  return merged;
}

// pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099 anyMMHit
std::pair<bool, bool> anyMMHit(const std::vector<fwksched::EndpointPtr>& endpoints, const std::string& key) {
  bool tracked = false;
  for (const auto& ep : endpoints) {
    if (ep == nullptr) continue;
    fwkdl::CloneablePtr v = ep->Get(key);
    if (v == nullptr) continue;
    auto info = std::dynamic_pointer_cast<const attrprefix::PrefixCacheMatchInfo>(v);
    if (info == nullptr) continue;
    const auto& mm = info->MM();
    if (!mm.has_value()) continue;
    tracked = true;
    if (mm->MatchBlocks > 0) return {true, true};
  }
  return {false, tracked};
}

}  // namespace blis::router::preciseprefixcachescorer
