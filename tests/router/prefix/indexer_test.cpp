// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: tests transcribed from pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer_test.go@71f4f099
// (the concurrent test as its two serial outcomes: the port is single-threaded), plus BLIS checks of the
// golang-lru/v2 semantics, resolveMaxBlocks and SchedulingContextState.Clone.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/lru.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.h"

namespace {

using namespace blis::router::approximateprefix;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer_test.go@71f4f099 TestIndexer_AddAndGet
TEST(ApproxPrefixIndexer, AddAndGet) {
  const server pod{ServerID{"default", "server1"}, 2};
  // An lruSize greater than server.NumOfGPUBlocks verifies that server-defined limits take precedence.
  auto i = newIndexer(3, "test-name", "test-type");

  const blockHash hash1 = 1;
  i->Add({hash1}, pod);
  EXPECT_EQ(i->podToLRU.at(pod.ServerID)->Len(), 1) << "Cache size should be 1 after adding an entry";
  podSet servers = i->Get(hash1);
  EXPECT_TRUE(servers.count(pod.ServerID)) << "Cache should contain the added server";

  i->Add({blockHash(2)}, pod);
  EXPECT_EQ(i->podToLRU.at(pod.ServerID)->Len(), 2) << "Cache size should  be 2 after adding an entry";

  // Another entry evicts the first one due to max size.
  i->Add({blockHash(3)}, pod);
  EXPECT_EQ(i->podToLRU.at(pod.ServerID)->Len(), 2) << "Cache size should still be 2 after adding an entry";

  servers = i->Get(blockHash(4));
  EXPECT_TRUE(servers.empty()) << "Cache should not contain non-existent hash";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer_test.go@71f4f099 TestIndexer_RemovePodAndEviction
TEST(ApproxPrefixIndexer, RemovePodAndEviction) {
  constexpr int indexerSize = 10;
  auto i = newIndexer(indexerSize, "test-name", "test-type");
  const server server1{ServerID{"default", "server1"}};
  const server server2{ServerID{"default", "server2"}};

  std::vector<blockHash> hashes;
  for (int j = 0; j < indexerSize; ++j) {
    const blockHash h = static_cast<blockHash>(j);
    hashes.push_back(h);
    i->Add({h}, server1);
    i->Add({h}, server2);
  }
  EXPECT_EQ(i->podToLRU.at(server1.ServerID)->Len(), indexerSize) << "server1 should have 10 entries";
  EXPECT_EQ(i->podToLRU.at(server2.ServerID)->Len(), indexerSize) << "server2 should have 10 entries";

  for (blockHash h : hashes) {
    const podSet& pods = i->hashToPods.at(h);
    EXPECT_EQ(pods.size(), 2u) << "Each hash should be associated with exactly 2 pods";
    EXPECT_TRUE(pods.count(server1.ServerID)) << "hash should be associated with server1";
    EXPECT_TRUE(pods.count(server2.ServerID)) << "hash should be associated with server2";
  }

  // Adding hash indexerSize to server1 evicts blockHash(0).
  const blockHash evictedHash = 0;
  const blockHash newHash = indexerSize;
  i->Add({newHash}, server1);
  EXPECT_EQ(i->podToLRU.at(server1.ServerID)->Len(), indexerSize) << "server1 LRU should maintain max size";

  podSet pods = i->Get(evictedHash);
  EXPECT_FALSE(pods.count(server1.ServerID)) << "server1 should be evicted from hashToPods for hash 0";
  EXPECT_TRUE(pods.count(server2.ServerID)) << "server2 should still have hash 0";

  i->RemovePod(server2.ServerID);

  pods = i->Get(evictedHash);
  EXPECT_FALSE(pods.count(server2.ServerID)) << "server2 should be removed from hash 0";
  EXPECT_TRUE(pods.empty()) << "hash 0 should have no pods after both eviction and removal";

  for (const auto& [hash, ps] : i->hashToPods) {
    EXPECT_EQ(ps.size(), 1u) << "hash " << hash << " should have only 1 pod after server2 removal";
    EXPECT_TRUE(ps.count(server1.ServerID)) << "hash " << hash << " should only contain server1";
  }
  EXPECT_EQ(i->hashToPods.size(), static_cast<std::size_t>(indexerSize))
      << "hashToPods should contain " << indexerSize << " hashes after cleanup";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/indexer_test.go@71f4f099 TestIndexer_ConcurrentAddRemovePod
// Upstream races Add and RemovePod under the indexer's mutex; the outcomes are the two serial orders,
// and in each, a pod absent from podToLRU is referenced by no hashToPods entry.
TEST(ApproxPrefixIndexer, ConcurrentAddRemovePodSerialOrders) {
  const int lruSize = 10;
  for (bool addFirst : {true, false}) {
    SCOPED_TRACE(addFirst ? "Add then RemovePod" : "RemovePod then Add");
    auto i = newIndexer(lruSize, "test-name", "test-type");
    const server pod{ServerID{"default", "pod1"}};
    if (addFirst) {
      i->Add({1, 2, 3}, pod);
      i->RemovePod(pod.ServerID);
    } else {
      i->RemovePod(pod.ServerID);
      i->Add({1, 2, 3}, pod);
    }
    if (!i->podToLRU.count(pod.ServerID)) {
      for (const auto& [hash, pods] : i->hashToPods) {
        EXPECT_FALSE(pods.count(pod.ServerID)) << "hashToPods[" << hash << "] references removed pod";
      }
    }
    // Which order leaves the pod tracked (BLIS: the serial outcomes are fully determined).
    EXPECT_EQ(i->podToLRU.count(pod.ServerID), addFirst ? 0u : 1u);
    EXPECT_EQ(i->hashToPods.size(), addFirst ? 0u : 3u);
  }
}

// BLIS: golang-lru/v2 semantics the indexer relies on. Re-adding a key refreshes it without eviction;
// Remove runs the callback; Keys are oldest first; a non-positive size is refused.
TEST(ApproxPrefixLRU, GolangLRUSemantics) {
  std::vector<std::pair<int, int>> evicted;
  LRU<int, int> c(2, [&](const int& k, const int& v) { evicted.emplace_back(k, v); });
  EXPECT_FALSE(c.Add(1, 10));
  EXPECT_FALSE(c.Add(2, 20));
  EXPECT_FALSE(c.Add(1, 11));  // existing key: moves to most recent, updates, no eviction
  EXPECT_TRUE(evicted.empty());
  EXPECT_EQ(c.Keys(), (std::vector<int>{2, 1}));
  EXPECT_TRUE(c.Add(3, 30));  // evicts the least recent, 2
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0], (std::pair<int, int>{2, 20}));
  EXPECT_EQ(c.Keys(), (std::vector<int>{1, 3}));
  EXPECT_TRUE(c.Remove(1));
  EXPECT_FALSE(c.Remove(1));
  ASSERT_EQ(evicted.size(), 2u);
  EXPECT_EQ(evicted[1], (std::pair<int, int>{1, 11}));
  EXPECT_EQ(c.Len(), 1);
  EXPECT_TRUE(c.Contains(3));
  EXPECT_FALSE(c.Contains(2));
  EXPECT_THROW((LRU<int, int>(0, nullptr)), std::invalid_argument);
}

// BLIS: indexer details. Re-adding a cached hash refreshes its recency (so a different hash is evicted
// next); the default size applies when the server reports no GPU blocks; Pods and PodBlockCounts are
// ordered; an indexer with no positive size refuses as golang-lru would.
TEST(ApproxPrefixIndexer, RecencyDefaultsAndListing) {
  auto i = newIndexer(2, "n", "t");
  const server a{ServerID{"ns", "b-pod"}, 0};  // NumOfGPUBlocks 0: the default size 2 applies
  i->Add({1, 2}, a);
  i->Add({1}, a);  // refresh 1
  i->Add({3}, a);  // evicts 2, not 1
  EXPECT_TRUE(i->Get(1).count(a.ServerID));
  EXPECT_TRUE(i->Get(2).empty());
  EXPECT_TRUE(i->Get(3).count(a.ServerID));

  const server b{ServerID{"ns", "a-pod"}, 5};
  i->Add({1, 4, 5}, b);
  EXPECT_EQ(i->Get(1), (podSet{b.ServerID, a.ServerID}));
  EXPECT_EQ(i->Pods(), (std::vector<ServerID>{b.ServerID, a.ServerID}));
  EXPECT_EQ(i->PodBlockCounts(), (std::map<ServerID, int>{{b.ServerID, 3}, {a.ServerID, 2}}));
  EXPECT_EQ(a.ServerID.String(), "ns/b-pod");

  // Upstream's ordering quirk: the LRU takes every hash before hashToPods is updated, so hashes evicted
  // within one Add (more hashes than capacity) still list the pod.
  auto small = newIndexer(2, "n", "t");
  small->Add({7, 8, 9}, a);
  EXPECT_EQ(small->podToLRU.at(a.ServerID)->Len(), 2);
  EXPECT_TRUE(small->Get(7).count(a.ServerID));

  auto zero = newIndexer(0, "n", "t");
  EXPECT_THROW(zero->Add({1}, a), std::invalid_argument);
}

// BLIS: dataProducer.resolveMaxBlocks (plugin.go) per its doc comment, and the defaults of types.go.
TEST(ApproxPrefixTypes, ResolveMaxBlocksAndDefaults) {
  EXPECT_EQ(resolveMaxBlocks(defaultConfig, 16), 131072 / 16);
  config c = defaultConfig;
  c.MaxPrefixTokensToMatch = 100;
  EXPECT_EQ(resolveMaxBlocks(c, 16), 6);   // token cap wins, truncating
  EXPECT_EQ(resolveMaxBlocks(c, 200), 0);  // a token cap smaller than a block hashes nothing
  EXPECT_EQ(resolveMaxBlocks(c, 0), defaultMaxPrefixBlocks);  // no block size: the block cap
  c.MaxPrefixTokensToMatch = 0;
  EXPECT_EQ(resolveMaxBlocks(c, 16), 2048);
  c.MaxPrefixBlocksToMatch = 0;
  EXPECT_EQ(resolveMaxBlocks(c, 16), unlimitedPrefixBlocks);
  EXPECT_TRUE(defaultConfig.AutoTune);
  EXPECT_EQ(defaultConfig.BlockSizeTokens, 16);
  EXPECT_EQ(defaultConfig.LRUCapacityPerServer, 31250);
  EXPECT_EQ(blis::router::approxprefixconstants::ApproxPrefixCachePluginType, "approx-prefix-cache-producer");
}

// BLIS: SchedulingContextState.Clone is a deep copy.
TEST(ApproxPrefixTypes, SchedulingContextStateClone) {
  SchedulingContextState s;
  s.PerPromptHashes = {{1, 2}, {3}};
  s.PrefixCacheServers = {{ServerID{"d", "p"}, 2}};
  SchedulingContextState c = s.Clone();
  s.PerPromptHashes[0][0] = 99;
  s.PrefixCacheServers[ServerID{"d", "p"}] = 7;
  EXPECT_EQ(c.PerPromptHashes, (std::vector<std::vector<blockHash>>{{1, 2}, {3}}));
  EXPECT_EQ(c.PrefixCacheServers.at(ServerID{"d", "p"}), 2);
}

}  // namespace
