// SPDX-License-Identifier: Apache-2.0
// Original to BLIS: the byte-level cross-check of the router's vLLM KV-event adapter (the port of
// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099) against the vLLM port's KV-event codec
// (engines/vllm/distributed/kv_events_codec.h, the bytes vLLM's ZmqEventPublisher sends): batches encoded by
// the engine's encoder decode to the same events, and, fed through the Pool, make the precise prefix scorer
// see the engine's cache.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "distributed/kv_events_bridge.h"
#include "distributed/kv_events_codec.h"
#include "router/kvcache/indexer.h"
#include "router/kvcache/kvblock/in_memory.h"
#include "router/kvcache/kvblock/token_processor.h"
#include "router/kvevents/engineadapter/vllm_adapter.h"
#include "router/kvevents/pool.h"

namespace ea = blis::router::engineadapter;
namespace ke = blis::router::kvevents;
namespace kb = blis::router::kvblock;
namespace kc = blis::router::kvcache;
namespace vl = blis::vllm;

namespace {
std::vector<std::int32_t> tokens32(int from, int n) {
  std::vector<std::int32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(from + i);
  return v;
}
std::uint64_t beU64(const std::string& s) {
  std::uint64_t v = 0;
  for (unsigned char c : s) v = (v << 8) | c;
  return v;
}
// The three frames of one ZMQ message as the router's RawMessage.
ke::RawMessage toRaw(const std::array<std::string, 3>& frames) {
  ke::RawMessage m;
  m.Topic = frames[0];
  m.Sequence = beU64(frames[1]);
  m.Payload = frames[2];
  return m;
}
vl::BlockStored storedOf(std::vector<vl::ExternalBlockHash> hashes, std::optional<vl::ExternalBlockHash> parent,
                         std::vector<std::int32_t> tokens, const char* medium) {
  vl::BlockStored s;
  s.block_hashes = std::move(hashes);
  s.parent_block_hash = std::move(parent);
  s.token_ids = std::move(tokens);
  s.block_size = 16;
  s.medium = medium;
  return s;
}
}  // namespace

// Every field the router reads, for each event kind, with int and bytes hashes and the HMA fields.
TEST(VLLMCrossCheck, AdapterDecodesTheEngineCodecBytes) {
  const std::uint64_t h1 = 0x9E3779B97F4A7C15ULL, h2 = 0xC2B2AE3D27D4EB4FULL, h3 = 0x165667B19E3779F9ULL;
  std::string digest(32, '\0');
  for (int i = 0; i < 32; ++i) digest[static_cast<std::size_t>(i)] = static_cast<char>(0xA0 + i);

  vl::KVEventBatch batch;
  batch.ts = 1764547200.25;
  batch.events.push_back(storedOf({h1, h2}, std::nullopt, tokens32(1, 32), vl::MEDIUM_GPU));
  vl::BlockStored hma = storedOf({digest}, vl::ExternalBlockHash{h2}, tokens32(33, 16), vl::MEDIUM_GPU);
  hma.lora_name = "adapter-a";
  hma.extra_keys = std::vector<vl::BlockExtraKeys>{std::vector<std::string>{"adapter-a", "salt"}};
  hma.group_idx = 0;
  hma.kv_cache_spec_kind = "full_attention";
  batch.events.push_back(hma);
  vl::BlockRemoved removed;
  removed.block_hashes = {h3, digest};
  removed.medium = vl::MEDIUM_CPU;
  removed.group_idx = 1;
  batch.events.push_back(removed);
  batch.events.push_back(vl::AllBlocksCleared{});

  const auto frames = vl::publish_frames("kv@10.0.0.7:8000@meta-llama/Llama-3.1-8B", 41, batch, 2);
  const auto parsed = ea::VLLMAdapter().ParseMessage(toRaw(frames));
  EXPECT_EQ(parsed.podID, "10.0.0.7:8000");
  EXPECT_EQ(parsed.modelName, "meta-llama/Llama-3.1-8B");
  EXPECT_EQ(parsed.batch.Timestamp, 1764547200.25);
  ASSERT_EQ(parsed.batch.Events.size(), 4U);

  const auto& s0 = std::get<ke::BlockStoredEvent>(parsed.batch.Events[0]);
  EXPECT_EQ(s0.BlockHashes, (std::vector<std::uint64_t>{h1, h2}));
  EXPECT_EQ(s0.ParentHash, 0U);
  ASSERT_EQ(s0.Tokens.size(), 32U);
  EXPECT_EQ(s0.Tokens.front(), 1U);
  EXPECT_EQ(s0.Tokens.back(), 32U);
  EXPECT_EQ(s0.BlockSize, 16);
  EXPECT_EQ(s0.DeviceTier, "GPU");
  EXPECT_FALSE(s0.LoraID);
  EXPECT_FALSE(s0.LoraName);
  EXPECT_FALSE(s0.ExtraKeys);
  EXPECT_FALSE(s0.GroupIdx);
  EXPECT_EQ(s0.KVCacheSpecKind, "");

  const auto& s1 = std::get<ke::BlockStoredEvent>(parsed.batch.Events[1]);
  // bytes hashes: the big-endian value of the digest's last 8 bytes (0xB8..0xBF)
  EXPECT_EQ(s1.BlockHashes, (std::vector<std::uint64_t>{0xB8B9BABBBCBDBEBFULL}));
  EXPECT_EQ(s1.ParentHash, h2);
  EXPECT_EQ(s1.Tokens.size(), 16U);
  ASSERT_TRUE(s1.LoraName);
  EXPECT_EQ(*s1.LoraName, "adapter-a");
  ASSERT_TRUE(s1.ExtraKeys);
  ASSERT_EQ(s1.ExtraKeys->size(), 1U);
  ASSERT_TRUE((*s1.ExtraKeys)[0]);
  ASSERT_EQ((*s1.ExtraKeys)[0]->size(), 2U);
  EXPECT_EQ((*(*s1.ExtraKeys)[0])[1].s, "salt");
  ASSERT_TRUE(s1.GroupIdx);
  EXPECT_EQ(*s1.GroupIdx, 0);
  EXPECT_EQ(s1.KVCacheSpecKind, ke::KVCacheSpecKindFullAttention);

  const auto& r2 = std::get<ke::BlockRemovedEvent>(parsed.batch.Events[2]);
  EXPECT_EQ(r2.BlockHashes, (std::vector<std::uint64_t>{h3, 0xB8B9BABBBCBDBEBFULL}));
  EXPECT_EQ(r2.DeviceTier, "CPU");
  ASSERT_TRUE(r2.GroupIdx);
  EXPECT_EQ(*r2.GroupIdx, 1);

  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(parsed.batch.Events[3]));
  EXPECT_EQ(toRaw(frames).Sequence, 41U);
}

