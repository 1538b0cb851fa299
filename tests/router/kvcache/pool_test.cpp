// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvevents/pool_test.go@71f4f099 (the tests of the Pool's
// message processing; the queue-depth, metrics and concurrency tests are not applicable: no queues, no
// metrics, no threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/in_memory.h"
#include "router/kvcache/kvblock/token_processor.h"
#include "router/kvevents/pool.h"

namespace kb = blis::router::kvblock;
namespace ke = blis::router::kvevents;
using kb::BlockHash;
using kb::PodEntry;

namespace {
struct TestPool {
  std::shared_ptr<ke::Pool> pool;
  std::shared_ptr<kb::Index> idx;
  std::shared_ptr<kb::TokenProcessor> tp;
};

// pool_test.go newTestPool: an in-memory index, a token processor with seed "test", DefaultConfig.
TestPool newTestPool(int blockSize, std::shared_ptr<ke::EngineAdapter> adapter = nullptr,
                     std::shared_ptr<kb::Index> wrap = nullptr) {
  TestPool t;
  auto cfgIdx = kb::DefaultInMemoryIndexConfig();
  t.idx = kb::NewInMemoryIndex(&cfgIdx);
  kb::TokenProcessorConfig tpc;
  tpc.BlockSizeTokens = blockSize;
  tpc.HashSeed = "test";
  t.tp = kb::NewChunkedTokenDatabase(&tpc);
  const auto cfg = ke::DefaultConfig();
  t.pool = std::make_shared<ke::Pool>(&cfg, wrap ? wrap : t.idx, t.tp, adapter);
  return t;
}

// pool_test.go recordingIndex: counts GetRequestKey and Evict calls.
class recordingIndex final : public kb::Index {
 public:
  explicit recordingIndex(std::shared_ptr<kb::Index> i) : inner(std::move(i)) {}
  std::map<BlockHash, std::vector<PodEntry>> Lookup(const std::vector<BlockHash>& k, const std::set<std::string>& s) override {
    return inner->Lookup(k, s);
  }
  void Add(const std::vector<BlockHash>* e, const std::vector<BlockHash>& r, const std::vector<PodEntry>& p) override {
    inner->Add(e, r, p);
  }
  void Evict(BlockHash key, kb::KeyType t, const std::vector<PodEntry>& p) override {
    ++evictCalls;
    inner->Evict(key, t, p);
  }
  BlockHash GetRequestKey(BlockHash ek) override {
    ++getRequestKeyCalls;
    return inner->GetRequestKey(ek);
  }
  void Clear(const std::string& pod) override { inner->Clear(pod); }
  std::shared_ptr<kb::Index> inner;
  int getRequestKeyCalls = 0;
  int evictCalls = 0;
};

std::vector<std::uint32_t> makeTokens(int n) {
  std::vector<std::uint32_t> t(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i + 1);
  return t;
}
std::vector<std::uint64_t> makeEngineKeys(int n, std::uint64_t base) {
  std::vector<std::uint64_t> k(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) k[static_cast<std::size_t>(i)] = base + static_cast<std::uint64_t>(i);
  return k;
}
ke::BlockStoredEvent storedEv(std::vector<std::uint64_t> hashes, std::vector<std::uint32_t> tokens, const std::string& tier = "") {
  ke::BlockStoredEvent e;
  e.BlockHashes = std::move(hashes);
  e.Tokens = std::move(tokens);
  e.DeviceTier = tier;
  return e;
}
ke::BlockRemovedEvent removedEv(std::vector<std::uint64_t> hashes, const std::string& tier = "",
                                std::optional<int> group = std::nullopt) {
  ke::BlockRemovedEvent e;
  e.BlockHashes = std::move(hashes);
  e.DeviceTier = tier;
  e.GroupIdx = group;
  return e;
}
void process(ke::Pool& p, ke::GenericEvent ev, const std::string& pod) {
  ke::EventBatch b;
  b.Events.push_back(std::move(ev));
  p.processEventBatch(b, pod, "test-model");
}
std::vector<PodEntry> lookup(kb::Index& idx, BlockHash k) {
  auto r = idx.Lookup({k}, {});
  auto it = r.find(k);
  return it == r.end() ? std::vector<PodEntry>{} : it->second;
}
std::vector<BlockHash> canonical(const TestPool& t, int n) {
  return t.tp->TokensToKVBlockKeys(kb::EmptyBlockHash, makeTokens(n), "test-model", std::nullopt);
}
std::set<std::string> tiersOf(const std::vector<PodEntry>& v) {
  std::set<std::string> s;
  for (const auto& p : v) s.insert(p.DeviceTier);
  return s;
}

// pool_test.go sourceEndpointAdapter: pod "10.0.0.1:8000", one BlockStored of 16 tokens whose hash is
// the payload's first byte.
class sourceEndpointAdapter final : public ke::EngineAdapter {
 public:
  ke::ParsedMessage ParseMessage(const ke::RawMessage& msg) const override {
    ke::ParsedMessage m;
    m.podID = "10.0.0.1:8000";
    m.modelName = "test-model";
    m.batch.Events.push_back(storedEv({static_cast<std::uint8_t>(msg.Payload[0])}, makeTokens(16)));
    return m;
  }
  std::string ShardingKey(const ke::RawMessage&) const override { return "10.0.0.1:8000"; }
};
ke::RawMessage rawMsg(const std::string& topic, const std::string& payload, const std::string& source) {
  ke::RawMessage m;
  m.Topic = topic;
  m.Payload = payload;
  m.SourceEndpoint = source;
  return m;
}
}  // namespace

