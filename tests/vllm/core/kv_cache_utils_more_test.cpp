// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: tests of the C++ port of vllm/v1/kv_cache_interface.py@6e448d0e and
// vllm/v1/core/kv_cache_utils.py@6e448d0e (spec kinds, sliding windows, MLA merge and grouping, hybrid
// unification, Mamba page padding, max concurrency, auto-fit, PP sharding, per-worker projection) and one
// KVCacheManager test, transcribed from tests/v1/core/test_kv_cache_utils.py@6e448d0e. VllmConfig objects
// become KVCacheVllmConfig values; torch dtypes are their names.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "kv_cache_test_util.h"
#include "v1/core/kv_cache_manager.h"
#include "v1/core/kv_cache_utils_config.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {
namespace {

using testing::new_chunked_local_attention_spec;
using testing::new_kv_cache_spec;
using testing::new_mamba_spec;
using testing::new_sliding_window_spec;

// VllmConfig(model_config=ModelConfig(max_model_len=n)): the defaults the tests rely on (as in
// kv_cache_config_test.cpp: max_num_batched_tokens 2048, one batch in flight).
KVCacheVllmConfig config_with_max_model_len(std::int64_t n) {
  KVCacheVllmConfig cfg;
  cfg.max_model_len = n;
  cfg.original_max_model_len = n;
  cfg.max_in_flight_tokens = 2048;
  return cfg;
}

// test_kv_cache_utils.py@6e448d0e new_mla_spec.
std::shared_ptr<const MLAAttentionSpec> new_mla_spec(std::optional<std::string> cache_dtype_str = std::nullopt,
                                                     std::int64_t block_size = 16) {
  MLAAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 576;
  a.dtype = "float32";
  a.cache_dtype_str = std::move(cache_dtype_str);
  return std::make_shared<MLAAttentionSpec>(a);
}

// test_kv_cache_utils.py@6e448d0e new_indexer_mla_spec.
std::shared_ptr<const MLAAttentionSpec> new_indexer_mla_spec(std::int64_t block_size = 16) {
  MLAAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = 1;
  a.head_size = 132;
  a.dtype = "uint8";
  return std::make_shared<MLAAttentionSpec>(a);
}

// test_kv_cache_utils.py@6e448d0e _grouping_config (hybrid manager enabled, no speculative config).
KVCacheVllmConfig grouping_config() {
  KVCacheVllmConfig cfg;
  cfg.disable_hybrid_kv_cache_manager = false;
  return cfg;
}

std::shared_ptr<const SlidingWindowSpec> sliding(std::int64_t num_kv_heads, std::int64_t sliding_window,
                                                 std::int64_t head_size = 64) {
  SlidingWindowSpec::Args a;
  a.block_size = 16;
  a.num_kv_heads = num_kv_heads;
  a.head_size = head_size;
  a.dtype = "float32";
  a.sliding_window = sliding_window;
  return std::make_shared<SlidingWindowSpec>(a);
}

std::vector<std::string> layer_range(int begin, int end) {
  std::vector<std::string> v;
  for (int i = begin; i < end; ++i) v.push_back("layer_" + std::to_string(i));
  return v;
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_configs_pp_sharding (symmetric and asymmetric).
TEST(KvCacheUtils, GetKvCacheConfigsPpSharding) {
  for (bool asymmetric_memory : {false, true}) {
    auto cfg = config_with_max_model_len(512);
    auto ref = new_kv_cache_spec();
    std::vector<KVCacheSpecDict> pp_specs = {{{"layer1", ref}}, {{"layer2", ref}}};
    std::int64_t expected_num_blocks = 512 / ref->block_size + 1;
    std::int64_t avail = ref->page_size_bytes() * expected_num_blocks;
    std::vector<std::int64_t> available_memory =
        asymmetric_memory ? std::vector<std::int64_t>{avail, avail * 2} : std::vector<std::int64_t>{avail, avail};
    auto configs = get_kv_cache_configs(cfg, pp_specs, available_memory);
    std::vector<KVCacheConfig> expected = {
        KVCacheConfig{expected_num_blocks,
                      {KVCacheTensor{ref->page_size_bytes() * expected_num_blocks, {"layer1"}, 0, 0}},
                      {KVCacheGroupSpec{{"layer1"}, ref, false}}},
        KVCacheConfig{expected_num_blocks,
                      {KVCacheTensor{ref->page_size_bytes() * expected_num_blocks, {"layer2"}, 0, 0}},
                      {KVCacheGroupSpec{{"layer2"}, ref, false}}},
    };
    EXPECT_EQ(configs, expected) << (asymmetric_memory ? "asymmetric" : "symmetric");
  }
}

// test_kv_cache_utils.py@6e448d0e test_project_kv_cache_groups_to_worker.
TEST(KvCacheUtils, ProjectKvCacheGroupsToWorker) {
  auto spec_a = new_kv_cache_spec();
  auto spec_b = new_kv_cache_spec(16, 4);

  std::vector<KVCacheGroupSpec> global_groups = {KVCacheGroupSpec{{"layer1", "layer2", "layer3"}, spec_a, false}};
  auto projected = _project_kv_cache_groups_to_worker(global_groups, {{"layer1", spec_a}, {"layer2", spec_a}});
  ASSERT_EQ(projected.size(), 1u);
  EXPECT_EQ(projected[0].layer_names, (std::vector<std::string>{"layer1", "layer2"}));
  EXPECT_EQ(projected[0].kv_cache_spec.get(), spec_a.get());  // `is spec_a`

  projected = _project_kv_cache_groups_to_worker(global_groups, {{"layer4", spec_a}});
  ASSERT_EQ(projected.size(), 1u);
  EXPECT_TRUE(projected[0].layer_names.empty());
  EXPECT_EQ(projected[0].kv_cache_spec.get(), spec_a.get());

  auto uniform_spec = std::make_shared<UniformTypeKVCacheSpecs>(
      16, KVCacheSpecDict{{"layer1", spec_a}, {"layer2", spec_b}, {"layer3", spec_a}});
  std::vector<KVCacheGroupSpec> global_groups_uniform = {
      KVCacheGroupSpec{{"layer1", "layer2", "layer3"}, uniform_spec, false}};
  projected = _project_kv_cache_groups_to_worker(global_groups_uniform, {{"layer1", spec_a}, {"layer3", spec_a}});
  ASSERT_EQ(projected.size(), 1u);
  EXPECT_EQ(projected[0].layer_names, (std::vector<std::string>{"layer1", "layer3"}));
  auto proj_spec = std::dynamic_pointer_cast<const UniformTypeKVCacheSpecs>(projected[0].kv_cache_spec);
  ASSERT_NE(proj_spec, nullptr);
  auto keys = proj_spec->kv_cache_specs.keys();
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()), (std::set<std::string>{"layer1", "layer3"}));
}

