// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/config/loader/defaults.go@71f4f099 (loadDefaultConfig,
// applyStaticDefaults, applySystemDefaults, ensureSchedulingLayer, ensureParsers, ensureSaturationDetector,
// ensureDataLayer, hasSourceOfType, registerDefaultPlugin). ensureFlowControlLayer is not ported: the default
// flow-control policies it registers are read only by buildFlowControlConfig, behind the flowControl feature
// gate, which this port refuses. Go iterates the plugin map in random order to find "a" picker; here the first
// in name order.
#include <stdexcept>

#include "router/epp/config/loader/configloader.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::loader {
namespace {

using v1alpha1::EndpointPickerConfig;
using PluginMap = std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>;

constexpr const char* MetricsDataSourceType = "metrics-data-source";
constexpr const char* MetricsExtractorType = "core-metrics-extractor";
constexpr const char* UtilizationDetectorType = "utilization-detector";
constexpr const char* SingleProfileHandlerType = "single-profile-handler";
constexpr const char* MaxScorePickerType = "max-score-picker";

// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }

// pkg/epp/config/loader/defaults.go@71f4f099 hasSourceOfType
bool hasSourceOfType(const v1alpha1::DataLayerConfig& dl, const std::string& pluginType) {
  for (const auto& s : dl.Sources) {
    if (s.PluginRef == pluginType) return true;
  }
  return false;
}

}  // namespace

// pkg/epp/config/loader/defaults.go@71f4f099 loadDefaultConfig
EndpointPickerConfig loadDefaultConfig() {
  EndpointPickerConfig cfg;
  cfg.APIVersion = v1alpha1::GroupVersionString();
  cfg.Kind = "EndpointPickerConfig";
  cfg.FeatureGates = std::vector<std::string>{};
  cfg.Plugins = {{"", "queue-scorer", std::nullopt},
                 {"", "kv-cache-utilization-scorer", std::nullopt},
                 {"", "prefix-cache-scorer", std::nullopt},
                 {"", MetricsDataSourceType, std::nullopt},
                 {"", MetricsExtractorType, std::nullopt}};
  cfg.SchedulingProfiles = {{"default",
                             {{"queue-scorer", 2.0}, {"kv-cache-utilization-scorer", 2.0}, {"prefix-cache-scorer", 3.0}}}};
  v1alpha1::DataLayerConfig dl;
  dl.Sources = {{MetricsDataSourceType, {{MetricsExtractorType}}}};
  cfg.DataLayer = dl;
  return cfg;
}

// pkg/epp/config/loader/defaults.go@71f4f099 applyStaticDefaults
void applyStaticDefaults(EndpointPickerConfig& cfg) {
  for (auto& p : cfg.Plugins) {
    if (p.Name.empty()) p.Name = p.Type;
  }
  if (!cfg.FeatureGates) cfg.FeatureGates = std::vector<std::string>{};
}

// pkg/epp/config/loader/defaults.go@71f4f099 applySystemDefaults
void Loader::applySystemDefaults(EndpointPickerConfig& cfg, fwkplugin::Handle& handle) {
  // Go passes the handle's own plugin map, which registerDefaultPlugin grows: each later ensure* sees the
  // plugins the earlier ones added, so the map is re-read before each.
  try {
    ensureSchedulingLayer(cfg, handle, handle.GetAllPluginsWithNames());
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to apply scheduling system defaults: ") + e.what());
  }
  try {
    ensureParsers(cfg, handle, handle.GetAllPluginsWithNames());
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to apply parser defaults: ") + e.what());
  }
  try {
    ensureSaturationDetector(cfg, handle, handle.GetAllPluginsWithNames());
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to apply saturation detector defaults: ") + e.what());
  }
  try {
    ensureDataLayer(cfg, handle, handle.GetAllPluginsWithNames());
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to apply data layer defaults: ") + e.what());
  }
}

