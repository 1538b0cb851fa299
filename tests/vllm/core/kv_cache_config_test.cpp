// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: tests of the C++ port of vllm/v1/kv_cache_interface.py@6e448d0e and the start-up
// grouping and sizing of vllm/v1/core/kv_cache_utils.py@6e448d0e, transcribed from
// tests/v1/core/test_kv_cache_utils.py@6e448d0e. VllmConfig objects become KVCacheVllmConfig values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kv_cache_test_util.h"
#include "v1/core/kv_cache_utils_config.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {
namespace {

using testing::new_kv_cache_spec;
using testing::new_sliding_window_spec;

// VllmConfig(model_config=ModelConfig(max_model_len=n)): the defaults the tests rely on.
KVCacheVllmConfig config_with_max_model_len(std::int64_t n) {
  KVCacheVllmConfig cfg;
  cfg.max_model_len = n;
  cfg.original_max_model_len = n;
  cfg.max_in_flight_tokens = 2048;  // max_num_batched_tokens default, one batch in flight
  return cfg;
}

KVCacheConfig one_group_config(std::int64_t num_blocks, std::int64_t tensor_size, std::vector<std::string> layers,
                               KVCacheSpecPtr spec) {
  KVCacheConfig c;
  c.num_blocks = num_blocks;
  for (const auto& l : layers) c.kv_cache_tensors.push_back(KVCacheTensor{tensor_size, {l}, 0, 0});
  c.kv_cache_groups.push_back(KVCacheGroupSpec{layers, std::move(spec), false});
  return c;
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_configs_multiple_workers.
TEST(KvCacheUtils, GetKvCacheConfigsMultipleWorkers) {
  auto cfg = config_with_max_model_len(16);
  auto ref = new_kv_cache_spec();
  std::int64_t page = ref->page_size_bytes();
  std::vector<KVCacheSpecDict> same = {
      {{"layer1", new_kv_cache_spec()}, {"layer2", new_kv_cache_spec()}},
      {{"layer1", new_kv_cache_spec()}, {"layer2", new_kv_cache_spec()}},
  };
  auto expected = one_group_config(10, page * 10, {"layer1", "layer2"}, ref);
  EXPECT_EQ(get_kv_cache_configs(cfg, same, {page * 2 * 10, page * 2 * 10}),
            (std::vector<KVCacheConfig>{expected, expected}));
  // Different available memory (TP): the smallest wins.
  EXPECT_EQ(get_kv_cache_configs(cfg, same, {page * 2 * 10, page * 2 * 20}),
            (std::vector<KVCacheConfig>{expected, expected}));
  // Different layers per worker (PP).
  std::vector<KVCacheSpecDict> different = {
      {{"layer1", new_kv_cache_spec()}},
      {{"layer2", new_kv_cache_spec()}, {"layer3", new_kv_cache_spec()}},
  };
  EXPECT_EQ(get_kv_cache_configs(cfg, different, {page * 2 * 10, page * 2 * 10}),
            (std::vector<KVCacheConfig>{one_group_config(10, page * 10, {"layer1"}, new_kv_cache_spec()),
                                        one_group_config(10, page * 10, {"layer2", "layer3"}, new_kv_cache_spec())}));
  // TP + PP.
  std::vector<KVCacheSpecDict> tp_pp = {
      {{"layer1", new_kv_cache_spec()}, {"layer2", new_kv_cache_spec()}},
      {{"layer1", new_kv_cache_spec()}, {"layer2", new_kv_cache_spec()}},
      {{"layer3", new_kv_cache_spec()}},
      {{"layer3", new_kv_cache_spec()}},
  };
  auto a = one_group_config(10, page * 10, {"layer1", "layer2"}, ref);
  auto b = one_group_config(10, page * 10, {"layer3"}, ref);
  EXPECT_EQ(get_kv_cache_configs(cfg, tp_pp, {page * 20, page * 20, page * 20, page * 20}),
            (std::vector<KVCacheConfig>{a, a, b, b}));
}

// test_kv_cache_utils.py@6e448d0e test_merge_kv_cache_spec.
TEST(KvCacheUtils, MergeKvCacheSpec) {
  std::vector<KVCacheSpecPtr> same = {new_kv_cache_spec(16, 32), new_kv_cache_spec(16, 32)};
  auto merged = std::dynamic_pointer_cast<const FullAttentionSpec>(same[0]->merge(same));
  ASSERT_NE(merged, nullptr);
  EXPECT_EQ(merged->block_size, 16);
  EXPECT_EQ(merged->num_kv_heads, 32);
  EXPECT_EQ(merged->head_size, 64);
  EXPECT_EQ(merged->dtype, "float32");
  EXPECT_FALSE(merged->sliding_window.has_value());

  std::vector<KVCacheSpecPtr> different = {new_kv_cache_spec(16, 32), new_kv_cache_spec(16, 16)};
  EXPECT_THROW(different[0]->merge(different), AssertionError);

  auto full_spec = new_kv_cache_spec(16, 32);
  std::vector<KVCacheSpecPtr> different_type = {full_spec, new_sliding_window_spec(16, 32, 64, "float32", std::nullopt, 1)};
  EXPECT_THROW(different_type[0]->merge(different_type), AssertionError);
  EXPECT_THROW(different_type[1]->merge(different_type), AssertionError);

  std::vector<KVCacheSpecPtr> different_window = {new_kv_cache_spec(16, 32),
                                                  new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 1),
                                                  new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 2)};
  EXPECT_THROW(different_window[0]->merge(different_window), ValueError);

