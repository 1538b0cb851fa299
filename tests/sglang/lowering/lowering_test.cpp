// Original to BLIS: tests of the SGLang start-up decisions (engines/sglang/srt/model_executor/lowering.h). Every
// expected value is computed by hand from the pinned Python (server_args.py@71de97b2,
// kv_cache_configurator.py@71de97b2, pool_configurator.py@71de97b2, base_cuda_graph_runner.py@71de97b2); each
// test spells the computation out.
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "lowering_test.h"

namespace blis::sglang::model_executor::test {
namespace {

using V = std::vector<std::int64_t>;

// The decode list of _generate_decode_cuda_graph_batch_sizes up to 256: [1, 2, 4, 8, 12] + range(16, 257, 8).
V decode_to_256() {
  V v = {1, 2, 4, 8, 12};
  for (std::int64_t i = 16; i <= 256; i += 8) v.push_back(i);
  return v;
}

// The memory figures nvidia-smi would print for the catalog chips: bytes / 2^20, whole MiB.
// H100-SXM 80e9 B = 76293.945 MiB -> 76293; A100-SXM-80GB the same; L40S 48e9 B = 45776.367 -> 45776;
// B200 180e9 B = 171661.377 -> 171661.
TEST(SglangMemoryDefaults, GpuMemoryFromCatalogChips) {
  EXPECT_EQ(gpu_memory_mib(chip("H100-SXM")), 76293.0);
  EXPECT_EQ(gpu_memory_mib(chip("A100-SXM-80GB")), 76293.0);
  EXPECT_EQ(gpu_memory_mib(chip("L40S")), 45776.0);
  EXPECT_EQ(gpu_memory_mib(chip("B200")), 171661.0);
}

// server_args.py@71de97b2 ServerArgs._handle_gpu_memory_settings on an 80 GB H100 (76293 MiB: 60*1024 <= g <
// 90*1024), tp 1: chunked_prefill_size 8192, decode max_bs 256 (tp < 4). Decode bs: [1,2,4,8,12] +
// range(16,257,8) = 36 sizes. Prefill max_bs = chunked_prefill_size = 8192; prefill bs: range(4,33,4) (8) +
// range(48,257,16) (14) + range(288,513,32) (8) + range(576,1025,64) (8) + range(1280,4097,256) (12) +
// range(4608,8193,512) (8) = 58 buckets. reserved = 512 + max(8192,2048)*1.5 (12288) + 1*1/8*1024 (128) +
// reserve_for_graph_mb (256*2 + 58*8 = 976) = 13904 >= 10240; mem_fraction_static =
// round((76293 - 13904) / 76293, 3) = round(0.817755, 3) = 0.818.
TEST(SglangMemoryDefaults, H100Tp1) {
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama8B, "H100-SXM", 1), false);
  EXPECT_EQ(m.chunked_prefill_size, 8192);
  EXPECT_EQ(m.decode_cuda_graph_backend, "full");
  EXPECT_EQ(m.decode_max_bs, 256);
  EXPECT_EQ(m.decode_bs, decode_to_256());
  EXPECT_EQ(m.prefill_cuda_graph_backend, "breakable");
  EXPECT_EQ(m.prefill_max_bs, 8192);
  EXPECT_EQ(m.prefill_bs.size(), 58u);
  EXPECT_EQ(m.prefill_bs.front(), 4);
  EXPECT_EQ(m.prefill_bs.back(), 8192);
  EXPECT_EQ(*m.reserved_mem_mib, 13904.0);
  EXPECT_EQ(m.mem_fraction_static, 0.818);
}

// tp 2: as tp 1 but the parallel term is 2*1/8*1024 = 256: reserved = 512 + 12288 + 256 + 976 = 14032;
// round((76293 - 14032) / 76293, 3) = round(0.816077, 3) = 0.816.
TEST(SglangMemoryDefaults, H100Tp2) {
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama8B, "H100-SXM", 2), false);
  EXPECT_EQ(m.decode_max_bs, 256);
  EXPECT_EQ(*m.reserved_mem_mib, 14032.0);
  EXPECT_EQ(m.mem_fraction_static, 0.816);
}

