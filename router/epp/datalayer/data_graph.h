// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/datalayer/data_graph.go@71f4f099; all of it but logging (the
// "auto-created default producer" line becomes the returned names, the optional-key warning is not written)
// and the flow-control layer (no FairnessPolicy/OrderingPolicy is ported). Go's errors are thrown as
// std::invalid_argument with their texts. Go's maps are ordered here, so the missing keys, the DAG's edges and
// the first matching key of a producer/consumer pair are visited in key order where Go's order is random.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::datalayer {

// pkg/epp/datalayer/runtime.go@71f4f099 ErrNoDefaultProducer (its text)
inline constexpr const char* ErrNoDefaultProducer = "no default producer found for missing data key";

// pkg/epp/datalayer/data_graph.go@71f4f099 FlowControlLayer, RequestControlLayer, SchedulingLayer, DefaultLayer
// The layers' execution order (lower runs earlier); DefaultLayer for plugins of no known layer.
inline constexpr int FlowControlLayer = 0;
inline constexpr int RequestControlLayer = 1;
inline constexpr int SchedulingLayer = 2;
inline constexpr int DefaultLayer = -1;

// pkg/epp/datalayer/data_graph.go@71f4f099 ValidateAndOrderDataDependencies
// The names (TypedName().String()) of the producers and consumers among plugins, in an order where each runs
// after the producers of its Required keys. Throws when the graph has a cycle, a produced and consumed type
// differ, or a producer's layer runs after its consumer's.
std::vector<std::string> ValidateAndOrderDataDependencies(const std::vector<std::shared_ptr<fwkplugin::Plugin>>& plugins);

// pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers
// Instantiates (with no parameters) the default producer of every Required key no plugin on the handle
// produces, and adds it to the handle; transitively, until no Required key is missing or nothing more can be
// created. Optional keys never create a producer nor fail. defaultProducerRegistry maps a key
// (DataKey.String()) to its default producer's type; factoryRegistry maps a type to its factory. Returns the
// names of the producers created, in creation order (Go logs each).
std::vector<std::string> CreateMissingDataProducers(const std::map<std::string, std::string>& defaultProducerRegistry,
                                                    const std::map<std::string, fwkplugin::FactoryFunc>& factoryRegistry,
                                                    fwkplugin::Handle& handle);

// pkg/epp/datalayer/data_graph.go@71f4f099 producedKeySet
// The keys (DataKey.String()) the ProducerPlugins on the handle produce.
std::map<std::string, bool> producedKeySet(const fwkplugin::Handle& handle);

// pkg/epp/datalayer/data_graph.go@71f4f099 pluginToLayerExecutionOrder
// The plugin's layer: RequestControlLayer for a DataProducer, PreRequest or ResponseHeaderProcessor,
// SchedulingLayer for a ProfileHandler, Filter, Scorer or Picker, else DefaultLayer. (FlowControlLayer is
// never returned: no flow-control policy is ported; Admitter is not ported either.)
int pluginToLayerExecutionOrder(const fwkplugin::Plugin& plugin);

// pkg/epp/datalayer/data_graph.go@71f4f099 buildDAG
// The dependency graph by plugin name: each consumer's entry lists the producers of its Required keys (an
// edge from consumer to producer). Throws on a produced/consumed type mismatch or a layer-order violation.
std::map<std::string, std::vector<std::string>> buildDAG(
    const std::map<std::string, std::shared_ptr<fwkplugin::ProducerPlugin>>& producers,
    const std::map<std::string, std::shared_ptr<fwkplugin::ConsumerPlugin>>& consumers);

}  // namespace blis::router::datalayer
