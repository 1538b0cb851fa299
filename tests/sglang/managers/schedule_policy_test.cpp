// Original to BLIS: transcription of test/manual/test_schedule_policy.py@71de97b2 (TestSchedulePolicy) into
// GoogleTest, over the ported RadixCache (RadixCache::create_simulated) and real Req and ScheduleBatch objects.
// Upstream's integer rids (1, 3, 2) are the strings "1", "3", "2" (Req.rid is a string); origin_input_text is
// not kept by the ported Req.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "srt/managers/schedule_batch.h"
#include "srt/managers/schedule_policy.h"
#include "srt/mem_cache/radix_cache.h"

namespace blis::sglang::testing {
namespace {

class SglSchedulePolicy : public ::testing::Test {
 protected:
  // TestSchedulePolicy.setUp.
  std::unique_ptr<RadixCache> tree_cache = RadixCache::create_simulated();
  std::vector<std::unique_ptr<Req>> owned;

  // test_schedule_policy.py@71de97b2 _make_req (SamplingParams() by default).
  Req* make_req(const std::string& rid, TokenIds origin_input_ids, SamplingParams sampling_params = {},
                std::optional<std::int64_t> priority = std::nullopt,
                std::optional<std::string> routing_key = std::nullopt) {
    owned.push_back(std::make_unique<Req>(rid, std::move(origin_input_ids), sampling_params, priority, std::nullopt,
                                          std::move(routing_key)));
    return owned.back().get();
  }
  // make_req(..., routing_key=key).
  Req* make_routed(const std::string& rid, TokenIds origin_input_ids, const std::string& routing_key) {
    return make_req(rid, std::move(origin_input_ids), {}, std::nullopt, routing_key);
  }

  static std::vector<std::string> rids(const std::vector<Req*>& q) {
    std::vector<std::string> out;
    for (const Req* r : q) out.push_back(r->rid);
    return out;
  }
};

using Rids = std::vector<std::string>;

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_init_with_cache_aware_policy.
TEST_F(SglSchedulePolicy, InitWithCacheAwarePolicy) {
  SchedulePolicy policy("lpm", *tree_cache, true, false, false);
  EXPECT_EQ(policy.policy, Policy{CacheAwarePolicy::LPM});
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_init_with_cache_agnostic_policy.
TEST_F(SglSchedulePolicy, InitWithCacheAgnosticPolicy) {
  SchedulePolicy policy("fcfs", *tree_cache, true, false, false);
  EXPECT_EQ(policy.policy, Policy{CacheAgnosticPolicy::FCFS});
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_init_with_unknown_policy.
TEST_F(SglSchedulePolicy, InitWithUnknownPolicy) {
  EXPECT_THROW(SchedulePolicy("invalid", *tree_cache, true, false, false), std::invalid_argument);
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_init_with_disabled_cache.
TEST_F(SglSchedulePolicy, InitWithDisabledCache) {
  auto disabled = RadixCache::create_simulated(true);
  SchedulePolicy policy("lpm", *disabled, true, false, false);
  EXPECT_EQ(policy.policy, Policy{CacheAgnosticPolicy::FCFS});
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_fcfs.
TEST_F(SglSchedulePolicy, CalcPriorityFcfs) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> waiting_queue = {make_req("1", {1, 2}), make_req("3", {1, 2, 3}), make_req("2", {1})};
  SchedulePolicy policy("fcfs", *cache, true, false, false);
  policy.calc_priority(waiting_queue);
  // FCFS keeps the original order.
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "3", "2"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_priority_enabled_fcfs_scheduling.
TEST_F(SglSchedulePolicy, CalcPriorityPriorityEnabledFcfsScheduling) {
  auto cache = RadixCache::create_simulated();
  Req* r1 = make_req("1", {1, 2});
  Req* r2 = make_req("3", {1, 2, 3});
  Req* r3 = make_req("2", {1});
  r1->priority = 1, r1->time_stats.wait_queue_entry_time = 1;
  r2->priority = 0, r2->time_stats.wait_queue_entry_time = 1;
  r3->priority = 0, r3->time_stats.wait_queue_entry_time = 0;
  std::vector<Req*> waiting_queue = {r1, r2, r3};
  SchedulePolicy policy("fcfs", *cache, true, true, false);
  policy.calc_priority(waiting_queue);
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "2", "3"}));
}

// test_schedule_policy.py@71de97b2
// TestSchedulePolicy.test_calc_priority_priority_enabled_fcfs_scheduling_with_low_priority_values_first.
TEST_F(SglSchedulePolicy, CalcPriorityPriorityEnabledFcfsSchedulingWithLowPriorityValuesFirst) {
  auto cache = RadixCache::create_simulated();
  Req* r1 = make_req("1", {1, 2});
  Req* r2 = make_req("3", {1, 2, 3});
  Req* r3 = make_req("2", {1});
  r1->priority = -1, r1->time_stats.wait_queue_entry_time = 1;
  r2->priority = 0, r2->time_stats.wait_queue_entry_time = 1;
  r3->priority = 0, r3->time_stats.wait_queue_entry_time = 0;
  std::vector<Req*> waiting_queue = {r1, r2, r3};
  SchedulePolicy policy("fcfs", *cache, true, true, true);
  policy.calc_priority(waiting_queue);
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "2", "3"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_longest_output_first_scheduling.
TEST_F(SglSchedulePolicy, CalcPriorityLongestOutputFirstScheduling) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> waiting_queue = {make_req("1", {1, 2}, SamplingParams{1000, false}),
                                     make_req("3", {1, 2, 3}, SamplingParams{10, false}),
                                     make_req("2", {1}, SamplingParams{100, false})};
  SchedulePolicy policy("lof", *cache, true, false, false);
  policy.calc_priority(waiting_queue);
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "2", "3"}));
}

