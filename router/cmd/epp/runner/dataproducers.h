// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers and
// ValidateAndOrderDataDependencies (producers only) for the request data producers this port runs. The port's
// plugins do not implement Go's ProducerPlugin/ConsumerPlugin interfaces, so Produces/Consumes read them by
// type here (extend both when a producer or consumer is ported).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::runner {

// The data keys (DataKey.String()) the plugin produces / requires; empty for plugins of neither kind.
std::vector<std::string> Produces(const fwkplugin::Plugin& p);
std::vector<std::string> Consumes(const fwkplugin::Plugin& p);

// pkg/epp/datalayer/data_graph.go@71f4f099 CreateMissingDataProducers (throws std::invalid_argument with
// upstream's text). Missing keys are visited in key order (Go: map order). Returns the names of the producers
// it created, in creation order.
std::vector<std::string> CreateMissingDataProducers(const fwkplugin::Registry& registry, fwkplugin::Handle& handle);

// pkg/epp/datalayer/data_graph.go@71f4f099 ValidateAndOrderDataDependencies: the producers in an order where
// each runs after the producers of the keys it consumes (ties in name order).
std::vector<std::shared_ptr<fwkplugin::Plugin>> OrderedDataProducers(const fwkplugin::Handle& handle);

}  // namespace blis::router::runner
