// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099;
// all of it (the map is ordered, so ListEngineTypes is in ascending order where Go's is random).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/mapping.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 DefaultEngineType
inline constexpr const char* DefaultEngineType = "default";
// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 DefaultEngineTypeLabelKey
inline constexpr const char* DefaultEngineTypeLabelKey = "llm-d.ai/engine-type";
// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 legacyGAIEEngineTypeLabelKey
inline constexpr const char* legacyGAIEEngineTypeLabelKey = "inference.networking.k8s.io/engine-type";

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry
// The metric mappings of several engine kinds, filled at start-up.
class MappingRegistry {
 public:
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.Register
  Error Register(const std::string& engineType, MappingPtr mapping);
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.Get
  // The mapping for engineType, else the "default" one; nullptr where Go returns (nil, false).
  MappingPtr Get(std::string engineType) const;
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 MappingRegistry.ListEngineTypes
  std::vector<std::string> ListEngineTypes() const;

 private:
  std::map<std::string, MappingPtr> mappings_;
};

using MappingRegistryPtr = std::shared_ptr<MappingRegistry>;

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.go@71f4f099 NewMappingRegistry
inline MappingRegistryPtr NewMappingRegistry() { return std::make_shared<MappingRegistry>(); }

}  // namespace blis::router::metrics
