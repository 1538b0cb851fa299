// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/backend.go@71f4f099 (KVCacheBackendConfig and its defaults).
#pragma once

#include <string>
#include <vector>

namespace blis::router::kvcache {

// pkg/kvcache/backend.go@71f4f099 KVCacheBackendConfig
struct KVCacheBackendConfig {
  std::string Name;     // medium identifier ("gpu", "cpu", "disk"), json "name"
  double Weight = 0.0;  // scoring weight for blocks on this medium, json "weight"
};

// pkg/kvcache/backend.go@71f4f099 DefaultKVCacheBackendConfig: gpu 1.0, cpu 0.8.
inline std::vector<KVCacheBackendConfig> DefaultKVCacheBackendConfig() {
  return {KVCacheBackendConfig{"gpu", 1.0}, KVCacheBackendConfig{"cpu", 0.8}};
}

}  // namespace blis::router::kvcache