  std::vector<KVCacheSpecPtr> same_window = {new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 1),
                                             new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 1)};
  EXPECT_EQ(std::dynamic_pointer_cast<const FullAttentionSpec>(same_window[0]->merge(same_window))->sliding_window, 1);

  std::vector<KVCacheSpecPtr> with_none = {new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 1),
                                           new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, std::nullopt)};
  EXPECT_EQ(std::dynamic_pointer_cast<const FullAttentionSpec>(with_none[0]->merge(with_none))->sliding_window, 1);
}

// test_kv_cache_utils.py@6e448d0e test_is_kv_cache_spec_uniform.
TEST(KvCacheUtils, IsKvCacheSpecUniform) {
  auto sw = [](std::int64_t w) { return new_sliding_window_spec(16, 32, 64, "float32", std::nullopt, w); };
  EXPECT_TRUE(is_kv_cache_spec_uniform({{"layer_1", new_kv_cache_spec(16, 32)}, {"layer_2", new_kv_cache_spec(16, 32)}}));
  EXPECT_TRUE(is_kv_cache_spec_uniform(
      {{"layer_1", new_kv_cache_spec(16, 32)}, {"layer_2", new_kv_cache_spec(16, 32, 64, "float32", std::nullopt, 1)}}));
  EXPECT_FALSE(is_kv_cache_spec_uniform({{"layer_1", new_kv_cache_spec(16, 32)}, {"layer_2", sw(1)}}));
  EXPECT_TRUE(is_kv_cache_spec_uniform({{"layer_1", sw(1)}, {"layer_2", sw(1)}}));
  EXPECT_FALSE(is_kv_cache_spec_uniform({{"layer_1", sw(1)}, {"layer_2", sw(2)}}));
}