// test_kv_cache_utils.py@6e448d0e test_get_max_concurrency_for_kv_cache_config. The Qwen/Qwen1.5-7B
// ModelConfig and SchedulerConfig(max_num_batched_tokens=1024, async_scheduling=False) stand in as
// their resolved values: max_model_len 16384 and 1024 tokens in flight (max_concurrent_batches == 1).
TEST(KvCacheUtils, GetMaxConcurrencyForKvCacheConfig) {
  const std::int64_t max_model_len = 16384;
  auto cfg = config_with_max_model_len(max_model_len);
  cfg.max_in_flight_tokens = 1024;

  auto full_attention_spec = new_kv_cache_spec(16, 32, 128, "float16");
  SlidingWindowSpec::Args sa;
  sa.block_size = 16;
  sa.num_kv_heads = 32;
  sa.head_size = 128;
  sa.dtype = "float16";
  sa.sliding_window = 1024;
  auto sliding_window_spec = std::make_shared<SlidingWindowSpec>(sa);

  KVCacheConfig full{static_cast<std::int64_t>(1024 * 1.5), {}, {KVCacheGroupSpec{layer_range(0, 32), full_attention_spec, false}}};
  EXPECT_EQ(get_max_concurrency_for_kv_cache_config(cfg, full), 1.5);

  KVCacheConfig sw{129 * 3, {}, {KVCacheGroupSpec{layer_range(0, 32), sliding_window_spec, false}}};
  EXPECT_EQ(get_max_concurrency_for_kv_cache_config(cfg, sw), 3);

  KVCacheConfig hybrid{(1024 + 129) * 3,
                       {},
                       {KVCacheGroupSpec{layer_range(0, 32), full_attention_spec, false},
                        KVCacheGroupSpec{layer_range(32, 64), sliding_window_spec, false}}};
  double max_concurrency_hybrid_model = get_max_concurrency_for_kv_cache_config(cfg, hybrid);
  EXPECT_EQ(max_concurrency_hybrid_model, 3);
  auto [num_tokens, max_concurrency] = get_kv_cache_capacity(cfg, hybrid);
  EXPECT_EQ(num_tokens, max_concurrency_hybrid_model * max_model_len);
  EXPECT_EQ(max_concurrency, max_concurrency_hybrid_model);

  KVCacheConfig unequal{1153 * 3,
                        {},
                        {KVCacheGroupSpec{layer_range(0, 32), full_attention_spec, false},
                         KVCacheGroupSpec{{"layer_32", "layer_33"}, sliding_window_spec, false}}};
  EXPECT_EQ(get_max_concurrency_for_kv_cache_config(cfg, unequal), 3);

  KVCacheSpecDict four_full;
  for (const auto& name : layer_range(0, 4)) four_full.set(name, full_attention_spec);
  auto uniform_full_spec = std::make_shared<UniformTypeKVCacheSpecs>(full_attention_spec->block_size, four_full);
  KVCacheConfig uniform_group{1153 * 3,
                              {},
                              {KVCacheGroupSpec{layer_range(0, 4), uniform_full_spec, false},
                               KVCacheGroupSpec{{"layer_4", "layer_5"}, sliding_window_spec, false}}};
  EXPECT_EQ(get_max_concurrency_for_kv_cache_config(cfg, uniform_group), 3);

  // copy.deepcopy: the config is copied by value (the specs are immutable).
  KVCacheConfig scheduler_shape = generate_scheduler_kv_cache_config({uniform_group});
  EXPECT_EQ(get_max_concurrency_for_kv_cache_config(cfg, scheduler_shape),
            get_max_concurrency_for_kv_cache_config(cfg, uniform_group));
}

