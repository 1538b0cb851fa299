// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: see dataproducers.h (cmd/epp/runner/runner.go@71f4f099, pkg/epp/datalayer/data_graph.go@71f4f099).
#include "router/cmd/epp/runner/dataproducers.h"

#include <map>
#include <set>
#include <stdexcept>

#include "router/epp/datalayer/data_graph.h"

namespace blis::router::runner {
namespace {
// Original to BLIS: runner.go's wrapping of a ValidateAndOrderDataDependencies error.
[[noreturn]] void failConfiguration(const std::string& text) {
  throw std::invalid_argument("failed to load the configuration - " + text);
}
}  // namespace

// cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseTwo (datalayer.CreateMissingDataProducers)
std::vector<std::string> CreateMissingDataProducers(const fwkplugin::Registry& registry, fwkplugin::Handle& handle) {
  return datalayer::CreateMissingDataProducers(registry.DefaultProducers, registry.Factories, handle);
}

// cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseTwo (ValidateAndOrderDataDependencies,
// OrderDataProducerPlugins). The graph is validated as upstream does; the order is then taken over the
// producers alone with ties in name order (Go's order among independent producers is its maps' random order),
// and a producer also runs after the producer of an Optional key it consumes (upstream's DAG has edges for
// Required keys only), so that the in-flight load producer reads the prefix match info the configured prefix
// producer wrote for the same request.
std::vector<std::shared_ptr<fwkplugin::Plugin>> OrderedDataProducers(const fwkplugin::Handle& handle) {
  try {
    datalayer::ValidateAndOrderDataDependencies(handle.GetAllPlugins());
  } catch (const std::invalid_argument& e) {
    failConfiguration(e.what());
  }
  std::map<std::string, std::shared_ptr<fwkplugin::ProducerPlugin>> producers;
  std::map<std::string, std::string> producerOfKey;
  for (const auto& [name, p] : handle.GetAllPluginsWithNames()) {
    auto producer = std::dynamic_pointer_cast<fwkplugin::ProducerPlugin>(p);
    if (!producer) continue;
    const auto produced = producer->Produces();
    if (produced.empty()) continue;
    producers[name] = producer;
    for (const auto& [key, zero] : produced) producerOfKey[key.String()] = name;
  }
  std::vector<std::shared_ptr<fwkplugin::Plugin>> order;
  std::set<std::string> done;
  while (done.size() < producers.size()) {
    bool progressed = false;
    for (const auto& [name, p] : producers) {
      if (done.count(name)) continue;
      std::vector<std::string> needs;
      if (auto consumer = std::dynamic_pointer_cast<fwkplugin::ConsumerPlugin>(p)) {
        const auto deps = consumer->Consumes();
        for (const auto& [key, zero] : deps.Required) needs.push_back(key.String());
        for (const auto& [key, zero] : deps.Optional) needs.push_back(key.String());
      }
      bool ready = true;
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
    if (!progressed) failConfiguration("cycle detected: graph is not a DAG");
  }
  return order;
}

}  // namespace blis::router::runner