// pkg/kvevents/pool_test.go@71f4f099 TestProcessRawMessage_UsesSubscriberSourceEndpoint
TEST(KVEventsPool, ProcessRawMessageUsesSubscriberSourceEndpoint) {
  auto t = newTestPool(16, std::make_shared<sourceEndpointAdapter>());
  int i = 0;
  for (const std::string src : {"10.0.0.1:8000", "10.0.0.1:8003"})
    t.pool->processRawMessage(rawMsg("kv@10.0.0.1:8000@test-model", std::string(1, static_cast<char>(++i)), src));
  auto keys = canonical(t, 16);
  ASSERT_EQ(keys.size(), 1U);
  auto pods = lookup(*t.idx, keys[0]);
  ASSERT_EQ(pods.size(), 2U);
  std::set<std::string> got{pods[0].PodIdentifier, pods[1].PodIdentifier};
  EXPECT_EQ(got, (std::set<std::string>{"10.0.0.1:8000", "10.0.0.1:8003"}));
}

// pkg/kvevents/pool_test.go@71f4f099 TestProcessRawMessage_FallsBackToTopicEndpoint
TEST(KVEventsPool, ProcessRawMessageFallsBackToTopicEndpoint) {
  auto t = newTestPool(16, std::make_shared<sourceEndpointAdapter>());
  t.pool->processRawMessage(rawMsg("kv@10.0.0.1:8000@test-model", "\x01", ""));
  auto keys = canonical(t, 16);
  auto pods = lookup(*t.idx, keys[0]);
  ASSERT_EQ(pods.size(), 1U);
  EXPECT_EQ(pods[0].PodIdentifier, "10.0.0.1:8000");
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_FallbackLegacy
TEST(KVEventsPool, CanonicalWritePathFallbackLegacy) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 500);
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-legacy");
  for (auto ek : eks) EXPECT_NE(t.idx->GetRequestKey(ek), kb::EmptyBlockHash);
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_ManyToOne
TEST(KVEventsPool, CanonicalWritePathManyToOne) {
  auto t = newTestPool(64);
  auto eks = makeEngineKeys(8, 100);
  process(*t.pool, storedEv(eks, makeTokens(128)), "pod-a");
  auto ck = canonical(t, 128);
  ASSERT_EQ(ck.size(), 2U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].PodIdentifier, "pod-a");
  }
  for (std::size_t i = 0; i < eks.size(); ++i) EXPECT_EQ(t.idx->GetRequestKey(eks[i]), ck[i / 4]);
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_OneToMany
TEST(KVEventsPool, CanonicalWritePathOneToMany) {
  auto t = newTestPool(64);
  auto eks = makeEngineKeys(2, 200);
  process(*t.pool, storedEv(eks, makeTokens(256)), "pod-b");
  auto ck = canonical(t, 256);
  ASSERT_EQ(ck.size(), 4U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].PodIdentifier, "pod-b");
  }
  EXPECT_EQ(t.idx->GetRequestKey(eks[0]), ck[1]);
  EXPECT_EQ(t.idx->GetRequestKey(eks[1]), ck[3]);
  process(*t.pool, removedEv({eks[0]}), "pod-b");
  EXPECT_TRUE(lookup(*t.idx, ck[0]).empty());
  EXPECT_TRUE(lookup(*t.idx, ck[1]).empty());
  EXPECT_EQ(lookup(*t.idx, ck[2]).size(), 1U);
  EXPECT_EQ(lookup(*t.idx, ck[3]).size(), 1U);
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalEviction_Eager
TEST(KVEventsPool, CanonicalEvictionEager) {
  auto t = newTestPool(64);
  auto eks = makeEngineKeys(8, 100);
  process(*t.pool, storedEv(eks, makeTokens(128)), "pod-a");
  auto ck = canonical(t, 128);
  ASSERT_EQ(ck.size(), 2U);
  process(*t.pool, removedEv({eks[0]}), "pod-a");
  EXPECT_TRUE(lookup(*t.idx, ck[0]).empty());
  EXPECT_EQ(lookup(*t.idx, ck[1]).size(), 1U);
  EXPECT_THROW(t.idx->GetRequestKey(eks[0]), std::runtime_error);
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_CrossEngineScoring
TEST(KVEventsPool, CanonicalWritePathCrossEngineScoring) {
  auto t = newTestPool(64);
  process(*t.pool, storedEv(makeEngineKeys(8, 100), makeTokens(128)), "pod-a");
  process(*t.pool, storedEv(makeEngineKeys(4, 200), makeTokens(128)), "pod-b");
  auto ck = canonical(t, 128);
  ASSERT_EQ(ck.size(), 2U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 2U);
    std::set<std::string> ids{pods[0].PodIdentifier, pods[1].PodIdentifier};
    EXPECT_EQ(ids, (std::set<std::string>{"pod-a", "pod-b"}));
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalEviction_UnknownEngineKey
TEST(KVEventsPool, CanonicalEvictionUnknownEngineKey) {
  auto t = newTestPool(64);
  EXPECT_NO_THROW(process(*t.pool, removedEv({999999}), "pod-x"));
}

// pkg/kvevents/pool_test.go@71f4f099 TestRealignExtraFeatures
TEST(KVEventsPool, RealignExtraFeatures) {
  using F = std::vector<std::optional<kb::BlockExtraFeatures>>;
  const kb::BlockExtraFeatures img0{{{"img0"}}};
  // 1:1 passthrough
  kb::ExtraFeatures four = F(4);
  EXPECT_EQ(ke::realignExtraFeatures(four, 4), four);
  // 1:many replication (all nil)
  auto r = ke::realignExtraFeatures(F(2), 8);
  ASSERT_EQ(r->size(), 8U);
  for (const auto& f : *r) EXPECT_FALSE(f);
  // 1:many replication (with MM features)
  r = ke::realignExtraFeatures(F{img0, std::nullopt}, 4);
  ASSERT_EQ(r->size(), 4U);
  EXPECT_EQ((*r)[0], img0);
  EXPECT_EQ((*r)[1], img0);
  EXPECT_FALSE((*r)[2]);
  EXPECT_FALSE((*r)[3]);
  // many:1 merge (all nil)
  r = ke::realignExtraFeatures(F(8), 2);
  ASSERT_EQ(r->size(), 2U);
  for (const auto& f : *r) EXPECT_FALSE(f);
  // many:1 merge (with MM features)
  r = ke::realignExtraFeatures(F{kb::BlockExtraFeatures{{{"a"}}}, kb::BlockExtraFeatures{{{"b"}}}, std::nullopt,
                                 kb::BlockExtraFeatures{{{"c"}}}},
                               2);
  ASSERT_EQ(r->size(), 2U);
  ASSERT_TRUE((*r)[0]);
  ASSERT_EQ((*r)[0]->MMHashes.size(), 2U);
  EXPECT_EQ((*r)[0]->MMHashes[0].Hash, "a");
  EXPECT_EQ((*r)[0]->MMHashes[1].Hash, "b");
  ASSERT_TRUE((*r)[1]);
  ASSERT_EQ((*r)[1]->MMHashes.size(), 1U);
  EXPECT_EQ((*r)[1]->MMHashes[0].Hash, "c");
  // zero canonical blocks
  r = ke::realignExtraFeatures(F{img0}, 0);
  EXPECT_TRUE(!r || r->empty());
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_ExtraKeysOneToMany
TEST(KVEventsPool, CanonicalWritePathExtraKeysOneToMany) {
  auto t = newTestPool(16);
  auto ev = storedEv(makeEngineKeys(2, 300), makeTokens(128));
  ev.ExtraKeys = std::vector<std::optional<std::vector<kb::Any>>>(2);
  process(*t.pool, ev, "pod-extra");
  auto ck = canonical(t, 128);
  ASSERT_EQ(ck.size(), 8U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].PodIdentifier, "pod-extra");
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_ExtraKeysManyToOne
TEST(KVEventsPool, CanonicalWritePathExtraKeysManyToOne) {
  auto t = newTestPool(64);
  auto ev = storedEv(makeEngineKeys(8, 400), makeTokens(128));
  ev.ExtraKeys = std::vector<std::optional<std::vector<kb::Any>>>(8);
  process(*t.pool, ev, "pod-extra-m1");
  auto ck = canonical(t, 128);
  ASSERT_EQ(ck.size(), 2U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].PodIdentifier, "pod-extra-m1");
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestBlockStoredEvent_OffloadingEmptyTokens
TEST(KVEventsPool, BlockStoredEventOffloadingEmptyTokens) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 600);
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-a");
  auto ck = canonical(t, 64);
  ASSERT_EQ(ck.size(), 4U);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].DeviceTier, "gpu");
  }
  process(*t.pool, storedEv(eks, {}, "CPU"), "pod-a");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 2U);
    EXPECT_EQ(tiersOf(pods), (std::set<std::string>{"cpu", "gpu"}));
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestBlockStoredEvent_OffloadingUnknownEngineKeys
TEST(KVEventsPool, BlockStoredEventOffloadingUnknownEngineKeys) {
  auto t = newTestPool(16);
  EXPECT_NO_THROW(process(*t.pool, storedEv(makeEngineKeys(4, 900), {}, "CPU"), "pod-x"));
}

