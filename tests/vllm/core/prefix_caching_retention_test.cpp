// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: C++ transcriptions of tests/v1/core/test_prefix_caching.py@6e448d0e, the sliding-window
// prefix-cache retention tests. `monkeypatch.setenv("VLLM_PREFIX_CACHE_RETENTION_INTERVAL", v)` becomes
// the KVCacheManager argument prefix_cache_retention_interval = v (unset: nullopt).
#include <gtest/gtest.h>

#include <set>

#include "prefix_caching_test_util.h"
#include "v1/core/single_type_kv_cache_manager.h"

namespace blis::vllm::testing {
namespace {

// Full attention at 4 * block_size (float16) + SWA (window block_size), the config the retention tests share.
KVCacheConfig full_plus_swa(std::int64_t block_size, bool swa_is_eagle = false) {
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer1"}, full_spec(4 * block_size, "float16"), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer2"}, sw_spec(block_size, block_size), swa_is_eagle});
  return c;
}

std::set<std::int64_t> cached_set(KVCacheManager& manager, const Request& req, std::int64_t n, std::int64_t group) {
  std::set<std::int64_t> out;
  for (std::int64_t i = 0; i < n; ++i) {
    if (manager.block_pool->get_cached_block(req.block_hashes[static_cast<std::size_t>(i)], {group}).has_value()) {
      out.insert(i);
    }
  }
  return out;
}

std::unique_ptr<Request> prefill(KVCacheManager& manager, const std::string& id, const std::vector<std::int32_t>& toks,
                                 std::int64_t block_size) {
  auto req = make_request(id, toks, block_size, sha256);
  auto [cb, n, s] = manager.get_computed_blocks(*req);
  auto blocks = manager.allocate_slots(*req, static_cast<std::int64_t>(toks.size()), n0(cb, block_size), &cb);
  EXPECT_TRUE(blocks.has_value());
  return req;
}

// test_prefix_caching.py@6e448d0e test_hybrid_local_kv_retention_interval_aligns_in_manager
TEST(PrefixCaching, HybridLocalKvRetentionIntervalAlignsInManager) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_swa(block_size), {.hash_block_size = block_size, .retention_interval = 64});
  auto req = prefill(*manager, "0", common_tokens(16, block_size), block_size);
  EXPECT_EQ(cached_set(*manager, *req, 16, 1), (std::set<std::int64_t>{7, 11, 15}));
}

// test_prefix_caching.py@6e448d0e test_hybrid_local_kv_retention_interval_rejects_invalid ("33", "-32")
TEST(PrefixCaching, HybridLocalKvRetentionIntervalRejectsInvalid) {
  const std::int64_t block_size = 8;
  const std::vector<std::pair<std::int64_t, std::string>> cases{{33, "multiple of scheduler_block_size"},
                                                                {-32, "non-negative"}};
  for (const auto& [interval, expected_match] : cases) {
    try {
      make_kv_cache_manager(full_plus_swa(block_size), {.hash_block_size = block_size, .retention_interval = interval});
      ADD_FAILURE() << "interval " << interval << " must be rejected";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(expected_match), std::string::npos) << e.what();
    }
  }
}

