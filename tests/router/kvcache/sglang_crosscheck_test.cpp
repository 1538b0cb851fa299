// Original to BLIS: the byte-level cross-check of the SGLang port's KV-event encoder (engines/sglang/srt/
// disaggregation/kv_events_codec) against the router's SGLang adapter (sglang_adapter.go@71f4f099): what
// ParseMessage reads from the bytes SGLang's publisher sends equals what ParseTyped reads from the typed
// message the simulator hands the router for the same batch (SGL-5, X4).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "router/kvevents/engineadapter/sglang_adapter.h"
#include "srt/disaggregation/kv_events_codec.h"

namespace ea = blis::router::engineadapter;
namespace ke = blis::router::kvevents;
namespace sg = blis::sglang;

namespace {

// Hashes as SGLang computes them (signed 64-bit, from SHA-256 prefixes): one negative, one positive.
sg::KVEventBatch batch(std::int64_t block_size) {
  sg::KVEventBatch b;
  b.ts = 41.25;
  sg::BlockStored s;
  s.block_hashes = {-6917529027641081856, 4611686018427387904};
  s.parent_block_hash = 1234567890123456789;
  for (std::int64_t t = 0; t < 2 * block_size; ++t) s.token_ids.emplace_back(1000 + t);
  s.block_size = block_size;
  s.medium = "GPU";
  sg::BlockRemoved r;
  r.block_hashes = {-6917529027641081856};
  r.medium = "GPU";
  b.events = {s, r, sg::AllBlocksCleared{}};
  return b;
}

void same(const ke::ParsedMessage& a, const ke::ParsedMessage& b) {
  EXPECT_EQ(a.podID, b.podID);
  EXPECT_EQ(a.modelName, b.modelName);
  EXPECT_EQ(a.batch.Timestamp, b.batch.Timestamp);
  ASSERT_EQ(a.batch.Events.size(), b.batch.Events.size());
  const auto& sa = std::get<ke::BlockStoredEvent>(a.batch.Events[0]);
  const auto& sb = std::get<ke::BlockStoredEvent>(b.batch.Events[0]);
  EXPECT_EQ(sa.BlockHashes, sb.BlockHashes);
  EXPECT_EQ(sa.ParentHash, sb.ParentHash);
  EXPECT_EQ(sa.Tokens, sb.Tokens);
  EXPECT_EQ(sa.BlockSize, sb.BlockSize);
  EXPECT_EQ(sa.DeviceTier, sb.DeviceTier);
  EXPECT_EQ(sa.LoraID, sb.LoraID);
  EXPECT_EQ(std::get<ke::BlockRemovedEvent>(a.batch.Events[1]).BlockHashes,
            std::get<ke::BlockRemovedEvent>(b.batch.Events[1]).BlockHashes);
  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(b.batch.Events[2]));
}

// Page size 1 (SGLang's default) and 16.
TEST(SglangCrosscheck, BytesAndTypedMessageParseAlikeAtPageSizes1And16) {
  for (std::int64_t page : {1, 16}) {
    SCOPED_TRACE(page);
    const auto frames = sg::publish_frames("kv@pod-3@Qwen/Qwen3-32B", 9, batch(page), 0);
    ke::RawMessage raw;
    raw.Topic = frames[0];
    raw.Sequence = 9;
    raw.Payload = frames[2];
    ea::SGLangAdapter a;
    const ke::ParsedMessage fromBytes = a.ParseMessage(raw);
    sg::KVEventBatch typed = batch(page);
    typed.attn_dp_rank = 0;
    const ke::ParsedMessage fromTyped = a.ParseTyped(sg::to_contract(frames[0], 9, typed));
    same(fromBytes, fromTyped);
    const auto& s = std::get<ke::BlockStoredEvent>(fromBytes.batch.Events[0]);
    EXPECT_EQ(s.BlockHashes.at(0), 0xa000000000000000ULL);
    EXPECT_EQ(s.Tokens.size(), static_cast<std::size_t>(2 * page));
    EXPECT_EQ(s.BlockSize, page);
    EXPECT_EQ(fromBytes.podID, "pod-3");
  }
}

}  // namespace
