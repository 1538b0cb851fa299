// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/config/loader/configloader.go, defaults.go, validation.go and
// flowcontrol.go@71f4f099. The package-level feature-gate and plugin registries become a Loader object over a
// fwkplugin::Registry; Go errors become std::invalid_argument with upstream's text; logging becomes the
// Warnings list. Not ported: the data-layer runtime (sources are only checked), the parser registry (parsers
// only checked), flow control (an enabled flowControl feature gate is refused), the flow-control default
// policies (ensureFlowControlLayer: only read by flow control).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "router/apix/config/v1alpha1/endpointpickerconfig_types.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/scheduling/scheduler_config.h"

namespace blis::router::loader {

// pkg/epp/config/loader/defaults.go@71f4f099 DefaultScorerWeight
inline constexpr double DefaultScorerWeight = 1.0;
// pkg/epp/flowcontrol/config.go@71f4f099 FeatureGate ("flowControl")
inline constexpr const char* FlowControlFeatureGate = "flowControl";
// pkg/epp/server/controller_config.go@71f4f099 HAPopulateNonLeaderDatastoreFeatureGate
inline constexpr const char* HAPopulateNonLeaderDatastoreFeatureGate = "haPopulateNonLeaderDatastore";

// pkg/epp/datalayer/config.go@71f4f099 DataSourceConfig (the plugin names only)
struct DataSourceConfig {
  std::string Plugin;
  std::vector<std::string> Extractors;
};

// pkg/epp/config/config.go@71f4f099 Config, as far as the port reads it.
struct Config {
  std::shared_ptr<scheduling::SchedulerConfig> SchedulerConfig;
  std::shared_ptr<fwkplugin::Plugin> SaturationDetector;
  std::vector<DataSourceConfig> DataSources;  // DataConfig.Sources
  std::vector<std::string> Parsers;           // the ParserRegistry's plugin names, in order
};

// Original to BLIS: LoadRawConfig's three results.
struct RawConfig {
  v1alpha1::EndpointPickerConfig Config;
  std::map<std::string, bool> FeatureGates;
};

// Original to BLIS: the loader's package state (registeredFeatureGates, the plugin registry) as one object.
class Loader {
 public:
  explicit Loader(const fwkplugin::Registry& registry) : registry_(&registry) {}

  // pkg/epp/config/loader/configloader.go@71f4f099 RegisterFeatureGate
  void RegisterFeatureGate(const std::string& gate, bool isEnabledByDefault) { gates_[gate] = isEnabledByDefault; }

  // pkg/epp/config/loader/configloader.go@71f4f099 LoadRawConfig
  // Empty configBytes: loadDefaultConfig. Throws std::invalid_argument with upstream's error text.
  RawConfig LoadRawConfig(const std::string& configBytes);

  // pkg/epp/config/loader/configloader.go@71f4f099 InstantiateAndConfigure
  // rawConfig is completed in place with the system defaults, as upstream does.
  Config InstantiateAndConfigure(v1alpha1::EndpointPickerConfig& rawConfig, fwkplugin::Handle& handle);

  // The log lines upstream writes at Info level that a user must see (deprecations, ignored settings).
  const std::vector<std::string>& Warnings() const { return warnings_; }