// pkg/kvevents/pool_test.go@71f4f099 TestBlockStoredEvent_EvictionOrderGPUThenCPU
TEST(KVEventsPool, BlockStoredEventEvictionOrderGPUThenCPU) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 700);
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-a");
  auto ck = canonical(t, 64);
  ASSERT_EQ(ck.size(), 4U);
  process(*t.pool, storedEv(eks, {}, "CPU"), "pod-a");
  for (auto k : ck) ASSERT_EQ(lookup(*t.idx, k).size(), 2U);
  process(*t.pool, removedEv(eks), "pod-a");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].DeviceTier, "cpu");
  }
  EXPECT_NO_THROW(t.idx->GetRequestKey(eks[0]));
  process(*t.pool, removedEv(eks, "CPU"), "pod-a");
  for (auto k : ck) EXPECT_TRUE(lookup(*t.idx, k).empty());
  EXPECT_THROW(t.idx->GetRequestKey(eks[0]), std::runtime_error);
}

// pkg/kvevents/pool_test.go@71f4f099 TestHMAGroupMetadataLearnedForRejectedKind
TEST(KVEventsPool, HMAGroupMetadataLearnedForRejectedKind) {
  auto t = newTestPool(16);
  auto ev = storedEv(makeEngineKeys(4, 800), makeTokens(64));
  ev.GroupIdx = 0;
  ev.KVCacheSpecKind = ke::KVCacheSpecKindSlidingWindow;
  ev.KVCacheSpecSlidingWindowSize = 128;
  ev.BlockSize = 16;
  process(*t.pool, ev, "pod-hma");
  auto meta = t.pool->GroupCatalog().Get("pod-hma", 0);
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta->Kind, ke::KVCacheSpecKindSlidingWindow);
  EXPECT_EQ(meta->BlockSize, 16);
  ASSERT_TRUE(meta->SlidingWindowSize);
  EXPECT_EQ(*meta->SlidingWindowSize, 128);
  auto ck = canonical(t, 64);
  ASSERT_FALSE(ck.empty());
  for (auto k : ck) EXPECT_TRUE(lookup(*t.idx, k).empty());
}

