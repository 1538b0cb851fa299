// The KV-event publishers (engines/vllm/distributed/kv_event_publisher.h), transcribed from
// tests/distributed/test_events.py@6e448d0e. Upstream's EventSample/SampleBatch test structs are stood in for by
// KVEventBatch holding AllBlocksCleared events (the publisher never reads an event); the subscriber's receive is
// the batches the publisher hands the simulator (take_sent), each with its sequence number.
#include <gtest/gtest.h>

#include <stdexcept>
#include <variant>

#include "distributed/kv_event_publisher.h"

namespace blis::vllm {
namespace {

constexpr std::int64_t DP_RANK = 0;

// tests/distributed/test_events.py@6e448d0e create_test_events
KVEventBatch create_test_events(int count, double ts = 1764547200.5) {
  KVEventBatch b;
  b.ts = ts;
  for (int i = 0; i < count; ++i) b.events.emplace_back(std::in_place_type<AllBlocksCleared>);
  return b;
}

// tests/distributed/conftest.py@6e448d0e publisher_config: enabled, zmq (the endpoints are transport only).
KVEventsConfig publisher_config() {
  KVEventsConfig c;
  c.enable_kv_cache_events = true;
  c.publisher = "zmq";
  return c;
}

// tests/distributed/test_events.py@6e448d0e test_basic_publishing
TEST(VllmKvEventPublisher, BasicPublishing) {
  auto publisher = create_event_publisher(publisher_config(), DP_RANK);
  const KVEventBatch test_batch = create_test_events(5);
  publisher->publish(test_batch);
  const auto received = publisher->take_sent();
  ASSERT_EQ(received.size(), 1u) << "No message received";
  const auto& [seq, batch] = received[0];
  EXPECT_EQ(seq, 0u) << "Sequence number mismatch";
  EXPECT_EQ(batch.ts, test_batch.ts) << "Timestamp mismatch";
  EXPECT_EQ(batch.events.size(), test_batch.events.size()) << "Number of events mismatch";
  EXPECT_EQ(batch.events, test_batch.events);
}

// tests/distributed/test_events.py@6e448d0e test_multiple_events
TEST(VllmKvEventPublisher, MultipleEvents) {
  auto publisher = create_event_publisher(publisher_config(), DP_RANK);
  for (int i = 0; i < 10; ++i) publisher->publish(create_test_events(2));
  const auto received = publisher->take_sent();
  ASSERT_EQ(received.size(), 10u) << "Number of messages mismatch";
  for (std::size_t i = 0; i < received.size(); ++i) EXPECT_EQ(received[i].first, i) << "Sequence numbers mismatch";
  // Taken batches are not sent again; the sequence goes on.
  publisher->publish(create_test_events(1));
  const auto more = publisher->take_sent();
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].first, 10u);
}

// tests/distributed/test_events.py@6e448d0e test_null_publisher
TEST(VllmKvEventPublisher, NullPublisher) {
  NullEventPublisher publisher;
  EXPECT_NO_THROW(publisher.publish(create_test_events(5)));
  EXPECT_TRUE(publisher.take_sent().empty());
}

// tests/distributed/test_events.py@6e448d0e test_data_parallel_rank_tagging (the endpoint offsets per rank are
// transport and not modelled)
TEST(VllmKvEventPublisher, DataParallelRankTagging) {
  KVEventsConfig cfg = publisher_config();
  cfg.topic = "foo";
  auto pub_0 = create_event_publisher(cfg, DP_RANK);
  auto pub_1 = create_event_publisher(cfg, DP_RANK + 1);
  pub_0->publish(create_test_events(2));
  pub_1->publish(create_test_events(3));
  const auto received_0 = pub_0->take_sent();
  const auto received_1 = pub_1->take_sent();
  ASSERT_EQ(received_0.size(), 1u) << "No message received from rank 0";
  ASSERT_EQ(received_1.size(), 1u) << "No message received from rank 1";
  EXPECT_EQ(received_0[0].second.data_parallel_rank, 0);
  EXPECT_EQ(received_1[0].second.data_parallel_rank, 1);
  EXPECT_EQ(received_0[0].second.events.size(), 2u) << "Wrong number of events from rank 0";
  EXPECT_EQ(received_1[0].second.events.size(), 3u) << "Wrong number of events from rank 1";
  EXPECT_EQ(pub_0->topic(), "foo");
  // A batch that states its rank keeps it (publish fills only a None).
  KVEventBatch stated = create_test_events(1);
  stated.data_parallel_rank = 7;
  pub_0->publish(stated);
  EXPECT_EQ(pub_0->take_sent()[0].second.data_parallel_rank, 7);
}

// tests/distributed/test_events.py@6e448d0e test_event_publisher_factory (the resolved endpoints are transport;
// the unknown publisher is refused by KVEventsConfig's Literal, here by --kv-events-config's parser and, past it,
// by the factory)
TEST(VllmKvEventPublisher, EventPublisherFactory) {
  EXPECT_NE(dynamic_cast<NullEventPublisher*>(create_event_publisher(std::nullopt, DP_RANK).get()), nullptr);
  KVEventsConfig disabled;
  disabled.enable_kv_cache_events = false;
  disabled.publisher = "zmq";  // even if zmq is specified
  EXPECT_NE(dynamic_cast<NullEventPublisher*>(create_event_publisher(disabled, DP_RANK).get()), nullptr);
  EXPECT_NE(dynamic_cast<ZmqEventPublisher*>(create_event_publisher(publisher_config(), DP_RANK + 1).get()), nullptr);
  KVEventsConfig unknown = publisher_config();
  unknown.publisher = "unknown_publisher";
  try {
    create_event_publisher(unknown, DP_RANK);
    FAIL() << "an unknown publisher was created";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "Unknown event publisher 'unknown_publisher'");
  }
  KVEventsConfig null_named = publisher_config();
  null_named.publisher = "null";
  EXPECT_NE(dynamic_cast<NullEventPublisher*>(create_event_publisher(null_named, DP_RANK).get()), nullptr);
}

}  // namespace
}  // namespace blis::vllm
