// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/config/loader/validation.go@71f4f099 (validatePlugins,
// validateParsers, validateSaturationDetector, validateSchedulingProfiles, validateFeatureGates); validateConfig
// is inlined in Loader::InstantiateAndConfigure. Errors are std::invalid_argument with upstream's text.
#include <set>
#include <stdexcept>

#include "router/epp/config/loader/configloader.h"
#include "router/epp/config/loader/goparse.h"

namespace blis::router::loader {
namespace {

// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }

// Original to BLIS: the definedPlugins set each validate* function of validation.go builds.
std::set<std::string> definedPlugins(const v1alpha1::EndpointPickerConfig& cfg) {
  std::set<std::string> names;
  for (const auto& p : cfg.Plugins) names.insert(p.Name);
  return names;
}

}  // namespace

// pkg/epp/config/loader/validation.go@71f4f099 validatePlugins
void Loader::validatePlugins(const std::vector<v1alpha1::PluginSpec>& configuredPlugins) const {
  std::set<std::string> pluginNames;
  for (const auto& spec : configuredPlugins) {
    if (spec.Type.empty()) fail("plugin '" + spec.Name + "' is missing a type");
    if (pluginNames.count(spec.Name)) fail("duplicate plugin name '" + spec.Name + "'");
    pluginNames.insert(spec.Name);
    if (!registry_->Factories.count(spec.Type)) fail("plugin type '" + spec.Type + "' is not registered");
  }
}

// pkg/epp/config/loader/validation.go@71f4f099 validateParsers
void validateParsers(const v1alpha1::EndpointPickerConfig& cfg) {
  if (!cfg.RequestHandler || cfg.RequestHandler->Parsers.empty()) return;
  auto defined = definedPlugins(cfg);
  for (const auto& pc : cfg.RequestHandler->Parsers) {
    if (!defined.count(pc.PluginRef)) fail("parser references undefined plugin '" + pc.PluginRef + "'");
  }
}

// pkg/epp/config/loader/validation.go@71f4f099 validateSaturationDetector
void validateSaturationDetector(const v1alpha1::EndpointPickerConfig& cfg) {
  if (!cfg.FlowControl || !cfg.FlowControl->SaturationDetector) return;
  const auto& ref = cfg.FlowControl->SaturationDetector->PluginRef;
  if (ref.empty()) fail("saturation detector plugin reference is empty");
  if (!definedPlugins(cfg).count(ref)) fail("saturation detector references undefined plugin '" + ref + "'");
}

// pkg/epp/config/loader/validation.go@71f4f099 validateSchedulingProfiles
void validateSchedulingProfiles(const v1alpha1::EndpointPickerConfig& cfg) {
  auto defined = definedPlugins(cfg);
  std::set<std::string> seenProfileNames;
  for (std::size_t i = 0; i < cfg.SchedulingProfiles.size(); ++i) {
    const auto& profile = cfg.SchedulingProfiles[i];
    if (profile.Name.empty()) fail("schedulingProfiles[" + std::to_string(i) + "] is missing a name");
    if (seenProfileNames.count(profile.Name)) {
      fail("schedulingProfiles[" + std::to_string(i) + "] has duplicate name '" + profile.Name + "'");
    }
    seenProfileNames.insert(profile.Name);
    for (std::size_t j = 0; j < profile.Plugins.size(); ++j) {
      const auto& ref = profile.Plugins[j].PluginRef;
      if (ref.empty()) {
        fail("schedulingProfiles[" + profile.Name + "].plugins[" + std::to_string(j) + "] is missing a 'pluginRef'");
      }
      if (!defined.count(ref)) fail("schedulingProfiles[" + profile.Name + "] references undefined plugin '" + ref + "'");
    }
  }
}

// pkg/epp/config/loader/validation.go@71f4f099 validateFeatureGates
void Loader::validateFeatureGates(const v1alpha1::FeatureGates& gates) const {
  if (!gates) return;
  for (const auto& gate : *gates) {
    auto eq = gate.find('=');
    std::string name = gate.substr(0, eq);
    if (!gates_.count(name)) fail("feature gate '" + name + "' is unknown or unregistered");
    if (eq != std::string::npos) {
      // strings.Split: parts[1] is the text up to a second '='.
      std::string rest = gate.substr(eq + 1);
      std::string value = rest.substr(0, rest.find('='));
      std::string t = value;
      while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(t.begin());
      while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto b = ParseBool(t);
      if (!b.Value) fail(value + " is not a valid value for the feature gate " + name + " (error: " + *b.Err + ")");
    }
  }
}

}  // namespace blis::router::loader
