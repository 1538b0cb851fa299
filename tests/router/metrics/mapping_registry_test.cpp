// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of
// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry_test.go@71f4f099.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry.h"

namespace blis::router::metrics {
namespace {

MappingPtr mappingQueuedOn(const std::string& name) {
  auto m = std::make_shared<Mapping>();
  m->TotalQueuedRequests = std::make_shared<Spec>(Spec{name, {}});
  return m;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/mapping_registry_test.go@71f4f099 TestMappingRegistry
TEST(MetricsMappingRegistry, TestMappingRegistry) {
  MappingRegistryPtr r = NewMappingRegistry();
  MappingPtr mDef = mappingQueuedOn("vllm:num_requests_waiting");
  MappingPtr mVllm = mappingQueuedOn("vllm_custom_waiting");

  // Registration
  EXPECT_FALSE(r->Register(DefaultEngineType, mDef).has_value()) << "failed to register default";
  EXPECT_FALSE(r->Register("vllm", mVllm).has_value()) << "failed to register vllm";

  // Get
  struct Case {
    std::string engine;
    std::string wantName;
    bool wantOk;
  };
  const std::vector<Case> tests = {
      {"vllm", "vllm_custom_waiting", true},
      {"sglang", "vllm:num_requests_waiting", true},  // fallback
      {"", "vllm:num_requests_waiting", true},        // defaults to "default"
      {"default", "vllm:num_requests_waiting", true},
  };
  for (const auto& tt : tests) {
    MappingPtr m = r->Get(tt.engine);
    EXPECT_EQ(m != nullptr, tt.wantOk) << "Get(" << tt.engine << ")";
    if (m != nullptr) {
      EXPECT_EQ(m->TotalQueuedRequests->Name, tt.wantName) << "Get(" << tt.engine << ") name";
    }
  }

  // Without default
  MappingRegistryPtr r2 = NewMappingRegistry();
  (void)r2->Register("vllm", mVllm);
  EXPECT_EQ(r2->Get("sglang"), nullptr) << "expected sglang to not be found when no default exists";
}

// Original to BLIS: Register's refusals carry upstream's texts; ListEngineTypes lists every engine type.
TEST(MetricsMappingRegistry, RegisterRefusalsAndList) {
  MappingRegistryPtr r = NewMappingRegistry();
  EXPECT_EQ(r->Register("", mappingQueuedOn("a")).value_or(""), "engine type cannot be empty");
  EXPECT_EQ(r->Register("x", nullptr).value_or(""), "mapping cannot be nil");
  EXPECT_FALSE(r->Register("x", mappingQueuedOn("a")).has_value());
  EXPECT_EQ(r->Register("x", mappingQueuedOn("b")).value_or(""), "mapping for engine type \"x\" already exists");
  EXPECT_FALSE(r->Register("b", mappingQueuedOn("b")).has_value());
  EXPECT_EQ(r->ListEngineTypes(), (std::vector<std::string>{"b", "x"}));
}

}  // namespace
}  // namespace blis::router::metrics
