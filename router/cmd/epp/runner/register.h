// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins (for the plugins this
// port models) and the FactoryFunc adapters that decode each plugin's parameters as Go's StrictDecoder does
// into the ported typed factories; PluginSurface lists every type runner.go registers with the port's status.
// Servers, metrics, Kubernetes and tracing are not ported.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::runner {

// cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins: the Register calls for the modelled types (one line
// each in register.cpp; adding a plugin is one more line there and its PluginSurface entry set to modelled).
void RegisterInTreePlugins(fwkplugin::Registry& registry);
// cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins: the filters, scorers, profile handlers, deciders and
// producers ported after register.cpp's (register_more.cpp); RegisterInTreePlugins calls it.
void RegisterMorePlugins(fwkplugin::Registry& registry);

// Original to BLIS: one plugin type runner.go@71f4f099 registers, and whether this port runs it.
struct SurfaceEntry {
  std::string Type;
  std::string Status;  // "modelled" or "refused"
  std::string Reason;  // why refused, or for a modelled type that decides nothing here, why that is faithful
};

// Original to BLIS: every plugin type registerInTreePlugins registers, in runner.go's order, with its status
// in `registry`: a type the registry holds is "modelled" (whatever the table's default says), so porting a
// plugin needs only its Register line in RegisterInTreePlugins.
std::vector<SurfaceEntry> PluginSurface(const fwkplugin::Registry& registry);

// Original to BLIS: throws std::invalid_argument naming the type when `pluginType` is a type runner.go
// registers that `registry` does not hold (with the surface's reason). Types runner.go does not register are
// left to the loader, which refuses them with llm-d's "plugin type '<t>' is not registered".
void RefuseIfNotModelled(const fwkplugin::Registry& registry, const std::string& pluginName, const std::string& pluginType);

// The FactoryFunc adapters (fwkplugin::FactoryFunc signature).
std::shared_ptr<fwkplugin::Plugin> QueueScorerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> KvCacheUtilizationScorerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> RunningRequestsSizeScorerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> LoraAffinityScorerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> PrefixCachePluginFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> MaxScorePickerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> RandomPickerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> WeightedRandomPickerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> SingleProfileHandlerFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
std::shared_ptr<fwkplugin::Plugin> ApproxPrefixCacheFactory(const std::string&, fwkplugin::Parameters, fwkplugin::Handle&);
// Parsers, the core metrics source/extractor and the saturation detectors: held, no decision (see register.cpp).
fwkplugin::FactoryFunc InertFactory(const std::string& pluginType, const std::string& role);

}  // namespace blis::router::runner
