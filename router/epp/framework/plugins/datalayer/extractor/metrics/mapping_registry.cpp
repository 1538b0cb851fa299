// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099;
// all of it.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.Register
Error MappingRegistry::Register(const std::string& engineType, MappingPtr mapping) {
  if (engineType.empty()) return "engine type cannot be empty";
  if (mapping == nullptr) return "mapping cannot be nil";
  if (mappings_.count(engineType)) return "mapping for engine type " + goQuote(engineType) + " already exists";
  mappings_[engineType] = std::move(mapping);
  return std::nullopt;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.Get
MappingPtr MappingRegistry::Get(std::string engineType) const {
  if (engineType.empty()) engineType = DefaultEngineType;
  if (auto it = mappings_.find(engineType); it != mappings_.end()) return it->second;  // direct lookup
  if (engineType != DefaultEngineType) {                                                // fall back to default
    if (auto it = mappings_.find(DefaultEngineType); it != mappings_.end()) return it->second;
  }
  return nullptr;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.ListEngineTypes
std::vector<std::string> MappingRegistry::ListEngineTypes() const {
  std::vector<std::string> result;
  for (const auto& [engineType, mapping] : mappings_) result.push_back(engineType);
  return result;
}

}  // namespace blis::router::metrics