// tp 8: decode max_bs 512 (tp >= 4): bs = 36 sizes to 256 + range(272,512,16) (15) + range(512,513,32) ([512])
// = 52. reserved = 512 + 12288 + 8*1/8*1024 (1024) + (512*2 + 58*8 = 1488) = 15312;
// round((76293 - 15312) / 76293, 3) = round(0.799300, 3) = 0.799.
TEST(SglangMemoryDefaults, H100Tp8) {
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama70B, "H100-SXM", 8), false);
  EXPECT_EQ(m.chunked_prefill_size, 8192);
  EXPECT_EQ(m.decode_max_bs, 512);
  V want = decode_to_256();
  for (std::int64_t i = 272; i < 512; i += 16) want.push_back(i);
  want.push_back(512);
  EXPECT_EQ(m.decode_bs, want);
  EXPECT_EQ(m.decode_bs.size(), 52u);
  EXPECT_EQ(*m.reserved_mem_mib, 15312.0);
  EXPECT_EQ(m.mem_fraction_static, 0.799);
}

// A100 40 GB: 40e9 B = 38146.97 MiB -> 38146 (35*1024 <= g < 60*1024): chunked_prefill_size 4096, decode
// max_bs 32 at tp 1 (bs [1,2,4,8,12,16,24,32]). Prefill max_bs 4096: 8+14+8+8+12 = 50 buckets (the 4608 range
// is empty). reserved = 512 + 4096*1.5 (6144) + 128 + (32*2 + 50*8 = 464) = 7248; no 10240 floor (g <= 60*1024);
// round((38146 - 7248) / 38146, 3) = round(0.809993, 3) = 0.81.
TEST(SglangMemoryDefaults, A100Of40GBTp1) {
  const MemoryDefaults m = resolve_memory_defaults(38146.0, config(kLlama8B, "A100-SXM-80GB", 1), false);
  EXPECT_EQ(m.chunked_prefill_size, 4096);
  EXPECT_EQ(m.decode_max_bs, 32);
  EXPECT_EQ(m.decode_bs, (V{1, 2, 4, 8, 12, 16, 24, 32}));
  EXPECT_EQ(m.prefill_max_bs, 4096);
  EXPECT_EQ(m.prefill_bs.size(), 50u);
  EXPECT_EQ(*m.reserved_mem_mib, 7248.0);
  EXPECT_EQ(m.mem_fraction_static, 0.81);
}

// A100 40 GB at tp 8: decode max_bs 160 ([1,2,4,8,12] + range(16,161,8) = 24 sizes). reserved = 512 + 6144 +
// 1024 + (160*2 + 400 = 720) = 8400; round((38146 - 8400) / 38146, 3) = round(0.779793, 3) = 0.78.
TEST(SglangMemoryDefaults, A100Of40GBTp8) {
  const MemoryDefaults m = resolve_memory_defaults(38146.0, config(kLlama70B, "A100-SXM-80GB", 8), false);
  EXPECT_EQ(m.decode_max_bs, 160);
  EXPECT_EQ(m.decode_bs.size(), 24u);
  EXPECT_EQ(m.decode_bs.back(), 160);
  EXPECT_EQ(*m.reserved_mem_mib, 8400.0);
  EXPECT_EQ(m.mem_fraction_static, 0.78);
}

