// Original to BLIS: the SGLang engine core behind the engine contracts (engines/sglang/srt/entrypoints/
// engine_core.cpp) on the production Environment and the embedded data: both construction phases, the normal
// and overlap loops as steps, the stop check, admission refusals and argument refusals in pairs (SIM-9), the
// gauges llm-d reads, the KV-event publisher, and determinism.
#include <gtest/gtest.h>

#include "engine_harness.h"

namespace blis::sglang::test {
namespace {

// Both phases ran: the plan has its KV budget, the pool the budget bought sizes the scheduler, and the overlap
// schedule (on by default) keeps two batches in flight.
TEST(SglEngineCore, BuildsThroughTheRegistryWithTheOverlapScheduleOn) {
  auto e = make_engine();
  ASSERT_TRUE(e->plan().kv_budget.has_value());
  EXPECT_GT(e->memory_pool().max_total_num_tokens, 0);
  EXPECT_EQ(e->scheduler().config().max_total_num_tokens, e->memory_pool().max_total_num_tokens);
  EXPECT_EQ(e->in_flight_depth(), 2);
  EXPECT_EQ(make_engine({{"disable-overlap-schedule", "true"}})->in_flight_depth(), 1);
}

// Each request emits exactly its sampled output length, ending "stop" at the EOS the sampler stand-in
// samples there; a max_tokens below it ends "length" after max_tokens tokens. The first step is one extend of
// both prompts (fcfs, enough memory), and later steps are decodes.
TEST(SglEngineCore, RequestsEndAtTheirSampledLengthOrMaxTokens) {
  auto e = make_engine({{"disable-overlap-schedule", "true"}});
  ASSERT_FALSE(e->add_request(request("a", 100, 5)).has_value());
  ASSERT_FALSE(e->add_request(request("b", 60, 50, 3, 5000)).has_value());
  const Record r = drain(*e);
  EXPECT_EQ(r.emitted.at("a"), 5);
  EXPECT_EQ(r.finished.at("a"), "stop");
  EXPECT_EQ(r.emitted.at("b"), 3);
  EXPECT_EQ(r.finished.at("b"), "length");
  ASSERT_FALSE(r.steps.empty());
  EXPECT_EQ(r.steps[0].shape.mode, "extend_only");
  EXPECT_EQ(r.steps[0].first_scheduled, (std::vector<std::string>{"a", "b"}));
  for (std::size_t i = 1; i < r.steps.size(); ++i) EXPECT_EQ(r.steps[i].shape.mode, "decode_only");
  // The normal loop: 1 extend + 4 decodes for a's 5 tokens.
  EXPECT_EQ(r.steps.size(), 5u);
  EXPECT_EQ(r.most_in_flight, 1);
}

// Under the overlap schedule the decode of a request is launched before its last result is processed, so
// a 5-token request takes one step more than under the normal loop, whose token is discarded.
TEST(SglEngineCore, OverlapRunsOneDiscardedStepMore) {
  auto e = make_engine();
  ASSERT_FALSE(e->add_request(request("a", 100, 5)).has_value());
  const Record r = drain(*e);
  EXPECT_EQ(r.emitted.at("a"), 5);
  EXPECT_EQ(r.steps.size(), 6u);
  EXPECT_EQ(r.most_in_flight, 2);
}

// scheduler.py@71de97b2 event_loop_overlap: an iteration that launches nothing while the last batch's result is
// pending processes that result next (pop_and_process waits for its forward): the engine keeps one step in
// flight until it completes, so no input read meanwhile is scheduled before that result. Here a 2-token request:
// its prefill, then a decode launched before the prefill's result, then one launched before the decode that
// ends it is processed; after that, nothing runs, and the last decode is awaited.
TEST(SglEngineCore, OverlapWaitsForTheLastBatchWhenItLaunchesNothing) {
  auto e = make_engine();
  ASSERT_FALSE(e->add_request(request("a", 100, 2)).has_value());
  auto s1 = e->schedule();  // extend [a]
  auto s2 = e->schedule();  // decode [a], launched before the extend's result
  ASSERT_TRUE(s1 && s2);
  EXPECT_EQ(e->in_flight_depth(), 2);
  e->complete(s1->id);
  auto s3 = e->schedule();  // decode [a] again: a's end is not known yet
  ASSERT_TRUE(s3);
  e->complete(s2->id);      // a ends here (its second token)
  EXPECT_EQ(e->in_flight_depth(), 2);
  EXPECT_FALSE(e->schedule());  // a finished: nothing to launch, s3 pending
  EXPECT_EQ(e->in_flight_depth(), 1);
  ASSERT_FALSE(e->add_request(request("b", 50, 2, std::nullopt, 5000)).has_value());
  EXPECT_THROW(e->schedule(), engine::ContractError);  // the loop waits in pop_and_process
  e->complete(s3->id);
  EXPECT_EQ(e->in_flight_depth(), 2);
  auto s4 = e->schedule();  // b's extend, after a's last result
  ASSERT_TRUE(s4);
  EXPECT_EQ(s4->first_scheduled, (std::vector<std::string>{"b"}));
}

// The extend step's shape: every prompt token is new, none cached, one token sampled per request; its second
// run of the same prompt finds the prompt's first 99 tokens in the radix cache (the last token is always
// recomputed: max_prefix_len = input_len - 1).
TEST(SglEngineCore, RadixCacheHitShowsInTheSecondExtend) {
  auto e = make_engine({{"disable-overlap-schedule", "true"}});
  e->add_request(request("a", 100, 2));
  const Record first = drain(*e);
  const auto& s0 = first.steps[0].shape.ranks->at(0).requests->at(0);
  EXPECT_EQ(s0.new_tokens->value(), 100);
  EXPECT_EQ(s0.cached_tokens->value(), 0);
  e->add_request(request("b", 100, 2));
  const Record second = drain(*e);
  const auto& s1 = second.steps[0].shape.ranks->at(0).requests->at(0);
  EXPECT_EQ(s1.cached_tokens->value(), 99);
  EXPECT_EQ(s1.new_tokens->value(), 1);
}

// --chunked-prefill-size 64 and a 150-token prompt: the prompt runs as extends of 64, 64 and 22 tokens, and only
// the last chunk samples a token, also under the overlap schedule (where the last chunk is launched before the
// previous chunk's result is processed).
TEST(SglEngineCore, ChunkedPrefillSamplesOnlyOnTheLastChunk) {
  for (const bool overlap : {false, true}) {
    auto e = overlap ? make_engine({{"chunked-prefill-size", "64"}})
                     : make_engine({{"chunked-prefill-size", "64"}, {"disable-overlap-schedule", "true"}});
    e->add_request(request("a", 150, 2));
    const Record r = drain(*e);
    ASSERT_GE(r.steps.size(), 3u);
    std::vector<std::int64_t> news, sampled;
    for (int i = 0; i < 3; ++i) {
      const auto& q = r.steps[i].shape.ranks->at(0).requests->at(0);
      news.push_back(q.new_tokens->value());
      sampled.push_back(q.sampled_tokens->value());
    }
    EXPECT_EQ(news, (std::vector<std::int64_t>{64, 64, 22})) << "overlap " << overlap;
    EXPECT_EQ(sampled, (std::vector<std::int64_t>{0, 0, 1})) << "overlap " << overlap;
    EXPECT_EQ(r.emitted.at("a"), 2);
  }
}

// tokenizer_manager.py _validate_one_request: an input of context_len tokens is refused, one token fewer is
// served; input + max_tokens above context_len is refused, equal to it is served.
TEST(SglEngineCore, AdmissionRefusalsComeInPairs) {
  auto e = make_engine();
  const auto refused = e->add_request(request("x", 4096, 1));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->reason, "The input (4096 tokens) is longer than the model's context length (4096 tokens).");
  EXPECT_FALSE(e->add_request(request("y", 4000, 1)).has_value());
  const auto too_many = e->add_request(request("z", 4000, 1, 97));
  ASSERT_TRUE(too_many.has_value());
  EXPECT_NE(too_many->reason.find("You requested a total of 4097 tokens"), std::string::npos);
  EXPECT_FALSE(e->add_request(request("w", 4000, 1, 96)).has_value());
}

// Arguments: an unknown name is refused as argparse refuses it, a name the release knows but the port does not
// model is refused with its reason, an alias is accepted, and each refusal's nearest accepted twin builds.
TEST(SglEngineCore, ArgumentRefusalsComeInPairs) {
  EXPECT_EQ(error_of([] { make_engine({{"no-such-flag", "1"}}); }), "sglang: error: unrecognized arguments: --no-such-flag");
  const std::string spec = error_of([] { make_engine({{"speculative-algorithm", "EAGLE"}}); });
  EXPECT_EQ(spec.rfind("sglang: argument --speculative-algorithm is not modelled by this port: ", 0), 0u) << spec;
  EXPECT_EQ(error_of([] { make_engine({{"schedule-policy", "lpm"}}); }), "");
  EXPECT_EQ(error_of([] { make_engine({{"schedule-policy", "newest"}}); }),
            "sglang: argument --schedule-policy: invalid choice: 'newest' (choose from 'lpm', 'random', 'fcfs', "
            "'dfs-weight', 'lof', 'priority', 'routing-key')");
  EXPECT_EQ(error_of([] { make_engine({{"retraction-policy", "priority"}}); }),
            "sglang: --retraction-policy priority requires --enable-priority-scheduling");
  EXPECT_EQ(error_of([] { make_engine({{"retraction-policy", "priority"}, {"enable-priority-scheduling", "true"}}); }), "");
  EXPECT_EQ(error_of([] { make_engine({{"tp-size", "1"}, {"tensor-parallel-size", "1"}}); }),
            "sglang: argument --tp-size is given twice (as --tensor-parallel-size)");
  EXPECT_EQ(error_of([] { make_engine({{"tensor-parallel-size", "1"}}); }), "");
  EXPECT_EQ(error_of([] { make_engine({}, {{"SGLANG_NO_SUCH_VARIABLE", "1"}}); }),
            "sglang: environment variable SGLANG_NO_SUCH_VARIABLE is not read by the pinned SGLang release");
  EXPECT_EQ(error_of([] { make_engine({}, {{"SGLANG_RETRACT_DECODE_STEPS", "10"}}); }), "");
  EXPECT_EQ(error_of([] { make_engine({{"disable-radix-cache", "true"}}); }),
            "sglang: argument --disable-radix-cache is not modelled by this port: it selects ChunkCache "
            "(mem_cache/chunk_cache.py), which is not ported");
  EXPECT_EQ(error_of([] { make_engine({{"disable-radix-cache", "false"}}); }), "");
  EXPECT_EQ(error_of([] { make_engine({{"schedule-policy", "random"}}); }).rfind("sglang: --schedule-policy random is not modelled", 0), 0u);
}

// The gauges llm-d's SGLang configuration reads, under SGLang's names and labels, only with --enable-metrics.
TEST(SglEngineCore, GaugesArePublishedOnlyWithEnableMetrics) {
  auto off = make_engine();
  off->add_request(request("a", 100, 2));
  drain(*off);
  EXPECT_TRUE(off->published().samples.empty());
  auto on = make_engine({{"enable-metrics", "true"}});
  std::map<std::string, double> by_name;
  // The start-up report: nothing running or queued.
  for (const auto& s : on->published().samples) by_name[s.name] = s.value;
  EXPECT_EQ(by_name.at("sglang:num_queue_reqs"), 0);
  EXPECT_EQ(by_name.at("sglang:num_running_reqs"), 0);
  for (const auto& s : on->published().samples) {
    EXPECT_EQ(s.labels.front(), (std::pair<std::string, std::string>{"model_name", "meta-llama/Meta-Llama-3.1-8B"}));
  }
  on->add_request(request("a", 100, 2));
  on->add_request(request("b", 100, 2, std::nullopt, 9000));
  const Record r = drain(*on);
  by_name.clear();
  for (const auto& s : on->published().samples) by_name[s.name] = s.value;
  EXPECT_TRUE(by_name.contains("sglang:num_running_reqs"));
  EXPECT_TRUE(by_name.contains("sglang:token_usage"));
  EXPECT_EQ(by_name.at("sglang:page_size"), static_cast<double>(on->scheduler().config().page_size));
  EXPECT_EQ(by_name.at("sglang:num_pages"),
            static_cast<double>(on->memory_pool().max_total_num_tokens / on->scheduler().config().page_size));
}

// sglang:token_usage is the share of the pool neither free in the allocator nor evictable from the tree cache
// (pool_stats_observer.py _get_token_info: used = total - available - evictable), as the last report set it
// (metrics_reporter.py: every prefill batch, every decode_log_interval-th decode batch). After the prefill of one
// 100-token prompt the request holds its 100 tokens, locked in the tree, and the report counts the one running
// request. Its 4 decode steps stay below the default interval of 40, so the gauge keeps the prefill's value after
// the request ends; with an interval of 1 the last decode's report sees its tokens cached but evictable: usage 0.
TEST(SglEngineCore, TokenUsageIsTheShareOfThePoolHeldByRunningRequests) {
  for (const std::string interval : {"40", "1"}) {
    SCOPED_TRACE("--decode-log-interval " + interval);
    auto e = make_engine({{"enable-metrics", "true"}, {"disable-overlap-schedule", "true"},
                          {"decode-log-interval", interval}});
    const auto gauges = [&] {
      std::map<std::string, double> by_name;
      for (const auto& s : e->published().samples) by_name[s.name] = s.value;
      return by_name;
    };
    e->add_request(request("a", 100, 5));
    const auto prefill = e->schedule();
    ASSERT_TRUE(prefill.has_value());
    e->complete(prefill->id);
    const double total = static_cast<double>(e->memory_pool().max_total_num_tokens);
    EXPECT_EQ(gauges().at("sglang:token_usage"), 100.0 / total);
    EXPECT_EQ(gauges().at("sglang:num_running_reqs"), 1);
    EXPECT_EQ(drain(*e).finished.at("a"), "stop");
    EXPECT_EQ(gauges().at("sglang:token_usage"), interval == "40" ? 100.0 / total : 0.0);
  }
}

// KV events: with a zmq publisher the radix cache's events go out as messages on the configured topic; with
// the null publisher (the default when the config names none) nothing is published.
TEST(SglEngineCore, KvEventsArePublishedOnlyByTheZmqPublisher) {
  auto zmq = make_engine({{"kv-events-config", R"({"publisher": "zmq", "topic": "kv@pod-0@meta-llama/Meta-Llama-3.1-8B"})"}});
  zmq->add_request(request("a", 100, 2));
  const Record r = drain(*zmq);
  ASSERT_FALSE(r.kv_events.empty());
  EXPECT_EQ(r.kv_events.front().topic, "kv@pod-0@meta-llama/Meta-Llama-3.1-8B");
  auto null = make_engine({{"kv-events-config", R"({"topic": "kv@pod-0@m"})"}});
  null->add_request(request("a", 100, 2));
  EXPECT_TRUE(drain(*null).kv_events.empty());
  EXPECT_NE(error_of([] { make_engine({{"kv-events-config", R"({"publisher": "kafka"})"}}); }).find("unknown event publisher 'kafka'"),
            std::string::npos);
}

// scheduler.py@71de97b2 on_idle publishes the tree cache's queued events once the scheduler is fully idle: the
// blocks a request's last decodes queued (fewer than decode_log_interval decodes: no decode report published
// them) leave when the engine finds nothing to schedule, not with the next prefill. Near misses: no idle
// publication while the request runs, and none again from an engine already idle with nothing queued.
TEST(SglEngineCore, KvEventsQueuedAfterTheLastReportLeaveWhenTheEngineGoesIdle) {
  auto e = make_engine({{"disable-overlap-schedule", "true"},
                        {"kv-events-config", R"({"publisher": "zmq", "topic": "kv@pod-0@meta-llama/Meta-Llama-3.1-8B"})"}});
  e->add_request(request("a", 100, 3));
  std::size_t stepped = 0, steps = 0;
  std::vector<engine::KvEventMessage> idle;
  for (;;) {
    auto s = e->schedule();
    idle = e->take_idle_publications();
    if (!s) break;
    EXPECT_TRUE(idle.empty()) << "an idle publication while request a runs";
    ++steps;
    stepped += e->complete(s->id).kv_events.size();
  }
  EXPECT_EQ(steps, 3u);    // one prefill, two decodes
  EXPECT_EQ(stepped, 1u);  // the prefill report's batch
  ASSERT_EQ(idle.size(), 1u);
  EXPECT_EQ(idle.front().topic, "kv@pod-0@meta-llama/Meta-Llama-3.1-8B");
  EXPECT_FALSE(e->schedule().has_value());
  EXPECT_TRUE(e->take_idle_publications().empty());
}

// A client abort ends the request in no step's record; the other request is unaffected.
TEST(SglEngineCore, ClientAbortIsInNoRecord) {
  auto e = make_engine({{"disable-overlap-schedule", "true"}});
  e->add_request(request("a", 100, 50));
  e->add_request(request("b", 100, 3, std::nullopt, 7000));
  auto s = e->schedule();
  ASSERT_TRUE(s.has_value());
  e->complete(s->id);
  e->abort_request("a");
  const Record r = drain(*e);
  EXPECT_FALSE(r.finished.contains("a"));
  EXPECT_EQ(r.finished.at("b"), "stop");
}

// The same inputs give the same steps.
TEST(SglEngineCore, Deterministic) {
  const auto run = [] {
    auto e = make_engine();
    for (int i = 0; i < 6; ++i) e->add_request(request("r" + std::to_string(i), 200 + 37 * i, 3 + i, std::nullopt, 100 * i));
    const Record r = drain(*e);
    std::vector<std::string> out;
    for (const auto& s : r.steps) out.push_back(s.shape.mode.value_or("") + ":" + std::to_string(s.shape.ranks->at(0).requests->size()));
    return out;
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace blis::sglang::test
