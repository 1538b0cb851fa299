// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: see dataproducers.h (pkg/epp/datalayer/data_graph.go@71f4f099).
#include "router/cmd/epp/runner/dataproducers.h"

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.h"
#include "router/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.h"
#include "router/epp/framework/plugins/scheduling/filter/utilization/filter.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/activerequest/active_request.h"
#include "router/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.h"
#include "router/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "router/epp/framework/plugins/scheduling/scorer/tokenload/token_load.h"

#include <map>
#include <set>
#include <stdexcept>

#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"

namespace blis::router::runner {
namespace {
// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }
}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Produces,
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 Plugin.Produces
// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.go@71f4f099 Producer.Produces
std::vector<std::string> Produces(const fwkplugin::Plugin& p) {
  if (auto* a = dynamic_cast<const approximateprefix::dataProducer*>(&p)) return {a->dk.String()};
  if (auto* t = dynamic_cast<const tokenizer::Plugin*>(&p)) return {t->ProducedKey().String()};
  if (auto* l = dynamic_cast<const inflightload::InFlightLoadProducer*>(&p)) {
    return {l->dk.String(), l->uncachedRequestTokensDk.String()};
  }
  std::vector<fwkplugin::DataKey> declared;
  if (auto* pp = dynamic_cast<const preciseprefixcache::Producer*>(&p)) declared = pp->Produces();
  if (auto* ps = dynamic_cast<const preciseprefixcachescorer::Plugin*>(&p)) declared = ps->Produces();
  if (!declared.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : declared) keys.push_back(k.String());
    return keys;
  }
  if (auto* s = dynamic_cast<const sessionid::Producer*>(&p)) {
    std::vector<std::string> keys;
    for (const auto& [k, zero] : s->Produces()) keys.push_back(k.String());
    return keys;
  }
  return {};
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 Plugin.Consumes,
// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 dataProducer.Consumes
// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Consumes,
// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Consumes,
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.Consumes,
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.go@71f4f099 PdProfileHandler.Consumes
std::vector<std::string> Consumes(const fwkplugin::Plugin& p) {
  const std::string tokens = tokenizer::TokenizedPromptDataKey().String();
  if (auto* s = dynamic_cast<const prefix::Plugin*>(&p)) return {s->prefixMatchDataKey().String()};
  if (dynamic_cast<const approximateprefix::dataProducer*>(&p)) return {tokens};
  if (auto* n = dynamic_cast<const nohitlru::NoHitLRU*>(&p)) return {n->dataKey().String()};
  if (dynamic_cast<const contextlengthaware::ContextLengthAware*>(&p)) return {tokens};
  if (dynamic_cast<const disagg::Handler*>(&p)) return {attrprefix::PrefixCacheMatchInfoDataKey.String(), tokens};
  if (auto* h = dynamic_cast<const disagg::PdProfileHandler*>(&p)) return {h->dataKey().String(), tokens};
  if (dynamic_cast<const inflightload::InFlightLoadProducer*>(&p)) return {tokens};
  std::vector<fwkplugin::DataKey> keys;
  if (auto* a = dynamic_cast<const activerequest::ActiveRequest*>(&p)) keys = a->Consumes();
  if (auto* t = dynamic_cast<const tokenload::TokenLoadScorer*>(&p)) keys = t->Consumes();
  if (auto* u = dynamic_cast<const utilization::UtilizationFilter*>(&p)) keys = u->Consumes();
  if (auto* c = dynamic_cast<const prefixcacheaffinity::Plugin*>(&p)) keys = c->Consumes();
  if (auto* pp = dynamic_cast<const preciseprefixcache::Producer*>(&p)) keys = pp->Consumes();
  if (auto* ps = dynamic_cast<const preciseprefixcachescorer::Plugin*>(&p)) keys = ps->Consumes();
  std::vector<std::string> out;
  for (const auto& k : keys) out.push_back(k.String());
  return out;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099
// InFlightLoadProducer.Consumes (its Optional dependency): ordered after the prefix producer it reads when
// one is configured, never auto-created for it.
std::vector<std::string> OptionalConsumes(const fwkplugin::Plugin& p) {
  if (auto* l = dynamic_cast<const inflightload::InFlightLoadProducer*>(&p)) return {l->prefixMatchInfoDK.String()};
  return {};
}

namespace {
// pkg/epp/datalayer/data_graph.go@71f4f099 producedKeySet
std::set<std::string> producedKeySet(const fwkplugin::Handle& handle) {
  std::set<std::string> keys;
  for (const auto& p : handle.GetAllPlugins()) {
    for (const auto& k : Produces(*p)) keys.insert(k);
  }
  return keys;
}
}  // namespace

// pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers
std::vector<std::string> CreateMissingDataProducers(const fwkplugin::Registry& registry, fwkplugin::Handle& handle) {
  std::vector<std::string> createdNames;
  while (true) {
    auto producedKeys = producedKeySet(handle);
    std::map<std::string, std::string> missingKeys;
    for (const auto& p : handle.GetAllPlugins()) {
      for (const auto& key : Consumes(*p)) {
        if (!producedKeys.count(key)) missingKeys[key] = p->TypedName().Name;
      }
    }
    if (missingKeys.empty()) break;
    int created = 0;
    for (const auto& [key, consumerName] : missingKeys) {
      auto def = registry.DefaultProducers.find(key);
      if (def == registry.DefaultProducers.end()) {
        fail("no default producer found for missing data key " + key + ", consumed by " + consumerName);
      }
      const std::string& type = def->second;
      if (handle.GetPlugin(type)) continue;
      auto factory = registry.Factories.find(type);
      if (factory == registry.Factories.end()) {
        fail("factory not found for default producer: " + type + ", this is required by datakey: " + key +
             ", which is consumed by: " + consumerName);
      }
      std::shared_ptr<fwkplugin::Plugin> plg;
      try {
        plg = factory->second(type, nullptr, handle);
      } catch (const std::exception& e) {
        fail("failed to instantiate data producer \"" + type + "\": " + e.what() + ", this is required by datakey: " +
             key + ", which is consumed by: " + consumerName);
      }
      if (Produces(*plg).empty()) {
        fail("auto-created default entry \"" + type + "\" is not a ProducerPlugin, this is required by datakey: " + key +
             ", which is consumed by: " + consumerName);
      }
      handle.AddPlugin(plg->TypedName().Name, plg);
      createdNames.push_back(plg->TypedName().Name);
      ++created;
    }
    if (created == 0) break;
  }
  return createdNames;
}

// pkg/epp/datalayer/data_graph.go@71f4f099 ValidateAndOrderDataDependencies (producers; Kahn's order, ties by name)
std::vector<std::shared_ptr<fwkplugin::Plugin>> OrderedDataProducers(const fwkplugin::Handle& handle) {
  std::map<std::string, std::shared_ptr<fwkplugin::Plugin>> producers;
  std::map<std::string, std::string> producerOfKey;
  for (const auto& [name, p] : handle.GetAllPluginsWithNames()) {
    auto keys = Produces(*p);
    if (keys.empty()) continue;
    producers[name] = p;
    for (const auto& k : keys) producerOfKey[k] = name;
  }
  std::vector<std::shared_ptr<fwkplugin::Plugin>> order;
  std::set<std::string> done;
  while (done.size() < producers.size()) {
    bool progressed = false;
    for (const auto& [name, p] : producers) {
      if (done.count(name)) continue;
      bool ready = true;
      auto needs = Consumes(*p);
      for (const auto& k : OptionalConsumes(*p)) needs.push_back(k);
      for (const auto& k : needs) {
        auto it = producerOfKey.find(k);
        if (it != producerOfKey.end() && it->second != name && !done.count(it->second)) ready = false;
      }
      if (!ready) continue;
      order.push_back(p);
      done.insert(name);
      progressed = true;
      break;
    }
    if (!progressed) fail("cycle detected: graph is not a DAG");
  }
  return order;
}

}  // namespace blis::router::runner
