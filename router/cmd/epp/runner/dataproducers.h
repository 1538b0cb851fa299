// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: the runner's use of pkg/epp/datalayer/data_graph.go@71f4f099 (cmd/epp/runner/runner.go@71f4f099
// parseConfigurationPhaseTwo: CreateMissingDataProducers with the registry's maps, then
// ValidateAndOrderDataDependencies and requestcontrol.Config.OrderDataProducerPlugins). The graph itself is
// router/epp/datalayer/data_graph.h; plugins declare their data through fwkplugin::ProducerPlugin /
// ConsumerPlugin.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::runner {

// cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseTwo (its datalayer.CreateMissingDataProducers call
// with fwkplugin.DefaultProducerRegistry and fwkplugin.Registry). Throws std::invalid_argument with upstream's
// text; returns the names of the producers it created, in creation order.
std::vector<std::string> CreateMissingDataProducers(const fwkplugin::Registry& registry, fwkplugin::Handle& handle);

// cmd/epp/runner/runner.go@71f4f099 parseConfigurationPhaseTwo (datalayer.ValidateAndOrderDataDependencies, then
// OrderDataProducerPlugins): the data producers (ProducerPlugins producing at least one key) in an order where
// each runs after the producers of the keys it consumes. Throws std::invalid_argument ("failed to load the
// configuration - ...") where the graph is invalid. See the .cpp for how the order differs from Go's.
std::vector<std::shared_ptr<fwkplugin::Plugin>> OrderedDataProducers(const fwkplugin::Handle& handle);

}  // namespace blis::router::runner