// test_kv_cache_utils.py@6e448d0e test_estimate_max_model_len (both parametrizations; the Qwen1.5-7B model
// config stands in as its resolved max_model_len and 32 float16 layers of 32 heads x 128).
TEST(KvCacheUtils, EstimateMaxModelLen) {
  for (auto [max_model_len, want] : {std::pair<std::int64_t, std::int64_t>{16385, 16384}, {16383, 16383}}) {
    auto cfg = config_with_max_model_len(max_model_len);
    cfg.max_in_flight_tokens = 32768;
    KVCacheSpecDict specs;
    for (int i = 0; i < 32; ++i) specs.set("layer_" + std::to_string(i), new_kv_cache_spec(16, 32, 128, "float16"));
    EXPECT_EQ(estimate_max_model_len(cfg, specs, 8 * (std::int64_t{1} << 30)), want) << max_model_len;
  }
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_config_one_worker (the full-attention, sliding-window
// and hybrid cases).
TEST(KvCacheUtils, GetKvCacheConfigOneWorker) {
  auto cfg = config_with_max_model_len(16);
  std::int64_t mem = 16 * 2 * 64 * 4 * 2;
  auto full = [] { return new_kv_cache_spec(); };
  auto sw = [] { return new_sliding_window_spec(); };
  auto run = [&](KVCacheVllmConfig c, const KVCacheSpecDict& specs, std::int64_t avail) {
    return get_kv_cache_configs(c, {specs}, {avail}).at(0);
  };
  EXPECT_EQ(run(cfg, {{"layer_1", full()}, {"layer_2", full()}}, mem * 2 * 32),
            one_group_config(32, mem * 32, {"layer_1", "layer_2"}, full()));
  EXPECT_EQ(run(cfg, {{"layer_1", sw()}, {"layer_2", sw()}}, mem * 2 * 32),
            one_group_config(32, mem * 32, {"layer_1", "layer_2"}, sw()));

  // full + sliding with disable_hybrid_kv_cache_manager
  auto no_hybrid = cfg;
  no_hybrid.disable_hybrid_kv_cache_manager = true;
  EXPECT_EQ(run(no_hybrid, {{"layer_1", full()}, {"layer_2", sw()}}, mem * 2 * 32),
            one_group_config(32, mem * 32, {"layer_1", "layer_2"},
                             new_kv_cache_spec(16, 2, 64, "float32", std::nullopt, 1)));

  // full + sliding, with the hybrid manager
  KVCacheConfig hybrid;
  hybrid.num_blocks = 64;
  hybrid.kv_cache_tensors = {KVCacheTensor{mem * 64, {"layer_1", "layer_2"}, 0, 0}};
  hybrid.kv_cache_groups = {KVCacheGroupSpec{{"layer_1"}, full(), false}, KVCacheGroupSpec{{"layer_2"}, sw(), false}};
  EXPECT_EQ(run(cfg, {{"layer_1", full()}, {"layer_2", sw()}}, mem * 2 * 32), hybrid);

  // 2 full + 4 sliding, 2 layers per group
  KVCacheConfig two_four;
  two_four.num_blocks = 32;
  two_four.kv_cache_tensors = {KVCacheTensor{mem * 32, {"layer_1", "layer_3", "layer_4"}, 0, 0},
                               KVCacheTensor{mem * 32, {"layer_2", "layer_5", "layer_6"}, 0, 0}};
  two_four.kv_cache_groups = {KVCacheGroupSpec{{"layer_1", "layer_2"}, full(), false},
                              KVCacheGroupSpec{{"layer_3", "layer_5"}, sw(), false},
                              KVCacheGroupSpec{{"layer_4", "layer_6"}, sw(), false}};
  EXPECT_EQ(run(cfg,
                {{"layer_1", full()}, {"layer_2", full()}, {"layer_3", sw()}, {"layer_4", sw()}, {"layer_5", sw()},
                 {"layer_6", sw()}},
                mem * 2 * 32),
            two_four);

  // 3 full + 7 sliding, padded to 3 full + 9 sliding
  KVCacheSpecDict specs;
  for (int i = 1; i <= 3; ++i) specs.set("layer_" + std::to_string(i), full());
  for (int i = 4; i <= 10; ++i) specs.set("layer_" + std::to_string(i), sw());
  KVCacheConfig padded;
  padded.num_blocks = 32;
  padded.kv_cache_tensors = {KVCacheTensor{mem * 32, {"layer_1", "layer_4", "layer_5", "layer_6"}, 0, 0},
                             KVCacheTensor{mem * 32, {"layer_2", "layer_7", "layer_8", "layer_9"}, 0, 0},
                             KVCacheTensor{mem * 32, {"layer_3", "layer_10"}, 0, 0}};
  padded.kv_cache_groups = {KVCacheGroupSpec{{"layer_1", "layer_2", "layer_3"}, full(), false},
                            KVCacheGroupSpec{{"layer_4", "layer_7", "layer_10"}, sw(), false},
                            KVCacheGroupSpec{{"layer_5", "layer_8"}, sw(), false},
                            KVCacheGroupSpec{{"layer_6", "layer_9"}, sw(), false}};
  EXPECT_EQ(run(cfg, specs, mem * 3 * 32), padded);
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_configs_attention_free.
TEST(KvCacheUtils, GetKvCacheConfigsAttentionFree) {
  auto cfg = config_with_max_model_len(16);
  EXPECT_EQ(get_kv_cache_configs(cfg, {KVCacheSpecDict{}}, {0}), (std::vector<KVCacheConfig>{KVCacheConfig{1, {}, {}}}));
}

// test_kv_cache_utils.py@6e448d0e test_generate_uniform_type_kv_cache_specs.
TEST(KvCacheUtils, GenerateUniformTypeKvCacheSpecs) {
  KVCacheSpecDict specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec(16, 2, 128)}};
  auto uniform = UniformTypeKVCacheSpecs::from_specs(specs);
  ASSERT_NE(uniform, nullptr);
  EXPECT_EQ(*uniform, UniformTypeKVCacheSpecs(16, specs));
  EXPECT_EQ(UniformTypeKVCacheSpecs::from_specs({{"layer_1", new_kv_cache_spec()}, {"layer_2", new_sliding_window_spec()}}),
            nullptr);
  EXPECT_EQ(UniformTypeKVCacheSpecs::from_specs({{"layer_1", new_sliding_window_spec()}, {"layer_2", new_kv_cache_spec()}}),
            nullptr);
  KVCacheSpecDict sw_specs = {{"layer_1", new_sliding_window_spec()},
                              {"layer_2", new_sliding_window_spec(16, 2, 128)}};
  auto sw_uniform = UniformTypeKVCacheSpecs::from_specs(sw_specs);
  ASSERT_NE(sw_uniform, nullptr);
  EXPECT_EQ(*sw_uniform, UniformTypeKVCacheSpecs(16, sw_specs));
  EXPECT_EQ(UniformTypeKVCacheSpecs::from_specs({{"layer_1", new_kv_cache_spec(16)}, {"layer_2", new_kv_cache_spec(32)}}),
            nullptr);
}

// test_kv_cache_utils.py@6e448d0e test_generate_scheduler_kv_cache_config.
TEST(KvCacheUtils, GenerateSchedulerKvCacheConfig) {
  KVCacheSpecDict specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec(16, 2, 128)}};
  KVCacheConfig c{10, {}, {KVCacheGroupSpec{{"layer_1", "layer_2"}, std::make_shared<UniformTypeKVCacheSpecs>(16, specs), false}}};
  EXPECT_EQ(generate_scheduler_kv_cache_config({c}),
            (KVCacheConfig{10, {}, {KVCacheGroupSpec{{"layer_1", "layer_2"}, new_kv_cache_spec(), false}}}));
}

