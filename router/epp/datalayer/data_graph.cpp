// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: see data_graph.h (pkg/epp/datalayer/data_graph.go@71f4f099). Producers and consumers are
// found by dynamic_cast to fwkplugin::ProducerPlugin / ConsumerPlugin, as Go finds them by type assertion; the
// declared types are compared by std::any::type() where Go compares reflect.TypeOf.
#include "router/epp/datalayer/data_graph.h"

#include <stdexcept>

#include "router/epp/config/loader/configloader.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::datalayer {
namespace {
// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }
}  // namespace

// pkg/epp/datalayer/data_graph.go@71f4f099 ValidateAndOrderDataDependencies
std::vector<std::string> ValidateAndOrderDataDependencies(const std::vector<std::shared_ptr<fwkplugin::Plugin>>& plugins) {
  std::map<std::string, std::shared_ptr<fwkplugin::Plugin>> pluginMap;
  for (const auto& p : plugins) pluginMap[p->TypedName().String()] = p;
  std::map<std::string, std::shared_ptr<fwkplugin::ProducerPlugin>> producers;
  std::map<std::string, std::shared_ptr<fwkplugin::ConsumerPlugin>> consumers;
  for (const auto& [name, p] : pluginMap) {
    if (auto producer = std::dynamic_pointer_cast<fwkplugin::ProducerPlugin>(p)) producers[name] = producer;
    if (auto consumer = std::dynamic_pointer_cast<fwkplugin::ConsumerPlugin>(p)) consumers[name] = consumer;
  }
  // Topologically sort the DAG to determine the order of plugin execution.
  return loader::TopologicalSort(buildDAG(producers, consumers));
}

// pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers
std::vector<std::string> CreateMissingDataProducers(const std::map<std::string, std::string>& defaultProducerRegistry,
                                                    const std::map<std::string, fwkplugin::FactoryFunc>& factoryRegistry,
                                                    fwkplugin::Handle& handle) {
  std::vector<std::string> createdNames;
  while (true) {
    const auto producedKeys = producedKeySet(handle);
    // The keys consumed (Required) but not yet produced, each with (the last) consumer's name.
    std::map<std::string, std::string> missingKeys;
    for (const auto& p : handle.GetAllPlugins()) {
      auto consumer = std::dynamic_pointer_cast<fwkplugin::ConsumerPlugin>(p);
      if (!consumer) continue;
      for (const auto& [key, zero] : consumer->Consumes().Required) {
        if (!producedKeys.count(key.String())) missingKeys[key.String()] = consumer->TypedName().Name;
      }
    }
    if (missingKeys.empty()) break;

    int created = 0;
    for (const auto& [key, consumerName] : missingKeys) {
      auto def = defaultProducerRegistry.find(key);
      if (def == defaultProducerRegistry.end()) {
        fail(std::string(ErrNoDefaultProducer) + " " + key + ", consumed by " + consumerName);
      }
      const std::string& defaultProducerNameOrType = def->second;
      // Already created: a producer may produce several keys.
      if (handle.GetPlugin(defaultProducerNameOrType)) continue;
      auto factory = factoryRegistry.find(defaultProducerNameOrType);
      if (factory == factoryRegistry.end()) {
        fail("factory not found for default producer: " + defaultProducerNameOrType +
             ", this is required by datakey: " + key + ", which is consumed by: " + consumerName);
      }
      std::shared_ptr<fwkplugin::Plugin> plg;
      try {
        // No parameters: this is the default instantiation.
        plg = factory->second(defaultProducerNameOrType, nullptr, handle);
      } catch (const std::exception& e) {
        fail("failed to instantiate data producer \"" + defaultProducerNameOrType + "\": " + e.what() +
             ", this is required by datakey: " + key + ", which is consumed by: " + consumerName);
      }
      if (!std::dynamic_pointer_cast<fwkplugin::ProducerPlugin>(plg)) {
        fail("auto-created default entry \"" + defaultProducerNameOrType +
             "\" is not a ProducerPlugin, this is required by datakey: " + key + ", which is consumed by: " +
             consumerName);
      }
      handle.AddPlugin(plg->TypedName().Name, plg);
      createdNames.push_back(plg->TypedName().Name);
      ++created;
    }
    // No progress despite missing keys (every default already present): stop rather than loop.
    if (created == 0) break;
  }
  // Go then logs a warning for each Optional key still without a producer (no error); logging is not ported.
  return createdNames;
}