// pkg/epp/config/loader/defaults.go@71f4f099 ensureSchedulingLayer
void Loader::ensureSchedulingLayer(EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const PluginMap& allPluginsIn) {
  const PluginMap allPlugins = allPluginsIn;  // a copy: registerDefaultPlugin adds to the handle's map below
  if (cfg.SchedulingProfiles.empty()) {
    v1alpha1::SchedulingProfile defaultProfile{"default", {}};
    for (const auto& [name, p] : allPlugins) {
      if (std::dynamic_pointer_cast<fwksched::FilterPlugin>(p) || std::dynamic_pointer_cast<fwksched::Scorer>(p) ||
          std::dynamic_pointer_cast<fwksched::Picker>(p)) {
        defaultProfile.Plugins.push_back({name, std::nullopt});
      }
    }
    cfg.SchedulingProfiles = {defaultProfile};
  }
  if (cfg.SchedulingProfiles.size() == 1) {
    bool hasHandler = false;
    for (const auto& [name, p] : allPlugins) {
      if (std::dynamic_pointer_cast<fwksched::ProfileHandler>(p)) {
        hasHandler = true;
        break;
      }
    }
    if (!hasHandler) registerDefaultPlugin(cfg, handle, SingleProfileHandlerType);
  }
  std::string maxScorePickerName;
  for (const auto& [name, p] : allPlugins) {
    if (std::dynamic_pointer_cast<fwksched::Picker>(p)) {
      maxScorePickerName = name;
      break;
    }
  }
  if (maxScorePickerName.empty()) {
    registerDefaultPlugin(cfg, handle, MaxScorePickerType);
    maxScorePickerName = MaxScorePickerType;
  }
  for (auto& prof : cfg.SchedulingProfiles) {
    bool hasPicker = false;
    for (auto& pluginRef : prof.Plugins) {
      auto p = handle.GetPlugin(pluginRef.PluginRef);
      if (std::dynamic_pointer_cast<fwksched::Scorer>(p) && !pluginRef.Weight) pluginRef.Weight = DefaultScorerWeight;
      if (std::dynamic_pointer_cast<fwksched::Picker>(p)) hasPicker = true;
    }
    if (!hasPicker) prof.Plugins.push_back({maxScorePickerName, std::nullopt});
  }
}

// pkg/epp/config/loader/defaults.go@71f4f099 ensureParsers
void Loader::ensureParsers(EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const PluginMap& allPlugins) {
  if (!cfg.RequestHandler) cfg.RequestHandler = v1alpha1::RequestHandlerConfig{};
  if (cfg.RequestHandler->Parsers.empty()) {
    cfg.RequestHandler->Parsers = {{"openai-parser"}, {"anthropic-parser"}, {"vllmhttp-parser"}};
  }
  const auto parsers = cfg.RequestHandler->Parsers;
  for (const auto& pc : parsers) {
    if (!allPlugins.count(pc.PluginRef) && !handle.GetPlugin(pc.PluginRef)) registerDefaultPlugin(cfg, handle, pc.PluginRef);
  }
}

// pkg/epp/config/loader/defaults.go@71f4f099 ensureSaturationDetector
void Loader::ensureSaturationDetector(EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const PluginMap& allPlugins) {
  if (!cfg.FlowControl) cfg.FlowControl = v1alpha1::FlowControlConfig{};
  if (!cfg.FlowControl->SaturationDetector) {
    cfg.FlowControl->SaturationDetector = v1alpha1::SaturationDetectorConfig{UtilizationDetectorType};
  }
  auto& sd = *cfg.FlowControl->SaturationDetector;
  if (sd.PluginRef.empty()) sd.PluginRef = UtilizationDetectorType;
  if (sd.PluginRef == UtilizationDetectorType && !allPlugins.count(sd.PluginRef)) {
    registerDefaultPlugin(cfg, handle, UtilizationDetectorType);
  }
}

// pkg/epp/config/loader/defaults.go@71f4f099 ensureDataLayer
void Loader::ensureDataLayer(EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const PluginMap& allPlugins) {
  if (cfg.DataLayer && cfg.DataLayer->InjectDefaults && !*cfg.DataLayer->InjectDefaults) return;
  if (cfg.DataLayer && hasSourceOfType(*cfg.DataLayer, MetricsDataSourceType)) return;
  if (!allPlugins.count(MetricsDataSourceType)) registerDefaultPlugin(cfg, handle, MetricsDataSourceType);
  if (!allPlugins.count(MetricsExtractorType)) registerDefaultPlugin(cfg, handle, MetricsExtractorType);
  if (!cfg.DataLayer) cfg.DataLayer = v1alpha1::DataLayerConfig{};
  cfg.DataLayer->Sources.push_back({MetricsDataSourceType, {{MetricsExtractorType}}});
}

// pkg/epp/config/loader/defaults.go@71f4f099 registerDefaultPlugin
void Loader::registerDefaultPlugin(EndpointPickerConfig& cfg, fwkplugin::Handle& handle, const std::string& pluginType) {
  const std::string name = pluginType;
  auto factory = registry_->Factories.find(pluginType);
  if (factory == registry_->Factories.end()) fail("plugin type '" + pluginType + "' not found in registry");
  std::shared_ptr<fwkplugin::Plugin> plugin;
  try {
    plugin = factory->second(name, nullptr, handle);
  } catch (const std::exception& e) {
    fail("failed to instantiate default plugin '" + name + "': " + e.what());
  }
  handle.AddPlugin(name, plugin);
  cfg.Plugins.push_back({name, pluginType, std::nullopt});
}

}  // namespace blis::router::loader