// test_kv_cache_utils.py@6e448d0e test_check_enough_kv_cache_memory_respects_num_gpu_blocks_override.
TEST(KvCacheUtils, CheckEnoughKvCacheMemoryRespectsOverride) {
  auto cfg = config_with_max_model_len(16384);
  cfg.num_gpu_blocks_override = 32;
  std::int64_t mem = 16 * 2 * 64 * 4 * 2;
  KVCacheSpecDict specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec()}};
  try {
    get_kv_cache_configs(cfg, {specs}, {mem * 2 * 1024});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("max seq len"), std::string::npos) << e.what();
  }
}

// test_kv_cache_utils.py@6e448d0e test_unify_kv_cache_page_size_uses_padding_for_non_divisible_sizes.
TEST(KvCacheUtils, UnifyPageSizeUsesPaddingForNonDivisibleSizes) {
  auto target = new_kv_cache_spec(16, 1, 192, "bfloat16", std::nullopt, std::nullopt, std::nullopt, true);
  auto draft = new_sliding_window_spec(16, 1, 128, "bfloat16", std::nullopt, 1024, true);
  auto unified = unify_kv_cache_spec_page_size({{"target_attn", target}, {"draft_attn", draft}});
  EXPECT_EQ(*unified.at("target_attn"), *target);
  auto u = std::dynamic_pointer_cast<const SlidingWindowSpec>(unified.at("draft_attn"));
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->block_size, draft->block_size);
  EXPECT_EQ(u->real_page_size_bytes(), draft->real_page_size_bytes());
  EXPECT_EQ(u->page_size_padded, target->page_size_bytes());
  EXPECT_EQ(u->page_size_bytes(), target->page_size_bytes());
}

// test_kv_cache_utils.py@6e448d0e test_unify_kv_cache_page_size_padding_requires_backend_support.
TEST(KvCacheUtils, UnifyPageSizePaddingRequiresBackendSupport) {
  auto target = new_kv_cache_spec(16, 1, 192, "bfloat16", std::nullopt, std::nullopt, std::nullopt, true);
  auto draft = new_sliding_window_spec(16, 1, 128, "bfloat16", std::nullopt, 1024, false);
  EXPECT_THROW(unify_kv_cache_spec_page_size({{"target_attn", target}, {"draft_attn", draft}}), NotImplementedError);
}

// test_kv_cache_utils.py@6e448d0e test_unpadded_page_size_without_quant_matches_real_page.
TEST(KvCacheUtils, UnpaddedPageSizeWithoutQuantMatchesRealPage) {
  auto spec = new_kv_cache_spec();
  EXPECT_EQ(spec->unpadded_page_size_bytes(), spec->real_page_size_bytes());
  EXPECT_EQ(spec->page_size_bytes(), spec->unpadded_page_size_bytes());
}

// test_kv_cache_utils.py@6e448d0e test_unpadded_page_size_includes_per_token_head_scales.
TEST(KvCacheUtils, UnpaddedPageSizeIncludesPerTokenHeadScales) {
  auto spec = new_kv_cache_spec(16, 2, 64, "uint8", std::nullopt, std::nullopt, std::nullopt, false,
                                KVQuantMode::FP8_PER_TOKEN_HEAD);
  std::int64_t scales = 2 * spec->block_size * spec->num_kv_heads * 4;
  EXPECT_EQ(spec->unpadded_page_size_bytes(), spec->real_page_size_bytes() + scales);
  EXPECT_EQ(spec->page_size_bytes(), spec->unpadded_page_size_bytes());
}

// test_kv_cache_utils.py@6e448d0e test_page_size_padded_wins.
TEST(KvCacheUtils, PageSizePaddedWins) {
  auto spec = new_kv_cache_spec(16, 2, 64, "uint8", 65536, std::nullopt, std::nullopt, false,
                                KVQuantMode::FP8_PER_TOKEN_HEAD);
  EXPECT_EQ(spec->page_size_bytes(), 65536);
}

}  // namespace
}  // namespace blis::vllm
