// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: the JSON form of pkg/kvcache/kvblock/token_processor.go@71f4f099 TokenProcessorConfig
// (its struct tags `json:"blockSize,omitempty"`, `json:"blockSizeTokens"`, `json:"hashSeed"`) as Go's
// encoding/json Marshal/Unmarshal treat it: unknown keys ignored, keys matched case-insensitively (ASCII),
// null leaves a field unchanged, a wrong type is an error with encoding/json's text.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "router/kvcache/kvblock/token_processor.h"

namespace blis::router::kvblock {

// json.Unmarshal(data, &cfg) into cfg (fields absent from data keep their values). Throws
// std::invalid_argument with encoding/json's UnmarshalTypeError text.
void UnmarshalTokenProcessorConfig(const nlohmann::json& data, TokenProcessorConfig& cfg);

// json.Marshal(cfg): {"blockSize":N (omitted when 0),"blockSizeTokens":N,"hashSeed":"..."}.
std::string MarshalTokenProcessorConfig(const TokenProcessorConfig& cfg);

}  // namespace blis::router::kvblock