// test_kv_cache_utils.py@6e448d0e test_allocate_with_lookahead (make_request's hash_fn=hash as sha256).
TEST(KvCacheUtils, AllocateWithLookahead) {
  init_none_hash(testing::sha256_fn(), std::nullopt, std::string(32, '\x5a'));
  const std::int64_t block_size = 4;
  KVCacheConfig config{10,
                       {KVCacheTensor{100, {"layer1"}, 0, 0}},
                       {KVCacheGroupSpec{{"layer1"}, new_kv_cache_spec(block_size), false}}};
  Request request = testing::make_request("0", {}, block_size, testing::sha256_fn());

  // Test case 1: Requires additional lookahead tokens
  {
    KVCacheManager kv_cache_manager(config, 100, block_size, block_size);
    auto blocks = kv_cache_manager.allocate_slots(request, 3, 0, nullptr, 2);
    ASSERT_TRUE(blocks.has_value());
    EXPECT_EQ(blocks->get_block_ids()[0].size(), 2u);  // ceil(5/4)=2 blocks
  }
  // Test case 2: With precomputed blocks
  {
    KVCacheManager kv_cache_manager(config, 100, block_size, block_size);
    auto blocks = kv_cache_manager.allocate_slots(request, 3, 0, nullptr, 2);
    ASSERT_TRUE(blocks.has_value());
    EXPECT_EQ(blocks->get_block_ids()[0].size(), 2u);
  }
  // Test case 3: required_blocks = ceil((3 + 4) / 4) = 2
  {
    KVCacheManager kv_cache_manager(config, 100, block_size, block_size);
    auto blocks = kv_cache_manager.allocate_slots(request, 3, 0, nullptr, 4);
    ASSERT_TRUE(blocks.has_value());
    EXPECT_EQ(blocks->get_block_ids()[0].size(), 2u);
  }
}

// test_kv_cache_utils.py@6e448d0e test_mixed_precision_kv_cache_with_uniform_type_specs.
TEST(KvCacheUtils, MixedPrecisionKvCacheWithUniformTypeSpecs) {
  auto fp8_spec = new_kv_cache_spec(16, 2, 64, "float8_e4m3fn");
  auto bf16_spec = new_kv_cache_spec(16, 2, 64, "bfloat16");
  KVCacheConfig worker_config{
      10,
      {},
      {KVCacheGroupSpec{{"fp8_layer"},
                        std::make_shared<UniformTypeKVCacheSpecs>(16, KVCacheSpecDict{{"fp8_layer", fp8_spec}}), false},
       KVCacheGroupSpec{{"bf16_layer"},
                        std::make_shared<UniformTypeKVCacheSpecs>(16, KVCacheSpecDict{{"bf16_layer", bf16_spec}}),
                        false}}};
  KVCacheConfig scheduler_config = generate_scheduler_kv_cache_config({worker_config});
  EXPECT_TRUE(worker_config.needs_kv_cache_zeroing());
  EXPECT_TRUE(scheduler_config.needs_kv_cache_zeroing());
}