// pkg/epp/datalayer/data_graph.go@71f4f099 producedKeySet
std::map<std::string, bool> producedKeySet(const fwkplugin::Handle& handle) {
  std::map<std::string, bool> producedKeys;
  for (const auto& p : handle.GetAllPlugins()) {
    if (auto producer = std::dynamic_pointer_cast<fwkplugin::ProducerPlugin>(p)) {
      for (const auto& [key, zero] : producer->Produces()) producedKeys[key.String()] = true;
    }
  }
  return producedKeys;
}

// pkg/epp/datalayer/data_graph.go@71f4f099 pluginToLayerExecutionOrder
int pluginToLayerExecutionOrder(const fwkplugin::Plugin& plugin) {
  // Flow control plugins (FairnessPolicy, OrderingPolicy): not ported.

  // Request control plugins (Admitter is not ported).
  if (dynamic_cast<const requestcontrol::DataProducer*>(&plugin)) return RequestControlLayer;
  if (dynamic_cast<const requestcontrol::PreRequestPlugin*>(&plugin)) return RequestControlLayer;
  if (dynamic_cast<const requestcontrol::ResponseHeaderProcessor*>(&plugin)) return RequestControlLayer;

  // Scheduling plugins.
  if (dynamic_cast<const fwksched::ProfileHandler*>(&plugin)) return SchedulingLayer;
  if (dynamic_cast<const fwksched::FilterPlugin*>(&plugin)) return SchedulingLayer;
  if (dynamic_cast<const fwksched::Scorer*>(&plugin)) return SchedulingLayer;
  if (dynamic_cast<const fwksched::Picker*>(&plugin)) return SchedulingLayer;

  // A plugin of no known layer.
  return DefaultLayer;
}

// pkg/epp/datalayer/data_graph.go@71f4f099 buildDAG
std::map<std::string, std::vector<std::string>> buildDAG(
    const std::map<std::string, std::shared_ptr<fwkplugin::ProducerPlugin>>& producers,
    const std::map<std::string, std::shared_ptr<fwkplugin::ConsumerPlugin>>& consumers) {
  std::map<std::string, std::vector<std::string>> dag;
  for (const auto& [name, producer] : producers) dag[producer->TypedName().String()];
  for (const auto& [name, consumer] : consumers) dag[consumer->TypedName().String()];
  for (const auto& [pName, producer] : producers) {
    const fwkplugin::DataKeyTypes produced = producer->Produces();
    for (const auto& [cName, consumer] : consumers) {
      if (pName == cName) continue;
      const fwkplugin::DataDependencies dependencies = consumer->Consumes();
      for (const auto& [producedKey, producedData] : produced) {
        auto consumed = dependencies.Required.find(producedKey);
        if (consumed == dependencies.Required.end()) continue;
        if (producedData.type() != consumed->second.type()) {
          fail("data type mismatch between produced and consumed data for key: " + producedKey.String());
        }
        if (pluginToLayerExecutionOrder(*producer) > pluginToLayerExecutionOrder(*consumer)) {
          fail("invalid plugin layer execution order: producer " + pName + " needs to be executed before consumer " +
               cName);
        }
        // The consumer depends on the producer: an edge from consumer to producer.
        dag[cName].push_back(pName);
        break;
      }
    }
  }
  return dag;
}

}  // namespace blis::router::datalayer