// test_schedule_policy.py@71de97b2
// TestSchedulePolicy.test_calc_priority_priority_enabled_longest_output_first_scheduling.
TEST_F(SglSchedulePolicy, CalcPriorityPriorityEnabledLongestOutputFirstScheduling) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> waiting_queue = {make_req("1", {1, 2}, SamplingParams{1, false}, 1),
                                     make_req("3", {1, 2, 3}, SamplingParams{10, false}, 0),
                                     make_req("2", {1}, SamplingParams{100, false}, 0)};
  SchedulePolicy policy("lof", *cache, true, true, false);
  policy.calc_priority(waiting_queue);
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "2", "3"}));
}

// test_schedule_policy.py@71de97b2
// TestSchedulePolicy.test_calc_priority_priority_enabled_longest_output_first_scheduling_with_low_priority_values_first.
TEST_F(SglSchedulePolicy, CalcPriorityPriorityEnabledLongestOutputFirstSchedulingWithLowPriorityValuesFirst) {
  auto cache = RadixCache::create_simulated();
  std::vector<Req*> waiting_queue = {make_req("1", {1, 2}, SamplingParams{1, false}, 0),
                                     make_req("3", {1, 2, 3}, SamplingParams{10, false}, 1),
                                     make_req("2", {1}, SamplingParams{100, false}, 1)};
  SchedulePolicy policy("lof", *cache, true, true, true);
  policy.calc_priority(waiting_queue);
  EXPECT_EQ(rids(waiting_queue), (Rids{"1", "2", "3"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_routing_key_scheduling.
TEST_F(SglSchedulePolicy, CalcPriorityRoutingKeyScheduling) {
  auto cache = RadixCache::create_simulated();
  ScheduleBatch running_batch({make_routed("r1", {1}, "key_a"),
                               make_routed("r2", {2}, "key_a"),
                               make_routed("r3", {3}, "key_b")});
  std::vector<Req*> waiting_queue = {make_routed("w1", {4}, "key_b"),
                                     make_routed("w2", {5}, "key_a"),
                                     make_routed("w3", {6}, "key_c")};
  SchedulePolicy policy("routing-key", *cache, false, false, false);
  policy.calc_priority(waiting_queue, &running_batch);
  EXPECT_EQ(rids(waiting_queue), (Rids{"w2", "w1", "w3"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_routing_key_tie_break_by_lexicographic_order.
TEST_F(SglSchedulePolicy, CalcPriorityRoutingKeyTieBreakByLexicographicOrder) {
  auto cache = RadixCache::create_simulated();
  ScheduleBatch running_batch(
      {make_routed("r1", {1}, "key_b"), make_routed("r2", {2}, "key_a")});
  std::vector<Req*> waiting_queue = {make_routed("w1", {4}, "key_b"),
                                     make_routed("w2", {5}, "key_a")};
  SchedulePolicy policy("routing-key", *cache, false, false, false);
  policy.calc_priority(waiting_queue, &running_batch);
  EXPECT_EQ(rids(waiting_queue), (Rids{"w2", "w1"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_routing_key_no_match_deprioritized.
TEST_F(SglSchedulePolicy, CalcPriorityRoutingKeyNoMatchDeprioritized) {
  auto cache = RadixCache::create_simulated();
  ScheduleBatch running_batch({make_routed("r1", {1}, "key_a"),
                               make_routed("r2", {2}, "key_b"),
                               make_routed("r3", {3}, "key_c")});
  std::vector<Req*> waiting_queue = {make_routed("w1", {4}, "key_d"),
                                     make_routed("w2", {5}, "key_e"),
                                     make_routed("w3", {6}, "key_c")};
  SchedulePolicy policy("routing-key", *cache, false, false, false);
  policy.calc_priority(waiting_queue, &running_batch);
  EXPECT_EQ(rids(waiting_queue), (Rids{"w3", "w1", "w2"}));
}

// test_schedule_policy.py@71de97b2 TestSchedulePolicy.test_calc_priority_routing_key_empty_running_batch.
TEST_F(SglSchedulePolicy, CalcPriorityRoutingKeyEmptyRunningBatch) {
  auto cache = RadixCache::create_simulated();
  ScheduleBatch running_batch(std::vector<Req*>{});
  std::vector<Req*> waiting_queue = {make_routed("w1", {4}, "key_a"),
                                     make_routed("w2", {5}, "key_b"),
                                     make_routed("w3", {6}, "key_c")};
  SchedulePolicy policy("routing-key", *cache, false, false, false);
  policy.calc_priority(waiting_queue, &running_batch);
  EXPECT_EQ(rids(waiting_queue), (Rids{"w1", "w2", "w3"}));
}

}  // namespace
}  // namespace blis::sglang::testing