// test_kv_cache_utils.py@6e448d0e test_mla_draft_prefers_standard_layout_when_pages_can_be_unified.
TEST(KvCacheUtils, MlaDraftPrefersStandardLayoutWhenPagesCanBeUnified) {
  KVCacheSpecDict specs = {{"target.0.attn", new_mla_spec()},
                           {"draft.0", new_sliding_window_spec(16, 1, 288)}};
  std::set<std::int64_t> page_sizes;
  for (const auto& spec : specs.values()) page_sizes.insert(spec->page_size_bytes());
  EXPECT_EQ(page_sizes.size(), 1u);

  auto groups = get_kv_cache_groups(grouping_config(), specs);
  EXPECT_EQ(groups.size(), 2u);
  for (const auto& group : groups) EXPECT_FALSE(isinstance<UniformTypeKVCacheSpecs>(group.kv_cache_spec));
}

// test_kv_cache_utils.py@6e448d0e test_mla_with_incompatible_swa_uses_one_full_allocation_group. The
// log-text assertion (caplog "attention compute is unchanged") is left out: this port does not log.
TEST(KvCacheUtils, MlaWithIncompatibleSwaUsesOneFullAllocationGroup) {
  auto draft = new_sliding_window_spec(16);
  KVCacheSpecDict specs = {{"target.0.attn", new_mla_spec(std::nullopt, 64)},
                           {"target.0.indexer", new_indexer_mla_spec(64)},
                           {"draft.0", draft}};
  auto groups = get_kv_cache_groups(grouping_config(), specs);
  ASSERT_EQ(groups.size(), 1u);
  auto keys = specs.keys();
  EXPECT_EQ(std::set<std::string>(groups[0].layer_names.begin(), groups[0].layer_names.end()),
            std::set<std::string>(keys.begin(), keys.end()));
  auto group_spec = std::dynamic_pointer_cast<const UniformTypeKVCacheSpecs>(groups[0].kv_cache_spec);
  ASSERT_NE(group_spec, nullptr);
  EXPECT_EQ(group_spec->block_size, 64);
  auto promoted_draft = group_spec->kv_cache_specs.at("draft.0");
  EXPECT_TRUE(isinstance<FullAttentionSpec>(promoted_draft));
  EXPECT_FALSE(isinstance<SlidingWindowSpec>(promoted_draft));
  EXPECT_EQ(promoted_draft->block_size, 64);
  auto promoted_full = std::dynamic_pointer_cast<const FullAttentionSpec>(promoted_draft);
  ASSERT_NE(promoted_full, nullptr);
  EXPECT_EQ(promoted_full->sliding_window, std::optional<std::int64_t>(draft->sliding_window));
  EXPECT_EQ(specs.at("draft.0").get(), draft.get());  // `specs["draft.0"] is draft`
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_spec_kind_prefers_specific_attention_subclasses. The
// SlidingWindowMLASpec case is left out: this port refuses that spec (DeepSeek-V4 layout).
TEST(KvCacheUtils, GetKvCacheSpecKindPrefersSpecificAttentionSubclasses) {
  EXPECT_EQ(get_kv_cache_spec_kind(*new_mla_spec()), KVCacheSpecKind::MLA_ATTENTION);
  SinkFullAttentionSpec::Args a;
  a.block_size = 16;
  a.num_kv_heads = 1;
  a.head_size = 64;
  a.dtype = "float32";
  a.sink_len = 4;
  SinkFullAttentionSpec sink_full_attention_spec(a);
  EXPECT_EQ(get_kv_cache_spec_kind(sink_full_attention_spec), KVCacheSpecKind::SINK_FULL_ATTENTION);
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_spec_kind_unwraps_uniform_type_specs. The
// SlidingWindowMLASpec case is left out: this port refuses that spec (DeepSeek-V4 layout).
TEST(KvCacheUtils, GetKvCacheSpecKindUnwrapsUniformTypeSpecs) {
  UniformTypeKVCacheSpecs uniform_mla_spec(
      16, KVCacheSpecDict{{"layer_1", new_mla_spec()}, {"layer_2", new_mla_spec(std::string("fp8"))}});
  EXPECT_EQ(get_kv_cache_spec_kind(uniform_mla_spec), KVCacheSpecKind::MLA_ATTENTION);
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_spec_sliding_window_reads_windowed_specs.
TEST(KvCacheUtils, GetKvCacheSpecSlidingWindowReadsWindowedSpecs) {
  auto full_attention_spec = new_kv_cache_spec(16, 1, 64);
  auto sliding_window_spec = sliding(1, 128);
  EXPECT_EQ(get_kv_cache_spec_sliding_window(*full_attention_spec), std::nullopt);
  EXPECT_EQ(get_kv_cache_spec_sliding_window(*sliding_window_spec), std::optional<std::int64_t>(128));
}

// test_kv_cache_utils.py@6e448d0e test_get_kv_cache_spec_sliding_window_unwraps_uniform_type_specs.
TEST(KvCacheUtils, GetKvCacheSpecSlidingWindowUnwrapsUniformTypeSpecs) {
  UniformTypeKVCacheSpecs uniform_window_spec(16, KVCacheSpecDict{{"layer_1", sliding(1, 128)}, {"layer_2", sliding(2, 128)}});
  UniformTypeKVCacheSpecs mixed_window_spec(16, KVCacheSpecDict{{"layer_1", sliding(1, 128)}, {"layer_2", sliding(1, 256)}});
  EXPECT_EQ(get_kv_cache_spec_sliding_window(uniform_window_spec), std::optional<std::int64_t>(128));
  EXPECT_EQ(get_kv_cache_spec_sliding_window(mixed_window_spec), std::nullopt);
}

// test_kv_cache_utils.py@6e448d0e test_merge_mla_spec.
TEST(KvCacheUtils, MergeMlaSpec) {
  std::vector<KVCacheSpecPtr> kv_cache_specs = {new_mla_spec(), new_mla_spec()};
  EXPECT_EQ(*kv_cache_specs[0]->merge(kv_cache_specs), *new_mla_spec());

  kv_cache_specs = {new_mla_spec(std::string("fp8_ds_mla")), new_mla_spec(std::string("fp8_ds_mla"))};
  EXPECT_EQ(*kv_cache_specs[0]->merge(kv_cache_specs), *new_mla_spec(std::string("fp8_ds_mla")));

  kv_cache_specs = {new_mla_spec(std::string("fp8_ds_mla")), new_mla_spec(std::nullopt)};
  EXPECT_THROW(kv_cache_specs[0]->merge(kv_cache_specs), AssertionError);

  kv_cache_specs = {new_kv_cache_spec(), new_mla_spec()};
  EXPECT_THROW(kv_cache_specs[0]->merge(kv_cache_specs), AssertionError);

  kv_cache_specs = {new_mla_spec(std::string("fp8_ds_mla")), new_kv_cache_spec()};
  EXPECT_THROW(kv_cache_specs[0]->merge(kv_cache_specs), AssertionError);
}

// test_kv_cache_utils.py@6e448d0e test_auto_fit_max_model_len.
TEST(KvCacheUtils, AutoFitMaxModelLen) {
  auto cfg = config_with_max_model_len(1024);
  cfg.original_max_model_len = -1;
  std::int64_t mem_per_block_per_layer = 16 * 2 * 64 * 4 * 2;
  KVCacheSpecDict kv_cache_specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec()}};

  get_kv_cache_configs(cfg, {kv_cache_specs}, {mem_per_block_per_layer * 2 * 1024});
  EXPECT_EQ(cfg.max_model_len, 1024);

  cfg = config_with_max_model_len(1024);
  cfg.original_max_model_len = -1;
  get_kv_cache_configs(cfg, {kv_cache_specs}, {mem_per_block_per_layer * 2 * 32});
  EXPECT_LT(cfg.max_model_len, 1024);
  EXPECT_GT(cfg.max_model_len, 0);
}

// test_kv_cache_utils.py@6e448d0e test_auto_fit_max_model_len_with_hybrid.
TEST(KvCacheUtils, AutoFitMaxModelLenWithHybrid) {
  auto cfg = config_with_max_model_len(8192);
  cfg.original_max_model_len = -1;
  std::int64_t mem_per_block_per_layer = 16 * 2 * 64 * 4 * 2;
  const std::int64_t gamma = 2;
  KVCacheSpecDict kv_cache_specs = {{"layer_1", new_mamba_spec(16, {{2, 512}, {3, 32, 32}}, {"float32", "float32"}, gamma)},
                                    {"layer_2", new_kv_cache_spec()}};
  std::int64_t available_memory = mem_per_block_per_layer * (1024 / 16 + 1 + gamma);
  get_kv_cache_configs(cfg, {kv_cache_specs}, {available_memory});
  EXPECT_EQ(cfg.max_model_len, 1024);
}

// test_kv_cache_utils.py@6e448d0e test_auto_fit_max_model_len_not_triggered.
TEST(KvCacheUtils, AutoFitMaxModelLenNotTriggered) {
  auto cfg = config_with_max_model_len(16);
  std::int64_t mem_per_block_per_layer = 16 * 2 * 64 * 4 * 2;
  KVCacheSpecDict kv_cache_specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec()}};
  get_kv_cache_configs(cfg, {kv_cache_specs}, {mem_per_block_per_layer * 2 * 32});
  EXPECT_EQ(cfg.max_model_len, 16);
}