// A 24 GB card (24e9 B = 22888 MiB; 20*1024 <= g < 35*1024): chunked 2048, decode max_bs 24 at tp 1
// ([1,2,4,8,12,16,24]). Prefill max_bs 2048: 8+14+8+8 + range(1280,2049,256) (4) = 42 buckets. reserved = 512 +
// max(2048,2048)*1.5 (3072) + 128 + (24*2 + 42*8 = 384) = 4096; round((22888 - 4096) / 22888, 3) =
// round(0.821042, 3) = 0.821. At tp 4 the decode max_bs is 80.
TEST(SglangMemoryDefaults, SmallCard24GB) {
  const MemoryDefaults m = resolve_memory_defaults(22888.0, config(kLlama8B, "L40S", 1), false);
  EXPECT_EQ(m.chunked_prefill_size, 2048);
  EXPECT_EQ(m.decode_bs, (V{1, 2, 4, 8, 12, 16, 24}));
  EXPECT_EQ(m.prefill_bs.size(), 42u);
  EXPECT_EQ(*m.reserved_mem_mib, 4096.0);
  EXPECT_EQ(m.mem_fraction_static, 0.821);
  EXPECT_EQ(resolve_memory_defaults(22888.0, config(kLlama8B, "L40S", 4), false).decode_max_bs, 80);
}

// A 16 GB card (16e9 B = 15258 MiB < 20*1024): chunked 2048, decode max_bs 8 ([1,2,4,8]). reserved = 512 + 3072
// + 128 + (8*2 + 42*8 = 352) = 4064; round((15258 - 4064) / 15258, 3) = round(0.733648, 3) = 0.734.
TEST(SglangMemoryDefaults, SmallCard16GB) {
  const MemoryDefaults m = resolve_memory_defaults(15258.0, config(kLlama8B, "L40S", 1), false);
  EXPECT_EQ(m.decode_bs, (V{1, 2, 4, 8}));
  EXPECT_EQ(*m.reserved_mem_mib, 4064.0);
  EXPECT_EQ(m.mem_fraction_static, 0.734);
}

// The catalog's L40S (45776 MiB): the A100-40GB band, tp 1: reserved 7248 as above;
// round((45776 - 7248) / 45776, 3) = round(0.841664, 3) = 0.842.
TEST(SglangMemoryDefaults, L40S) {
  const MemoryDefaults m = resolve_memory_defaults(gpu_memory_mib(chip("L40S")), config(kLlama8B, "L40S"), false);
  EXPECT_EQ(m.chunked_prefill_size, 4096);
  EXPECT_EQ(m.mem_fraction_static, 0.842);
}

// B200 (171661 MiB >= 160*1024): chunked 16384 and decode max_bs 512 at any tp. Prefill max_bs 16384: 50 +
// range(4608,16385,512) (24) = 74 buckets. reserved = 512 + 16384*1.5 (24576) + 128 + (1024 + 74*8 = 1616) =
// 26832; round((171661 - 26832) / 171661, 3) = round(0.843692, 3) = 0.844.
TEST(SglangMemoryDefaults, B200Tp1) {
  const MemoryDefaults m = resolve_memory_defaults(gpu_memory_mib(chip("B200")), config(kLlama8B, "B200"), false);
  EXPECT_EQ(m.chunked_prefill_size, 16384);
  EXPECT_EQ(m.decode_max_bs, 512);
  EXPECT_EQ(m.prefill_bs.size(), 74u);
  EXPECT_EQ(*m.reserved_mem_mib, 26832.0);
  EXPECT_EQ(m.mem_fraction_static, 0.844);
}

// "llama-2" in the model path caps the prefill max_bs at 4096 (passed as model_path_prefill_cap): 50 buckets; reserved = 512 + 12288 + 128 + (512 +
// 400) = 13840; round((76293 - 13840) / 76293, 3) = round(0.818594, 3) = 0.819.
TEST(SglangMemoryDefaults, Llama2PrefillCap) {
  LoweringConfig c = config(kLlama2, "H100-SXM");
  c.model_path_prefill_cap = 4096;  // "llama-2" in the model path
  const MemoryDefaults m = resolve_memory_defaults(76293.0, c, false);
  EXPECT_EQ(m.prefill_max_bs, 4096);
  EXPECT_EQ(m.prefill_bs.size(), 50u);
  EXPECT_EQ(m.mem_fraction_static, 0.819);
}

