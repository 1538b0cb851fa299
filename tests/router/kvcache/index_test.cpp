// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvcache/kvblock/in_memory_test.go@71f4f099 (with the
// shared behaviour suite of pkg/kvcache/kvblock/index_test.go@71f4f099 testCommonIndexBehavior, without its
// concurrency/stress sub-tests: the port is single-threaded) and pkg/kvcache/kvblock/index_internal_test.go@71f4f099.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "router/kvcache/kvblock/in_memory.h"
#include "router/kvcache/kvblock/index.h"

namespace kb = blis::router::kvblock;
using kb::BlockHash;
using kb::PodEntry;
using Keys = std::vector<BlockHash>;
using Pods = std::vector<PodEntry>;

namespace {
// in_memory_test.go createInMemoryIndexForTesting: defaults with PodCacheSize 500.
std::shared_ptr<kb::Index> newIndex() {
  auto cfg = kb::DefaultInMemoryIndexConfig();
  cfg.PodCacheSize = 500;
  return kb::NewInMemoryIndex(&cfg);
}
PodEntry pe(const std::string& pod, const std::string& tier, bool spec = false) { return PodEntry{pod, tier, spec}; }
PodEntry pg(const std::string& pod, const std::string& tier, int g) { return PodEntry{pod, tier, false, true, g}; }
Pods sorted(Pods v) {
  std::sort(v.begin(), v.end());
  return v;
}
bool contains(const Pods& v, const PodEntry& e) { return std::find(v.begin(), v.end(), e) != v.end(); }
Pods at(const std::map<BlockHash, Pods>& m, BlockHash k) {
  auto it = m.find(k);
  return it == m.end() ? Pods{} : it->second;
}
const std::set<std::string> all{};
}  // namespace

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestInMemoryIndexBehavior
// (pkg/kvcache/kvblock/index_test.go@71f4f099 testCommonIndexBehavior: BasicAddAndLookup, DuplicatePodHandling,
// FilteredLookup, EvictBasic, AddWithNilEngineKeys, AddMappingOneToOne/ManyToOne/OneToMany, EvictOneToOne,
// EvictPreservesEngineMappingForOtherTiers, Grouped*, LookupPreservesGroupIdentity, Clear*.)
TEST(KVBlockInMemoryIndex, BasicAddAndLookup) {
  auto index = newIndex();
  const Keys ek{55269488};
  index->Add(&ek, {10633516}, {pe("pod1", "gpu"), pe("pod2", "gpu")});
  auto r = index->Lookup({10633516}, all);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(sorted(at(r, 10633516)), sorted({pe("pod1", "gpu"), pe("pod2", "gpu")}));
}

TEST(KVBlockInMemoryIndex, DuplicatePodHandling) {
  auto index = newIndex();
  const Keys ek{91642125};
  index->Add(&ek, {61519471}, {pe("pod1", "gpu"), pe("pod2", "gpu")});
  index->Add(&ek, {61519471}, {pe("pod1", "gpu"), pe("pod2", "cpu"), pe("pod3", "gpu")});
  auto r = index->Lookup({61519471}, all);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(sorted(at(r, 61519471)), sorted({pe("pod1", "gpu"), pe("pod2", "gpu"), pe("pod2", "cpu"), pe("pod3", "gpu")}));
}

TEST(KVBlockInMemoryIndex, FilteredLookup) {
  auto index = newIndex();
  const Keys ek{93788608};
  const BlockHash rk = 55204205;
  index->Add(&ek, {rk}, {pe("pod1", "gpu"), pe("pod2", "gpu"), pe("pod3", "gpu")});
  auto r = index->Lookup({rk}, {"pod1"});
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(at(r, rk), Pods{pe("pod1", "gpu")});
  r = index->Lookup({rk}, {"pod1", "pod3"});
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(sorted(at(r, rk)), sorted({pe("pod1", "gpu"), pe("pod3", "gpu")}));
  r = index->Lookup({rk}, {"pod999"});
  EXPECT_EQ(r.size(), 0U);
}