// msgspec writes an int in its smallest form, and llm-d's getHashAsUint64 accepts only the uint64/int64 that
// vmihailenco/msgpack gives 8-byte ints: an int block hash below 2^32 (uint32 on the wire) is refused by
// upstream's adapter, and so by the port. (vLLM's 64-bit hashes fall below 2^32 with probability 2^-32.)
TEST(VLLMCrossCheck, SmallIntHashIsRefusedAsUpstreamRefusesIt) {
  vl::KVEventBatch batch;
  vl::BlockRemoved removed;
  removed.block_hashes = {std::uint64_t{4000000000ULL}};
  batch.events.push_back(removed);
  const auto frames = vl::publish_frames("kv@pod@m", 0, batch, 0);
  try {
    ea::VLLMAdapter().ParseMessage(toRaw(frames));
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported hash type: uint32"), std::string::npos) << e.what();
  }
}

// End to end: engine events (encoded by the vLLM codec) through the adapter and the Pool make the precise
// prefix scorer (Indexer.ScoreTokens over the same token IDs) see the engine's cache, per pod and tier.
TEST(VLLMCrossCheck, PoolFedFromEngineBytesDrivesTheScorer) {
  auto cfg = kc::NewDefaultConfig();
  kb::TokenProcessorConfig tpc;  // blockSizeTokens 16, seed "" (defaults)
  auto tp = kb::NewChunkedTokenDatabase(&tpc);
  auto indexer = kc::NewKVCacheIndexer(&cfg, tp);
  ke::Pool pool(nullptr, indexer->KVBlockIndex(), tp, std::make_shared<ea::VLLMAdapter>());

  const auto prompt = tokens32(100, 64);  // four full blocks
  const std::vector<std::uint32_t> promptU(prompt.begin(), prompt.end());
  // pod A holds all four blocks on the GPU (two events chained by parent hash); pod B the first two on CPU.
  vl::KVEventBatch a1, a2, b1;
  a1.events.push_back(storedOf({1ULL << 40, (1ULL << 40) + 1}, std::nullopt, {prompt.begin(), prompt.begin() + 32}, vl::MEDIUM_GPU));
  a2.events.push_back(storedOf({(1ULL << 40) + 2, (1ULL << 40) + 3}, vl::ExternalBlockHash{(1ULL << 40) + 1},
                               {prompt.begin() + 32, prompt.end()}, vl::MEDIUM_GPU));
  b1.events.push_back(storedOf({1ULL << 41, (1ULL << 41) + 1}, std::nullopt, {prompt.begin(), prompt.begin() + 32}, vl::MEDIUM_CPU));
  pool.AddTask(toRaw(vl::publish_frames("kv@pod-a@m", 0, a1, 0)));
  pool.AddTask(toRaw(vl::publish_frames("kv@pod-a@m", 1, a2, 0)));
  pool.AddTask(toRaw(vl::publish_frames("kv@pod-b@m", 0, b1, 0)));

  auto scores = indexer->ScoreTokens(promptU, "m", {}, std::nullopt);
  ASSERT_TRUE(scores.has_value());
  EXPECT_NEAR(scores->at("pod-a"), 4.0, 1e-12);  // 4 GPU blocks x 1.0
  EXPECT_NEAR(scores->at("pod-b"), 1.6, 1e-12);  // 2 CPU blocks x 0.8

  // pod A evicts its second block: its chain now breaks after one block.
  vl::KVEventBatch ev;
  vl::BlockRemoved rm;
  rm.block_hashes = {(1ULL << 40) + 1};
  rm.medium = vl::MEDIUM_GPU;
  ev.events.push_back(rm);
  pool.AddTask(toRaw(vl::publish_frames("kv@pod-a@m", 2, ev, 0)));
  scores = indexer->ScoreTokens(promptU, "m", {}, std::nullopt);
  EXPECT_NEAR(scores->at("pod-a"), 1.0, 1e-12);

  // pod B resets its prefix cache.
  vl::KVEventBatch clr;
  clr.events.push_back(vl::AllBlocksCleared{});
  pool.AddTask(toRaw(vl::publish_frames("kv@pod-b@m", 1, clr, 0)));
  scores = indexer->ScoreTokens(promptU, "m", {}, std::nullopt);
  EXPECT_EQ(scores->count("pod-b"), 0U);
}

