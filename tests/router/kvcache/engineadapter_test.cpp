// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099,
// sglang_adapter_test.go@71f4f099 and common_test.go@71f4f099; the Go tests' msgpack.Marshal inputs are
// rebuilt byte for byte with gomsgpack.h.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvevents/engineadapter/adapter.h"
#include "router/kvevents/engineadapter/common.h"
#include "router/kvevents/engineadapter/sglang_adapter.h"
#include "router/kvevents/engineadapter/vllm_adapter.h"
#include "tests/router/kvcache/gomsgpack.h"

namespace ea = blis::router::engineadapter;
namespace ke = blis::router::kvevents;
namespace kb = blis::router::kvblock;
using blis::router::testing::GoMsgpack;
using kb::Any;
using U64s = std::vector<std::uint64_t>;
using U32s = std::vector<std::uint32_t>;

namespace {
ke::RawMessage rm(const std::string& topic, std::uint64_t seq = 0, const std::string& payload = "") {
  ke::RawMessage m;
  m.Topic = topic;
  m.Sequence = seq;
  m.Payload = payload;
  return m;
}
// []any{"BlockStored", []any{h...}, parent, []uint32{t...}, bs} — the 5 leading fields (array header n).
GoMsgpack& stored(GoMsgpack& m, std::size_t n, const U64s& hashes, std::uint64_t parent, const U32s& toks, std::int64_t bs) {
  m.arr(n).str("BlockStored").arr(hashes.size());
  for (auto h : hashes) m.u64(h);
  m.u64(parent).arr(toks.size());
  for (auto t : toks) m.u32(t);
  return m.i64(bs);
}
std::string batchOf(const std::vector<std::string>& events) {
  GoMsgpack m;
  m.arr(3).f64(1234567890.0).arr(events.size());
  for (const auto& e : events) m.raw(e);
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
ke::BlockStoredEvent asStored(const ke::GenericEvent& e) { return std::get<ke::BlockStoredEvent>(e); }
ke::BlockRemovedEvent asRemoved(const ke::GenericEvent& e) { return std::get<ke::BlockRemovedEvent>(e); }
// The standard 9-field vLLM BlockStored of the tests.
std::string stored9(const U64s& h, std::uint64_t parent, const U32s& t, std::int64_t bs, const char* medium) {
  GoMsgpack m;
  stored(m, 9, h, parent, t, bs).nil().str(medium).nil().nil();
  return m.bytes();
}
}  // namespace

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMShardingKey
TEST(VLLMAdapter, ShardingKey) {
  ea::VLLMAdapter a;
  EXPECT_EQ(a.ShardingKey(rm("kv@pod-123@llama-2-7b")), "pod-123");
  EXPECT_EQ(a.ShardingKey(rm("fallback")), "fallback");
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMParseMessage_Valid
TEST(VLLMAdapter, ParseMessageValid) {
  ea::VLLMAdapter a;
  ke::RawMessage msg = rm("kv@pod-1@llama-2-7b", 42, batchOf({stored9({100, 101}, 99, {1, 2, 3}, 16, "gpu")}));
  auto r = a.ParseMessage(msg);
  EXPECT_EQ(r.podID, "pod-1");
  EXPECT_EQ(r.modelName, "llama-2-7b");
  ASSERT_EQ(r.batch.Events.size(), 1U);
  EXPECT_EQ(r.batch.Timestamp, 1234567890.0);
  EXPECT_EQ(asStored(r.batch.Events[0]).BlockHashes, (U64s{100, 101}));
  EXPECT_EQ(asStored(r.batch.Events[0]).ParentHash, 99U);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMParseMessage_InvalidPayload
TEST(VLLMAdapter, ParseMessageInvalidPayload) {
  ea::VLLMAdapter a;
  EXPECT_THROW(a.ParseMessage(rm("kv@pod-1@model", 0, "\xff\xff\xff")), std::runtime_error);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMBlockStored
TEST(VLLMAdapter, BlockStored) {
  ea::VLLMAdapter a;
  auto ev = a.decodeVLLMEvent(stored9({100, 101}, 99, {1, 2, 3}, 16, "gpu"));
  const auto& s = asStored(ev);
  EXPECT_EQ(s.BlockHashes, (U64s{100, 101}));
  EXPECT_EQ(s.ParentHash, 99U);
  EXPECT_EQ(s.Tokens, (U32s{1, 2, 3}));
  EXPECT_EQ(s.DeviceTier, "gpu");
  EXPECT_FALSE(s.LoraID);
  EXPECT_FALSE(s.LoraName);
  EXPECT_FALSE(s.ExtraKeys);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMBlockStoredWithLora
TEST(VLLMAdapter, BlockStoredWithLora) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  stored(m, 9, {200, 201}, 199, {4, 5, 6}, 32).i64(42).str("gpu").str("test-lora").arr(2).arr(2).str("uuid-A").str("salt").nil();
  const auto& s = asStored(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(s.BlockHashes, (U64s{200, 201}));
  EXPECT_EQ(s.ParentHash, 199U);
  EXPECT_EQ(s.Tokens, (U32s{4, 5, 6}));
  EXPECT_EQ(s.DeviceTier, "gpu");
  ASSERT_TRUE(s.LoraID);
  EXPECT_EQ(*s.LoraID, 42);
  ASSERT_TRUE(s.LoraName);
  EXPECT_EQ(*s.LoraName, "test-lora");
  ASSERT_TRUE(s.ExtraKeys);
  ASSERT_EQ(s.ExtraKeys->size(), 2U);
  ASSERT_TRUE((*s.ExtraKeys)[0]);
  ASSERT_EQ((*s.ExtraKeys)[0]->size(), 2U);
  EXPECT_EQ((*(*s.ExtraKeys)[0])[0].s, "uuid-A");
  EXPECT_EQ((*(*s.ExtraKeys)[0])[1].s, "salt");
  EXPECT_FALSE((*s.ExtraKeys)[1]);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMBlockStoredWithHMAMetadata
TEST(VLLMAdapter, BlockStoredWithHMAMetadata) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  stored(m, 12, {700, 701}, 699, {1, 2, 3, 4}, 16).nil().str("gpu").nil().nil().u64(1).str("sliding_window").i64(128);
  const auto& s = asStored(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(s.BlockSize, 16);
  ASSERT_TRUE(s.GroupIdx);
  EXPECT_EQ(*s.GroupIdx, 1);
  EXPECT_EQ(s.KVCacheSpecKind, ke::KVCacheSpecKindSlidingWindow);
  ASSERT_TRUE(s.KVCacheSpecSlidingWindowSize);
  EXPECT_EQ(*s.KVCacheSpecSlidingWindowSize, 128);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockStoredMissingTrailingFields
TEST(VLLMAdapter, DecodeBlockStoredMissingTrailingFields) {
  ea::VLLMAdapter a;
  GoMsgpack m1, m2, m3;
  stored(m1, 7, {300, 301}, 299, {7, 8, 9}, 64).i64(123).str("gpu");
  stored(m2, 6, {300}, 299, {7, 8, 9}, 64).i64(42);
  stored(m3, 5, {300}, 299, {7, 8, 9}, 64);
  struct Case { std::string name, bytes; std::optional<int> lora; std::string medium; };
  for (const auto& tt : {Case{"missing lora_name only", m1.bytes(), 123, "gpu"}, Case{"missing medium and lora_name", m2.bytes(), 42, ""},
                         Case{"only required fields", m3.bytes(), std::nullopt, ""}}) {
    SCOPED_TRACE(tt.name);
    const auto& s = asStored(a.decodeVLLMEvent(tt.bytes));
    EXPECT_EQ(s.LoraID, tt.lora);
    EXPECT_EQ(s.DeviceTier, tt.medium);
    EXPECT_FALSE(s.LoraName);
  }
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockStoredExtraTrailingFields
TEST(VLLMAdapter, DecodeBlockStoredExtraTrailingFields) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  stored(m, 13, {400, 401}, 399, {10, 11, 12}, 16).nil().str("gpu").str("my-lora").arr(1).arr(2).str("extra").str("keys")
      .u64(0).str("full_attention").nil().str("completely-unknown-field");
  const auto& s = asStored(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(s.BlockHashes, (U64s{400, 401}));
  EXPECT_EQ(s.ParentHash, 399U);
  EXPECT_EQ(s.Tokens, (U32s{10, 11, 12}));
  EXPECT_EQ(s.DeviceTier, "gpu");
  EXPECT_FALSE(s.LoraID);
  ASSERT_TRUE(s.LoraName);
  EXPECT_EQ(*s.LoraName, "my-lora");
  ASSERT_TRUE(s.ExtraKeys);
  ASSERT_EQ(s.ExtraKeys->size(), 1U);
  EXPECT_EQ((*(*s.ExtraKeys)[0])[0].s, "extra");
  EXPECT_EQ((*(*s.ExtraKeys)[0])[1].s, "keys");
  ASSERT_TRUE(s.GroupIdx);
  EXPECT_EQ(*s.GroupIdx, 0);
  EXPECT_EQ(s.KVCacheSpecKind, ke::KVCacheSpecKindFullAttention);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockRemovedExtraTrailingFields
TEST(VLLMAdapter, DecodeBlockRemovedExtraTrailingFields) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(5).str("BlockRemoved").arr(1).u64(500).str("cpu").u64(1).str("future-field-1");
  const auto& r = asRemoved(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(r.BlockHashes, (U64s{500}));
  EXPECT_EQ(r.DeviceTier, "cpu");
  ASSERT_TRUE(r.GroupIdx);
  EXPECT_EQ(*r.GroupIdx, 1);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockRemovedMissingMedium
TEST(VLLMAdapter, DecodeBlockRemovedMissingMedium) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(2).str("BlockRemoved").arr(1).u64(600);
  const auto& r = asRemoved(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(r.BlockHashes, (U64s{600}));
  EXPECT_EQ(r.DeviceTier, "");
  EXPECT_FALSE(r.GroupIdx);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockStoredInvalidHMAMetadata
TEST(VLLMAdapter, DecodeBlockStoredInvalidHMAMetadata) {
  ea::VLLMAdapter a;
  GoMsgpack neg, kind, window;
  stored(neg, 10, {700}, 699, {1, 2}, 16).nil().str("gpu").nil().nil().i64(-1);
  stored(kind, 11, {700}, 699, {1, 2}, 16).nil().str("gpu").nil().nil().u64(0).u64(123);
  stored(window, 12, {700}, 699, {1, 2}, 16).nil().str("gpu").nil().nil().u64(0).str("sliding_window").str("bad-window");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {neg.bytes(), "group_idx"}, {kind.bytes(), "kv_cache_spec_kind"}, {window.bytes(), "kv_cache_spec_sliding_window"}};
  for (const auto& [bytes, want] : cases) {
    const std::string e = errorOf([&] { a.decodeVLLMEvent(bytes); });
    ASSERT_FALSE(e.empty()) << want;
    EXPECT_NE(e.find(want), std::string::npos) << e;
  }
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestDecodeVLLMEvent_BlockRemovedInvalidGroupIdx
TEST(VLLMAdapter, DecodeBlockRemovedInvalidGroupIdx) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(4).str("BlockRemoved").arr(1).u64(700).str("gpu").i64(-1);
  const std::string e = errorOf([&] { a.decodeVLLMEvent(m.bytes()); });
  EXPECT_NE(e.find("group_idx"), std::string::npos) << e;
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMBlockStoredInvalidExtraKeys
TEST(VLLMAdapter, BlockStoredInvalidExtraKeys) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  stored(m, 9, {100}, 99, {1, 2}, 16).nil().str("gpu").nil().arr(1).str("invalid_string");
  const std::string e = errorOf([&] { a.decodeVLLMEvent(m.bytes()); });
  EXPECT_NE(e.find("extra_keys[0] has invalid type"), std::string::npos) << e;
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMBlockRemoved
TEST(VLLMAdapter, BlockRemoved) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(3).str("BlockRemoved").arr(3).u64(200).u64(201).u64(202).str("cpu");
  const auto& r = asRemoved(a.decodeVLLMEvent(m.bytes()));
  EXPECT_EQ(r.BlockHashes, (U64s{200, 201, 202}));
  EXPECT_EQ(r.DeviceTier, "cpu");
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMAllBlocksCleared
TEST(VLLMAdapter, AllBlocksCleared) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(1).str("AllBlocksCleared");
  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(a.decodeVLLMEvent(m.bytes())));
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMUnknownTag
TEST(VLLMAdapter, UnknownTag) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(3).str("UnknownEventType").str("some").str("data");
  EXPECT_NE(errorOf([&] { a.decodeVLLMEvent(m.bytes()); }).find("unknown vLLM event tag"), std::string::npos);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMMalformedPayload
TEST(VLLMAdapter, MalformedPayload) {
  ea::VLLMAdapter a;
  EXPECT_THROW(a.decodeVLLMEvent("\xff\xff\xff"), std::runtime_error);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMEmptyPayload
TEST(VLLMAdapter, EmptyPayload) {
  ea::VLLMAdapter a;
  EXPECT_THROW(a.decodeVLLMEvent(""), std::runtime_error);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMMissingTag
TEST(VLLMAdapter, MissingTag) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.arr(0);
  EXPECT_NE(errorOf([&] { a.decodeVLLMEvent(m.bytes()); }).find("malformed tagged union"), std::string::npos);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMEventBatch_NestedArrayEvents
TEST(VLLMAdapter, EventBatchNestedArrayEvents) {
  ea::VLLMAdapter a;
  auto r = a.ParseMessage(rm("kv@pod-1@model", 1, batchOf({stored9({10, 11}, 9, {1, 2, 3}, 16, "gpu")})));
  ASSERT_EQ(r.batch.Events.size(), 1U);
  const auto& s = asStored(r.batch.Events[0]);
  EXPECT_EQ(s.BlockHashes, (U64s{10, 11}));
  EXPECT_EQ(s.ParentHash, 9U);
  EXPECT_EQ(s.Tokens, (U32s{1, 2, 3}));
  EXPECT_EQ(s.DeviceTier, "gpu");
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMParseMessage_MapEncodedBlockStored
TEST(VLLMAdapter, ParseMessageMapEncodedBlockStored) {
  ea::VLLMAdapter a;
  GoMsgpack m;
  m.map(10).str("type").str("BlockStored").str("block_hashes").arr(2).u64(100).u64(101).str("parent_block_hash").u64(99)
      .str("token_ids").arr(3).u32(1).u32(2).u32(3).str("block_size").i64(16).str("lora_id").nil().str("medium").str("CPU")
      .str("lora_name").nil().str("extra_keys").nil().str("group_idx").i64(0);
  auto r = a.ParseMessage(rm("kv@pod-1@llama-2-7b", 0, batchOf({m.bytes()})));
  EXPECT_EQ(r.podID, "pod-1");
  EXPECT_EQ(r.modelName, "llama-2-7b");
  ASSERT_EQ(r.batch.Events.size(), 1U);
  const auto& s = asStored(r.batch.Events[0]);
  EXPECT_EQ(s.BlockHashes, (U64s{100, 101}));
  EXPECT_EQ(s.ParentHash, 99U);
  EXPECT_EQ(s.Tokens, (U32s{1, 2, 3}));
  EXPECT_EQ(s.BlockSize, 16);
  EXPECT_EQ(s.DeviceTier, "CPU");
  ASSERT_TRUE(s.GroupIdx);
  EXPECT_EQ(*s.GroupIdx, 0);
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMParseMessage_MapEncodedBlockRemovedAndCleared
TEST(VLLMAdapter, ParseMessageMapEncodedBlockRemovedAndCleared) {
  ea::VLLMAdapter a;
  GoMsgpack removed, cleared, arrayStored;
  removed.map(3).str("type").str("BlockRemoved").str("block_hashes").arr(1).u64(100).str("medium").str("CPU");
  cleared.map(1).str("type").str("AllBlocksCleared");
  arrayStored.arr(9).str("BlockStored").arr(1).u64(7).nil().arr(1).u32(9).i64(1).nil().str("GPU").nil().nil();
  auto r = a.ParseMessage(rm("kv@pod-1@m", 0, batchOf({removed.bytes(), cleared.bytes(), arrayStored.bytes()})));
  ASSERT_EQ(r.batch.Events.size(), 3U);
  EXPECT_EQ(asRemoved(r.batch.Events[0]).BlockHashes, (U64s{100}));
  EXPECT_EQ(asRemoved(r.batch.Events[0]).DeviceTier, "CPU");
  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(r.batch.Events[1]));
  EXPECT_TRUE(std::holds_alternative<ke::BlockStoredEvent>(r.batch.Events[2]));
}

// pkg/kvevents/engineadapter/vllm_adapter_test.go@71f4f099 TestVLLMParseMessage_MapEncodedErrors
TEST(VLLMAdapter, ParseMessageMapEncodedErrors) {
  ea::VLLMAdapter a;
  GoMsgpack unknown, missing, nonString;
  unknown.map(1).str("type").str("SomethingNew");
  missing.map(1).str("block_hashes").arr(1).u64(1);
  nonString.map(1).str("type").i64(7);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {unknown.bytes(), "unknown vLLM event tag: SomethingNew"},
      {missing.bytes(), "missing the \"type\" tag"},
      {nonString.bytes(), "is not a string"}};
  for (const auto& [ev, want] : cases) {
    GoMsgpack b;
    b.arr(3).f64(0.0).arr(1).raw(ev).nil();
    const std::string e = errorOf([&] { a.ParseMessage(rm("kv@pod-1@m", 0, b.bytes())); });
    EXPECT_NE(e.find(want), std::string::npos) << e;
  }
}

// pkg/kvevents/engineadapter/common_test.go@71f4f099 TestParseTopic_Valid
TEST(EngineAdapterCommon, ParseTopicValid) {
  EXPECT_EQ(ea::parseTopic("kv@pod-123@llama-2-7b"), std::make_pair(std::string("pod-123"), std::string("llama-2-7b")));
}
// pkg/kvevents/engineadapter/common_test.go@71f4f099 TestParseTopic_NoModel
TEST(EngineAdapterCommon, ParseTopicNoModel) {
  EXPECT_EQ(ea::parseTopic("pod-123@llama-2-7b"), std::make_pair(std::string("pod-123@llama-2-7b"), std::string("")));
}
// pkg/kvevents/engineadapter/common_test.go@71f4f099 TestParseTopic_Plain
TEST(EngineAdapterCommon, ParseTopicPlain) {
  EXPECT_EQ(ea::parseTopic("fallback"), std::make_pair(std::string("fallback"), std::string("")));
}

// pkg/kvevents/engineadapter/common_test.go@71f4f099 TestGetHashAsUint64
TEST(EngineAdapterCommon, GetHashAsUint64) {
  EXPECT_EQ(ea::getHashAsUint64(Any::U64(42)), 42U);
  EXPECT_EQ(ea::getHashAsUint64(Any::I64(42)), 42U);
  EXPECT_EQ(ea::getHashAsUint64(Any::Bin(std::string("\0\0\0\0\0\0\x30\x39", 8))), 12345U);
  EXPECT_THROW(ea::getHashAsUint64(Any::Bin("")), std::runtime_error);
  EXPECT_THROW(ea::getHashAsUint64(Any::Str("not a hash")), std::runtime_error);
  // Not in the Go test: the last 8 of 32 digest bytes; a short slice is left-padded; an int8 (a small msgpack
  // int) is refused as upstream's type switch refuses it.
  std::string digest(32, '\x11');
  digest.replace(24, 8, std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  EXPECT_EQ(ea::getHashAsUint64(Any::Bin(digest)), 0x0102030405060708ULL);
  EXPECT_EQ(ea::getHashAsUint64(Any::Bin("\x01\x02")), 0x0102U);
  EXPECT_THROW(ea::getHashAsUint64(Any::I64(5, Any::Kind::Int8)), std::runtime_error);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangShardingKey
TEST(SGLangAdapter, ShardingKey) {
  ea::SGLangAdapter a;
  EXPECT_EQ(a.ShardingKey(rm("kv@pod-123@llama-2-7b")), "pod-123");
  EXPECT_EQ(a.ShardingKey(rm("fallback")), "fallback");
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangParseMessage_Valid
TEST(SGLangAdapter, ParseMessageValid) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  stored(m, 7, {100, 101}, 99, {1, 2, 3}, 16).nil().str("GPU");
  auto r = a.ParseMessage(rm("kv@pod-1@llama-2-7b", 42, batchOf({m.bytes()})));
  EXPECT_EQ(r.podID, "pod-1");
  EXPECT_EQ(r.modelName, "llama-2-7b");
  ASSERT_EQ(r.batch.Events.size(), 1U);
  EXPECT_EQ(asStored(r.batch.Events[0]).BlockHashes, (U64s{100, 101}));
  EXPECT_EQ(asStored(r.batch.Events[0]).ParentHash, 99U);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangParseMessage_InvalidPayload
TEST(SGLangAdapter, ParseMessageInvalidPayload) {
  ea::SGLangAdapter a;
  EXPECT_THROW(a.ParseMessage(rm("kv@pod-1@model", 0, "\xff\xff\xff")), std::runtime_error);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockStored_FullFields
TEST(SGLangAdapter, BlockStoredFullFields) {
  ea::SGLangAdapter a;
  const auto& s = asStored(a.decodeEvent(stored9({100, 101}, 99, {1, 2, 3}, 16, "gpu")));
  EXPECT_EQ(s.BlockHashes, (U64s{100, 101}));
  EXPECT_EQ(s.ParentHash, 99U);
  EXPECT_EQ(s.Tokens, (U32s{1, 2, 3}));
  EXPECT_EQ(s.BlockSize, 16);
  EXPECT_EQ(s.DeviceTier, "gpu");
  EXPECT_FALSE(s.LoraID);
  EXPECT_FALSE(s.LoraName);
  EXPECT_FALSE(s.ExtraKeys);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockStored_7Fields
TEST(SGLangAdapter, BlockStored7Fields) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  stored(m, 7, {300, 301}, 299, {7, 8, 9}, 64).nil().str("GPU");
  const auto& s = asStored(a.decodeEvent(m.bytes()));
  EXPECT_EQ(s.BlockHashes, (U64s{300, 301}));
  EXPECT_EQ(s.ParentHash, 299U);
  EXPECT_EQ(s.Tokens, (U32s{7, 8, 9}));
  EXPECT_EQ(s.DeviceTier, "GPU");
  EXPECT_FALSE(s.LoraID);
  EXPECT_FALSE(s.LoraName);
  EXPECT_FALSE(s.ExtraKeys);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockStored_MinimalFields
TEST(SGLangAdapter, BlockStoredMinimalFields) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  stored(m, 5, {400}, 399, {10, 11}, 128);
  const auto& s = asStored(a.decodeEvent(m.bytes()));
  EXPECT_EQ(s.BlockHashes, (U64s{400}));
  EXPECT_EQ(s.ParentHash, 399U);
  EXPECT_EQ(s.Tokens, (U32s{10, 11}));
  EXPECT_EQ(s.BlockSize, 128);
  EXPECT_EQ(s.DeviceTier, "");
  EXPECT_FALSE(s.LoraID);
  EXPECT_FALSE(s.LoraName);
  EXPECT_FALSE(s.ExtraKeys);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockStored_TooFewFields
TEST(SGLangAdapter, BlockStoredTooFewFields) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  m.arr(4).str("BlockStored").arr(1).u64(500).u64(499).arr(1).u32(1);
  EXPECT_NE(errorOf([&] { a.decodeEvent(m.bytes()); }).find("too few fields"), std::string::npos);
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockRemoved_FullFields
TEST(SGLangAdapter, BlockRemovedFullFields) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  m.arr(3).str("BlockRemoved").arr(3).u64(200).u64(201).u64(202).str("cpu");
  const auto& r = asRemoved(a.decodeEvent(m.bytes()));
  EXPECT_EQ(r.BlockHashes, (U64s{200, 201, 202}));
  EXPECT_EQ(r.DeviceTier, "cpu");
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangBlockRemoved_NoMedium
TEST(SGLangAdapter, BlockRemovedNoMedium) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  m.arr(2).str("BlockRemoved").arr(2).u64(500).u64(501);
  const auto& r = asRemoved(a.decodeEvent(m.bytes()));
  EXPECT_EQ(r.BlockHashes, (U64s{500, 501}));
  EXPECT_EQ(r.DeviceTier, "");
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangAllBlocksCleared
TEST(SGLangAdapter, AllBlocksCleared) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  m.arr(1).str("AllBlocksCleared");
  EXPECT_TRUE(std::holds_alternative<ke::AllBlocksClearedEvent>(a.decodeEvent(m.bytes())));
}

// pkg/kvevents/engineadapter/sglang_adapter_test.go@71f4f099 TestSGLangUnknownTag
TEST(SGLangAdapter, UnknownTag) {
  ea::SGLangAdapter a;
  GoMsgpack m;
  m.arr(3).str("UnknownEventType").str("some").str("data");
  EXPECT_NE(errorOf([&] { a.decodeEvent(m.bytes()); }).find("unknown event tag"), std::string::npos);
}

// Not an upstream test: NewAdapter's choices and refusal (adapter.go has no test upstream).
TEST(EngineAdapterCommon, NewAdapter) {
  EXPECT_NE(dynamic_cast<ea::VLLMAdapter*>(ea::NewAdapter("").get()), nullptr);
  EXPECT_NE(dynamic_cast<ea::VLLMAdapter*>(ea::NewAdapter("vllm").get()), nullptr);
  EXPECT_NE(dynamic_cast<ea::SGLangAdapter*>(ea::NewAdapter("sglang").get()), nullptr);
  EXPECT_EQ(errorOf([] { ea::NewAdapter("trt"); }), "unsupported engine type: \"trt\" (supported: \"vllm\", \"sglang\")");
}

// Not an upstream test: the batch struct rules of vmihailenco/msgpack/v5 (array of exactly 3, nil -> empty).
TEST(EngineAdapterCommon, DecodeEventBatchStructRules) {
  EXPECT_TRUE(ea::decodeEventBatch("\xc0").Events.empty());
  EXPECT_TRUE(ea::decodeEventBatch("\x90").Events.empty());
  GoMsgpack two;
  two.arr(2).f64(1.0).arr(0);
  EXPECT_THROW(ea::decodeEventBatch(two.bytes()), std::runtime_error);
  GoMsgpack withRank;
  withRank.arr(3).i64(7).arr(1).arr(1).str("AllBlocksCleared").i64(3);
  auto b = ea::decodeEventBatch(withRank.bytes());
  EXPECT_EQ(b.TS, 7.0);
  ASSERT_EQ(b.Events.size(), 1U);
  EXPECT_EQ(b.DataParallelRank, 3);
}