  // pkg/epp/config/loader/validation.go@71f4f099 validateFeatureGates
  void validateFeatureGates(const v1alpha1::FeatureGates& gates) const;
  // pkg/epp/config/loader/configloader.go@71f4f099 loadFeatureConfig
  std::map<std::string, bool> loadFeatureConfig(const v1alpha1::FeatureGates& gates) const;
  // pkg/epp/config/loader/validation.go@71f4f099 validatePlugins
  void validatePlugins(const std::vector<v1alpha1::PluginSpec>& configuredPlugins) const;
  // pkg/epp/config/loader/configloader.go@71f4f099 instantiatePlugins
  void instantiatePlugins(const std::vector<v1alpha1::PluginSpec>& configuredPlugins, fwkplugin::Handle& handle);
  // pkg/epp/config/loader/configloader.go@71f4f099 buildPluginDAG
  std::vector<v1alpha1::PluginSpec> buildPluginDAG(const std::vector<v1alpha1::PluginSpec>& configuredPlugins,
                                                   fwkplugin::Handle& handle) const;
  // pkg/epp/config/loader/defaults.go@71f4f099 applySystemDefaults
  void applySystemDefaults(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle);
  // pkg/epp/config/loader/defaults.go@71f4f099 ensureSchedulingLayer
  void ensureSchedulingLayer(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle,
                             const std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>& allPlugins);
  // pkg/epp/config/loader/defaults.go@71f4f099 ensureParsers
  void ensureParsers(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle,
                     const std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>& allPlugins);
  // pkg/epp/config/loader/defaults.go@71f4f099 ensureSaturationDetector
  void ensureSaturationDetector(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle,
                                const std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>& allPlugins);
  // pkg/epp/config/loader/defaults.go@71f4f099 ensureDataLayer
  void ensureDataLayer(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle,
                       const std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>& allPlugins);
  // pkg/epp/config/loader/defaults.go@71f4f099 registerDefaultPlugin
  void registerDefaultPlugin(v1alpha1::EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const std::string& pluginType);

 private:
  const fwkplugin::Registry* registry_;
  std::map<std::string, bool> gates_;
  std::vector<std::string> warnings_;
};

// pkg/epp/config/loader/configloader.go@71f4f099 decodeRawConfig
v1alpha1::EndpointPickerConfig decodeRawConfig(const std::string& configBytes);
// pkg/epp/config/loader/defaults.go@71f4f099 loadDefaultConfig
v1alpha1::EndpointPickerConfig loadDefaultConfig();
// pkg/epp/config/loader/defaults.go@71f4f099 applyStaticDefaults
void applyStaticDefaults(v1alpha1::EndpointPickerConfig& cfg);
// pkg/epp/config/loader/validation.go@71f4f099 validateSchedulingProfiles
void validateSchedulingProfiles(const v1alpha1::EndpointPickerConfig& cfg);
// pkg/epp/config/loader/validation.go@71f4f099 validateSaturationDetector
void validateSaturationDetector(const v1alpha1::EndpointPickerConfig& cfg);
// pkg/epp/config/loader/validation.go@71f4f099 validateParsers
void validateParsers(const v1alpha1::EndpointPickerConfig& cfg);
// pkg/epp/config/loader/configloader.go@71f4f099 buildSchedulerConfig
std::shared_ptr<scheduling::SchedulerConfig> buildSchedulerConfig(const std::vector<v1alpha1::SchedulingProfile>& configProfiles,
                                                                  fwkplugin::Handle& handle);
// pkg/epp/config/loader/configloader.go@71f4f099 buildDataLayerConfig
std::vector<DataSourceConfig> buildDataLayerConfig(const std::optional<v1alpha1::DataLayerConfig>& rawDataConfig,
                                                   fwkplugin::Handle& handle);
// pkg/epp/config/loader/configloader.go@71f4f099 flowControlSettingsConfigured
bool flowControlSettingsConfigured(const std::optional<v1alpha1::FlowControlConfig>& fc);
// pkg/epp/config/loader/flowcontrol.go@71f4f099 buildFlowControlConfig: the quantity checks (resolveQuantity),
// then refused: flow control is not modelled by this port.
[[noreturn]] void buildFlowControlConfig(const std::optional<v1alpha1::FlowControlConfig>& apiConfig);
// pkg/epp/util/utils.go@71f4f099 TopologicalSort (Go's map iteration order replaced by name order)
std::vector<std::string> TopologicalSort(const std::map<std::string, std::vector<std::string>>& graph);

}  // namespace blis::router::loader