TEST(KVBlockInMemoryIndex, EvictBasic) {
  auto index = newIndex();
  const Keys ek{17434655};
  const BlockHash rk = 59244875;
  index->Add(&ek, {rk}, {pe("pod1", "gpu"), pe("pod2", "gpu"), pe("pod3", "gpu")});
  index->Evict(17434655, kb::KeyType::EngineKey, {pe("pod1", "gpu"), pe("pod3", "cpu")});
  auto r = index->Lookup({rk}, all);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(sorted(at(r, rk)), sorted({pe("pod2", "gpu"), pe("pod3", "gpu")}));
}

TEST(KVBlockInMemoryIndex, CommonAddWithNilEngineKeys) {
  auto index = newIndex();
  const auto pod = pe("10.0.0.3:8080", "", true);
  index->Add(nullptr, {55555555}, {pod});
  auto r = index->Lookup({55555555}, all);
  ASSERT_EQ(at(r, 55555555).size(), 1U);
  EXPECT_TRUE(contains(at(r, 55555555), pod));
  EXPECT_THROW(index->GetRequestKey(55555555), std::runtime_error);
}

TEST(KVBlockInMemoryIndex, AddMappingOneToOne) {
  auto index = newIndex();
  const Keys eks{100, 200, 300, 400};
  const Keys rks{1000, 2000, 3000, 4000};
  index->Add(&eks, rks, {pe("pod-1to1", "gpu")});
  for (std::size_t i = 0; i < eks.size(); ++i) EXPECT_EQ(index->GetRequestKey(eks[i]), rks[i]);
  auto r = index->Lookup(rks, {});
  for (auto rk : rks) {
    ASSERT_EQ(at(r, rk).size(), 1U);
    EXPECT_EQ(at(r, rk)[0].PodIdentifier, "pod-1to1");
  }
}

TEST(KVBlockInMemoryIndex, AddMappingManyToOne) {
  auto index = newIndex();
  const Keys eks{10, 11, 12, 13};
  const Keys rks{9000};
  const Pods pod{pe("pod-many1", "gpu")};
  index->Add(&eks, rks, pod);
  for (auto ek : eks) EXPECT_EQ(index->GetRequestKey(ek), 9000U);
  auto r = index->Lookup(rks, {});
  ASSERT_EQ(at(r, 9000).size(), 1U);
  EXPECT_EQ(at(r, 9000)[0].PodIdentifier, "pod-many1");
  index->Evict(eks[0], kb::KeyType::EngineKey, pod);
  r = index->Lookup(rks, {});
  EXPECT_TRUE(at(r, 9000).empty());
}

TEST(KVBlockInMemoryIndex, AddMappingOneToMany) {
  auto index = newIndex();
  const Keys eks{500};
  const Keys rks{5000, 5001, 5002, 5003};
  const Pods pod{pe("pod-1many", "gpu")};
  index->Add(&eks, rks, pod);
  EXPECT_EQ(index->GetRequestKey(500), 5003U);
  auto r = index->Lookup(rks, {});
  for (auto rk : rks) {
    ASSERT_EQ(at(r, rk).size(), 1U);
    EXPECT_EQ(at(r, rk)[0].PodIdentifier, "pod-1many");
  }
  index->Evict(500, kb::KeyType::EngineKey, pod);
  r = index->Lookup(rks, {});
  for (auto rk : rks) EXPECT_TRUE(at(r, rk).empty());
}

TEST(KVBlockInMemoryIndex, EvictOneToOne) {
  auto index = newIndex();
  const Keys eks{700, 701, 702};
  const Pods pod{pe("pod-evict", "gpu")};
  index->Add(&eks, {7000, 7001, 7002}, pod);
  index->Evict(701, kb::KeyType::EngineKey, pod);
  EXPECT_EQ(at(index->Lookup({7000}, {}), 7000).size(), 1U);
  EXPECT_TRUE(at(index->Lookup({7001}, {}), 7001).empty());
  EXPECT_EQ(at(index->Lookup({7002}, {}), 7002).size(), 1U);
}