// test_prefix_caching.py@6e448d0e test_hybrid_local_kv_retention_interval_survives_recycling
TEST(PrefixCaching, HybridLocalKvRetentionIntervalSurvivesRecycling) {
  init_hash(sha256);
  const std::int64_t hash_block_size = 4;
  KVCacheConfig c;
  c.num_blocks = 800;
  MLAAttentionSpec::Args mla;
  mla.block_size = 64 * hash_block_size;
  mla.num_kv_heads = 1;
  mla.head_size = 1;
  mla.dtype = "uint8";
  mla.compress_ratio = 4;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"full"}, std::make_shared<MLAAttentionSpec>(mla), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"swa"}, sw_spec(16 * hash_block_size, 512), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"c128"}, sw_spec(2 * hash_block_size, 128), false});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"c4"}, sw_spec(hash_block_size, 8), false});
  auto manager = make_kv_cache_manager(
      c, {.max_model_len = 4096, .hash_block_size = hash_block_size, .retention_interval = 1024});

  auto fill_request = [&](const std::string& request_id, std::int32_t token_offset) {
    std::vector<std::int32_t> token_ids;
    for (std::int32_t i = 0; i < 1024; ++i) token_ids.insert(token_ids.end(), hash_block_size, token_offset + i);
    auto fill_req = make_request(request_id, token_ids, hash_block_size, sha256);
    while (fill_req->num_computed_tokens < static_cast<std::int64_t>(token_ids.size())) {
      const std::int64_t num_new_tokens =
          std::min<std::int64_t>(512, static_cast<std::int64_t>(token_ids.size()) - fill_req->num_computed_tokens);
      auto blocks = manager->allocate_slots(*fill_req, num_new_tokens);
      EXPECT_TRUE(blocks.has_value());
      fill_req->num_computed_tokens += num_new_tokens;
    }
    manager->free(*fill_req);
    return token_ids;
  };
  auto lens = [](const KVCacheBlocks& b) {
    std::vector<std::size_t> out;
    for (const auto& g : b.blocks) out.push_back(g.size());
    return out;
  };
  const auto token_ids = fill_request("fill_0", 0);
  const std::vector<std::int32_t> replay_tokens(token_ids.begin(), token_ids.begin() + 1800);
  auto replay_req = make_request("replay", replay_tokens, hash_block_size, sha256);
  auto [cb, nct, s] = manager->get_computed_blocks(*replay_req);
  EXPECT_EQ(nct, 1024);
  EXPECT_EQ(lens(cb), (std::vector<std::size_t>{4, 16, 128, 256}));

  fill_request("fill_1", 100000);
  auto replay_again = make_request("replay_again", replay_tokens, hash_block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*replay_again);
  EXPECT_EQ(nct2, 1024);
  EXPECT_EQ(lens(cb2), (std::vector<std::size_t>{4, 16, 128, 256}));
}

// test_prefix_caching.py@6e448d0e test_hybrid_local_kv_retention_latest_only_reuses_replay_boundary
TEST(PrefixCaching, HybridLocalKvRetentionLatestOnlyReusesReplayBoundary) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_swa(block_size), {.hash_block_size = block_size, .retention_interval = 0});
  const auto token_ids = common_tokens(16, block_size);
  auto req0 = prefill(*manager, "0", token_ids, block_size);
  EXPECT_EQ(cached_set(*manager, *req0, 16, 1), (std::set<std::int64_t>{11}));
  manager->free(*req0);
  auto retained = manager->block_pool->get_cached_block(req0->block_hashes[11], {1});
  ASSERT_TRUE(retained.has_value());
  EXPECT_EQ((*retained)[0]->ref_cnt, 0);

  auto req1 = make_request("1", token_ids, block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(nct1, 12 * block_size);
  EXPECT_EQ(cb1.blocks[1].size(), 12u);

  auto shorter_req = make_request("2", std::vector<std::int32_t>(token_ids.begin(), token_ids.begin() + 12 * block_size),
                                  block_size, sha256);
  auto [cb2, nct2, s2] = manager->get_computed_blocks(*shorter_req);
  EXPECT_EQ(nct2, 0);
  EXPECT_EQ(cb2.blocks[1].size(), 0u);
}

// test_prefix_caching.py@6e448d0e test_hybrid_local_kv_retention_mtp_reuses_latest_boundary
TEST(PrefixCaching, HybridLocalKvRetentionMtpReusesLatestBoundary) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_swa(block_size, /*swa_is_eagle=*/true),
                                       {.hash_block_size = block_size, .use_eagle = true, .retention_interval = 0});
  const auto token_ids = concat(common_tokens(15, block_size), 15, 7);
  auto req0 = make_request("0", token_ids, block_size, sha256);
  auto [cb0, nct0, s0] = manager->get_computed_blocks(*req0);
  EXPECT_EQ(nct0, 0);
  auto blocks = manager->allocate_slots(*req0, static_cast<std::int64_t>(token_ids.size()), nct0, &cb0);
  ASSERT_TRUE(blocks.has_value());
  EXPECT_EQ(cached_set(*manager, *req0, 15, 1), (std::set<std::int64_t>{11, 12}));
  manager->free(*req0);

  auto req1 = make_request("1", token_ids, block_size, sha256);
  auto [cb1, nct1, s1] = manager->get_computed_blocks(*req1);
  EXPECT_EQ(nct1, 12 * block_size);
  EXPECT_EQ(cb1.blocks[0].size(), 3u);
  EXPECT_EQ(cb1.blocks[1].size(), 12u);
}

