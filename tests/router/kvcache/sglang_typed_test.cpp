// Original to BLIS: SGLangAdapter::ParseTyped (the typed KV-event path a simulated SGLang engine's messages
// take to the router) against ParseMessage on the bytes SGLang's msgspec encoder writes for the same batch
// (disaggregation/kv_events.py at the SGLang pin: KVEventBatch [ts, events, attn_dp_rank]; each event
// array_like with its tag first). The bytes are written here with the minimal msgpack forms msgspec uses.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "router/kvcache/kvblock/any.h"
#include "router/kvevents/engineadapter/sglang_adapter.h"
#include "tests/router/kvcache/gomsgpack.h"

namespace ea = blis::router::engineadapter;
namespace ke = blis::router::kvevents;
namespace eng = blis::engine;
using blis::router::testing::GoMsgpack;

namespace {

eng::KvEventMessage typed() {
  eng::KvEventMessage m;
  m.topic = "kv@pod-a@Qwen/Qwen3-8B";
  m.sequence = 3;
  m.ts = 12.5;
  eng::KvBlockStored s;
  s.block_hashes = {std::uint64_t{0x8000000000000001}, std::uint64_t{0x1234567890abcdef}};  // -2**63+1, then > 2**32
  s.parent_block_hash = std::uint64_t{0xffffffff7fffffff};  // -2**31 - 1: int64
  s.token_ids = {7, 8, 9};
  s.block_size = 1;
  s.medium = "GPU";
  m.events.push_back(s);
  eng::KvBlockRemoved r;
  r.block_hashes = {std::uint64_t{0x0000000100000000}};  // 2**32: uint64
  m.events.push_back(r);
  m.events.push_back(eng::KvAllBlocksCleared{});
  return m;
}

// The same batch as SGLang's encoder writes it: each int in its smallest form (int64, uint64, negative
// fixint, positive fixint), float64 ts, nil rank.
// smallParent: the parent hash is -2 instead, a negative fixint on the wire.
std::string wire(bool smallParent = false) {
  GoMsgpack m;
  m.arr(3).f64(12.5).arr(3);
  m.arr(7).str("BlockStored").arr(2).i64(static_cast<std::int64_t>(0x8000000000000001)).u64(0x1234567890abcdef);
  if (smallParent) m.byte(0xfe);
  else m.i64(static_cast<std::int64_t>(0xffffffff7fffffff));
  m.arr(3).byte(7).byte(8).byte(9).byte(1).nil().str("GPU");
  m.arr(3).str("BlockRemoved").arr(1).u64(0x0000000100000000).nil();
  m.arr(1).str("AllBlocksCleared");
  m.nil();
  return m.bytes();
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(SGLangAdapterTyped, ParseTypedEqualsParseMessageOnSGLangsBytes) {
  ea::SGLangAdapter a;
  ke::RawMessage raw;
  raw.Topic = "kv@pod-a@Qwen/Qwen3-8B";
  raw.Sequence = 3;
  raw.Payload = wire();
  const ke::ParsedMessage fromBytes = a.ParseMessage(raw);
  const ke::ParsedMessage fromTyped = a.ParseTyped(typed());
  ASSERT_EQ(fromTyped.batch.Events.size(), 3U);
  EXPECT_EQ(fromTyped.podID, "pod-a");
  EXPECT_EQ(fromTyped.modelName, "Qwen/Qwen3-8B");
  EXPECT_EQ(fromTyped.batch.Timestamp, 12.5);
  const auto& s = std::get<ke::BlockStoredEvent>(fromTyped.batch.Events[0]);
  EXPECT_EQ(s.BlockHashes, (std::vector<std::uint64_t>{0x8000000000000001, 0x1234567890abcdef}));
  EXPECT_EQ(s.ParentHash, 0xffffffff7fffffffU);
  EXPECT_EQ(s.Tokens, (std::vector<std::uint32_t>{7, 8, 9}));
  EXPECT_EQ(s.BlockSize, 1);
  EXPECT_EQ(s.DeviceTier, "GPU");
  EXPECT_EQ(std::get<ke::BlockRemovedEvent>(fromTyped.batch.Events[1]).BlockHashes,
            (std::vector<std::uint64_t>{0x0000000100000000}));
  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(fromTyped.batch.Events[2]));
  // Field for field what the bytes decode to.
  EXPECT_EQ(fromBytes.podID, fromTyped.podID);
  EXPECT_EQ(fromBytes.batch.Timestamp, fromTyped.batch.Timestamp);
  ASSERT_EQ(fromBytes.batch.Events.size(), 3U);
  const auto& b = std::get<ke::BlockStoredEvent>(fromBytes.batch.Events[0]);
  EXPECT_EQ(b.BlockHashes, s.BlockHashes);
  EXPECT_EQ(b.ParentHash, s.ParentHash);
  EXPECT_EQ(b.Tokens, s.Tokens);
  EXPECT_EQ(b.BlockSize, s.BlockSize);
  EXPECT_EQ(b.DeviceTier, s.DeviceTier);
  EXPECT_EQ(b.LoraID, s.LoraID);
  EXPECT_EQ(b.LoraName, s.LoraName);
  EXPECT_EQ(b.ExtraKeys.has_value(), s.ExtraKeys.has_value());
  EXPECT_EQ(std::get<ke::BlockRemovedEvent>(fromBytes.batch.Events[1]).BlockHashes,
            std::get<ke::BlockRemovedEvent>(fromTyped.batch.Events[1]).BlockHashes);
}

// A parent hash of -2 is a negative fixint on SGLang's wire, which Go decodes as int8 and getHashAsUint64
// refuses: upstream fails such an event, and so does the typed path (the same items, the same error). The
// closest accepted batch is the main one (its parent an int64 on the wire).
TEST(SGLangAdapterTyped, ASmallHashFailsAsUpstreamFailsIt) {
  ea::SGLangAdapter a;
  ke::RawMessage raw;
  raw.Topic = "kv@pod-a@Qwen/Qwen3-8B";
  raw.Payload = wire(true);
  auto m = typed();
  std::get<eng::KvBlockStored>(m.events[0]).parent_block_hash = std::uint64_t{0xfffffffffffffffe};
  const std::string fromBytes = errorOf([&] { a.ParseMessage(raw); });
  EXPECT_EQ(fromBytes, "failed to decode SGLang event: failed to parse parent hash: unsupported hash type: int8");
  EXPECT_EQ(errorOf([&] { a.ParseTyped(m); }), fromBytes);
  raw.Payload = wire();
  EXPECT_NO_THROW(a.ParseMessage(raw));
  EXPECT_NO_THROW(a.ParseTyped(typed()));
}

TEST(SGLangAdapterTyped, AFieldSGLangsEventsLackIsRefusedByName) {
  ea::SGLangAdapter a;
  auto m = typed();
  std::get<eng::KvBlockStored>(m.events[0]).lora_name = "adapter";
  EXPECT_EQ(errorOf([&] { a.ParseTyped(m); }), "failed to decode SGLang event: BlockStored: SGLang's events have no lora_name field");
  m = typed();
  std::get<eng::KvBlockRemoved>(m.events[1]).group_idx = 0;
  EXPECT_EQ(errorOf([&] { a.ParseTyped(m); }), "failed to decode SGLang event: BlockRemoved: SGLang's events have no group_idx field");
  // The closest message that is accepted: the same events without those fields.
  EXPECT_NO_THROW(a.ParseTyped(typed()));
}

}  // namespace
