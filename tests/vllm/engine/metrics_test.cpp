// The metrics llm-d scrapes from vLLM (vllm/v1/metrics/loggers.py@6e448d0e: vllm:num_requests_running,
// vllm:num_requests_waiting, vllm:kv_cache_usage_perc, vllm:prefix_cache_queries, vllm:prefix_cache_hits),
// as the vLLM engine core publishes them at each step boundary.
#include <gtest/gtest.h>

#include "engine_harness.h"

namespace blis::vllm::test {
namespace {

TEST(VllmMetrics, RunningWaitingAndKvUsage) {
  auto e = make_engine({{"async-scheduling", "false"}, {"max-num-seqs", "2"}});
  EXPECT_EQ(e->published().running, 0);
  EXPECT_EQ(e->published().waiting, 0);
  EXPECT_EQ(e->published().kv_usage, 0.0);
  for (int i = 0; i < 3; ++i) ASSERT_FALSE(e->add_request(request("r" + std::to_string(i), 64, 4)));
  EXPECT_EQ(e->published().waiting, 3);
  auto s = e->schedule();
  ASSERT_TRUE(s);
  // max-num-seqs 2: two run, one waits.
  EXPECT_EQ(e->published().running, 2);
  EXPECT_EQ(e->published().waiting, 1);
  EXPECT_GT(e->published().kv_usage, 0.0);
  EXPECT_LT(e->published().kv_usage, 0.01);
  e->complete(s->id);
  drain(*e);
  EXPECT_EQ(e->published().running, 0);
  EXPECT_EQ(e->published().waiting, 0);
}

// Two requests sharing a 64-token prefix (four 16-token blocks): the second, admitted after the first's
// prefill, hits the cached blocks; with prefix caching off nothing is looked up.
TEST(VllmMetrics, PrefixCacheQueriesAndHits) {
  for (const char* caching : {"true", "false"}) {
    SCOPED_TRACE(caching);
    auto e = make_engine({{"async-scheduling", "false"}, {"enable-prefix-caching", caching}});
    ASSERT_FALSE(e->add_request(request("first", 80, 8)));
    auto s = e->schedule();
    e->complete(s->id);
    engine::Request second = request("second", 80, 2);
    for (int i = 64; i < 80; ++i) second.prompt[static_cast<std::size_t>(i)] = 50000 + i;  // shares 64 tokens
    ASSERT_FALSE(e->add_request(second));
    drain(*e);
    const engine::Published p = e->published();
    if (std::string(caching) == "true") {
      EXPECT_EQ(p.prefix_cache_queries, 160);  // each request's prompt tokens, looked up at admission
      EXPECT_EQ(p.prefix_cache_hits, 64);
    } else {
      EXPECT_EQ(p.prefix_cache_queries, 0);
      EXPECT_EQ(p.prefix_cache_hits, 0);
    }
  }
}

// The samples as the metrics endpoint serves them (names, labels, values), which the router's metrics
// extractor reads: the gauges follow the scheduler, the counters the prefix cache, and cache_config_info
// carries block_size and num_gpu_blocks as labels.
TEST(VllmMetrics, SamplesAsTheEndpointServesThem) {
  auto e = make_engine({{"async-scheduling", "false"}, {"max-num-seqs", "2"}});
  for (int i = 0; i < 3; ++i) ASSERT_FALSE(e->add_request(request("r" + std::to_string(i), 64, 4)));
  ASSERT_TRUE(e->schedule());
  const engine::Published p = e->published();
  auto find = [&](const std::string& name) -> const engine::MetricSample* {
    for (const auto& s : p.samples) {
      if (s.name == name) return &s;
    }
    return nullptr;
  };
  auto label = [](const engine::MetricSample& s, const std::string& key) {
    for (const auto& [k, v] : s.labels) {
      if (k == key) return v;
    }
    return std::string("<absent>");
  };
  const auto* running = find("vllm:num_requests_running");
  const auto* waiting = find("vllm:num_requests_waiting");
  const auto* usage = find("vllm:kv_cache_usage_perc");
  const auto* info = find("vllm:cache_config_info");
  const auto* queries = find("vllm:prefix_cache_queries");
  ASSERT_TRUE(running && waiting && usage && info && queries);
  EXPECT_EQ(running->value, 2.0);
  EXPECT_EQ(waiting->value, 1.0);
  EXPECT_EQ(usage->value, p.kv_usage);
  EXPECT_FALSE(running->counter);
  EXPECT_TRUE(queries->counter);
  EXPECT_EQ(label(*running, "engine"), "0");
  EXPECT_EQ(label(*info, "block_size"), std::to_string(p.cache_block_size));
  EXPECT_EQ(label(*info, "num_gpu_blocks"), std::to_string(p.cache_num_blocks));
  EXPECT_GT(p.cache_num_blocks, 0);
  EXPECT_EQ(info->value, 1.0);
}

}  // namespace
}  // namespace blis::vllm::test