// MLA: prefill max_bs 2048 (42 buckets) and a flat 1.5*1024 prefill graph reserve: reserved = 512 + 12288 + 128
// + (512 + 1536) = 14976; round((76293 - 14976) / 76293, 3) = round(0.803704, 3) = 0.804.
TEST(SglangMemoryDefaults, MlaReserve) {
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama8B, "H100-SXM"), true);
  EXPECT_EQ(m.prefill_max_bs, 2048);
  EXPECT_EQ(*m.reserved_mem_mib, 14976.0);
  EXPECT_EQ(m.mem_fraction_static, 0.804);
}

// gpu_mem None: chunked 4096, decode max_bs 160, mem_fraction_static 0.88.
TEST(SglangMemoryDefaults, UnknownMemory) {
  const MemoryDefaults m = resolve_memory_defaults(std::nullopt, config(kLlama8B, "H100-SXM"), false);
  EXPECT_EQ(m.chunked_prefill_size, 4096);
  EXPECT_EQ(m.decode_max_bs, 160);
  EXPECT_EQ(m.mem_fraction_static, 0.88);
}

// User values win: chunked_prefill_size 2048 and cuda_graph_bs [64, 8, 32] (max_bs = 64, the list kept as given);
// mem_fraction_static 0.9 is kept and no reserve is computed. --disable-cuda-graph drops both graph reserves:
// reserved = 512 + 12288 + 128 = 12928; round((76293 - 12928) / 76293, 3) = round(0.830548, 3) = 0.831.
TEST(SglangMemoryDefaults, UserOverrides) {
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  c.chunked_prefill_size = 2048;
  c.cuda_graph_bs = V{64, 8, 32};
  c.mem_fraction_static = 0.9;
  const MemoryDefaults m = resolve_memory_defaults(76293.0, c, false);
  EXPECT_EQ(m.chunked_prefill_size, 2048);
  EXPECT_EQ(m.decode_max_bs, 64);
  EXPECT_EQ(m.decode_bs, (V{64, 8, 32}));
  EXPECT_EQ(m.prefill_max_bs, 2048);
  EXPECT_FALSE(m.reserved_mem_mib.has_value());
  EXPECT_EQ(m.mem_fraction_static, 0.9);

  LoweringConfig off = config(kLlama8B, "H100-SXM");
  off.disable_cuda_graph = true;
  const MemoryDefaults d = resolve_memory_defaults(76293.0, off, false);
  EXPECT_EQ(d.decode_cuda_graph_backend, "disabled");
  EXPECT_EQ(d.prefill_cuda_graph_backend, "disabled");
  EXPECT_EQ(*d.reserved_mem_mib, 12928.0);
  EXPECT_EQ(d.mem_fraction_static, 0.831);
}

// --disable-cuda-graph-padding captures every size 1..max_bs.
TEST(SglangMemoryDefaults, DisablePadding) {
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  c.disable_cuda_graph_padding = true;
  c.cuda_graph_max_bs = 5;
  EXPECT_EQ(resolve_memory_defaults(76293.0, c, false).decode_bs, (V{1, 2, 3, 4, 5}));
}

// A decode max_bs off the default grid is appended: max_bs 100 -> [1,2,4,8,12,16,...,96] + [100].
TEST(SglangMemoryDefaults, MaxBsAppended) {
  LoweringConfig c = config(kLlama8B, "H100-SXM");
  c.cuda_graph_max_bs = 100;
  const V bs = resolve_memory_defaults(76293.0, c, false).decode_bs;
  EXPECT_EQ(bs.size(), 5u + 11u + 1u);  // 16..96 step 8 is 11 sizes
  EXPECT_EQ(bs[bs.size() - 2], 96);
  EXPECT_EQ(bs.back(), 100);
}

