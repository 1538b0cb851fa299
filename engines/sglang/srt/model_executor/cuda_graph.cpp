// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/model_executor/runner/base_cuda_graph_runner.py@71de97b2
// (get_batch_sizes_to_capture, BaseCudaGraphRunner._pad_to_bucket), python/sglang/srt/model_executor/runner/
// decode_cuda_graph_runner.py@71de97b2 (DecodeCudaGraphRunner.can_run_graph's batch-size test) and
// python/sglang/srt/utils/common.py@71de97b2 (get_cuda_graph_batch_size_alignment,
// get_cuda_graph_max_batch_size) for the decode runner without two-batch overlap, DP attention, gathered
// buffers or context parallelism (alignment 1), speculative decoding or torch.compile.
#include <algorithm>
#include <stdexcept>

#include "srt/model_executor/lowering_internal.h"

namespace blis::sglang::model_executor {

// base_cuda_graph_runner.py@71de97b2 get_batch_sizes_to_capture (captured_req_width 1).
std::vector<std::int64_t> decode_capture_batch_sizes(const MemoryDefaults& memory, std::int64_t req_to_token_pool_size) {
  if (memory.decode_cuda_graph_backend == "disabled") return {};
  if (req_to_token_pool_size < 1)
    throw std::invalid_argument("req_to_token_pool_size=" + std::to_string(req_to_token_pool_size) +
                                ": the request pool holds at least one request");
  std::vector<std::int64_t> capture_bs = memory.decode_bs;
  if (capture_bs.empty()) throw std::invalid_argument("cuda_graph_config.decode.bs is empty");
  // get_cuda_graph_max_batch_size: ceil_align(num_max_requests, alignment) with alignment 1.
  const std::int64_t mul_base = 1;
  const std::int64_t num_max_requests = (req_to_token_pool_size + mul_base - 1) / mul_base * mul_base;
  if (*std::max_element(capture_bs.begin(), capture_bs.end()) > num_max_requests) capture_bs.push_back(num_max_requests);
  std::vector<std::int64_t> kept;
  for (const std::int64_t bs : capture_bs)
    if (bs * 1 % mul_base == 0 && bs <= num_max_requests) kept.push_back(bs);
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  if (kept.empty() || kept.front() <= 0)
    throw std::invalid_argument("get_batch_sizes_to_capture: no positive batch size left to capture");
  return kept;
}

// decode_cuda_graph_runner.py@71de97b2 DecodeCudaGraphRunner.can_run_graph (cuda_graph_bs <= max_bs; with
// padding disabled every size up to max_bs is captured, so the test is the same) and
// base_cuda_graph_runner.py@71de97b2 BaseCudaGraphRunner._pad_to_bucket (bisect_left).
std::optional<std::int64_t> padded_decode_batch_size(const std::vector<std::int64_t>& capture_bs, std::int64_t batch_size) {
  if (batch_size < 1)
    throw std::invalid_argument("batch_size=" + std::to_string(batch_size) + ": a decode batch holds at least one request");
  if (capture_bs.empty() || batch_size > capture_bs.back()) return std::nullopt;
  return *std::lower_bound(capture_bs.begin(), capture_bs.end(), batch_size);
}

}  // namespace blis::sglang::model_executor
