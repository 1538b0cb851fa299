// Original to BLIS: stand-ins for the MagicMock tree cache, token allocator, running batch and prefill
// delayer that test/registered/unit/managers/test_prefill_adder.py@71de97b2 builds, as small subclasses of
// the ported interfaces whose return values the tests set (as the mocks' return_value).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "srt/managers/prefill_adder.h"
#include "srt/managers/schedule_batch.h"
#include "srt/mem_cache/allocator/base.h"
#include "srt/mem_cache/base_prefix_cache.h"

namespace blis::sglang::testing {

// TestPrefillAdder.create_tree_cache: evictable sizes, disable=False, inc/dec_lock_ref returning empty
// results. is_tree_cache() answers true, as a MagicMock's return value is truthy, unless a test sets it.
class FakeTreeCache : public BasePrefixCache {
 public:
  std::int64_t full_evictable = 0;
  std::int64_t swa_evictable = 0;
  std::int64_t evictable = 0;
  bool tree_cache = true;
  // inc_lock_ref.side_effect.
  std::function<void(TreeNode*)> on_inc_lock_ref;
  int inc_lock_ref_calls = 0;
  int dec_lock_ref_calls = 0;

  void reset() override {}
  MatchResult match_prefix(const MatchPrefixParams& /*params*/) override { return MatchResult{}; }
  void cache_finished_req(Req& /*req*/, bool /*is_insert*/, std::int64_t /*kv_len_to_handle*/) override {}
  void cache_unfinished_req(Req& /*req*/, bool /*chunked*/) override {}
  EvictResult evict(const EvictParams& /*params*/) override { return EvictResult{}; }
  IncLockRefResult inc_lock_ref(TreeNode* node) override {
    ++inc_lock_ref_calls;
    if (on_inc_lock_ref) on_inc_lock_ref(node);
    return IncLockRefResult{};
  }
  DecLockRefResult dec_lock_ref(TreeNode* /*node*/, const std::optional<DecLockRefParams>& /*params*/) override {
    ++dec_lock_ref_calls;
    return DecLockRefResult{};
  }
  std::int64_t evictable_size() const override { return evictable; }
  std::int64_t full_evictable_size() const override { return full_evictable; }
  std::int64_t swa_evictable_size() const override { return swa_evictable; }
  bool is_tree_cache() const override { return tree_cache; }
};

// TestPrefillAdder.create_token_allocator: available sizes and size_swa (default 1_000_000).
class FakeAllocator : public BaseTokenToKVPoolAllocator {
 public:
  FakeAllocator() : BaseTokenToKVPoolAllocator(0, 1, false) {}
  std::int64_t full_available = 0;
  std::int64_t swa_available = 0;
  std::int64_t available = 0;
  std::int64_t swa_size = 1'000'000;

  std::int64_t available_size() const override { return available; }
  std::int64_t full_available_size() const override { return full_available; }
  std::int64_t swa_available_size() const override { return swa_available; }
  std::int64_t size_swa() const override { return swa_size; }
  void clear() override {}
  std::optional<IndexVector> alloc(std::int64_t /*need_size*/) override { return std::nullopt; }
  void free(std::span<const std::int64_t> /*free_index*/) override {}
};

// TestPrefillAdder.create_running_batch: a batch whose release_req and filter_batch record and do nothing
// (the MagicMock's methods return None).
class FakeBatch : public ScheduleBatch {
 public:
  explicit FakeBatch(std::vector<Req*> reqs_in = {}) : ScheduleBatch(std::move(reqs_in)) {}
  int release_req_calls = 0;
  int filter_batch_calls = 0;
  void release_req(std::size_t /*idx*/, std::int64_t /*remaining*/, const ServerArgs& /*args*/) override {
    ++release_req_calls;
  }
  void filter_batch(const std::optional<std::vector<Req*>>& /*exclude*/,
                    const std::optional<std::vector<std::size_t>>& /*keep*/) override {
    ++filter_batch_calls;
  }
};

// test_prefill_adder.py@71de97b2 _RecordingDelayer: records local_prefillable and returns a fixed verdict.
class RecordingDelayer : public PrefillDelayerSinglePassExecutor {
 public:
  explicit RecordingDelayer(bool allow_in) : allow(allow_in) {}
  bool allow;
  std::vector<bool> calls;
  bool negotiate_should_allow_prefill(bool local_prefillable, std::int64_t /*running_batch*/,
                                      std::int64_t /*max_prefill_bs*/,
                                      std::optional<std::int64_t> /*max_running_requests*/,
                                      std::int64_t /*waiting_queue_len*/) override {
    calls.push_back(local_prefillable);
    return allow;
  }
};

}  // namespace blis::sglang::testing