// _get_default_attn_backend (MHA) on the catalog's chips (capabilities from lowering_test.h): Hopper fa3, SM100 trtllm_mha (page 64 from
// _mla_backend_page_constraints, the page size being unset), Ampere and Ada flashinfer; page 1 elsewhere.
TEST(SglangAttentionBackend, CatalogChips) {
  const auto& g = graph(kLlama8B);
  const std::vector<std::tuple<std::string, std::string, std::int64_t>> want = {
      {"H100-SXM", "fa3", 1},          {"H200-SXM", "fa3", 1},          {"A100-SXM-80GB", "flashinfer", 1},
      {"L40S", "flashinfer", 1},       {"B200", "trtllm_mha", 64},      {"GB200-NVL72", "trtllm_mha", 64},
      {"B300", "trtllm_mha", 64},      {"GB300-NVL72", "trtllm_mha", 64}};
  for (const auto& [c, backend, page] : want) {
    const AttentionChoice a = resolve_attention_backend(g, chip(c), config(kLlama8B, c));
    EXPECT_EQ(a.attention_backend, backend) << c;
    EXPECT_EQ(a.page_size, page) << c;
    EXPECT_FALSE(a.use_mla_backend);
  }
}

// Page sizes: trtllm_mha keeps 16/32/64/128 and moves 1 to 64; fa3 keeps the user's page; fa3 with
// fp8_e5m2 falls back to triton; unequal K and V widths pick fa4 on SM100 with page 128.
TEST(SglangAttentionBackend, PageSizes) {
  const auto& g = graph(kLlama8B);
  LoweringConfig c = config(kLlama8B, "B200");
  c.page_size = 32;
  EXPECT_EQ(resolve_attention_backend(g, chip("B200"), c).page_size, 32);
  c.page_size = 1;
  EXPECT_EQ(resolve_attention_backend(g, chip("B200"), c).page_size, 64);
  LoweringConfig h = config(kLlama8B, "H100-SXM");
  h.page_size = 16;
  EXPECT_EQ(resolve_attention_backend(g, chip("H100-SXM"), h).page_size, 16);
  h.kv_cache_dtype = "fp8_e5m2";
  EXPECT_EQ(resolve_attention_backend(g, chip("H100-SXM"), h).attention_backend, "triton");
  schema::Graph asym = g;
  for (auto& [_, k] : asym.layer_kinds) k.mixer.attention->v_head_dim = units::Count{64};
  const AttentionChoice f = resolve_attention_backend(asym, chip("B200"), config(kLlama8B, "B200"));
  EXPECT_EQ(f.attention_backend, "fa4");
  EXPECT_EQ(f.page_size, 128);
}

// The whole resolution for Llama-3.1-8B on H100-SXM: the H100Tp1 defaults, fa3 with page 1, overlap on,
// context 131072 (max_position_embeddings; Llama 3's rope type keeps the factor at 1). pp 2 disables overlap
// (_pipeline_parallel_overlap_disable).
TEST(SglangServerArgs, Llama8BOnH100) {
  const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), config(kLlama8B, "H100-SXM"));
  EXPECT_EQ(r.memory.mem_fraction_static, 0.818);
  EXPECT_EQ(r.attention.attention_backend, "fa3");
  EXPECT_EQ(r.attention.page_size, 1);
  EXPECT_FALSE(r.disable_overlap_schedule);
  EXPECT_EQ(r.context_len, 131072);
  LoweringConfig pp = config(kLlama8B, "H100-SXM");
  pp.pp = 2;
  EXPECT_TRUE(resolve_server_args(graph(kLlama8B), chip("H100-SXM"), pp).disable_overlap_schedule);
}

