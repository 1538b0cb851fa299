// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099; all
// of it (Go's (value, error) results become a value and an Error out-parameter).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/loraspec.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/spec.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 CustomMetric
struct CustomMetric {
  std::string AttributeKey;
  SpecPtr Spec;
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 namedSpec
struct namedSpec {
  std::string name;
  SpecPtr spec;
  bool enabled = false;
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping
// The specifications of the well-known Model Server Protocol metrics for one engine kind; a nullptr spec is a
// disabled metric.
struct Mapping {
  SpecPtr TotalQueuedRequests;
  SpecPtr TotalRunningRequests;
  SpecPtr KVCacheUtilization;
  LoRASpecPtr LoraRequestInfo;
  // An info-style gauge whose labels carry the block size and the number of GPU blocks.
  SpecPtr CacheInfo;
  // The CacheInfo label names; empty means "block_size" and "num_gpu_blocks".
  std::string CacheBlockSizeLabel;
  std::string CacheNumBlocksLabel;
  // The block size and number of blocks as separate gauge values (e.g. Triton TRT-LLM).
  SpecPtr CacheBlockSize;
  SpecPtr CacheNumBlocks;
  std::vector<CustomMetric> CustomMetrics;

  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.specs
  std::vector<namedSpec> specs() const;
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.String
  std::string String() const;
  // pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 Mapping.MetricNames
  std::vector<std::string> MetricNames() const;
};

using MappingPtr = std::shared_ptr<Mapping>;

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 MappingConfig
struct MappingConfig {
  std::string Queue;
  std::string Running;
  std::string KVUsage;
  std::string Lora;
  std::string CacheInfo;
  std::string CacheBlockSizeLabel;
  std::string CacheNumBlocksLabel;
  std::string CacheBlockSize;
  std::string CacheNumBlocks;
  std::vector<CustomMetric> CustomMetrics;
};

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 NewMapping
MappingPtr NewMapping(const std::string& queue, const std::string& running, const std::string& kvusage,
                      const std::string& lora, const std::string& cacheInfo, Error* err);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 NewMappingFromConfig
// nullptr and *err (every parse error, joined) where Go returns an error.
MappingPtr NewMappingFromConfig(const MappingConfig& cfg, Error* err);

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping.go@71f4f099 parseCustomMetrics
std::vector<CustomMetric> parseCustomMetrics(const std::vector<CustomMetric>& configs, std::vector<std::string>* errs);

}  // namespace blis::router::metrics
