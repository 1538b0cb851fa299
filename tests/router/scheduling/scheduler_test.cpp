// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/scheduler_test.go@71f4f099; upstream's profile also
// holds the prefix-cache scorer (weight 1), which is not ported yet: with no prompt it scores every
// endpoint 0 in this test, so the expected pick and its weighted score (2.8) are unchanged without it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"
#include "router/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.h"
#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::scheduling {
namespace {

fwksched::EndpointPtr endpoint(const std::string& name, int waitingQueueSize, double kvCacheUsagePercent,
                               int maxActiveModels, std::map<std::string, int> activeModels) {
  fwkdl::EndpointMetadata meta;
  meta.ID.Name = name;
  fwkdl::Metrics m;
  m.WaitingQueueSize = waitingQueueSize;
  m.KVCacheUsagePercent = kvCacheUsagePercent;
  m.MaxActiveModels = maxActiveModels;
  m.ActiveModels = std::move(activeModels);
  return fwksched::NewEndpoint(meta, m);
}

// pkg/epp/scheduling/scheduler_test.go@71f4f099 TestSchedule
// The default scheduler configuration and its expected behavior.
TEST(Scheduler, TestSchedule) {
  testing::SplitMixStream rand(42);
  auto kvCacheUtilizationScorer = kvcacheutilization::NewKVCacheUtilizationScorer();
  auto queueingScorer = queuedepth::NewQueueScorer();
  auto loraAffinityScorer = loraaffinity::NewLoraAffinityScorer();

  auto defaultProfile = NewSchedulerProfile()
                            ->WithScorers({NewWeightedScorer(kvCacheUtilizationScorer, 1),
                                           NewWeightedScorer(queueingScorer, 1),
                                           NewWeightedScorer(loraAffinityScorer, 1)})
                            ->WithPicker(maxscore::NewMaxScorePicker(picker::DefaultMaxNumOfEndpoints, rand));
  auto profileHandler = single::NewSingleProfileHandler();
  auto schedulerConfig = NewSchedulerConfig(profileHandler, {{"default", defaultProfile}});

  // "no candidate endpoints"
  {
    auto scheduler = NewSchedulerWithConfig(*schedulerConfig);
    fwksched::InferenceRequest req;
    req.RequestID = "req-no-candidates";
    req.TargetModel = "any-model";
    auto got = scheduler->Schedule(&req, {});
    EXPECT_TRUE(got.Err.has_value()) << "no candidate endpoints: want an error";
    EXPECT_EQ(got.Value, nullptr);
  }

  // "finds optimal endpoint": pod2 has a relatively low queue, the requested model active, and a low KV cache.
  for (int draw = 0; draw < 16; ++draw) {  // the picker shuffles: every draw must give the same answer
    auto scheduler = NewSchedulerWithConfig(*schedulerConfig);
    fwksched::InferenceRequest req;
    req.RequestID = "req-optimal";
    req.TargetModel = "critical";
    const std::vector<fwksched::EndpointPtr> input = {
        endpoint("pod1", 0, 0.2, 2, {{"foo", 1}, {"bar", 1}}),
        endpoint("pod2", 0, 0.2, 2, {{"foo", 1}, {"critical", 1}}),
        endpoint("pod3", 10, 0.8, 2, {{"foo", 1}}),
    };
    auto got = scheduler->Schedule(&req, input);
    ASSERT_FALSE(got.Err.has_value()) << got.Err->Text;
    ASSERT_NE(got.Value, nullptr);

    EXPECT_EQ(got.Value->PrimaryProfileName, "default");
    ASSERT_EQ(got.Value->ProfileResults.size(), 1u);
    ASSERT_EQ(got.Value->ProfileResults.count("default"), 1u);
    const auto& result = got.Value->ProfileResults.at("default");
    ASSERT_NE(result, nullptr);
    ASSERT_EQ(result->TargetEndpoints.size(), 1u);
    auto scored = std::dynamic_pointer_cast<fwksched::ScoredEndpoint>(result->TargetEndpoints[0]);
    ASSERT_NE(scored, nullptr) << "the max-score picker returns ScoredEndpoints";
    const fwksched::ScoredEndpoint want(endpoint("pod2", 0, 0.2, 2, {{"foo", 1}, {"critical", 1}}), 2.8);
    EXPECT_TRUE(fwksched::ScoredEndpointComparer(want, *scored)) << "got " << scored->String();
  }
}

}  // namespace
}  // namespace blis::router::scheduling