// pool_configurator.py@71de97b2 _compute_cell_size: Llama-3.1-8B has 32 layers of 8 KV heads of 128 (K and V):
// tp 1: 8 * (128 + 128) * 32 * 2 = 131072 B/token; tp 2: 4 heads -> 65536; tp 8: 1 head -> 16384; tp 16:
// max(1, 8 // 16) = 1 head -> 16384 (replicated). fp8_e4m3 halves it.
TEST(SglangKvBudget, CellSize) {
  const auto& g = graph(kLlama8B);
  const std::int64_t e = kv_cache_element_size(g, "auto");
  EXPECT_EQ(e, 2);
  EXPECT_EQ(kv_cell_size(g, 1, 32, e), 131072);
  EXPECT_EQ(kv_cell_size(g, 2, 32, e), 65536);
  EXPECT_EQ(kv_cell_size(g, 8, 32, e), 16384);
  EXPECT_EQ(kv_cell_size(g, 16, 32, e), 16384);
  EXPECT_EQ(kv_cell_size(g, 1, 32, kv_cache_element_size(g, "fp8_e4m3")), 65536);
}

// kv_cache_configurator.py@71de97b2 _profile_available_bytes at tp 1 (no float32 reduction): an 80e9-byte GPU with
// 1 GiB held before the snapshot: pre = 78926258176 B; 16e9 B of weights leave 62926258176 B. With
// mem_fraction_static 0.818: rest = 62926258176 - 78926258176 * (1 - 0.818) ~= 62926258176 - 14364578988.03 =
// 48561679187.97 B -> int() = 48561679187. max_total_num_tokens = 48561679187 // 131072 = 370496 (remainder
// 27475), page 1. max_running_requests: int(370496 / 131072 * 512) = int(1447.25) = 1447 -> max(min(1447, 4096),
// 2048) = 2048; min(2048, 370496 // 2) = 2048.
TEST(SglangKvBudget, Llama8BTp1) {
  const std::int64_t before = 80'000'000'000 - (std::int64_t{1} << 30);
  const std::int64_t at_pool = before - 16'000'000'000;
  const std::int64_t avail = profile_available_bytes(before, at_pool, 0.818, false);
  EXPECT_EQ(avail, 48561679187);
  const MemoryPool p = memory_pool(avail, 131072, 1, 131072, std::nullopt, std::nullopt);
  EXPECT_EQ(p.max_total_num_tokens, 370496);
  EXPECT_EQ(p.max_running_requests, 2048);
  // --max-total-tokens 100000 caps it; page 64 aligns down: 100000 // 64 * 64 = 99968; requests: int(99968 /
  // 131072 * 512) = 390 -> 2048; min(2048, 49984) = 2048. --max-running-requests 4000 at 99968 tokens:
  // min(4000, 49984) = 4000; at 5000 tokens: min(4000, 2500) = 2500.
  const MemoryPool c = memory_pool(avail, 131072, 64, 131072, 100000, std::nullopt);
  EXPECT_EQ(c.max_total_num_tokens, 99968);
  EXPECT_EQ(c.max_running_requests, 2048);
  EXPECT_EQ(memory_pool(avail, 131072, 64, 131072, 100000, 4000).max_running_requests, 4000);
  EXPECT_EQ(memory_pool(avail, 131072, 1, 131072, 5000, 4000).max_running_requests, 2500);
}

// Llama-3.1-70B at tp 8 on H100 (distributed: the free bytes pass through float32). pre = 80e9 - 2^30 =
// 78926258176 (a multiple of 8192, exact in float32); 17.64e9 B of weights leave 61286258176 B, which float32
// rounds to the nearest multiple of 4096: 61286258176 / 4096 = 14962465.375 -> 14962465 * 4096 = 61286256640.
// rest = 61286256640 - 78926258176 * (1 - 0.799) -> int() = 45422078746 (without the float32 step it would be
// 45422080282). Cell: 1 KV head per rank, 1 * 256 * 80 * 2 = 40960 B; 45422078746 // 40960 = 1108937 -> page 64:
// 1108928. Requests: int(1108928 / 131072 * 512) = int(4331.75) = 4331 -> 4096.
TEST(SglangKvBudget, Llama70BTp8Float32) {
  const std::int64_t before = 80'000'000'000 - (std::int64_t{1} << 30);
  const std::int64_t at_pool = before - 17'640'000'000;
  EXPECT_EQ(profile_available_bytes(before, at_pool, 0.799, true), 45422078746);
  EXPECT_EQ(profile_available_bytes(before, at_pool, 0.799, false), 45422080282);
  const std::int64_t cell = kv_cell_size(graph(kLlama70B), 8, 80, 2);
  EXPECT_EQ(cell, 40960);
  const MemoryPool p = memory_pool(45422078746, cell, 64, 131072, std::nullopt, std::nullopt);
  EXPECT_EQ(p.max_total_num_tokens, 1108928);
  EXPECT_EQ(p.max_running_requests, 4096);
}