TEST(KVBlockInMemoryIndex, EvictPreservesEngineMappingForOtherTiers) {
  auto index = newIndex();
  const Keys ek{88001};
  const BlockHash rk = 99001;
  const Pods gpu{pe("pod-a", "gpu")}, cpu{pe("pod-a", "cpu")};
  index->Add(&ek, {rk}, gpu);
  index->Add(nullptr, {rk}, cpu);
  ASSERT_EQ(at(index->Lookup({rk}, {}), rk).size(), 2U);
  index->Evict(88001, kb::KeyType::EngineKey, gpu);
  auto r = at(index->Lookup({rk}, {}), rk);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0].DeviceTier, "cpu");
  EXPECT_EQ(index->GetRequestKey(88001), rk);
  index->Evict(88001, kb::KeyType::EngineKey, cpu);
  EXPECT_TRUE(at(index->Lookup({rk}, {}), rk).empty());
  EXPECT_THROW(index->GetRequestKey(88001), std::runtime_error);
}

TEST(KVBlockInMemoryIndex, GroupedEntriesCoexist) {
  auto index = newIndex();
  const Keys ek{11111111};
  index->Add(&ek, {22222222}, {pg("pod-a", "gpu", 0)});
  index->Add(&ek, {22222222}, {pg("pod-a", "gpu", 1)});
  EXPECT_EQ(sorted(at(index->Lookup({22222222}, {}), 22222222)), sorted({pg("pod-a", "gpu", 0), pg("pod-a", "gpu", 1)}));
}

TEST(KVBlockInMemoryIndex, GroupedEvictRemovesOneGroup) {
  auto index = newIndex();
  const Keys ek{33333333};
  index->Add(&ek, {44444444}, {pg("pod-b", "gpu", 0), pg("pod-b", "gpu", 1)});
  index->Evict(33333333, kb::KeyType::EngineKey, {pg("pod-b", "gpu", 1)});
  EXPECT_EQ(at(index->Lookup({44444444}, {}), 44444444), Pods{pg("pod-b", "gpu", 0)});
}

TEST(KVBlockInMemoryIndex, GroupedEvictRemovesLastGroup) {
  auto index = newIndex();
  const Keys ek{66666666};
  index->Add(&ek, {77777777}, {pg("pod-d", "gpu", 0)});
  index->Evict(66666666, kb::KeyType::EngineKey, {pg("pod-d", "gpu", 0)});
  EXPECT_TRUE(at(index->Lookup({77777777}, {}), 77777777).empty());
}

TEST(KVBlockInMemoryIndex, LookupPreservesGroupIdentity) {
  auto index = newIndex();
  const auto pod = pg("pod-e", "gpu", 2);
  index->Add(nullptr, {88888888}, {pod});
  auto r = at(index->Lookup({88888888}, {}), 88888888);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0], pod);
}

TEST(KVBlockInMemoryIndex, ClearBasic) {
  auto index = newIndex();
  const auto pod = pe("pod-clear", "gpu");
  index->Add(nullptr, {0xC1EA0001}, {pod});
  EXPECT_EQ(at(index->Lookup({0xC1EA0001}, all), 0xC1EA0001).size(), 1U);
  index->Clear("pod-clear");
  EXPECT_TRUE(at(index->Lookup({0xC1EA0001}, all), 0xC1EA0001).empty());
}

TEST(KVBlockInMemoryIndex, ClearIsolatesOtherPods) {
  auto index = newIndex();
  index->Add(nullptr, {0xC1EA0002}, {pe("pod-A", "gpu"), pe("pod-B", "gpu")});
  index->Clear("pod-A");
  auto r = at(index->Lookup({0xC1EA0002}, all), 0xC1EA0002);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0], pe("pod-B", "gpu"));
}

TEST(KVBlockInMemoryIndex, ClearAllTiers) {
  auto index = newIndex();
  const auto other = pe("pod-other", "gpu");
  index->Add(nullptr, {0xC1EA0003}, {pe("pod-tiers", "gpu"), pe("pod-tiers", "cpu"), pg("pod-tiers", "gpu", 1), other});
  index->Clear("pod-tiers");
  auto r = at(index->Lookup({0xC1EA0003}, all), 0xC1EA0003);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0], other);
}