// test_prefix_caching.py@6e448d0e test_swa_free_split_keeps_cached_tail_ahead_of_scratch
TEST(PrefixCaching, SwaFreeSplitKeepsCachedTailAheadOfScratch) {
  init_hash(sha256);
  const std::int64_t block_size = 8;
  auto manager = make_kv_cache_manager(full_plus_swa(block_size), {.hash_block_size = block_size});
  auto req = prefill(*manager, "0", common_tokens(16, block_size), block_size);
  auto& swa_manager = *manager->coordinator->single_type_managers[1];
  std::set<std::int64_t> cached_ids, uncached_ids;
  std::vector<std::size_t> cached_hash_indices;
  const auto& rb = swa_manager.req_to_blocks["0"];
  for (std::size_t i = 0; i < rb.size(); ++i) {
    if (rb[i] == manager->block_pool->null_block) continue;
    if (!rb[i]->block_hash().has_value()) {
      uncached_ids.insert(rb[i]->block_id);
    } else {
      cached_ids.insert(rb[i]->block_id);
      cached_hash_indices.push_back(i);
    }
  }
  ASSERT_FALSE(cached_ids.empty());
  ASSERT_FALSE(uncached_ids.empty());
  manager->free(*req);
  const auto order = ids_of(manager->block_pool->free_block_queue.get_all_free_blocks());
  std::map<std::int64_t, std::size_t> pos;
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = i;
  std::size_t max_uncached = 0, min_cached = order.size();
  for (auto id : uncached_ids) max_uncached = std::max(max_uncached, pos.at(id));
  for (auto id : cached_ids) min_cached = std::min(min_cached, pos.at(id));
  EXPECT_LT(max_uncached, min_cached);
  for (auto i : cached_hash_indices) {
    EXPECT_TRUE(manager->block_pool->get_cached_block(req->block_hashes[i], {1}).has_value()) << i;
  }
}

KVCacheConfig pure_swa(std::int64_t block_size, std::int64_t sliding_window) {
  KVCacheConfig c;
  c.num_blocks = 100;
  c.kv_cache_groups.push_back(KVCacheGroupSpec{{"layer"}, sw_spec(block_size, sliding_window), false});
  return c;
}

// test_prefix_caching.py@6e448d0e test_pure_swa_retention_interval_caches_sparse_tails
TEST(PrefixCaching, PureSwaRetentionIntervalCachesSparseTails) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(pure_swa(block_size, block_size), {.hash_block_size = block_size, .retention_interval = 64});
  EXPECT_NE(dynamic_cast<UnitaryKVCacheCoordinator*>(manager->coordinator.get()), nullptr);
  const auto token_ids = common_tokens(16, block_size);
  auto req = prefill(*manager, "0", token_ids, block_size);
  EXPECT_EQ(cached_set(*manager, *req, 16, 0), (std::set<std::int64_t>{3, 7, 11, 14, 15}));
  auto replay = make_request("1", token_ids, block_size, sha256);
  auto [cb, num_computed, s] = manager->get_computed_blocks(*replay);
  EXPECT_EQ(num_computed, 240);
}

// test_prefix_caching.py@6e448d0e test_pure_swa_retention_latest_only
TEST(PrefixCaching, PureSwaRetentionLatestOnly) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(pure_swa(block_size, block_size), {.hash_block_size = block_size, .retention_interval = 0});
  const auto token_ids = common_tokens(16, block_size);
  auto req = prefill(*manager, "0", token_ids, block_size);
  EXPECT_EQ(cached_set(*manager, *req, 16, 0), (std::set<std::int64_t>{14}));
  auto replay = make_request("1", token_ids, block_size, sha256);
  auto [cb, num_computed, s] = manager->get_computed_blocks(*replay);
  EXPECT_EQ(num_computed, 240);
}

