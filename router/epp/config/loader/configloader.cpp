// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/config/loader/configloader.go@71f4f099 (LoadRawConfig,
// InstantiateAndConfigure, decodeRawConfig, instantiatePlugins, buildPluginDAG, buildSchedulerConfig,
// loadFeatureConfig, buildDataLayerConfig, flowControlSettingsConfigured) and pkg/epp/util TopologicalSort;
// logging becomes Loader::Warnings, the parser registry and data-layer runtime are only checked.
#include "router/epp/config/loader/configloader.h"

#include <algorithm>
#include <any>
#include <deque>
#include <set>
#include <stdexcept>

#include "router/epp/config/loader/goparse.h"
#include "router/epp/config/loader/roles.h"
#include "router/epp/config/loader/yamljson.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "router/epp/scheduling/weighted_scorer.h"

namespace blis::router::loader {
namespace {

using v1alpha1::EndpointPickerConfig;

// pkg/epp/config/loader/configloader.go@71f4f099 deprecatedSchemeGroupVersion
constexpr const char* deprecatedGroupVersion = "inference.networking.x-k8s.io/v1alpha1";
// The name apimachinery gives the loader's scheme (runtime.NewScheme's call site).
constexpr const char* schemeName = "pkg/epp/config/loader/configloader.go:50";

// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }

// Original to BLIS: strings.ToLower(strings.TrimSpace(s)) as loadFeatureConfig applies it.
std::string lowerTrim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Original to BLIS: Go's strings.Split on one separator byte.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    if (pos == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

}  // namespace

// pkg/epp/config/loader/configloader.go@71f4f099 decodeRawConfig (serializer.EnableStrict, UniversalDecoder,
// runtime.DecodeInto): YAML to JSON, apiVersion/kind defaulted from the target type and checked against the
// scheme (llm-d.ai/v1alpha1 and the deprecated inference.networking.x-k8s.io/v1alpha1), strict decoding.
v1alpha1::EndpointPickerConfig decodeRawConfig(const std::string& configBytes) {
  const std::string prefix = "failed to decode configuration JSON/YAML: ";
  try {
    std::vector<std::string> yamlStrictErrs;
    nlohmann::json doc = YAMLToJSON(configBytes, &yamlStrictErrs);
    // json serializer Decode: meta.Interpret reads apiVersion and kind; gvkWithDefaults from the target's
    // first registered kind (llm-d.ai/v1alpha1, EndpointPickerConfig).
    std::string apiVersion, kind;
    if (doc.is_object()) {
      if (doc.contains("apiVersion") && doc["apiVersion"].is_string()) apiVersion = doc["apiVersion"].get<std::string>();
      if (doc.contains("kind") && doc["kind"].is_string()) kind = doc["kind"].get<std::string>();
    }
    std::string group, version;
    if (auto slash = apiVersion.find('/'); slash != std::string::npos) {
      group = apiVersion.substr(0, slash);
      version = apiVersion.substr(slash + 1);
    } else {
      version = apiVersion;
    }
    if (kind.empty()) kind = "EndpointPickerConfig";
    if (version.empty() && group.empty()) {
      group = v1alpha1::GroupName;
      version = v1alpha1::Version;
    } else if (version.empty() && group == v1alpha1::GroupName) {
      version = v1alpha1::Version;
    }
    const std::string gv = group.empty() ? version : group + "/" + version;
    if (kind != "EndpointPickerConfig" || (gv != v1alpha1::GroupVersionString() && gv != deprecatedGroupVersion)) {
      throw std::runtime_error("no kind \"" + kind + "\" is registered for version \"" + gv + "\" in scheme \"" +
                               schemeName + "\"");
    }
    auto cfg = v1alpha1::DecodeEndpointPickerConfig(doc.is_null() ? nlohmann::json::object() : doc, yamlStrictErrs);
    cfg.APIVersion = gv;
    cfg.Kind = kind;
    return cfg;
  } catch (const std::runtime_error& e) {
    fail(prefix + e.what());
  }
}

// pkg/epp/config/loader/configloader.go@71f4f099 LoadRawConfig
RawConfig Loader::LoadRawConfig(const std::string& configBytes) {
  EndpointPickerConfig rawConfig;
  if (!configBytes.empty()) {
    rawConfig = decodeRawConfig(configBytes);
    if (rawConfig.APIVersion == deprecatedGroupVersion) {
      warnings_.push_back(
          "DEPRECATION: apiVersion inference.networking.x-k8s.io/v1alpha1/EndpointPickerConfig is deprecated "
          "(replacement: llm-d.ai/v1alpha1/EndpointPickerConfig)");
    }
    if (rawConfig.SaturationDetector) {
      warnings_.push_back(
          "DEPRECATION: top-level saturationDetector is deprecated, use flowControl.saturationDetector instead. If both "
          "are set, the new field is used.");
      if (!rawConfig.FlowControl) rawConfig.FlowControl = v1alpha1::FlowControlConfig{};
      if (!rawConfig.FlowControl->SaturationDetector) rawConfig.FlowControl->SaturationDetector = rawConfig.SaturationDetector;
    }
    if (rawConfig.Parser) {
      warnings_.push_back(
          "DEPRECATION: top-level parser is deprecated, use requestHandler.parsers instead. If both are set, the new "
          "field is used.");
      if (!rawConfig.RequestHandler) rawConfig.RequestHandler = v1alpha1::RequestHandlerConfig{};
      if (rawConfig.RequestHandler->Parsers.empty()) rawConfig.RequestHandler->Parsers = {*rawConfig.Parser};
    }
  } else {
    rawConfig = loadDefaultConfig();
  }

  applyStaticDefaults(rawConfig);

  try {
    validateFeatureGates(rawConfig.FeatureGates);
  } catch (const std::invalid_argument& e) {
    fail(std::string("feature gate validation failed: ") + e.what());
  }
  std::map<std::string, bool> featureConfig;
  try {
    featureConfig = loadFeatureConfig(rawConfig.FeatureGates);
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to load feature gates: ") + e.what());
  }
  return RawConfig{std::move(rawConfig), std::move(featureConfig)};
}

// pkg/epp/config/loader/configloader.go@71f4f099 InstantiateAndConfigure
Config Loader::InstantiateAndConfigure(EndpointPickerConfig& rawConfig, fwkplugin::Handle& handle) {
  try {
    validatePlugins(rawConfig.Plugins);
  } catch (const std::invalid_argument& e) {
    fail(std::string("configuration validation failed: ") + e.what());
  }
  try {
    instantiatePlugins(rawConfig.Plugins, handle);
  } catch (const std::invalid_argument& e) {
    fail(std::string("plugin instantiation failed: ") + e.what());
  }
  try {
    applySystemDefaults(rawConfig, handle);
  } catch (const std::invalid_argument& e) {
    fail(std::string("system default application failed: ") + e.what());
  }
  try {
    validateFeatureGates(rawConfig.FeatureGates);
  } catch (const std::invalid_argument& e) {
    fail(std::string("configuration validation failed: feature gate validation failed: ") + e.what());
  }
  try {
    validateSchedulingProfiles(rawConfig);
  } catch (const std::invalid_argument& e) {
    fail(std::string("configuration validation failed: scheduling profile validation failed: ") + e.what());
  }
  try {
    validateSaturationDetector(rawConfig);
  } catch (const std::invalid_argument& e) {
    fail(std::string("configuration validation failed: saturation detector validation failed: ") + e.what());
  }
  try {
    validateParsers(rawConfig);
  } catch (const std::invalid_argument& e) {
    fail(std::string("configuration validation failed: parser validation failed: ") + e.what());
  }

  Config out;
  try {
    out.SchedulerConfig = buildSchedulerConfig(rawConfig.SchedulingProfiles, handle);
  } catch (const std::invalid_argument& e) {
    fail(std::string("scheduler config build failed: ") + e.what());
  }
  try {
    out.DataSources = buildDataLayerConfig(rawConfig.DataLayer, handle);
  } catch (const std::invalid_argument& e) {
    fail(std::string("data layer config build failed: ") + e.what());
  }

  std::map<std::string, bool> featureGates;
  try {
    featureGates = loadFeatureConfig(rawConfig.FeatureGates);
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to load feature gates: ") + e.what());
  }
  if (featureGates[FlowControlFeatureGate]) {
    try {
      buildFlowControlConfig(rawConfig.FlowControl);
    } catch (const std::invalid_argument& e) {
      fail(std::string("failed to load flow control config: ") + e.what());
    }
  } else if (flowControlSettingsConfigured(rawConfig.FlowControl)) {
    warnings_.push_back(
        "WARNING: the flowControl config section is set but the flowControl feature gate is disabled; its settings "
        "(other than saturationDetector) are ignored");
  }

  // buildParserRegistry
  if (rawConfig.RequestHandler->Parsers.empty()) fail("parser registry build failed: no parsers configured");
  const auto& all = handle.GetAllPluginsWithNames();
  for (const auto& pc : rawConfig.RequestHandler->Parsers) {
    auto it = all.find(pc.PluginRef);
    if (it == all.end()) fail("parser registry build failed: the configured parser \"" + pc.PluginRef + "\" is not loaded");
    if (!std::dynamic_pointer_cast<ParserRole>(it->second)) {
      fail("parser registry build failed: the plugin \"" + pc.PluginRef + "\" is not a parser plugin");
    }
    out.Parsers.push_back(pc.PluginRef);
  }

  const std::string& sdRef = rawConfig.FlowControl->SaturationDetector->PluginRef;
  auto sd = all.find(sdRef);
  if (sd == all.end()) fail("saturation detector plugin '" + sdRef + "' not found");
  if (!std::dynamic_pointer_cast<SaturationDetectorRole>(sd->second)) {
    fail("plugin '" + sdRef + "' is not a fwkfc.SaturationDetector");
  }
  out.SaturationDetector = sd->second;
  return out;
}

// pkg/epp/config/loader/configloader.go@71f4f099 flowControlSettingsConfigured
bool flowControlSettingsConfigured(const std::optional<v1alpha1::FlowControlConfig>& fc) {
  if (!fc) return false;
  return fc->MaxBytes || fc->MaxRequests || fc->DefaultRequestTTL || fc->DefaultPriorityBand ||
         fc->DefaultNegativePriorityBand || !fc->PriorityBands.empty() || !fc->UsageLimitPolicyPluginRef.empty();
}

// pkg/epp/config/loader/configloader.go@71f4f099 instantiatePlugins
void Loader::instantiatePlugins(const std::vector<v1alpha1::PluginSpec>& configuredPlugins, fwkplugin::Handle& handle) {
  std::vector<v1alpha1::PluginSpec> orderedPlugins;
  try {
    orderedPlugins = buildPluginDAG(configuredPlugins, handle);
  } catch (const std::invalid_argument& e) {
    fail(std::string("failed to build plugin dependency graph: ") + e.what());
  }
  for (const auto& spec : orderedPlugins) {
    if (auto m = registry_->Metadata.find(spec.Type); m != registry_->Metadata.end() && m->second.Deprecated) {
      warnings_.push_back("DEPRECATION warning: plugin is deprecated (plugin: " + spec.Name + ", type: " + spec.Type + ")");
    }
    const auto& factory = registry_->Factories.at(spec.Type);
    std::shared_ptr<fwkplugin::Plugin> plugin;
    try {
      plugin = factory(spec.Name, spec.Parameters ? &*spec.Parameters : nullptr, handle);
    } catch (const std::exception& e) {
      fail("failed to create plugin '" + spec.Name + "' (type: " + spec.Type + "): " + e.what());
    }
    handle.AddPlugin(spec.Name, plugin);
  }
}

// pkg/epp/config/loader/configloader.go@71f4f099 buildPluginDAG
// A ConfigParserFunc returns (in a std::any) the std::vector<std::string> of plugin names the parameters refer
// to: what Go's findPluginDependencies reads from the parsed struct's `pluginRef` tags.
std::vector<v1alpha1::PluginSpec> Loader::buildPluginDAG(const std::vector<v1alpha1::PluginSpec>& configuredPlugins,
                                                         fwkplugin::Handle& handle) const {
  std::map<std::string, std::vector<std::string>> graph;
  std::map<std::string, v1alpha1::PluginSpec> pluginMap;
  for (const auto& spec : configuredPlugins) {
    auto parser = registry_->WithPluginDependencies.find(spec.Type);
    if (parser == registry_->WithPluginDependencies.end()) {
      graph[spec.Name] = {};
    } else {
      try {
        std::any parsed = parser->second(spec.Parameters ? &*spec.Parameters : nullptr, handle);
        graph[spec.Name] = std::any_cast<std::vector<std::string>>(parsed);
      } catch (const std::bad_any_cast&) {
        throw std::logic_error("ConfigParserFunc of " + spec.Type + " must return the dependency names");
      } catch (const std::exception& e) {
        fail("failed to parse plugin parameters for " + spec.Name + " (type: " + spec.Type + "): " + e.what());
      }
    }
    pluginMap[spec.Name] = spec;
  }
  std::vector<v1alpha1::PluginSpec> ordered;
  for (const auto& name : TopologicalSort(graph)) {
    auto it = pluginMap.find(name);
    if (it == pluginMap.end()) fail("a plugin has a dependency on the unregistered plugin " + name);
    ordered.push_back(it->second);
  }
  return ordered;
}

// pkg/epp/util/utils.go@71f4f099 TopologicalSort
// Go seeds the queue in map order; here in name order (the order among independent plugins changes nothing:
// each factory sees only the plugins it depends on).
std::vector<std::string> TopologicalSort(const std::map<std::string, std::vector<std::string>>& graph) {
  std::map<std::string, int> inDegree;
  for (const auto& [u, neighbors] : graph) {
    inDegree.try_emplace(u, 0);
    for (const auto& v : neighbors) inDegree[v]++;
  }
  std::deque<std::string> queue;
  for (const auto& [node, degree] : inDegree) {
    if (degree == 0) queue.push_back(node);
  }
  std::vector<std::string> result;
  while (!queue.empty()) {
    std::string u = queue.front();
    queue.pop_front();
    result.push_back(u);
    if (auto it = graph.find(u); it != graph.end()) {
      for (const auto& v : it->second) {
        if (--inDegree[v] == 0) queue.push_back(v);
      }
    }
  }
  if (result.size() != inDegree.size()) fail("cycle detected: graph is not a DAG");
  std::reverse(result.begin(), result.end());
  return result;
}

// pkg/epp/config/loader/configloader.go@71f4f099 buildSchedulerConfig
std::shared_ptr<scheduling::SchedulerConfig> buildSchedulerConfig(const std::vector<v1alpha1::SchedulingProfile>& configProfiles,
                                                                  fwkplugin::Handle& handle) {
  fwksched::ProfileMap profiles;
  for (const auto& cfgProfile : configProfiles) {
    auto fwProfile = scheduling::NewSchedulerProfile();
    for (const auto& pluginRef : cfgProfile.Plugins) {
      auto plugin = handle.GetPlugin(pluginRef.PluginRef);
      if (!plugin) {
        fail("plugin '" + pluginRef.PluginRef + "' referenced in profile '" + cfgProfile.Name + "' not found in handle");
      }
      if (auto scorer = std::dynamic_pointer_cast<fwksched::Scorer>(plugin)) {
        double weight = pluginRef.Weight ? *pluginRef.Weight : DefaultScorerWeight;
        plugin = scheduling::NewWeightedScorer(scorer, weight);
      }
      if (auto err = fwProfile->AddPlugins({plugin})) {
        fail("failed to add plugin '" + pluginRef.PluginRef + "' to profile '" + cfgProfile.Name + "': " + err->Text);
      }
    }
    profiles[cfgProfile.Name] = fwProfile;
  }
  std::shared_ptr<fwksched::ProfileHandler> profileHandler;
  for (const auto& [name, plugin] : handle.GetAllPluginsWithNames()) {
    if (auto ph = std::dynamic_pointer_cast<fwksched::ProfileHandler>(plugin)) {
      if (profileHandler) {
        fail("multiple profile handlers found ('" + profileHandler->TypedName().Name + "', '" + name +
             "'); only one is allowed");
      }
      profileHandler = ph;
    }
  }
  if (!profileHandler) fail("no profile handler configured");
  if (profileHandler->TypedName().Type == single::SingleProfileHandlerType && profiles.size() > 1) {
    fail("SingleProfileHandler cannot support multiple scheduling profiles");
  }
  return scheduling::NewSchedulerConfig(profileHandler, profiles);
}

// pkg/epp/config/loader/configloader.go@71f4f099 loadFeatureConfig
std::map<std::string, bool> Loader::loadFeatureConfig(const v1alpha1::FeatureGates& gates) const {
  std::map<std::string, bool> config = gates_;
  if (!gates) return config;
  for (const auto& gate : *gates) {
    bool value = true;
    auto parts = split(gate, '=');
    if (parts.size() > 1) {
      auto b = ParseBool(lowerTrim(parts[1]));
      if (!b.Value) fail(*b.Err);
      value = *b.Value;
    }
    config[parts[0]] = value;
  }
  return config;
}

// pkg/epp/config/loader/configloader.go@71f4f099 buildDataLayerConfig
// Sources are checked as upstream checks them; the data-layer runtime is not ported (the simulator delivers
// the metrics).
std::vector<DataSourceConfig> buildDataLayerConfig(const std::optional<v1alpha1::DataLayerConfig>& rawDataConfig,
                                                   fwkplugin::Handle& handle) {
  std::vector<DataSourceConfig> sources;
  if (!rawDataConfig) return sources;
  if (const auto& ref = rawDataConfig->CrossReplicaSyncerPluginRef; !ref.empty()) {
    // No plugin of the port is a fwkdl.CrossReplicaSyncer.
    fail("the plugin " + ref + " is not a fwkdl.CrossReplicaSyncer");
  }
  for (const auto& source : rawDataConfig->Sources) {
    auto plugin = handle.GetPlugin(source.PluginRef);
    if (!std::dynamic_pointer_cast<DataSourceRole>(plugin)) fail("the plugin " + source.PluginRef + " is not a fwkdl.DataSource");
    DataSourceConfig sc{source.PluginRef, {}};
    for (const auto& extractor : source.Extractors) {
      if (!handle.GetPlugin(extractor.PluginRef)) fail("the plugin " + extractor.PluginRef + " is not registered");
      sc.Extractors.push_back(extractor.PluginRef);
    }
    sources.push_back(std::move(sc));
  }
  return sources;
}

}  // namespace blis::router::loader
