// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 (the types, as
// plain structs; Go's nil pointers are std::optional) and of the group registration (register.go: GroupVersion).
// The String methods (logging only) and the deep-copy functions are not ported. Quantities and durations keep
// their text (validated when decoded).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace blis::router::v1alpha1 {

// apix/config/v1alpha1/zz_generated.register.go@71f4f099 GroupName, GroupVersion ("llm-d.ai/v1alpha1")
inline constexpr const char* GroupName = "llm-d.ai";
inline constexpr const char* Version = "v1alpha1";
inline std::string GroupVersionString() { return std::string(GroupName) + "/" + Version; }

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 PluginSpec
struct PluginSpec {
  std::string Name;
  std::string Type;
  // json.RawMessage: absent when the config gives no parameters (Go: empty RawMessage).
  std::optional<nlohmann::json> Parameters;
  bool operator==(const PluginSpec&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 SchedulingPlugin
struct SchedulingPlugin {
  std::string PluginRef;
  std::optional<double> Weight;
  bool operator==(const SchedulingPlugin&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 SchedulingProfile
struct SchedulingProfile {
  std::string Name;
  std::vector<SchedulingPlugin> Plugins;
  bool operator==(const SchedulingProfile&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 FeatureGates (Go: nil and empty differ)
using FeatureGates = std::optional<std::vector<std::string>>;

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 SaturationDetectorConfig
struct SaturationDetectorConfig {
  std::string PluginRef;
  bool operator==(const SaturationDetectorConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 DataLayerExtractor
struct DataLayerExtractor {
  std::string PluginRef;
  bool operator==(const DataLayerExtractor&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 DataLayerSource
struct DataLayerSource {
  std::string PluginRef;
  std::vector<DataLayerExtractor> Extractors;
  bool operator==(const DataLayerSource&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 DiscoveryConfig
struct DiscoveryConfig {
  std::string PluginRef;
  bool operator==(const DiscoveryConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 DataLayerConfig
struct DataLayerConfig {
  std::optional<bool> InjectDefaults;
  std::vector<DataLayerSource> Sources;
  std::optional<DiscoveryConfig> Discovery;
  std::string CrossReplicaSyncerPluginRef;
  std::optional<std::string> CrossReplicaSyncInterval;  // metav1.Duration text
  bool operator==(const DataLayerConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 ParserConfig
struct ParserConfig {
  std::string PluginRef;
  bool operator==(const ParserConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 RequestHandlerConfig
struct RequestHandlerConfig {
  std::vector<ParserConfig> Parsers;
  bool operator==(const RequestHandlerConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 PriorityBandConfig
struct PriorityBandConfig {
  int Priority = 0;
  std::optional<std::string> MaxBytes;     // resource.Quantity text
  std::optional<std::string> MaxRequests;  // resource.Quantity text
  std::string FairnessPolicyRef;
  std::string OrderingPolicyRef;
  bool operator==(const PriorityBandConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 FlowControlConfig
struct FlowControlConfig {
  std::optional<std::string> MaxBytes;
  std::optional<std::string> MaxRequests;
  std::optional<std::string> DefaultRequestTTL;  // metav1.Duration text
  std::optional<PriorityBandConfig> DefaultPriorityBand;
  std::optional<PriorityBandConfig> DefaultNegativePriorityBand;
  std::vector<PriorityBandConfig> PriorityBands;
  std::string UsageLimitPolicyPluginRef;
  std::optional<SaturationDetectorConfig> SaturationDetector;
  bool EnableEviction = false;
  bool operator==(const FlowControlConfig&) const = default;
};

// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 EndpointPickerConfig
struct EndpointPickerConfig {
  // metav1.TypeMeta
  std::string APIVersion;
  std::string Kind;
  v1alpha1::FeatureGates FeatureGates;
  std::vector<PluginSpec> Plugins;
  std::vector<SchedulingProfile> SchedulingProfiles;
  std::optional<DataLayerConfig> DataLayer;
  std::optional<FlowControlConfig> FlowControl;
  std::optional<RequestHandlerConfig> RequestHandler;
  std::optional<SaturationDetectorConfig> SaturationDetector;  // Deprecated: flowControl.saturationDetector
  std::optional<ParserConfig> Parser;                          // Deprecated: requestHandler.parsers
  bool operator==(const EndpointPickerConfig&) const = default;
};

// Original to BLIS: the config decoded from its JSON form as apimachinery's strict universal decoder does
// (sigs.k8s.io/json: case-sensitive field names; unknown and duplicate fields collected as strict errors;
// type mismatches as encoding/json's UnmarshalTypeError; quantities and durations parsed). Throws
// std::runtime_error with the decoder's text (without the loader's "failed to decode..." prefix). strictErrs:
// the strict errors found before (the YAML's duplicate keys), reported first.
EndpointPickerConfig DecodeEndpointPickerConfig(const nlohmann::json& doc, std::vector<std::string> strictErrs = {});

}  // namespace blis::router::v1alpha1
