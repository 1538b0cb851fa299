// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/managers/scheduler_components/batch_result_processor.py@71de97b2
// BatchResultProcessor.process_batch_result_prefill and process_batch_result_decode for generation requests
// (with _handle_finish_state_updated_req's release of a finished request's KV); logprobs, hidden states,
// grammar, routed experts, Mamba tracking, speculative decoding and decode offload are not modelled. The
// output streamer is the returned record: the tokens appended and the requests finished, in batch order.
#include <algorithm>

#include "srt/managers/scheduler.h"
#include "srt/mem_cache/common.h"

namespace blis::sglang {

// batch_result_processor.py@71de97b2 BatchResultProcessor.process_batch_result_prefill.
void Scheduler::process_batch_result_prefill(const LaunchedBatch& batch, const std::vector<std::int64_t>& next_token_ids,
                                             BatchResultRecord& record) {
  allocator_->free_group_begin();
  for (std::size_t i = 0; i < batch.reqs.size(); ++i) {
    Req& req = *batch.reqs[i];
    if ((req.finished() && req.inflight_middle_chunks <= 0) || req.is_retracted) continue;
    if (req.inflight_middle_chunks <= 0) {
      req.output_ids.push_back(next_token_ids[i]);
      record.emitted.emplace_back(req.rid, 1);
      req.update_finish_state();
      if (req.finished()) {
        release_kv_cache(req, *tree_cache_);
        record.finished.emplace_back(req.rid, *req.finished_reason);
      } else if (batch.decoding_reqs.empty() ||
                 std::find(batch.decoding_reqs.begin(), batch.decoding_reqs.end(), &req) == batch.decoding_reqs.end()) {
        maybe_cache_unfinished_req(req, *tree_cache_);
      }
    } else {
      req.inflight_middle_chunks -= 1;  // a middle chunk: no token
    }
  }
  allocator_->free_group_end();
}

// batch_result_processor.py@71de97b2 BatchResultProcessor.process_batch_result_decode.
void Scheduler::process_batch_result_decode(const LaunchedBatch& batch, const std::vector<std::int64_t>& next_token_ids,
                                            BatchResultRecord& record) {
  allocator_->free_group_begin();
  for (std::size_t i = 0; i < batch.reqs.size(); ++i) {
    Req& req = *batch.reqs[i];
    // Under overlap a request may have finished (or been retracted) after this batch launched: its token
    // is discarded.
    if (enable_overlap_ && (req.finished() || req.is_retracted)) continue;
    req.output_ids.push_back(next_token_ids[i]);
    record.emitted.emplace_back(req.rid, 1);
    req.update_finish_state(1);
    // _handle_finish_state_updated_req
    if (req.finished()) {
      release_kv_cache(req, *tree_cache_, /*is_insert=*/true);
      record.finished.emplace_back(req.rid, *req.finished_reason);
    }
  }
  allocator_->free_group_end();
}

}  // namespace blis::sglang
