// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils_test.go@71f4f099, plus the
// pod-identifier rule BLIS adds for endpoints without an address.
#include <gtest/gtest.h>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils.h"
#include "test_support.h"

using namespace precisetest;

namespace {
const std::string podA = "10.0.0.1:8000";
const std::string podB = "10.0.0.2:8000";
const std::vector<kb::BlockHash> keys = {1, 2, 3, 4};
kb::PodEntry gpu(const std::string& pod) { return pe(pod, "gpu"); }
kb::PodEntry cpu(const std::string& pod) { return pe(pod, "cpu"); }
kb::PodEntry speculative(const std::string& pod) {
  kb::PodEntry e = pe(pod);
  e.Speculative = true;
  return e;
}
}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils_test.go@71f4f099 TestMatchedBlockCount
TEST(PrecisePrefixUtils, MatchedBlockCount) {
  struct Case {
    std::string name;
    KeyToPods keyToPods;
    std::string podID;
    int want;
  };
  const std::vector<Case> tests = {
      {"all blocks held on RAM/cpu tier count fully (unweighted)",
       {{1, {cpu(podA)}}, {2, {cpu(podA)}}, {3, {cpu(podA)}}, {4, {cpu(podA)}}}, podA, 4},
      {"single RAM block counts as one, not zero", {{1, {cpu(podA)}}}, podA, 1},
      {"stops at first missing block", {{1, {gpu(podA)}}, {2, {gpu(podA)}}, {4, {gpu(podA)}}}, podA, 2},
      {"pod absent from first block yields zero", {{1, {gpu(podB)}}, {2, {gpu(podA)}}}, podA, 0},
      {"counts are per-pod independent", {{1, {gpu(podA), cpu(podB)}}, {2, {gpu(podA)}}, {3, {cpu(podB)}}}, podA, 2},
      {"empty index yields zero", {}, podA, 0},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(pp::matchedBlockCount(keys, tt.keyToPods, tt.podID), tt.want);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/utils_test.go@71f4f099 TestMatchedBlockCountByTier
TEST(PrecisePrefixUtils, MatchedBlockCountByTier) {
  struct Case {
    std::string name;
    KeyToPods keyToPods;
    std::string podID;
    std::map<std::string, int> want;
  };
  const std::vector<Case> tests = {
      {"all blocks on one tier", {{1, {gpu(podA)}}, {2, {gpu(podA)}}, {3, {gpu(podA)}}, {4, {gpu(podA)}}}, podA, {{"gpu", 4}}},
      {"dual-tier block counts once per tier", {{1, {gpu(podA), cpu(podA)}}, {2, {gpu(podA)}}}, podA, {{"gpu", 2}, {"cpu", 1}}},
      {"tier-specific gap stops that tier only",
       {{1, {gpu(podA), cpu(podA)}}, {2, {gpu(podA), cpu(podA)}}, {3, {gpu(podA)}}, {4, {gpu(podA), cpu(podA)}}},
       podA,
       {{"gpu", 4}, {"cpu", 2}}},
      {"pod absent from first block yields empty map", {{1, {gpu(podB)}}, {2, {gpu(podA)}}}, podA, {}},
      {"counts are per-pod independent",
       {{1, {gpu(podA), cpu(podB)}}, {2, {gpu(podA), cpu(podB)}}, {3, {cpu(podB)}}}, podA, {{"gpu", 2}}},
      {"speculative entries count under the speculative key",
       {{1, {speculative(podA), gpu(podA)}}, {2, {speculative(podA)}}},
       podA,
       {{"gpu", 1}, {ap::SpeculativeTierKey, 2}}},
      {"empty index yields empty map", {}, podA, {}},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    const auto got = pp::matchedBlockCountByTier(keys, tt.keyToPods, tt.podID);
    EXPECT_EQ(got, tt.want);
    const int anyTier = pp::matchedBlockCount(keys, tt.keyToPods, tt.podID);
    for (const auto& [tier, count] : got) EXPECT_LE(count, anyTier) << "tier " << tier;
  }
}

// Original to BLIS: upstream's "<address>:<port>" when the endpoint has an address, else its metadata Name (a
// BLIS endpoint, "<pool>/<instance>"); extractEndpointSet uses the same rule and skips endpoints without metadata.
TEST(PrecisePrefixUtils, EndpointPodIdentifier) {
  fdl::EndpointMetadata withAddr;
  withAddr.Name = "ignored";
  withAddr.Address = "10.0.0.1";
  withAddr.Port = "8000";
  EXPECT_EQ(pp::endpointPodIdentifier(withAddr), "10.0.0.1:8000");
  fdl::EndpointMetadata blis;
  blis.ID.Name = "pool-a/instance-0";
  blis.Name = "pool-a/instance-0";
  EXPECT_EQ(pp::endpointPodIdentifier(blis), "pool-a/instance-0");
  std::vector<fs::EndpointPtr> eps = {fs::NewEndpoint(withAddr, std::nullopt), fs::NewEndpoint(blis, std::nullopt),
                                      fs::NewEndpoint(std::nullopt, std::nullopt)};
  EXPECT_EQ(pp::extractEndpointSet(eps), (std::set<std::string>{"10.0.0.1:8000", "pool-a/instance-0"}));
}
