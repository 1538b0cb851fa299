// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: shared pieces of the port of python/sglang/srt/server_args.py@71de97b2 and
// python/sglang/srt/model_executor/model_runner.py@71de97b2 that lowering.h declares; each function cites the
// upstream it ports. Internal to engines/sglang/srt/model_executor.
#pragma once

#include <string>

#include "srt/model_executor/lowering.h"

namespace blis::sglang::model_executor::internal {

// "<what> is not modelled by this port: <reason>", as std::invalid_argument.
[[noreturn]] void not_modelled(const std::string& what, const std::string& reason);

// Python's round(x, 3) on a float.
double py_round3(double x);

// Python's repr of a float (the shortest string that reads back to it).
std::string py_float(double v);

// The refusals every resolution shares (speculative decoding, PD disaggregation, DP attention, data
// parallelism) and the range checks of the numeric arguments.
void check_supported(const LoweringConfig& cfg);

// The single attention layout of a graph whose every layer is full softmax attention with one geometry;
// refuses anything else by name.
const schema::GraphAttention& uniform_attention(const schema::Graph& graph);

}  // namespace blis::sglang::model_executor::internal
