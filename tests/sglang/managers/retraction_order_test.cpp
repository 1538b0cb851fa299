// Original to BLIS: transcription of test/registered/unit/managers/test_retraction_order.py@71de97b2
// (TestRetractionOrder) into GoogleTest, over real Req objects. Upstream's SimpleNamespace requests (output_ids,
// origin_input_ids, priority) are Req objects with those fields set; its SimpleNamespace server args are
// ServerArgs{retraction_policy, schedule_low_priority_values_first}. The retraction loop pops from the END of
// the returned list, so the last index is the first request retracted.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "srt/managers/schedule_batch.h"

namespace blis::sglang::testing {
namespace {

class SglRetractionOrder : public ::testing::Test {
 protected:
  std::vector<std::unique_ptr<Req>> owned;

  // test_retraction_order.py@71de97b2 _req(output_len, input_len=8, priority=None).
  Req* req(std::int64_t output_len, std::int64_t input_len = 8, std::optional<std::int64_t> priority = std::nullopt) {
    owned.push_back(std::make_unique<Req>("r" + std::to_string(owned.size()), TokenIds(static_cast<std::size_t>(input_len), 0),
                                          SamplingParams{}, priority));
    owned.back()->output_ids.assign(static_cast<std::size_t>(output_len), 0);
    return owned.back().get();
  }
  // test_retraction_order.py@71de97b2 _args(policy="length", low_first=False).
  static ServerArgs args(const std::string& policy = "length", bool low_first = false) {
    ServerArgs a;
    a.retraction_policy = policy;
    a.schedule_low_priority_values_first = low_first;
    return a;
  }
  // test_retraction_order.py@71de97b2 _order.
  static std::vector<std::size_t> order(const std::vector<Req*>& reqs, const ServerArgs& a) {
    return ScheduleBatch::get_decode_retraction_order(reqs, a);
  }
};

// TestRetractionOrder.test_length_policy_retracts_shortest_output_first
TEST_F(SglRetractionOrder, LengthPolicyRetractsShortestOutputFirst) {
  const std::vector<Req*> reqs{req(5), req(1), req(3)};
  EXPECT_EQ(order(reqs, args()), (std::vector<std::size_t>{0, 2, 1}));
}

// TestRetractionOrder.test_length_policy_tie_breaks_on_longer_input: equal outputs, the longer-input request is
// retracted first (frees more tokens for the same rework).
TEST_F(SglRetractionOrder, LengthPolicyTieBreaksOnLongerInput) {
  const std::vector<Req*> reqs{req(4, 10), req(4, 20)};
  EXPECT_EQ(order(reqs, args()), (std::vector<std::size_t>{0, 1}));
}

// TestRetractionOrder.test_priority_policy_low_values_first: low value = more important; None sorts as least
// important.
TEST_F(SglRetractionOrder, PriorityPolicyLowValuesFirst) {
  const std::vector<Req*> reqs{req(4, 8, 2), req(4, 8, 0), req(4, 8, std::nullopt)};
  EXPECT_EQ(order(reqs, args("priority", true)), (std::vector<std::size_t>{1, 0, 2}));
}

// TestRetractionOrder.test_priority_policy_high_values_first
TEST_F(SglRetractionOrder, PriorityPolicyHighValuesFirst) {
  const std::vector<Req*> reqs{req(4, 8, 2), req(4, 8, 0), req(4, 8, std::nullopt)};
  EXPECT_EQ(order(reqs, args("priority", false)), (std::vector<std::size_t>{0, 1, 2}));
}

// TestRetractionOrder.test_priority_ties_fall_back_to_length
TEST_F(SglRetractionOrder, PriorityTiesFallBackToLength) {
  const std::vector<Req*> reqs{req(1, 8, 1), req(5, 8, 1)};
  EXPECT_EQ(order(reqs, args("priority", true)), (std::vector<std::size_t>{1, 0}));
}

}  // namespace
}  // namespace blis::sglang::testing
