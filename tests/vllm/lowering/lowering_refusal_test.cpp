// Every refusal of the lowering beside its accepted twin: the smallest input that triggers it and the
// closest one that does not. vLLM's own configuration errors keep vLLM's message text (cited); what the
// port does not lower is refused by name ("... is not modelled by this port: ...").
#include <gtest/gtest.h>

#include <functional>

#include "lowering_test.h"
#include "model_executor/lowering_internal.h"

namespace blis::vllm::test {
namespace {

using engine::plan::PoolPlan;

// The refusal's message, or "" when f answers.
std::string refusal(const std::function<void()>& f) {
  try {
    f();
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

std::function<void()> lowering(const LoweringConfig& c) {
  return [c] { (void)lower(environment().graph(c.model), environment().chip(c.chip), c); };
}

void refused_with_twin(const LoweringConfig& bad, const LoweringConfig& good, const std::string& needle) {
  const std::string msg = refusal(lowering(bad));
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg;
  EXPECT_EQ(refusal(lowering(good)), "");
}

// config/model.py@6e448d0e ModelConfig.verify_with_parallel_config's ValueError.
TEST(VllmLoweringRefusal, HeadsNotDivisibleByTp) {
  refused_with_twin(config(kLlama8B, "H100-SXM", 3), config(kLlama8B, "H100-SXM", 2),
                    "Total number of attention heads (32) must be divisible by tensor parallel size (3).");
}

// flash_attn.py@6e448d0e supports_combination: "FP8 KV cache requires FA3 on SM90"; FLASHINFER, next on
// SM80, is not lowered.
TEST(VllmLoweringRefusal, Fp8KVCacheOnAmpere) {
  LoweringConfig bad = config(kLlama8B, "A100-SXM-80GB");
  bad.kv_cache_dtype = "fp8";
  LoweringConfig good = bad;
  good.chip = "H100-SXM";
  refused_with_twin(bad, good, "is not modelled by this port: FLASH_ATTN rejects it");
}

TEST(VllmLoweringRefusal, UnstatedWeightDtype) {
  refused_with_twin(config("nvidia/Llama-3.1-70B-Instruct-FP8", "H100-SXM", 4),
                    config("meta-llama/Meta-Llama-3.1-70B", "H100-SXM", 4), ".dtype=unstated is not modelled");
}

TEST(VllmLoweringRefusal, BlockFp8BelowHopper) {
  refused_with_twin(config("Qwen/Qwen3-32B-FP8", "A100-SXM-80GB", 2), config("Qwen/Qwen3-32B-FP8", "H100-SXM", 2),
                    "a block-scaled FP8 checkpoint on A100-SXM-80GB is not modelled");
}

// fp8_utils.py@6e448d0e validate_fp8_block_shape's ValueErrors.
TEST(VllmLoweringRefusal, Fp8BlockShape) {
  const auto check = [](std::int64_t in_part, std::vector<std::int64_t> out_parts) {
    return refusal([&] { lowering::validate_fp8_block_shape(8, 8 * in_part, 1024, in_part, out_parts, 128, 128); });
  };
  EXPECT_EQ(check(96, {128}), "Weight input_size_per_partition = 96 is not divisible by weight quantization block_k = 128.");
  EXPECT_EQ(check(128, {128}), "");
  EXPECT_EQ(check(128, {96, 32}),
            "Weight output_partition_size = 96 is not divisible by weight quantization block_n = 128.");
  EXPECT_EQ(check(128, {128, 32}), "");  // a merged GEMM's last matrix may be off-block
}

TEST(VllmLoweringRefusal, QuantisedExperts) {
  refused_with_twin(config("Qwen/Qwen3-30B-A3B-FP8", "H100-SXM", 2), config("Qwen/Qwen3-30B-A3B", "H100-SXM", 2),
                    "quantised experts run the backend the fused_moe fp8 oracle selects");
}

TEST(VllmLoweringRefusal, MlaAttention) {
  const std::string msg = refusal(lowering(config("deepseek-ai/DeepSeek-V3", "H200-SXM", 8)));
  EXPECT_NE(msg.find("attention.kind=MLA is not modelled"), std::string::npos) << msg;
  EXPECT_EQ(refusal(lowering(config("Qwen/Qwen3-235B-A22B", "H200-SXM", 8))), "");
}

TEST(VllmLoweringRefusal, AttentionSinks) {
  const std::string msg = refusal(lowering(config("openai/gpt-oss-20b", "H100-SXM")));
  EXPECT_NE(msg.find("is not modelled by this port"), std::string::npos) << msg;
}

TEST(VllmLoweringRefusal, Float32Dtype) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.dtype = "float32";
  LoweringConfig good = bad;
  good.dtype = "float16";
  refused_with_twin(bad, good, "dtype=float32 is not modelled");
}

TEST(VllmLoweringRefusal, OnlineFp8) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.quantization = "fp8";
  LoweringConfig good = bad;
  good.quantization = "";
  refused_with_twin(bad, good, "online dynamic FP8 quantisation");
}

TEST(VllmLoweringRefusal, LayoutLimits) {
  LoweringConfig tp16 = config(kLlama8B, "H100-SXM", 16);
  tp16.nodes = 2;
  LoweringConfig tp8 = tp16;
  tp8.tp = 8;
  refused_with_twin(tp16, tp8, "tensor_parallel_size=16 across nodes is not modelled");
  LoweringConfig over = config(kLlama8B, "H100-SXM", 8);
  over.pp = 2;
  LoweringConfig fits = over;
  fits.pp = 1;
  refused_with_twin(over, fits, "16 ranks exceed the 8 GPUs");
  LoweringConfig dp = config(kLlama8B, "H100-SXM");
  dp.dp = 2;
  refused_with_twin(dp, config(kLlama8B, "H100-SXM"), "data_parallel_size=2 is not modelled");
  LoweringConfig spec = config(kLlama8B, "H100-SXM");
  spec.num_speculative_tokens = 1;
  refused_with_twin(spec, config(kLlama8B, "H100-SXM"), "num_speculative_tokens=1 is not modelled");
  LoweringConfig zero = config(kLlama8B, "H100-SXM");
  zero.max_num_seqs = 0;
  LoweringConfig one = zero;
  one.max_num_seqs = 1;
  refused_with_twin(zero, one, "max_num_seqs=0: expected at least 1");
}

// vllm.py@6e448d0e _set_cudagraph_sizes's ValueError when both flags are given and disagree.
TEST(VllmLoweringRefusal, InconsistentCaptureSizes) {
  LoweringConfig bad = config(kLlama8B, "H100-SXM");
  bad.cudagraph_capture_sizes = std::vector<std::int64_t>{1, 2, 4, 8};
  bad.max_cudagraph_capture_size = 16;
  LoweringConfig good = bad;
  good.max_cudagraph_capture_size = 8;
  refused_with_twin(bad, good,
                    "customized max_cudagraph_capture_size(=16) should be consistent with the max value of "
                    "cudagraph_capture_sizes(=8)");
  LoweringConfig name = config(kLlama8B, "H100-SXM");
  name.cudagraph_mode = "FULL_AND_NONE";
  LoweringConfig named = name;
  named.cudagraph_mode = "PIECEWISE";
  refused_with_twin(name, named, "cudagraph_mode=FULL_AND_NONE: not a CUDAGraphMode");
}

TEST(VllmLoweringRefusal, UnknownArchitecture) {
  schema::Chip volta = environment().chip("H100-SXM");
  volta.architecture = "Volta";
  EXPECT_NE(refusal([&] { (void)device_capability(volta); }).find("architecture Volta"), std::string::npos);
  EXPECT_EQ(device_capability(environment().chip("H100-SXM")).major, 9);
}

// kv_cache_utils.py@6e448d0e _check_enough_kv_cache_memory and utils.py@6e448d0e request_memory.
TEST(VllmLoweringRefusal, BudgetRule) {
  const auto& chip = environment().chip("H100-SXM");
  const std::int64_t requested = 72000000000;  // ceil(80e9 x 0.9)
  const auto breakdown = [](std::int64_t weights, std::int64_t outside) {
    engine::MemoryBreakdown m;
    engine::StageMemory s;
    s.weights.bytes = units::BytesPerRank{weights};
    s.outside_allocator.bytes = units::BytesPerRank{outside};
    m.stages.push_back(s);
    return m;
  };
  EXPECT_EQ(refusal([&] { (void)kv_budget(breakdown(requested, 0), chip, 0.9); }).rfind(
                "No available memory for the cache blocks. Try increasing `gpu_memory_utilization`", 0),
            0u);
  EXPECT_EQ(kv_budget(breakdown(requested - 1, 0), chip, 0.9), (std::vector<std::int64_t>{1}));
  const std::int64_t total = 80000000000;
  EXPECT_EQ(refusal([&] { (void)kv_budget(breakdown(0, total - requested + 1), chip, 0.9); }).rfind(
                "Free memory on device cuda:0 (67.06/74.51 GiB) on startup is less than desired GPU memory "
                "utilization (0.9, 67.06 GiB).",
                0),
            0u);
  EXPECT_EQ(kv_budget(breakdown(0, total - requested), chip, 0.9), (std::vector<std::int64_t>{requested}));
}

}  // namespace
}  // namespace blis::vllm::test