// pkg/kvevents/pool_test.go@71f4f099 TestHMAGroupKindFilter
TEST(KVEventsPool, HMAGroupKindFilter) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {ke::KVCacheSpecKindFullAttention, true}, {ke::KVCacheSpecKindMlaAttention, true},
      {ke::KVCacheSpecKindSinkFull, true},      {ke::KVCacheSpecKindSlidingWindow, false},
      {ke::KVCacheSpecKindSlidingWindowMla, false}, {ke::KVCacheSpecKindMamba, false},
      {ke::KVCacheSpecKindChunkedLocal, false}, {ke::KVCacheSpecKindEncoder, false},
      {ke::KVCacheSpecKindCross, false},        {ke::KVCacheSpecKindUnknown, false},
      {"", false}};
  for (const auto& [kind, allowed] : cases) {
    SCOPED_TRACE(kind);
    auto t = newTestPool(16);
    auto ev = storedEv(makeEngineKeys(4, 900), makeTokens(64));
    ev.GroupIdx = 0;
    ev.KVCacheSpecKind = kind;
    ev.BlockSize = 16;
    process(*t.pool, ev, "pod-hma");
    for (auto k : canonical(t, 64)) {
      auto pods = lookup(*t.idx, k);
      if (allowed) {
        ASSERT_EQ(pods.size(), 1U);
        EXPECT_EQ(pods[0].GroupIdx, 0);
      } else {
        EXPECT_TRUE(pods.empty());
      }
    }
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestHMAGroupFilterRejectsSparseFullAttentionBeforeParentLookup
TEST(KVEventsPool, HMAGroupFilterRejectsSparseFullAttentionBeforeParentLookup) {
  auto cfgIdx = kb::DefaultInMemoryIndexConfig();
  auto inner = kb::NewInMemoryIndex(&cfgIdx);
  auto recording = std::make_shared<recordingIndex>(inner);
  auto t = newTestPool(16, nullptr, recording);
  auto ev = storedEv(makeEngineKeys(1, 950), makeTokens(64));
  ev.ParentHash = 949;
  ev.GroupIdx = 0;
  ev.KVCacheSpecKind = ke::KVCacheSpecKindFullAttention;
  ev.BlockSize = 16;
  process(*t.pool, ev, "pod-hma");
  EXPECT_EQ(recording->getRequestKeyCalls, 0);
  EXPECT_THROW(inner->GetRequestKey(950), std::runtime_error);
}

// pkg/kvevents/pool_test.go@71f4f099 TestHMAGroupFilterIgnoresRejectedGroupRemoval
TEST(KVEventsPool, HMAGroupFilterIgnoresRejectedGroupRemoval) {
  auto cfgIdx = kb::DefaultInMemoryIndexConfig();
  auto recording = std::make_shared<recordingIndex>(kb::NewInMemoryIndex(&cfgIdx));
  auto t = newTestPool(16, nullptr, recording);
  auto ev = storedEv(makeEngineKeys(1, 980), makeTokens(64));
  ev.GroupIdx = 1;
  ev.KVCacheSpecKind = ke::KVCacheSpecKindSlidingWindowMla;
  ev.BlockSize = 16;
  process(*t.pool, ev, "pod-hma");
  process(*t.pool, removedEv(makeEngineKeys(1, 980), "", 1), "pod-hma");
  EXPECT_EQ(recording->evictCalls, 0);
}

// pkg/kvevents/pool_test.go@71f4f099 TestHMAGroupLevelEviction_BlockRemoved
TEST(KVEventsPool, HMAGroupLevelEvictionBlockRemoved) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 850);
  for (int g : {0, 1}) {
    auto ev = storedEv(eks, makeTokens(64));
    ev.GroupIdx = g;
    ev.KVCacheSpecKind = ke::KVCacheSpecKindFullAttention;
    ev.BlockSize = 16;
    process(*t.pool, ev, "pod-hma");
  }
  auto ck = canonical(t, 64);
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 2U);
    EXPECT_EQ((std::set<int>{pods[0].GroupIdx, pods[1].GroupIdx}), (std::set<int>{0, 1}));
  }
  process(*t.pool, removedEv(eks, "", 0), "pod-hma");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_TRUE(pods[0].HasGroup);
    EXPECT_EQ(pods[0].GroupIdx, 1);
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestCanonicalWritePath_PartialBlockDrop
TEST(KVEventsPool, CanonicalWritePathPartialBlockDrop) {
  auto cfgIdx = kb::DefaultInMemoryIndexConfig();
  auto recording = std::make_shared<recordingIndex>(kb::NewInMemoryIndex(&cfgIdx));
  auto t = newTestPool(64, nullptr, recording);
  process(*t.pool, storedEv(makeEngineKeys(3, 400), makeTokens(48)), "pod-partial");
  EXPECT_TRUE(lookup(*recording, 1).empty());
  // 48 tokens < one 64-token block: no request key, and (tokens present) no device-tier update either.
  EXPECT_EQ(recording->getRequestKeyCalls, 0);
  EXPECT_THROW(recording->inner->GetRequestKey(400), std::runtime_error);
}

