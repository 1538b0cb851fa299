// The KV events the vLLM engine core publishes (vllm/v1/core/sched/scheduler.py@6e448d0e update_from_output:
// take_events, then EventPublisherFactory's publisher): with --kv-events-config enabling them, each step's output
// publishes the blocks it cached, with the publisher's topic and sequence numbers from 0; disabled, or with the
// null publisher, nothing is published.
#include <gtest/gtest.h>

#include <variant>

#include "engine_harness.h"

namespace blis::vllm::test {
namespace {

// Every KV-event message the engine's steps publish until it is idle, in order (the harness's drain).
std::vector<engine::KvEventMessage> published_events(EngineCore& e) { return drain(e).kv_events; }

TEST(VllmKvEvents, EachStepPublishesTheBlocksItCached) {
  auto e = make_engine({{"kv-events-config", R"({"enable_kv_cache_events": true, "topic": "kv@pod-a@"})"}});
  ASSERT_FALSE(e->add_request(request("r", 40, 4)));  // two full 16-token blocks, then 8 tokens
  const auto msgs = published_events(*e);
  ASSERT_FALSE(msgs.empty());
  std::vector<std::int32_t> tokens;
  std::int64_t blocks = 0;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    EXPECT_EQ(msgs[i].topic, "kv@pod-a@");
    EXPECT_EQ(msgs[i].sequence, i);  // ZmqEventPublisher's itertools.count()
    EXPECT_EQ(msgs[i].data_parallel_rank, 0);
    for (const auto& ev : msgs[i].events) {
      const auto* stored = std::get_if<engine::KvBlockStored>(&ev);
      ASSERT_NE(stored, nullptr) << "only stores: nothing is evicted";
      EXPECT_EQ(stored->block_size, 16);
      EXPECT_EQ(stored->medium, std::optional<std::string>("GPU"));
      blocks += static_cast<std::int64_t>(stored->block_hashes.size());
      tokens.insert(tokens.end(), stored->token_ids.begin(), stored->token_ids.end());
    }
  }
  // The prompt's two full blocks (and, once decoding fills it, the third: 40 + 3 decoded < 48, so not here).
  EXPECT_EQ(blocks, 2);
  ASSERT_EQ(tokens.size(), 32u);
  EXPECT_EQ(tokens.front(), 1000);
  EXPECT_EQ(tokens.back(), 1031);
}

TEST(VllmKvEvents, NothingIsPublishedWhenDisabledOrToTheNullPublisher) {
  for (const char* cfg : {R"({"enable_kv_cache_events": false})", R"({"enable_kv_cache_events": true, "publisher": "null"})"}) {
    SCOPED_TRACE(cfg);
    auto e = make_engine({{"kv-events-config", cfg}});
    ASSERT_FALSE(e->add_request(request("r", 40, 4)));
    EXPECT_TRUE(published_events(*e).empty());
  }
  auto none = make_engine({});
  ASSERT_FALSE(none->add_request(request("r", 40, 4)));
  EXPECT_TRUE(published_events(*none).empty());
}

// A second request sharing the first's two full blocks stores no block again (they are cached); its own third
// block is stored with the second block as parent.
TEST(VllmKvEvents, ACachedPrefixIsNotStoredAgain) {
  auto e = make_engine({{"kv-events-config", R"({"enable_kv_cache_events": true})"}, {"async-scheduling", "false"}});
  ASSERT_FALSE(e->add_request(request("first", 40, 2)));
  const auto first = published_events(*e);
  ASSERT_FALSE(e->add_request(request("second", 56, 2)));  // the same first 40 tokens, then 16 more
  const auto second = published_events(*e);
  std::vector<const engine::KvBlockStored*> stores;
  for (const auto& m : second) {
    for (const auto& ev : m.events) {
      if (const auto* s = std::get_if<engine::KvBlockStored>(&ev)) stores.push_back(s);
    }
  }
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_EQ(stores[0]->block_hashes.size(), 1u);  // block 3 (tokens 32..47); 48..55 is not full
  ASSERT_TRUE(stores[0]->parent_block_hash);
  const auto* firstStore = std::get_if<engine::KvBlockStored>(&first.front().events.front());
  ASSERT_NE(firstStore, nullptr);
  EXPECT_EQ(*stores[0]->parent_block_hash, firstStore->block_hashes.back());
  EXPECT_EQ(second.front().sequence, first.back().sequence + 1);
}

}  // namespace
}  // namespace blis::vllm::test