// test_prefix_caching.py@6e448d0e test_pure_swa_retention_dense_default_caches_all
TEST(PrefixCaching, PureSwaRetentionDenseDefaultCachesAll) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto manager = make_kv_cache_manager(pure_swa(block_size, block_size), {.hash_block_size = block_size});
  auto req = prefill(*manager, "0", common_tokens(16, block_size), block_size);
  std::set<std::int64_t> all;
  for (std::int64_t i = 0; i < 16; ++i) all.insert(i);
  EXPECT_EQ(cached_set(*manager, *req, 16, 0), all);
}

// test_prefix_caching.py@6e448d0e test_swa_reachable_block_mask_pins_shared_prefix
TEST(PrefixCaching, SwaReachableBlockMaskPinsSharedPrefix) {
  const std::int64_t block_size = 16;
  BlockPool pool(4, true, block_size);
  auto retained = [&](std::optional<std::int64_t> retention, std::int64_t boundary,
                      std::int64_t window) -> std::optional<std::set<std::int64_t>> {
    auto spec = sw_spec(block_size, window);
    SlidingWindowManager mgr(spec, &pool, true, 0, block_size);
    std::vector<std::int64_t> boundaries{255};
    if (boundary != 0) boundaries.push_back(boundary);
    auto m = mgr.reachable_block_mask(0, 16, block_size, *spec, false, retention, boundaries);
    if (!m) return std::nullopt;
    std::set<std::int64_t> out;
    for (std::size_t i = 0; i < m->size(); ++i) {
      if ((*m)[i]) out.insert(static_cast<std::int64_t>(i));
    }
    return out;
  };
  EXPECT_EQ(retained(0, 96, block_size), (std::set<std::int64_t>{5, 14}));
  EXPECT_EQ(retained(0, 96, 3 * block_size), (std::set<std::int64_t>{3, 4, 5, 12, 13, 14}));
  EXPECT_EQ(retained(64, 96, block_size), (std::set<std::int64_t>{3, 5, 7, 11, 14, 15}));
  EXPECT_EQ(retained(std::nullopt, 96, block_size), std::nullopt);
  EXPECT_EQ(retained(0, 0, block_size), (std::set<std::int64_t>{14}));
}

// test_prefix_caching.py@6e448d0e test_swa_shared_prefix_reuse_under_zero_retention
TEST(PrefixCaching, SwaSharedPrefixReuseUnderZeroRetention) {
  init_hash(sha256);
  const std::int64_t block_size = 16;
  auto last_req_hit = [&](std::optional<std::int64_t> retention, bool pin) {
    auto manager = make_kv_cache_manager(make_hybrid_kv_cache_config(block_size, 200, {"full", "sliding_window"}),
                                         {.hash_block_size = block_size, .retention_interval = retention});
    const std::vector<std::int32_t> shared(4 * block_size, 7);
    auto distinct = [&](std::int32_t v) { return concat(shared, v, 2 * block_size); };
    auto req0 = make_request("0", distinct(50), block_size, sha256);
    auto [cb, nc, b0] = manager->get_computed_blocks(*req0);
    manager->allocate_slots(*req0, req0->num_tokens(), nc, &cb);

    auto req1 = make_request("1", distinct(60), block_size, sha256);
    auto [cb1, nc1, boundary] = manager->get_computed_blocks(*req1);
    if (retention == std::optional<std::int64_t>(0)) {
      EXPECT_EQ(boundary, 4 * block_size);
    }
    if (pin && boundary != 0) req1->shared_prefix_boundary = boundary;
    manager->allocate_slots(*req1, req1->num_tokens(), nc1, &cb1);

    auto req2 = make_request("2", distinct(70), block_size, sha256);
    auto [cb2, nc2, b2] = manager->get_computed_blocks(*req2);
    return nc2;
  };
  EXPECT_EQ(last_req_hit(std::nullopt, false), 4 * block_size);
  EXPECT_EQ(last_req_hit(0, false), 0);
  EXPECT_EQ(last_req_hit(0, true), 4 * block_size);
}

}  // namespace
}  // namespace blis::vllm::testing
