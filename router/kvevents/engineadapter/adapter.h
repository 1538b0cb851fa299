// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/adapter.go@71f4f099 (EngineTypeVLLM,
// EngineTypeSGLang, NewAdapter).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "router/kvevents/engineadapter/sglang_adapter.h"
#include "router/kvevents/engineadapter/vllm_adapter.h"

namespace blis::router::engineadapter {

// pkg/kvevents/engineadapter/adapter.go@71f4f099 EngineTypeVLLM, EngineTypeSGLang
inline const std::string EngineTypeVLLM = "vllm";
inline const std::string EngineTypeSGLang = "sglang";

// pkg/kvevents/engineadapter/adapter.go@71f4f099 NewAdapter ("" = vllm); throws std::runtime_error
// (`unsupported engine type: "x" (supported: "vllm", "sglang")`).
inline std::shared_ptr<kvevents::EngineAdapter> NewAdapter(const std::string& engineType) {
  if (engineType == EngineTypeVLLM || engineType.empty()) return std::make_shared<VLLMAdapter>();
  if (engineType == EngineTypeSGLang) return std::make_shared<SGLangAdapter>();
  throw std::runtime_error("unsupported engine type: \"" + engineType + "\" (supported: \"vllm\", \"sglang\")");
}

}  // namespace blis::router::engineadapter