// pkg/kvevents/pool_test.go@71f4f099 TestAllBlocksCleared_Dispatch
TEST(KVEventsPool, AllBlocksClearedDispatch) {
  auto t = newTestPool(16);
  process(*t.pool, storedEv(makeEngineKeys(4, 500), makeTokens(64)), "pod-cleared");
  process(*t.pool, storedEv(makeEngineKeys(4, 900), makeTokens(64)), "pod-kept");
  auto ck = canonical(t, 64);
  ASSERT_FALSE(ck.empty());
  process(*t.pool, ke::AllBlocksClearedEvent{}, "pod-cleared");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].PodIdentifier, "pod-kept");
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestPool_AllBlocksClearedResetsDedup
TEST(KVEventsPool, AllBlocksClearedResetsDedup) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 850);
  for (int i = 0; i < 2; ++i) process(*t.pool, storedEv(eks, makeTokens(64)), "pod-clr");
  process(*t.pool, ke::AllBlocksClearedEvent{}, "pod-clr");
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-clr");
  auto ck = canonical(t, 64);
  process(*t.pool, removedEv(eks), "pod-clr");
  for (auto k : ck) EXPECT_TRUE(lookup(*t.idx, k).empty());
}

// pkg/kvevents/pool_test.go@71f4f099 TestPool_DuplicateStoreSurvivesFirstRemove
TEST(KVEventsPool, DuplicateStoreSurvivesFirstRemove) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 800);
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-dup");
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-dup");
  auto ck = canonical(t, 64);
  ASSERT_EQ(ck.size(), 4U);
  process(*t.pool, removedEv(eks), "pod-dup");
  for (auto k : ck) ASSERT_EQ(lookup(*t.idx, k).size(), 1U);
  process(*t.pool, removedEv(eks), "pod-dup");
  for (auto k : ck) EXPECT_TRUE(lookup(*t.idx, k).empty());
  EXPECT_THROW(t.idx->GetRequestKey(eks[0]), std::runtime_error);
}