TEST(KVBlockInMemoryIndex, ClearThenReAdd) {
  auto index = newIndex();
  const auto pod = pe("pod-readd", "gpu");
  index->Add(nullptr, {0xC1EA0004}, {pod});
  index->Clear("pod-readd");
  EXPECT_TRUE(at(index->Lookup({0xC1EA0004}, all), 0xC1EA0004).empty());
  index->Add(nullptr, {0xC1EA0004}, {pod});
  EXPECT_EQ(at(index->Lookup({0xC1EA0004}, all), 0xC1EA0004).size(), 1U);
}

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestInMemoryIndexSize
TEST(KVBlockInMemoryIndex, InMemoryIndexSize) {
  kb::InMemoryIndexConfig cfg{2, 1};
  auto index = kb::NewInMemoryIndex(&cfg);
  const Keys e1{72735753}, e2{41341092}, e3{34012886};
  index->Add(&e1, {79215516}, {pe("pod1", "gpu")});
  index->Add(&e2, {12871930}, {pe("pod2", "gpu")});
  index->Add(&e3, {69914638}, {pe("pod3", "cpu")});
  auto r = index->Lookup({79215516, 12871930, 69914638}, {});
  EXPECT_EQ(r.size(), 2U);
  ASSERT_EQ(at(r, 12871930).size(), 1U);
  ASSERT_EQ(at(r, 69914638).size(), 1U);
  EXPECT_TRUE(contains(at(r, 12871930), pe("pod2", "gpu")));
  EXPECT_TRUE(contains(at(r, 69914638), pe("pod3", "cpu")));
}

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestInMemoryIndexPodCacheSize
TEST(KVBlockInMemoryIndex, InMemoryIndexPodCacheSize) {
  kb::InMemoryIndexConfig cfg{1, 2};
  auto index = kb::NewInMemoryIndex(&cfg);
  const Keys ek{28409753};
  index->Add(&ek, {51374550}, {pe("pod1", "gpu"), pe("pod2", "gpu"), pe("pod3", "cpu")});
  auto r = index->Lookup({51374550}, {});
  EXPECT_EQ(r.size(), 1U);
  ASSERT_EQ(at(r, 51374550).size(), 2U);
  EXPECT_TRUE(contains(at(r, 51374550), pe("pod2", "gpu")));
  EXPECT_TRUE(contains(at(r, 51374550), pe("pod3", "cpu")));
}

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestSpeculativeAnnotation
TEST(KVBlockInMemoryIndex, SpeculativeAnnotation) {
  auto index = newIndex();
  const BlockHash rk = 22222222;
  const auto spec = pe("10.0.0.1:8080", "", true);
  const auto confirmed = pe("10.0.0.1:8080", "");
  // SpeculativeAddWithNilEngineKeys
  index->Add(nullptr, {rk}, {spec});
  EXPECT_EQ(at(index->Lookup({rk}, {}), rk), Pods{spec});
  // SpeculativeAndConfirmedCoexist
  const Keys ek{33333333};
  index->Add(&ek, {rk}, {confirmed});
  auto r = at(index->Lookup({rk}, {}), rk);
  EXPECT_EQ(r.size(), 2U);
  EXPECT_TRUE(contains(r, spec));
  EXPECT_TRUE(contains(r, confirmed));
  // SpeculativeEvictPreservesConfirmed
  index->Evict(rk, kb::KeyType::RequestKey, {spec});
  r = at(index->Lookup({rk}, {}), rk);
  EXPECT_EQ(r.size(), 1U);
  EXPECT_TRUE(contains(r, confirmed));
  EXPECT_FALSE(contains(r, spec));
}

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestSpeculativeEvictThenEmpty
TEST(KVBlockInMemoryIndex, SpeculativeEvictThenEmpty) {
  auto index = newIndex();
  const auto spec = pe("10.0.0.2:8080", "", true);
  index->Add(nullptr, {44444444}, {spec});
  EXPECT_EQ(at(index->Lookup({44444444}, {}), 44444444).size(), 1U);
  index->Evict(44444444, kb::KeyType::RequestKey, {spec});
  EXPECT_TRUE(at(index->Lookup({44444444}, {}), 44444444).empty());
}

