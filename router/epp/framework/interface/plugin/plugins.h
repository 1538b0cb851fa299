// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/plugins.go@71f4f099: Plugin,
// DataDependencies, ConsumerPlugin and ProducerPlugin (ReadinessChecker and StateDumper are not ported: readiness
// and debug endpoints are not modelled). Go's map[DataKey]any becomes a std::map of std::any holding the declared
// zero value (its type is what the data-layer DAG compares); Go's nil map is an empty map.
#pragma once

#include <any>
#include <map>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/typedname.h"

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/plugins.go@71f4f099 Plugin
// The interface embedded in all plugins. Derived interfaces inherit it virtually, so one object may be a
// Filter, a Scorer and a Picker at once (as a Go type may implement several interfaces).
class Plugin {
 public:
  virtual ~Plugin() = default;
  // TypedName returns the type and name tuple of this plugin instance.
  virtual fwkplugin::TypedName TypedName() const = 0;
};

// Original to BLIS: Go's map[DataKey]any (a data key to the zero value of the type stored under it).
using DataKeyTypes = std::map<DataKey, std::any>;

// pkg/epp/framework/interface/plugin/plugins.go@71f4f099 DataDependencies
// The data keys a plugin consumes: Required (start-up fails when no producer exists) and Optional (start-up
// only warns; the plugin handles the data's absence).
struct DataDependencies {
  DataKeyTypes Required;
  DataKeyTypes Optional;
};

// pkg/epp/framework/interface/plugin/plugins.go@71f4f099 ConsumerPlugin
// A plugin that reads data other plugins produce (found by dynamic_cast, as Go finds it by type assertion).
class ConsumerPlugin : public virtual Plugin {
 public:
  // Consumes returns the data keys consumed by this plugin, split into Required and Optional.
  virtual DataDependencies Consumes() const = 0;
};

// pkg/epp/framework/interface/plugin/plugins.go@71f4f099 ProducerPlugin
// A plugin that produces data for others.
class ProducerPlugin : public virtual Plugin {
 public:
  // Produces returns the data keys produced, each with the zero value of the type stored under it.
  virtual DataKeyTypes Produces() const = 0;
};

}  // namespace blis::router::fwkplugin