// test_kv_cache_utils.py@6e448d0e test_auto_fit_max_model_len_respects_num_gpu_blocks_override.
TEST(KvCacheUtils, AutoFitMaxModelLenRespectsNumGpuBlocksOverride) {
  auto cfg = config_with_max_model_len(16384);
  cfg.original_max_model_len = -1;
  cfg.num_gpu_blocks_override = 32;
  std::int64_t mem_per_block_per_layer = 16 * 2 * 64 * 4 * 2;
  KVCacheSpecDict kv_cache_specs = {{"layer_1", new_kv_cache_spec()}, {"layer_2", new_kv_cache_spec()}};
  get_kv_cache_configs(cfg, {kv_cache_specs}, {mem_per_block_per_layer * 2 * 1024});
  EXPECT_GT(cfg.max_model_len, 0);
  EXPECT_LE(cfg.max_model_len, 32 * 16);
}

// test_kv_cache_utils.py@6e448d0e test_unify_hybrid_kv_cache_specs.
TEST(KvCacheUtils, UnifyHybridKvCacheSpecs) {
  // 1. has_full_attention and has_sliding_window
  KVCacheSpecDict kv_cache_spec = {{"layer_1", new_kv_cache_spec(64)},
                                   {"layer_2", new_sliding_window_spec(16, 2, 64, "float32", 32 * 1024, 1024)}};
  unify_hybrid_kv_cache_specs(kv_cache_spec);
  EXPECT_EQ(*kv_cache_spec.at("layer_1"), *new_kv_cache_spec(64));
  EXPECT_EQ(*kv_cache_spec.at("layer_2"), *new_kv_cache_spec(64, 2, 64, "float32", 64 * 1024, 1024));
  EXPECT_EQ(kv_cache_spec.at("layer_2")->page_size_bytes(), 64 * 1024);

  // 2. has_full_attention and has_chunked_local_attention
  kv_cache_spec = {{"layer_1", new_kv_cache_spec()},
                   {"layer_2", new_chunked_local_attention_spec(16, 2, 64, "float32", 32 * 1024, 512)}};
  unify_hybrid_kv_cache_specs(kv_cache_spec);
  EXPECT_EQ(*kv_cache_spec.at("layer_1"), *new_kv_cache_spec());
  EXPECT_EQ(*kv_cache_spec.at("layer_2"), *new_kv_cache_spec(16, 2, 64, "float32", 32 * 1024, std::nullopt, 512));

  // 3. has_full_attention, has_sliding_window and has_chunked_local_attention
  kv_cache_spec = {{"layer_1", new_kv_cache_spec()},
                   {"layer_2", new_sliding_window_spec(16, 2, 64, "float32", 32 * 1024, 1024)},
                   {"layer_3", new_chunked_local_attention_spec(16, 2, 64, "float32", 32 * 1024, 512)}};
  unify_hybrid_kv_cache_specs(kv_cache_spec);
  EXPECT_EQ(*kv_cache_spec.at("layer_1"), *new_kv_cache_spec());
  EXPECT_EQ(*kv_cache_spec.at("layer_2"), *new_kv_cache_spec(16, 2, 64, "float32", 32 * 1024, 1024));
  EXPECT_EQ(*kv_cache_spec.at("layer_3"), *new_kv_cache_spec(16, 2, 64, "float32", 32 * 1024, std::nullopt, 512));

  // 4. No FullAttentionSpec, should not convert
  kv_cache_spec = {{"layer_1", new_sliding_window_spec(16, 2, 64, "float32", std::nullopt, 1024)},
                   {"layer_2", new_chunked_local_attention_spec(16, 2, 64, "float32", std::nullopt, 512)}};
  EXPECT_THROW(unify_hybrid_kv_cache_specs(kv_cache_spec), ValueError);
}

