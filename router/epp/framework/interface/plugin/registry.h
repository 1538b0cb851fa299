// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/registry.go@71f4f099 and
// stability.go@71f4f099. Go's package-level registry maps become one Registry object the start-up code fills
// (no global mutable state in the router, DEV-2); the maps are ordered. A factory's parameters are the
// decoded JSON Go's StrictDecoder reads (nullptr where the raw parameters are empty); a factory that fails
// throws PluginError with the text Go's error carries.
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/plugins.h"

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/registry.go@71f4f099 StrictDecoder
// The parameters a factory decodes: nullptr where Go's StrictDecoder returns nil (no parameters given).
// Unknown fields are refused (see decode.h).
using Parameters = const nlohmann::json*;

// Original to BLIS: the error a factory or config parser returns in Go, carried as an exception.
class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// pkg/epp/framework/interface/plugin/registry.go@71f4f099 FactoryFunc
using FactoryFunc = std::function<std::shared_ptr<Plugin>(const std::string& name, Parameters parameters, Handle& handle)>;
// pkg/epp/framework/interface/plugin/registry.go@71f4f099 ConfigParserFunc
using ConfigParserFunc = std::function<std::any(Parameters parameters, Handle& handle)>;

// pkg/epp/framework/interface/plugin/stability.go@71f4f099 StabilityLevel
enum class StabilityLevel { Alpha, Beta, Stable };
// pkg/epp/framework/interface/plugin/stability.go@71f4f099 StabilityLevel values ("Alpha", "Beta", "Stable")
inline const char* String(StabilityLevel s) {
  return s == StabilityLevel::Alpha ? "Alpha" : s == StabilityLevel::Beta ? "Beta" : "Stable";
}

// pkg/epp/framework/interface/plugin/stability.go@71f4f099 PluginMetadata
struct PluginMetadata {
  std::string Type;
  StabilityLevel Stability = StabilityLevel::Stable;
  bool Deprecated = false;
  std::string DeprecatedIn;
  std::string ScheduledRemovalIn;
  std::string ReplacementType;
};

// pkg/epp/framework/interface/plugin/registry.go@71f4f099 Registry, RegistryMetadata, DefaultProducerRegistry,
// PluginsWithPluginDependencies (one object instead of four package variables).
class Registry {
 public:
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 Register
  void Register(const std::string& pluginType, StabilityLevel stability, FactoryFunc factory) {
    Factories[pluginType] = std::move(factory);
    Metadata[pluginType] = PluginMetadata{pluginType, stability, false, "", "", ""};
  }
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 RegisterAsDefaultProducer
  // key is DataKey.String().
  void RegisterAsDefaultProducer(const std::string& pluginType, StabilityLevel stability, FactoryFunc factory,
                                 const std::string& key) {
    Register(pluginType, stability, std::move(factory));
    DefaultProducers[key] = pluginType;
  }
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 RegisterWithPluginDependencies
  void RegisterWithPluginDependencies(const std::string& pluginType, StabilityLevel stability, FactoryFunc factory,
                                      ConfigParserFunc parser) {
    Register(pluginType, stability, std::move(factory));
    WithPluginDependencies[pluginType] = std::move(parser);
  }
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 RegisterDeprecated
  void RegisterDeprecated(const std::string& pluginType, StabilityLevel stability, FactoryFunc factory,
                          const std::string& deprecatedIn, const std::string& scheduledRemovalIn,
                          const std::string& replacementType) {
    Register(pluginType, stability, std::move(factory));
    markDeprecated(pluginType, deprecatedIn, scheduledRemovalIn, replacementType);
  }
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 RegisterDeprecatedWithPluginDependencies
  void RegisterDeprecatedWithPluginDependencies(const std::string& pluginType, StabilityLevel stability,
                                                FactoryFunc factory, ConfigParserFunc parser,
                                                const std::string& deprecatedIn,
                                                const std::string& scheduledRemovalIn,
                                                const std::string& replacementType) {
    RegisterWithPluginDependencies(pluginType, stability, std::move(factory), std::move(parser));
    markDeprecated(pluginType, deprecatedIn, scheduledRemovalIn, replacementType);
  }
  // pkg/epp/framework/interface/plugin/registry.go@71f4f099 GetPluginStability
  StabilityLevel GetPluginStability(const std::string& pluginType) const {
    auto it = Metadata.find(pluginType);
    return it == Metadata.end() ? StabilityLevel::Stable : it->second.Stability;
  }

  std::map<std::string, FactoryFunc> Factories;
  std::map<std::string, PluginMetadata> Metadata;
  std::map<std::string, std::string> DefaultProducers;
  std::map<std::string, ConfigParserFunc> WithPluginDependencies;

 private:
  // Original to BLIS: the deprecation fields both Register*Deprecated* functions set.
  void markDeprecated(const std::string& pluginType, const std::string& deprecatedIn,
                      const std::string& scheduledRemovalIn, const std::string& replacementType) {
    auto& meta = Metadata[pluginType];
    meta.Deprecated = true;
    meta.DeprecatedIn = deprecatedIn;
    meta.ScheduledRemovalIn = scheduledRemovalIn;
    meta.ReplacementType = replacementType;
  }
};

// pkg/epp/framework/interface/plugin/registry.go@71f4f099 ValidatePluginStability
// Throws PluginError with upstream's text for the first Alpha plugin (in name order) when experimental plugins
// are not allowed.
inline void ValidatePluginStability(const Registry& registry, const Handle& handle, bool allowExperimentalPlugins) {
  for (const auto& [name, p] : handle.GetAllPluginsWithNames()) {
    auto tn = p->TypedName();
    if (registry.GetPluginStability(tn.Type) == StabilityLevel::Alpha && !allowExperimentalPlugins) {
      throw PluginError("plugin '" + tn.Name + "' (type: '" + tn.Type +
                        "') has Alpha stability level, but command line flag --allow-experimental-plugins is not set");
    }
  }
}

}  // namespace blis::router::fwkplugin