// pkg/kvevents/pool_test.go@71f4f099 TestPool_DuplicateCPUOffloadRemovalSurvivesFirstRemove
TEST(KVEventsPool, DuplicateCPUOffloadRemovalSurvivesFirstRemove) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 900);
  process(*t.pool, storedEv(eks, makeTokens(64)), "pod-offload");
  process(*t.pool, storedEv(eks, {}, "CPU"), "pod-offload");
  process(*t.pool, storedEv(eks, {}, "CPU"), "pod-offload");
  auto ck = canonical(t, 64);
  ASSERT_EQ(ck.size(), 4U);
  for (auto k : ck) ASSERT_EQ(lookup(*t.idx, k).size(), 2U);
  process(*t.pool, removedEv(eks, "CPU"), "pod-offload");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 2U);
    EXPECT_EQ(tiersOf(pods), (std::set<std::string>{"cpu", "gpu"}));
  }
  process(*t.pool, removedEv(eks, "CPU"), "pod-offload");
  for (auto k : ck) {
    auto pods = lookup(*t.idx, k);
    ASSERT_EQ(pods.size(), 1U);
    EXPECT_EQ(pods[0].DeviceTier, "gpu");
  }
}

// pkg/kvevents/pool_test.go@71f4f099 TestPool_DeviceTierUpdateWithNoResolvedKeysDoesNotTrack
TEST(KVEventsPool, DeviceTierUpdateWithNoResolvedKeysDoesNotTrack) {
  auto t = newTestPool(16);
  auto eks = makeEngineKeys(4, 950);
  process(*t.pool, storedEv(eks, {}, "CPU"), "pod-noresolve");
  ke::eventDedupFilter copy = t.pool->dedup();
  EXPECT_EQ(copy.filterRemove(ke::blockScope{"pod-noresolve", "cpu", ke::noGroupIdx, ke::noDataParallelRank}, eks), eks);
  EXPECT_TRUE(t.pool->dedup().refs().empty());
}