// test_kv_cache_utils.py@6e448d0e test_unify_kv_cache_spec_page_size_mamba.
TEST(KvCacheUtils, UnifyKvCacheSpecPageSizeMamba) {
  auto as_mamba = [](const KVCacheSpecPtr& s) { return std::dynamic_pointer_cast<const MambaSpec>(s); };
  auto as_attn = [](const KVCacheSpecPtr& s) { return std::dynamic_pointer_cast<const AttentionSpec>(s); };

  // 1. Hybrid main model plus a dense draft layer with a 2x larger page.
  auto mamba_spec = new_mamba_spec();
  auto main_attn_spec = new_kv_cache_spec();
  auto draft_attn_spec = new_kv_cache_spec(16, 4);
  EXPECT_EQ(mamba_spec->page_size_bytes(), 16384);
  EXPECT_EQ(main_attn_spec->page_size_bytes(), 16384);
  EXPECT_EQ(draft_attn_spec->page_size_bytes(), 32768);

  auto unified = unify_kv_cache_spec_page_size(
      {{"mamba_layer", mamba_spec}, {"main_attn_layer", main_attn_spec}, {"draft_attn_layer", draft_attn_spec}});
  auto m = as_mamba(unified.at("mamba_layer"));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->page_size_bytes(), 32768);
  EXPECT_EQ(m->page_size_padded, std::optional<std::int64_t>(32768));
  EXPECT_EQ(m->block_size, mamba_spec->block_size);
  auto a = as_attn(unified.at("main_attn_layer"));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->page_size_bytes(), 32768);
  EXPECT_EQ(a->block_size, 2 * main_attn_spec->block_size);
  EXPECT_EQ(a->page_size_padded, std::nullopt);
  EXPECT_EQ(*unified.at("draft_attn_layer"), *draft_attn_spec);

  // 2. Mamba page already padded by the platform.
  auto padded_mamba_spec = new_mamba_spec(16, {{2, 256}, {3, 32, 32}}, {"float32", "float32"}, 2, "none", 16384);
  EXPECT_EQ(padded_mamba_spec->page_size_bytes(), 16384);
  unified = unify_kv_cache_spec_page_size({{"mamba_layer", padded_mamba_spec}, {"draft_attn_layer", draft_attn_spec}});
  m = as_mamba(unified.at("mamba_layer"));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->page_size_bytes(), 32768);
  EXPECT_EQ(m->page_size_padded, std::optional<std::int64_t>(32768));

  // 3. Mamba page that does not evenly divide the maximum page size (dtypes zip-truncated to one).
  auto odd_mamba_spec = new_mamba_spec(16, {{6144}});
  EXPECT_EQ(odd_mamba_spec->page_size_bytes(), 24576);
  EXPECT_NE(32768 % odd_mamba_spec->page_size_bytes(), 0);
  unified = unify_kv_cache_spec_page_size({{"mamba_layer", odd_mamba_spec}, {"draft_attn_layer", draft_attn_spec}});
  EXPECT_EQ(unified.at("mamba_layer")->page_size_bytes(), 32768);

  // 4. Attention layers with non-divisible page sizes still raise.
  EXPECT_THROW(unify_kv_cache_spec_page_size({{"attn_layer", new_kv_cache_spec(24)}, {"draft_attn_layer", draft_attn_spec}}),
               NotImplementedError);

  // 5. Uniform page sizes are returned unchanged.
  KVCacheSpecDict specs = {{"mamba_layer", new_mamba_spec()}, {"attn_layer", new_kv_cache_spec()}};
  EXPECT_EQ(unify_kv_cache_spec_page_size(specs), specs);
}

}  // namespace
}  // namespace blis::vllm
