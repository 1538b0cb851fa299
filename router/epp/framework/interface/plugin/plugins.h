// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/plugins.go@71f4f099; only the Plugin
// interface (ReadinessChecker, DataDependencies, StateDumper, Consumer/ProducerPlugin are not ported: the
// data-layer DAG, readiness and debug endpoints are not modelled).
#pragma once

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

}  // namespace blis::router::fwkplugin
