// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of pkg/kvevents/event_dedup_filter_test.go@71f4f099.
#include <gtest/gtest.h>

#include <vector>

#include "router/kvevents/event_dedup_filter.h"

namespace ke = blis::router::kvevents;
using H = std::vector<std::uint64_t>;

namespace {
ke::blockScope testScope(const std::string& pod, const std::string& tier, int g, int dp) { return ke::blockScope{pod, tier, g, dp}; }
ke::blockScope gpuScope(const std::string& pod) { return testScope(pod, "gpu", ke::noGroupIdx, ke::noDataParallelRank); }
}  // namespace

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_DuplicateStoreSuppressesFirstRemove
TEST(EventDedupFilter, DuplicateStoreSuppressesFirstRemove) {
  ke::eventDedupFilter f;
  auto s = gpuScope("pod-a");
  const H hashes{1, 2, 3};
  f.trackStore(s, hashes);
  f.trackStore(s, hashes);
  EXPECT_TRUE(f.filterRemove(s, hashes).empty());
  EXPECT_EQ(f.filterRemove(s, hashes), hashes);
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_AggregatesAcrossSources
TEST(EventDedupFilter, AggregatesAcrossSources) {
  ke::eventDedupFilter f;
  auto s = gpuScope("pod-a");
  f.trackStore(s, {7});
  f.trackStore(s, {7});
  EXPECT_TRUE(f.filterRemove(s, {7}).empty());
  EXPECT_EQ(f.filterRemove(s, {7}), H{7});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_TierIndependence
TEST(EventDedupFilter, TierIndependence) {
  ke::eventDedupFilter f;
  auto gpu = testScope("pod-a", "gpu", ke::noGroupIdx, ke::noDataParallelRank);
  auto cpu = testScope("pod-a", "cpu", ke::noGroupIdx, ke::noDataParallelRank);
  f.trackStore(gpu, {1});
  f.trackStore(cpu, {1});
  EXPECT_EQ(f.filterRemove(cpu, {1}), H{1});
  EXPECT_EQ(f.filterRemove(gpu, {1}), H{1});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_GroupIndependence
TEST(EventDedupFilter, GroupIndependence) {
  ke::eventDedupFilter f;
  auto g0 = testScope("pod-a", "gpu", 0, ke::noDataParallelRank);
  auto g1 = testScope("pod-a", "gpu", 1, ke::noDataParallelRank);
  f.trackStore(g0, {1});
  f.trackStore(g1, {1});
  EXPECT_EQ(f.filterRemove(g1, {1}), H{1});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_DataParallelRankIndependence
TEST(EventDedupFilter, DataParallelRankIndependence) {
  ke::eventDedupFilter f;
  auto dp0 = testScope("pod-a", "gpu", ke::noGroupIdx, 0);
  auto dp1 = testScope("pod-a", "gpu", ke::noGroupIdx, 1);
  f.trackStore(dp0, {1});
  f.trackStore(dp1, {1});
  EXPECT_EQ(f.filterRemove(dp1, {1}), H{1});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_UnknownRemovePassesThrough
TEST(EventDedupFilter, UnknownRemovePassesThrough) {
  ke::eventDedupFilter f;
  auto s = gpuScope("pod-a");
  EXPECT_EQ(f.filterRemove(s, {42}), H{42});
  EXPECT_EQ(f.filterRemove(s, {42}), H{42});
  f.trackStore(s, {42});
  EXPECT_EQ(f.filterRemove(s, {42}), H{42});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_PartialForward
TEST(EventDedupFilter, PartialForward) {
  ke::eventDedupFilter f;
  auto s = gpuScope("pod-a");
  f.trackStore(s, {1});
  f.trackStore(s, {1});
  f.trackStore(s, {2});
  EXPECT_EQ(f.filterRemove(s, {1, 2, 3}), (H{2, 3}));
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_ClearResets
TEST(EventDedupFilter, ClearResets) {
  ke::eventDedupFilter f;
  auto s = gpuScope("pod-a");
  f.trackStore(s, {1});
  f.trackStore(s, {1});
  f.clear("pod-a");
  EXPECT_EQ(f.filterRemove(s, {1}), H{1});
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestEventDedupFilter_ClearIsolatesPods
TEST(EventDedupFilter, ClearIsolatesPods) {
  ke::eventDedupFilter f;
  auto a = gpuScope("pod-a");
  auto b = gpuScope("pod-b");
  f.trackStore(a, {1});
  f.trackStore(a, {1});
  f.trackStore(b, {1});
  f.trackStore(b, {1});
  f.clear("pod-a");
  EXPECT_EQ(f.filterRemove(a, {1}), H{1});
  EXPECT_TRUE(f.filterRemove(b, {1}).empty());
}

// pkg/kvevents/event_dedup_filter_test.go@71f4f099 TestGroupIdxOrNoGroup
TEST(EventDedupFilter, GroupIdxOrNoGroup) {
  EXPECT_EQ(ke::groupIdxOrNoGroup(std::nullopt), ke::noGroupIdx);
  EXPECT_EQ(ke::groupIdxOrNoGroup(3), 3);
}
