// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/request.py@6e448d0e (Request, RequestStatus and the finish-reason
// map), keeping the fields the scheduler and the KV-cache manager read. Not ported, and refused before a
// run where a scenario could select them: pooling, prompt embeddings, multimodal features, structured
// output, streaming sessions, KV-transfer parameters. The simulated model's end-of-sequence position
// (DEV-13) is not here: the sampler stand-in (engines/vllm/stop_check.cpp) reads it from the contract's
// request and emits the end-of-sequence token there, and check_stop sees only tokens, as upstream's does.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "v1/core/block_hash.h"

namespace blis::vllm {

// request.py@6e448d0e RequestStatus (an IntEnum: the order matters, everything after kPreempted is
// finished).
enum class RequestStatus : std::uint8_t {
  kWaiting = 1,
  kWaitingForStructuredOutputGrammar,
  kWaitingForRemoteKvs,
  kWaitingForStreamingReq,
  kRunning,
  kPreempted,
  kFinishedStopped,
  kFinishedLengthCapped,
  kFinishedAborted,
  kFinishedIgnored,
  kFinishedError,
  kFinishedRepetition,
};

// request.py@6e448d0e RequestStatus.is_finished.
constexpr bool is_finished(RequestStatus s) { return s > RequestStatus::kPreempted; }

// request.py@6e448d0e _FINISHED_REASON_MAP: "stop", "length", "abort", "error", "repetition"; "" for a
// status with no finish reason.
const char* finished_reason(RequestStatus s);

// vllm/lora/request.py LoRARequest, as the block hasher's extra keys read it (the adapter's name and id).
struct LoRARequest {
  std::string lora_name;
  std::int64_t lora_int_id = 0;
};

class Request;
using BlockHasher = std::function<std::vector<BlockHash>(const Request&)>;

// request.py@6e448d0e Request.
class Request {
 public:
  // request.py@6e448d0e Request.__init__ (sampling requests only: max_tokens from the sampling params).
  Request(std::string request_id, std::vector<std::int32_t> prompt_token_ids, std::int64_t max_tokens,
          double arrival_time, std::int64_t priority = 0, std::optional<LoRARequest> lora_request = std::nullopt,
          std::optional<std::string> cache_salt = std::nullopt, BlockHasher block_hasher = nullptr);

  std::string request_id;
  std::int64_t priority = 0;
  double arrival_time = 0;  // seconds of simulated time
  std::optional<LoRARequest> lora_request;
  RequestStatus status = RequestStatus::kWaiting;
  std::optional<std::string> stop_reason;
  std::int64_t max_tokens = 0;
  std::vector<std::int32_t> prompt_token_ids;
  std::int64_t num_prompt_tokens = 0;
  std::int64_t num_output_placeholders = 0;  // async scheduling: tokens scheduled but not yet appended
  std::vector<std::int32_t> spec_token_ids;
  std::int64_t num_computed_tokens = 0;
  std::optional<std::string> cache_salt;
  std::int64_t num_preemptions = 0;
  bool is_prefill_chunk = false;
  std::int64_t shared_prefix_boundary = 0;
  std::vector<BlockHash> block_hashes;
  bool skip_reading_prefix_cache = false;
  std::string kv_cache_report_mode = "incremental";
  std::int64_t num_in_flight_tokens = 0;     // scheduled tokens whose step has not been processed
  std::int64_t num_stale_output_tokens = 0;  // in-flight output of a preempted request, still to drain
  bool drop_stale_output = false;
  std::int64_t next_decode_eligible_step = 0;
  std::int64_t last_sched_seq = 0;
  bool resumable = false;                    // streaming sessions: not ported, always false
  std::int64_t min_tokens = 0;               // sampling_params.min_tokens
  std::optional<std::int32_t> eos_token_id;  // sampling_params.eos_token_id
  std::vector<std::int32_t> stop_token_ids;  // sampling_params.stop_token_ids

  // request.py@6e448d0e append_output_token_ids (then update_block_hashes).
  void append_output_token_ids(const std::vector<std::int32_t>& token_ids);
  void append_output_token_id(std::int32_t token_id) { append_output_token_ids({token_id}); }
  // request.py@6e448d0e update_block_hashes.
  void update_block_hashes();

  const std::vector<std::int32_t>& output_token_ids() const { return output_token_ids_; }
  const std::vector<std::int32_t>& all_token_ids() const { return all_token_ids_; }
  std::int64_t num_tokens() const { return static_cast<std::int64_t>(all_token_ids_.size()); }
  std::int64_t num_tokens_with_spec() const { return num_tokens() + static_cast<std::int64_t>(spec_token_ids.size()); }
  std::int64_t num_output_tokens() const { return static_cast<std::int64_t>(output_token_ids_.size()); }
  bool is_finished() const { return vllm::is_finished(status); }
  const char* get_finished_reason() const { return finished_reason(status); }

 private:
  std::vector<std::int32_t> output_token_ids_;
  std::vector<std::int32_t> all_token_ids_;
  BlockHasher block_hasher_;
};

// request.py@6e448d0e Request.__lt__: priority, then arrival time, then request id (priority scheduling's
// order; the final id(self) tie-break cannot arise between distinct ids).
bool operator<(const Request& a, const Request& b);

}  // namespace blis::vllm