namespace {
// Every field of two decoded events, as the Pool reads them.
void expectSameEvent(const ke::GenericEvent& a, const ke::GenericEvent& b) {
  ASSERT_EQ(a.index(), b.index());
  if (const auto* x = std::get_if<ke::BlockStoredEvent>(&a)) {
    const auto& y = std::get<ke::BlockStoredEvent>(b);
    EXPECT_EQ(x->BlockHashes, y.BlockHashes);
    EXPECT_EQ(x->Tokens, y.Tokens);
    EXPECT_EQ(x->ParentHash, y.ParentHash);
    EXPECT_EQ(x->BlockSize, y.BlockSize);
    EXPECT_EQ(x->DeviceTier, y.DeviceTier);
    EXPECT_EQ(x->LoraID, y.LoraID);
    EXPECT_EQ(x->LoraName, y.LoraName);
    ASSERT_EQ(x->ExtraKeys.has_value(), y.ExtraKeys.has_value());
    if (x->ExtraKeys) {
      ASSERT_EQ(x->ExtraKeys->size(), y.ExtraKeys->size());
      for (std::size_t i = 0; i < x->ExtraKeys->size(); ++i) {
        const auto& kx = (*x->ExtraKeys)[i];
        const auto& ky = (*y.ExtraKeys)[i];
        ASSERT_EQ(kx.has_value(), ky.has_value());
        if (!kx) continue;
        ASSERT_EQ(kx->size(), ky->size());
        for (std::size_t j = 0; j < kx->size(); ++j) {
          EXPECT_EQ((*kx)[j].kind, (*ky)[j].kind);
          EXPECT_EQ((*kx)[j].s, (*ky)[j].s);
        }
      }
    }
    EXPECT_EQ(x->GroupIdx, y.GroupIdx);
    EXPECT_EQ(x->KVCacheSpecKind, y.KVCacheSpecKind);
    EXPECT_EQ(x->KVCacheSpecSlidingWindowSize, y.KVCacheSpecSlidingWindowSize);
  } else if (const auto* x = std::get_if<ke::BlockRemovedEvent>(&a)) {
    const auto& y = std::get<ke::BlockRemovedEvent>(b);
    EXPECT_EQ(x->BlockHashes, y.BlockHashes);
    EXPECT_EQ(x->DeviceTier, y.DeviceTier);
    EXPECT_EQ(x->GroupIdx, y.GroupIdx);
  }
}

// The outcome of ParseMessage on the codec's bytes and of ParseTyped on the same batch as the engine contract's
// typed message: the same pod, model, timestamp and events, or both refused with the same text.
void expectTypedMatchesBytes(const std::string& topic, const vl::KVEventBatch& batch) {
  const auto frames = vl::publish_frames(topic, 5, batch, 0);
  std::optional<ke::ParsedMessage> bytes, typed;
  std::string bytesErr, typedErr;
  try {
    bytes = ea::VLLMAdapter().ParseMessage(toRaw(frames));
  } catch (const std::runtime_error& e) {
    bytesErr = e.what();
  }
  vl::KVEventBatch withRank = batch;
  withRank.data_parallel_rank = 0;  // as publish_frames fills it
  try {
    typed = ea::VLLMAdapter().ParseTyped(vl::to_contract(topic, 5, withRank));
  } catch (const std::runtime_error& e) {
    typedErr = e.what();
  }
  ASSERT_EQ(bytes.has_value(), typed.has_value()) << "bytes: " << bytesErr << " typed: " << typedErr;
  if (!bytes) {
    // ParseMessage wraps the event's error in the batch's; the event's own text is the same.
    EXPECT_NE(bytesErr.find(typedErr), std::string::npos) << "bytes: " << bytesErr << " typed: " << typedErr;
    return;
  }
  EXPECT_EQ(bytes->podID, typed->podID);
  EXPECT_EQ(bytes->modelName, typed->modelName);
  EXPECT_EQ(bytes->batch.Timestamp, typed->batch.Timestamp);
  ASSERT_EQ(bytes->batch.Events.size(), typed->batch.Events.size());
  for (std::size_t i = 0; i < bytes->batch.Events.size(); ++i) expectSameEvent(bytes->batch.Events[i], typed->batch.Events[i]);
}
}  // namespace