// pkg/kvevents/pool_test.go@71f4f099 TestEffectiveReplayPort
TEST(KVEventsPool, EffectiveReplayPort) {
  for (auto [replay, want] : {std::pair{0, -1}, std::pair{6000, 6000}, std::pair{-1, -1}}) {
    ke::PodDiscoveryConfig c;
    c.SocketPort = 5556;
    c.ReplaySocketPort = replay;
    EXPECT_EQ(c.EffectiveReplayPort(), want);
  }
}

// Not an upstream test: a parent hash continues the chain across events (the engine's second event names
// the first event's last block as parent), and an unknown parent drops the event.
TEST(KVEventsPool, ParentHashContinuesChain) {
  auto t = newTestPool(16);
  const auto tokens = makeTokens(64);
  process(*t.pool, storedEv({11, 12}, {tokens.begin(), tokens.begin() + 32}), "pod-p");
  auto second = storedEv({13, 14}, {tokens.begin() + 32, tokens.end()});
  second.ParentHash = 12;
  process(*t.pool, second, "pod-p");
  auto ck = canonical(t, 64);
  ASSERT_EQ(ck.size(), 4U);
  for (auto k : ck) EXPECT_EQ(lookup(*t.idx, k).size(), 1U);
  auto orphan = storedEv({21}, makeTokens(16));
  orphan.ParentHash = 777;
  process(*t.pool, orphan, "pod-q");
  EXPECT_THROW(t.idx->GetRequestKey(21), std::runtime_error);
}