// The same budget read from a memory breakdown (outside_allocator 1 GiB, weights 16e9 B per rank; the other terms
// are not subtracted) on the catalog's H100-SXM with the resolved defaults gives the Llama8BTp1 figures.
TEST(SglangKvBudget, OverMemoryBreakdown) {
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
  engine::MemoryBreakdown mb;
  engine::StageMemory s;
  s.outside_allocator.bytes = units::BytesPerRank{std::int64_t{1} << 30};
  s.weights.bytes = units::BytesPerRank{16'000'000'000};
  s.activations.bytes = units::BytesPerRank{5'000'000'000};
  s.graph_pool.bytes = units::BytesPerRank{1'000'000'000};
  mb.stages.push_back(s);
  const auto pools = kv_budget(mb, chip("H100-SXM"), r, c, {kv_cell_size(graph(kLlama8B), 1, 32, 2)});
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].available_bytes, 48561679187);
  EXPECT_EQ(pools[0].max_total_num_tokens, 370496);
  EXPECT_EQ(pools[0].max_running_requests, 2048);
}

// base_cuda_graph_runner.py@71de97b2 get_batch_sizes_to_capture: with 2048 request slots the 36 sizes to 256
// are kept; with 100 slots, 100 is appended (256 > 100) and everything above 100 dropped:
// [1,2,4,8,12,16,...,96,100]. Padding (_pad_to_bucket, bisect_left): 3 -> 4, 13 -> 16, 97 -> 100, 101 -> eager.
TEST(SglangCudaGraph, CaptureSizesAndPadding) {
  const MemoryDefaults m = resolve_memory_defaults(76293.0, config(kLlama8B, "H100-SXM"), false);
  EXPECT_EQ(decode_capture_batch_sizes(m, 2048), decode_to_256());
  V want = {1, 2, 4, 8, 12};
  for (std::int64_t i = 16; i <= 96; i += 8) want.push_back(i);
  want.push_back(100);
  const V bs = decode_capture_batch_sizes(m, 100);
  EXPECT_EQ(bs, want);
  EXPECT_EQ(padded_decode_batch_size(bs, 1), 1);
  EXPECT_EQ(padded_decode_batch_size(bs, 3), 4);
  EXPECT_EQ(padded_decode_batch_size(bs, 13), 16);
  EXPECT_EQ(padded_decode_batch_size(bs, 97), 100);
  EXPECT_EQ(padded_decode_batch_size(bs, 101), std::nullopt);
  const V full = decode_capture_batch_sizes(m, 2048);
  EXPECT_EQ(padded_decode_batch_size(full, 250), 256);
  EXPECT_EQ(padded_decode_batch_size(full, 257), std::nullopt);
  LoweringConfig off = config(kLlama8B, "H100-SXM");
  off.disable_cuda_graph = true;
  const V none = decode_capture_batch_sizes(resolve_memory_defaults(76293.0, off, false), 2048);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(padded_decode_batch_size(none, 1), std::nullopt);
}

// The plan policies for Llama-3.1-8B, tp 1, with 2048 request slots: one KV group of the 32 layers, a page of one
// token of 131072 B on H100 (fa3, page 1) and 64 tokens of 64 * 131072 = 8388608 B on B200 (trtllm_mha, page 64);
// 36 decode graphs (requests 1..256, one query token each, full) and the 58 prefill token buckets (piecewise) on
// H100; in_flight 2 (overlap on) and 1 with --disable-overlap-schedule.
TEST(SglangLowerPolicies, Llama8B) {
  const LoweringConfig c = config(kLlama8B, "H100-SXM");
  const ResolvedServerArgs r = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), c);
  const engine::plan::PoolPlan p = lower_policies(graph(kLlama8B), chip("H100-SXM"), c, r, 2048);
  ASSERT_EQ(p.kv->size(), 1u);
  const auto& g = p.kv->front();
  EXPECT_EQ(g.layers->size(), 32u);
  EXPECT_EQ(g.bytes_per_page->value(), 131072);
  EXPECT_EQ(g.tokens_per_page->value(), 1);
  EXPECT_EQ(*g.format->dtype, "bf16");
  EXPECT_EQ(g.format->payload_bits->value(), 16);
  const auto& b = *p.graphs->buckets;
  ASSERT_EQ(b.size(), 36u + 58u);
  EXPECT_EQ(b[0].size->requests->value(), 1);
  EXPECT_EQ(*b[0].launch, "full_graph");
  EXPECT_EQ(b[35].size->requests->value(), 256);
  EXPECT_EQ(b[35].query_tokens_per_request->value(), 1);
  EXPECT_EQ(b[36].size->tokens->value(), 4);
  EXPECT_EQ(*b[36].launch, "piecewise");
  EXPECT_EQ(b.back().size->tokens->value(), 8192);
  EXPECT_EQ(p.in_flight->value(), 2);
  EXPECT_FALSE(p.layers.has_value());

  const LoweringConfig bc = config(kLlama8B, "B200");
  const ResolvedServerArgs br = resolve_server_args(graph(kLlama8B), chip("B200"), bc);
  const engine::plan::PoolPlan bp = lower_policies(graph(kLlama8B), chip("B200"), bc, br, 2048);
  EXPECT_EQ(bp.kv->front().bytes_per_page->value(), 8388608);
  EXPECT_EQ(bp.kv->front().tokens_per_page->value(), 64);

  LoweringConfig off = c;
  off.disable_overlap_schedule = true;
  const ResolvedServerArgs ro = resolve_server_args(graph(kLlama8B), chip("H100-SXM"), off);
  EXPECT_EQ(lower_policies(graph(kLlama8B), chip("H100-SXM"), off, ro, 2048).in_flight->value(), 1);
}

