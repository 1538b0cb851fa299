// The vLLM engine core behind BLIS's engine contracts (issue 7): construction through the registry in two
// phases, the batch queue's depth (async scheduling), the stop check at the sampled output length
// (DEV-13) and at max tokens, admission refusals with vLLM's own reasons, each beside the closest input it
// accepts (SIM-7, SIM-9), aborts, and the token record (SIM-12).
#include <gtest/gtest.h>

#include "engine_harness.h"

namespace blis::vllm::test {
namespace {

TEST(VllmEngineCore, BuildsThroughTheRegistryWithABudgetAndBlocks) {
  auto e = make_engine({{"max-num-seqs", "8"}});
  ASSERT_TRUE(e->plan().kv_budget.has_value());
  EXPECT_GT(e->kv_cache_config().num_blocks, 1000);
  EXPECT_EQ(e->config().scheduler_config.max_num_seqs, 8);
  // Async scheduling is vLLM's default: two batches in flight (vllm.py@6e448d0e max_concurrent_batches).
  EXPECT_EQ(e->in_flight_depth(), 2);
  auto sync = make_engine({{"max-num-seqs", "8"}, {"async-scheduling", "false"}});
  EXPECT_EQ(sync->in_flight_depth(), 1);
}

// core.py@6e448d0e step_with_batch_queue: a schedule of no tokens while a batch is in flight queues an empty step,
// which fills the two-slot queue, so the loop blocks on the oldest batch; the engine keeps one step in flight
// until it completes. A 1-token request: its prefill, then nothing to schedule ahead of its end.
TEST(VllmEngineCore, ABatchQueueThatSchedulesNothingWaitsForItsOldestBatch) {
  auto e = make_engine({{"async-scheduling", "true"}});
  ASSERT_FALSE(e->add_request(request("a", 100, 1, /*max_tokens=*/1)));
  auto s1 = e->schedule();
  ASSERT_TRUE(s1);
  EXPECT_EQ(e->in_flight_depth(), 2);
  EXPECT_FALSE(e->schedule());  // a's only token is in flight
  EXPECT_EQ(e->in_flight_depth(), 1);
  e->complete(s1->id);
  EXPECT_EQ(e->in_flight_depth(), 2);
}

TEST(VllmEngineCore, StopsAtTheSampledLengthOrAtMaxTokens) {
  for (const char* async : {"true", "false"}) {
    SCOPED_TRACE(async);
    auto e = make_engine({{"async-scheduling", async}});
    ASSERT_FALSE(e->add_request(request("a", 100, 5)));
    ASSERT_FALSE(e->add_request(request("b", 40, 9, /*max_tokens=*/3)));
    ASSERT_FALSE(e->add_request(request("c", 300, 1)));
    const Record r = drain(*e);
    EXPECT_EQ(r.emitted.at("a"), 5);
    EXPECT_EQ(r.finished.at("a"), "stop");
    EXPECT_EQ(r.emitted.at("b"), 3);
    EXPECT_EQ(r.finished.at("b"), "length");
    EXPECT_EQ(r.emitted.at("c"), 1);
    EXPECT_EQ(r.finished.at("c"), "stop");
    EXPECT_EQ(r.most_in_flight, std::string(async) == "true" ? 2 : 1);
    EXPECT_EQ(e->residence("a"), engine::Residence::kUnknown);
    EXPECT_EQ(e->published().running, 0);
  }
}

TEST(VllmEngineCore, TheFirstStepCarriesEveryPromptAndItsShape) {
  auto e = make_engine({{"async-scheduling", "false"}});
  ASSERT_FALSE(e->add_request(request("a", 100, 3)));
  ASSERT_FALSE(e->add_request(request("b", 50, 3, std::nullopt, /*first_token=*/5000)));  // no shared prefix
  auto step = e->schedule();
  ASSERT_TRUE(step);
  EXPECT_EQ(step->first_scheduled, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(step->shape.mode, "extend_only");
  ASSERT_TRUE(step->shape.ranks && step->shape.ranks->size() == 1);
  const auto& reqs = *step->shape.ranks->front().requests;
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].new_tokens->value(), 100);
  EXPECT_EQ(reqs[0].cached_tokens->value(), 0);
  EXPECT_EQ(reqs[0].prompt_tokens->value(), 100);
  EXPECT_EQ(reqs[0].sampled_tokens->value(), 1);
  EXPECT_EQ(reqs[1].new_tokens->value(), 50);
  ASSERT_TRUE(step->shape.padded && step->shape.padded->size() == 1);
  EXPECT_GE(step->shape.padded->front().tokens.value_or(units::Tokens{0}).value(), 150);
  EXPECT_EQ(e->published().running, 2);
  const auto out = e->complete(step->id);
  ASSERT_EQ(out.emitted.size(), 2u);
  auto next = e->schedule();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->shape.mode, "decode_only");
  EXPECT_TRUE(next->first_scheduled.empty());
}

