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

}  // namespace
}  // namespace blis::vllm::test