// Every catalog model on every catalog chip at tp 8 either resolves (and then sizes a KV cell) or is refused by
// name; nothing else is thrown. The dense full-attention Llama, Qwen and Mistral graphs resolve.
TEST(SglangServerArgs, EveryCatalogModelResolvesOrIsRefused) {
  int resolved = 0;
  for (const auto& [model, g] : catalog().graphs)
    for (const auto& [name, ch] : catalog().chips) {
      const LoweringConfig c = config(model, name, 8);
      try {
        const ResolvedServerArgs r = resolve_server_args(g, ch, c);
        EXPECT_GT(kv_cell_size(g, 8, static_cast<std::int64_t>(g.layers.size()), 2), 0) << model;
        EXPECT_GT(r.memory.mem_fraction_static, 0.0) << model << " on " << name;
        ++resolved;
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("is not modelled by this port"), std::string::npos)
            << model << " on " << name << ": " << e.what();
      }
    }
  EXPECT_GT(resolved, 0);
  EXPECT_NO_THROW((void)resolve_server_args(graph("Qwen/Qwen3-8B"), chip("H100-SXM"), config("Qwen/Qwen3-8B", "H100-SXM")));
  EXPECT_NO_THROW((void)resolve_server_args(graph("mistralai/Mistral-Nemo-Instruct-2407"), chip("B200"),
                                            config("mistralai/Mistral-Nemo-Instruct-2407", "B200")));
}

}  // namespace
}  // namespace blis::sglang::model_executor::test