// Inside a run KV events pass typed (INTERFACES.md): the adapter's typed path reads every field as it reads the
// codec's bytes -- int and bytes hashes, the HMA fields, extra keys with a block of none, lora, every event kind.
TEST(VLLMCrossCheck, TypedMessageDecodesAsTheCodecBytesDo) {
  std::string digest(32, '\0');
  for (int i = 0; i < 32; ++i) digest[static_cast<std::size_t>(i)] = static_cast<char>(0x10 + i);
  vl::KVEventBatch batch;
  batch.ts = 12.5;
  batch.events.push_back(storedOf({0x9E3779B97F4A7C15ULL, digest}, std::nullopt, tokens32(0, 32), vl::MEDIUM_GPU));
  vl::BlockStored hma = storedOf({0xC2B2AE3D27D4EB4FULL}, vl::ExternalBlockHash{digest}, tokens32(200, 16), vl::MEDIUM_CPU);
  hma.lora_id = 3;
  hma.lora_name = "adapter-b";
  hma.extra_keys = std::vector<vl::BlockExtraKeys>{std::nullopt, std::vector<std::string>{"adapter-b"}};
  hma.group_idx = 2;
  hma.kv_cache_spec_kind = "sliding_window";
  hma.kv_cache_spec_sliding_window = 4096;
  batch.events.push_back(hma);
  vl::BlockRemoved removed;
  removed.block_hashes = {0x165667B19E3779F9ULL};
  removed.medium = vl::MEDIUM_GPU;
  batch.events.push_back(removed);
  batch.events.push_back(vl::AllBlocksCleared{});
  expectTypedMatchesBytes("kv@10.0.0.7:8000@", batch);
  expectTypedMatchesBytes("", batch);
  expectTypedMatchesBytes("kv@pod@meta-llama/Llama-3.1-8B", batch);
}

// The wire's own refusals hold on the typed path too: a hash below 2^32 travels as a uint32, which upstream's
// getHashAsUint64 refuses; one at 2^32 is a uint64 and read.
TEST(VLLMCrossCheck, TypedMessageRefusesWhatTheBytesRefuse) {
  for (const std::uint64_t h : {std::uint64_t{5}, std::uint64_t{200}, std::uint64_t{40000}, std::uint64_t{4000000000ULL},
                                std::uint64_t{1} << 32}) {
    vl::KVEventBatch batch;
    vl::BlockRemoved removed;
    removed.block_hashes = {h};
    batch.events.push_back(removed);
    SCOPED_TRACE(h);
    expectTypedMatchesBytes("kv@pod@", batch);
  }
  EXPECT_THROW(ea::VLLMAdapter().ParseTyped([] {
                 blis::engine::KvEventMessage m;
                 m.events.push_back(blis::engine::KvBlockRemoved{{blis::engine::KvBlockHash{std::uint64_t{7}}}, {}, {}});
                 return m;
               }()),
               std::runtime_error);
}