// pkg/kvcache/kvblock/in_memory_test.go@71f4f099 TestAddWithNilEngineKeys
TEST(KVBlockInMemoryIndex, AddWithNilEngineKeys) {
  auto index = newIndex();
  const auto pod = pe("10.0.0.3:8080", "", true);
  index->Add(nullptr, {55555555}, {pod});
  auto r = at(index->Lookup({55555555}, {}), 55555555);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_TRUE(contains(r, pod));
  EXPECT_THROW(index->GetRequestKey(55555555), std::runtime_error);
}

// Not an upstream test: the errors of the in-memory index and NewIndex's refusals.
TEST(KVBlockInMemoryIndex, ErrorsAndRefusals) {
  auto index = newIndex();
  EXPECT_THROW(index->Lookup({}, {}), std::runtime_error);
  EXPECT_THROW(index->Add(nullptr, {}, {pe("p", "gpu")}), std::runtime_error);
  EXPECT_THROW(index->Add(nullptr, {1}, {}), std::runtime_error);
  EXPECT_THROW(index->Evict(1, kb::KeyType::EngineKey, {}), std::runtime_error);
  kb::InMemoryIndexConfig bad{0, 1};
  EXPECT_THROW(kb::NewInMemoryIndex(&bad), std::runtime_error);
  kb::IndexConfig redis;
  redis.RedisConfig = true;
  EXPECT_THROW(kb::NewIndex(&redis), std::invalid_argument);
  kb::IndexConfig cost;
  cost.CostAwareMemoryConfig = true;
  EXPECT_THROW(kb::NewIndex(&cost), std::invalid_argument);
  kb::IndexConfig none;
  EXPECT_THROW(kb::NewIndex(&none), std::runtime_error);
  EXPECT_NE(kb::NewIndex(nullptr), nullptr);
}

// pkg/kvcache/kvblock/index_internal_test.go@71f4f099 TestEngineToRequestMapping_OneToOne
TEST(KVBlockEngineToRequestMapping, OneToOne) {
  const Keys eks{100, 200, 300, 400}, rks{1000, 2000, 3000, 4000};
  auto m = kb::engineToRequestMapping(eks, rks);
  ASSERT_EQ(m.size(), 4U);
  for (std::size_t i = 0; i < eks.size(); ++i) {
    EXPECT_EQ(m[i].first, eks[i]);
    EXPECT_EQ(m[i].second, Keys{rks[i]});
  }
}

// pkg/kvcache/kvblock/index_internal_test.go@71f4f099 TestEngineToRequestMapping_ManyToOne
TEST(KVBlockEngineToRequestMapping, ManyToOne) {
  auto m = kb::engineToRequestMapping({10, 11, 12, 13}, {9000});
  ASSERT_EQ(m.size(), 4U);
  for (const auto& [ek, r] : m) EXPECT_EQ(r, Keys{9000}) << ek;
}

// pkg/kvcache/kvblock/index_internal_test.go@71f4f099 TestEngineToRequestMapping_OneToMany
TEST(KVBlockEngineToRequestMapping, OneToMany) {
  auto m = kb::engineToRequestMapping({100}, {1000, 2000, 3000, 4000});
  ASSERT_EQ(m.size(), 1U);
  EXPECT_EQ(m[0].first, 100U);
  EXPECT_EQ(m[0].second, (Keys{1000, 2000, 3000, 4000}));
}

// pkg/kvcache/kvblock/index_internal_test.go@71f4f099 TestEngineToRequestMapping_EmptySlices
TEST(KVBlockEngineToRequestMapping, EmptySlices) {
  EXPECT_TRUE(kb::engineToRequestMapping({}, {}).empty());
  EXPECT_TRUE(kb::engineToRequestMapping({}, {1}).empty());
  EXPECT_TRUE(kb::engineToRequestMapping({1}, {}).empty());
}

// pkg/kvcache/kvblock/index_internal_test.go@71f4f099 TestEngineToRequestMapping_ScoreOrder
TEST(KVBlockEngineToRequestMapping, ScoreOrder) {
  auto m = kb::engineToRequestMapping({100}, {1000, 2000, 3000});
  ASSERT_EQ(m.size(), 1U);
  EXPECT_EQ(m[0].second, (Keys{1000, 2000, 3000}));
}
