// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of the helpers of tests/v1/core/test_prefix_caching.py@6e448d0e
// (make_request, make_kv_cache_manager, make_kv_cache_config, make_kv_cache_config_hybrid_model,
// make_kv_cache_config_three_types, _make_hybrid_kv_cache_config, _test_partial_request_hit), shared by
// the prefix_caching_*_test.cpp files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "v1/core/kv_cache_manager.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/kv_cache_interface.h"
#include "v1/request.h"

namespace blis::vllm::testing {

// The autouse fixture _auto_init_hash_fn: init_none_hash(hash_fn). PYTHONHASHSEED="0" makes NONE_HASH
// deterministic (upstream draws random bytes; no assertion depends on its value).
inline void init_hash(const HashFn& hash_fn) { init_none_hash(hash_fn, std::string("0")); }

// test_prefix_caching.py@6e448d0e make_request (no multimodal features: mm tests are not transcribed).
inline std::unique_ptr<Request> make_request(const std::string& request_id, const std::vector<std::int32_t>& prompt,
                                             std::int64_t block_size, const HashFn& hash_fn,
                                             std::optional<std::string> cache_salt = std::nullopt,
                                             std::optional<LoRARequest> lora_request = std::nullopt) {
  return std::make_unique<Request>(request_id, prompt, /*max_tokens=*/17, /*arrival_time=*/0.0, /*priority=*/0,
                                   std::move(lora_request), std::move(cache_salt),
                                   get_request_block_hasher(block_size, hash_fn));
}

inline KVCacheSpecPtr full_spec(std::int64_t block_size, const std::string& dtype = "float32") {
  FullAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = dtype;
  return std::make_shared<FullAttentionSpec>(a);
}

inline KVCacheSpecPtr sw_spec(std::int64_t block_size, std::int64_t sliding_window) {
  SlidingWindowSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 1;
  a.dtype = "float32";
  a.sliding_window = sliding_window;
  return std::make_shared<SlidingWindowSpec>(a);
}

inline std::int64_t lcm_block_size(const KVCacheConfig& config) {
  std::int64_t l = 1;
  for (const auto& g : config.kv_cache_groups) l = std::lcm(l, g.kv_cache_spec->block_size);
  return l;
}

// test_prefix_caching.py@6e448d0e make_kv_cache_manager: scheduler_block_size = LCM of the group block
// sizes unless given.
struct ManagerArgs {
  std::int64_t max_model_len = 8192;
  bool enable_caching = true;
  std::int64_t hash_block_size = 16;
  bool use_eagle = false;
  bool log_stats = false;
  bool enable_kv_cache_events = false;
  std::optional<std::int64_t> scheduler_block_size = std::nullopt;
  std::optional<std::int64_t> max_in_flight_tokens = std::nullopt;
  double watermark = 0.0;
  std::optional<std::int64_t> retention_interval = std::nullopt;
};
inline std::unique_ptr<KVCacheManager> make_kv_cache_manager(const KVCacheConfig& config, const ManagerArgs& a) {
  return std::make_unique<KVCacheManager>(config, a.max_model_len, a.scheduler_block_size.value_or(lcm_block_size(config)),
                                          a.hash_block_size, a.max_in_flight_tokens, a.enable_caching, a.use_eagle,
                                          a.log_stats, a.enable_kv_cache_events, 1, 1, a.watermark,
                                          a.retention_interval);
}

// test_prefix_caching.py@6e448d0e make_kv_cache_config.
inline KVCacheConfig make_kv_cache_config(std::int64_t block_size, std::int64_t num_blocks) {
  KVCacheConfig c;
  c.num_blocks = num_blocks;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer"}, full_spec(block_size), false});
  return c;
}

// test_prefix_caching.py@6e448d0e make_kv_cache_config_hybrid_model (second_spec_type "sliding_window").
inline KVCacheConfig make_kv_cache_config_hybrid_model(std::int64_t block_size, std::int64_t num_blocks,
                                                       std::int64_t sliding_window_blocks) {
  KVCacheConfig c;
  c.num_blocks = num_blocks;
  auto second = sw_spec(block_size, sliding_window_blocks * block_size);
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(block_size), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, second, false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer3"}, second, false});
  return c;
}

// test_prefix_caching.py@6e448d0e _make_hybrid_kv_cache_config ("full", "sliding_window",
// "sliding_window_large"; the Mamba kinds are not ported).
inline KVCacheConfig make_hybrid_kv_cache_config(std::int64_t block_size, std::int64_t num_blocks,
                                                 const std::vector<std::string>& spec_types) {
  KVCacheConfig c;
  c.num_blocks = num_blocks;
  for (std::size_t i = 0; i < spec_types.size(); ++i) {
    KVCacheSpecPtr spec;
    if (spec_types[i] == "full") spec = full_spec(block_size);
    if (spec_types[i] == "sliding_window") spec = sw_spec(block_size, 2 * block_size);
    if (spec_types[i] == "sliding_window_large") spec = sw_spec(block_size, 4 * block_size);
    c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer" + std::to_string(i)}, spec, false});
  }
  return c;
}

// [i for i in range(n) for _ in range(block_size)] + [tail] * tail_len
inline std::vector<std::int32_t> common_tokens(std::int64_t n, std::int64_t block_size) {
  std::vector<std::int32_t> t;
  for (std::int64_t i = 0; i < n; ++i) t.insert(t.end(), static_cast<std::size_t>(block_size), static_cast<std::int32_t>(i));
  return t;
}
inline std::vector<std::int32_t> concat(std::vector<std::int32_t> a, std::int32_t v, std::int64_t n) {
  a.insert(a.end(), static_cast<std::size_t>(n), v);
  return a;
}

// list(range(begin, end)) as token ids.
inline std::vector<std::int32_t> token_range(std::int64_t begin, std::int64_t end) {
  std::vector<std::int32_t> t;
  for (std::int64_t i = begin; i < end; ++i) t.push_back(static_cast<std::int32_t>(i));
  return t;
}

using Ids = std::vector<std::vector<std::int64_t>>;

// len(computed_blocks.blocks[0]) * 16, the num_new_computed_tokens argument the tests pass.
inline std::int64_t n0(const KVCacheBlocks& b, std::int64_t bs = 16) {
  return static_cast<std::int64_t>(b.blocks[0].size()) * bs;
}

inline std::vector<std::int64_t> ids_of(const std::vector<KVCacheBlock*>& blocks) {
  std::vector<std::int64_t> out;
  for (const auto* b : blocks) out.push_back(b->block_id);
  return out;
}

// test_prefix_caching.py@6e448d0e _test_partial_request_hit. The map's entries are popped and restored
// through BlockHashToBlockMap's pop/insert (its `_cache` dict is private here).
inline void test_partial_request_hit(KVCacheManager& manager, std::int64_t block_size, std::int64_t num_full_blocks,
                                     const std::string& request_id, const std::vector<std::int32_t>& prompt,
                                     const std::vector<BlockHashWithGroupId>& hash_to_evict,
                                     std::int64_t expect_hit_length) {
  auto& map = manager.block_pool->cached_block_hash_to_block;
  std::vector<std::vector<KVCacheBlock*>> backup;  // every block under each key, in insertion order
  auto req = make_request(request_id, prompt, block_size, sha256);
  for (const auto& h : hash_to_evict) {
    backup.emplace_back();
    while (KVCacheBlock* b = map.get_one_block(h)) {
      backup.back().push_back(b);
      map.pop(h, b->block_id);
    }
    ASSERT_FALSE(backup.back().empty());
  }
  auto [computed_blocks, num_computed_tokens, shared] = manager.get_computed_blocks(*req);
  EXPECT_EQ(static_cast<std::int64_t>(req->block_hashes.size()), num_full_blocks);
  EXPECT_EQ(num_computed_tokens, expect_hit_length * block_size);
  for (const auto& g : computed_blocks.blocks) {
    EXPECT_EQ(static_cast<std::int64_t>(g.size()), num_computed_tokens / block_size);
  }
  for (std::size_t i = 0; i < hash_to_evict.size(); ++i) {
    for (auto* b : backup[i]) map.insert(hash_to_evict[i], b);
  }
  manager.free(*req);
}

}  // namespace blis::vllm::testing