// A prompt that is a prefix of one admitted earlier in the same step reuses its blocks at once
// (kv_cache_manager.py@6e448d0e allocate_slots caches full blocks as they are allocated): only the tokens
// past the last full shared block, and at least the final one, are computed.
TEST(VllmEngineCore, SameStepPrefixSharing) {
  auto e = make_engine({{"async-scheduling", "false"}});
  ASSERT_FALSE(e->add_request(request("a", 100, 3)));
  ASSERT_FALSE(e->add_request(request("b", 50, 3)));  // tokens 1000..1049: a's first 50
  auto step = e->schedule();
  ASSERT_TRUE(step);
  const auto& reqs = *step->shape.ranks->front().requests;
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[1].cached_tokens->value(), 48);  // three 16-token blocks of a's
  EXPECT_EQ(reqs[1].new_tokens->value(), 2);
  auto off = make_engine({{"async-scheduling", "false"}, {"enable-prefix-caching", "false"}});
  ASSERT_FALSE(off->add_request(request("a", 100, 3)));
  ASSERT_FALSE(off->add_request(request("b", 50, 3)));
  auto s2 = off->schedule();
  EXPECT_EQ((*s2->shape.ranks->front().requests)[1].new_tokens->value(), 50);
}

TEST(VllmEngineCore, ChunkedPrefillSamplesOnlyWhenThePromptEnds) {
  auto e = make_engine({{"async-scheduling", "false"}, {"max-num-batched-tokens", "64"}, {"max-num-seqs", "4"}});
  ASSERT_FALSE(e->add_request(request("long", 150, 2)));
  auto s1 = e->schedule();
  ASSERT_TRUE(s1);
  EXPECT_EQ((*s1->shape.ranks->front().requests)[0].new_tokens->value(), 64);
  EXPECT_EQ((*s1->shape.ranks->front().requests)[0].sampled_tokens->value(), 0);
  EXPECT_TRUE(e->complete(s1->id).emitted.empty());
  auto s2 = e->schedule();
  EXPECT_EQ((*s2->shape.ranks->front().requests)[0].cached_tokens->value(), 64);
  EXPECT_TRUE(e->complete(s2->id).emitted.empty());
  auto s3 = e->schedule();
  EXPECT_EQ((*s3->shape.ranks->front().requests)[0].new_tokens->value(), 22);
  EXPECT_EQ((*s3->shape.ranks->front().requests)[0].sampled_tokens->value(), 1);
  EXPECT_EQ(e->complete(s3->id).emitted.size(), 1u);
}

TEST(VllmEngineCore, AdmissionRefusalsBesideTheirClosestAcceptedTwins) {
  auto e = make_engine({});
  // input_processor.py@6e448d0e _validate_prompt_len
  auto empty = e->add_request(request("empty", 0, 1));
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->reason, "The decoder prompt cannot be empty");
  EXPECT_FALSE(e->add_request(request("one", 1, 1)));
  auto equal = e->add_request(request("equal", 4096, 1));
  ASSERT_TRUE(equal);
  EXPECT_NE(equal->reason.find("plus the number of requested output tokens (at least 1) is longer than the maximum model length of 4096"), std::string::npos);
  auto longer = e->add_request(request("longer", 4097, 1));
  ASSERT_TRUE(longer);
  EXPECT_NE(longer->reason.find("The decoder prompt (length 4097) is longer than the maximum model length of 4096"), std::string::npos);
  EXPECT_FALSE(e->add_request(request("fits", 4095, 1)));
  // renderers/params.py@6e448d0e _token_len_check: prompt + max_tokens over max_model_len.
  auto over = e->add_request(request("over", 4000, 1, /*max_tokens=*/97));
  ASSERT_TRUE(over);
  EXPECT_NE(over->reason.find("This model's maximum context length is 4096 tokens. However, you requested 97 output tokens and your prompt contains 4000 input tokens"), std::string::npos);
  EXPECT_FALSE(e->add_request(request("exact", 4000, 1, /*max_tokens=*/96)));
}

TEST(VllmEngineCore, AnAbortedRequestFinishesInNoStepRecord) {
  auto e = make_engine({{"async-scheduling", "false"}});
  ASSERT_FALSE(e->add_request(request("kept", 20, 4)));
  ASSERT_FALSE(e->add_request(request("gone", 20, 4)));
  auto s = e->schedule();
  ASSERT_TRUE(s);
  e->abort_request("gone");
  e->abort_request("never-seen");  // ignored, as upstream's abort of an unknown id
  Record r;
  const auto out = e->complete(s->id);
  for (const auto& t : out.emitted) r.emitted[t.request] += t.tokens;
  r = drain(*e, r);
  EXPECT_EQ(r.emitted.count("gone"), 0u);
  EXPECT_EQ(r.finished.count("gone"), 0u);
  EXPECT_EQ(r.finished.at("kept"), "stop");
  EXPECT_EQ(r.emitted.at("kept"), 4);
}

TEST(VllmEngineCore, TheSameInputsGiveTheSameSteps) {
  auto run = [] {
    auto e = make_engine({{"max-num-batched-tokens", "256"}, {"max-num-seqs", "4"}});
    for (int i = 0; i < 12; ++i) e->add_request(request("r" + std::to_string(i), 30 + 17 * i, 2 + i % 5));
    Record r = drain(*e);
    std::string trace;
    for (const auto& s : r.steps) {
      for (const auto& q : *s.shape.ranks->front().requests) trace += std::to_string(q.new_tokens->value()) + ",";
      trace += ";";
    }
    return trace;
  };
  const std::string a = run();
  EXPECT_EQ(a, run());
  EXPECT_GT(a.size(), 20u);
}

}  // namespace
}  // namespace blis::vllm::test
