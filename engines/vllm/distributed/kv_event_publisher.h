// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/distributed/kv_events.py@6e448d0e EventPublisher, NullEventPublisher,
// ZmqEventPublisher (publish, the sequence numbers, the data-parallel rank) and EventPublisherFactory (KVEventsConfig is in
// config/vllm_config.h). The ZMQ socket, its publisher thread, the replay socket
// and the bounded queue are the simulator: a published batch is handed to the engine core with its sequence
// number (sent) and delivered to the router by the simulator; nothing is dropped, so hwm and max_queue_size
// never act, and the endpoints bind nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/vllm_config.h"
#include "distributed/kv_events.h"

namespace blis::vllm {

// kv_events.py@6e448d0e EventPublisher
class EventPublisher {
 public:
  virtual ~EventPublisher() = default;
  // kv_events.py@6e448d0e EventPublisher.publish
  virtual void publish(KVEventBatch events) = 0;
  // What the publisher sent since the last call, with each batch's sequence number, in order (the socket's
  // side of ZmqEventPublisher._publisher_thread; empty for the null publisher).
  virtual std::vector<std::pair<std::uint64_t, KVEventBatch>> take_sent() { return {}; }
  // The topic the publisher sends on.
  virtual const std::string& topic() const = 0;
};

// kv_events.py@6e448d0e NullEventPublisher: drops every batch.
class NullEventPublisher final : public EventPublisher {
 public:
  // kv_events.py@6e448d0e NullEventPublisher.publish
  void publish(KVEventBatch) override {}
  const std::string& topic() const override { return topic_; }

 private:
  std::string topic_;
};

// kv_events.py@6e448d0e ZmqEventPublisher
class ZmqEventPublisher final : public EventPublisher {
 public:
  // kv_events.py@6e448d0e ZmqEventPublisher.__init__ (the transport settings are carried, not used).
  ZmqEventPublisher(std::int64_t data_parallel_rank, const KVEventsConfig& config)
      : data_parallel_rank_(data_parallel_rank), topic_(config.topic) {}
  // kv_events.py@6e448d0e ZmqEventPublisher.publish (with _publisher_thread: each batch takes the next
  // sequence number from itertools.count(), from 0).
  void publish(KVEventBatch events) override;
  std::vector<std::pair<std::uint64_t, KVEventBatch>> take_sent() override;
  const std::string& topic() const override { return topic_; }

 private:
  std::int64_t data_parallel_rank_;
  std::string topic_;
  std::uint64_t seq_gen_ = 0;
  std::vector<std::pair<std::uint64_t, KVEventBatch>> sent_;
};

// kv_events.py@6e448d0e EventPublisherFactory.create (throws std::invalid_argument "Unknown event publisher
// '<kind>'" for a publisher not registered).
std::unique_ptr<EventPublisher> create_event_publisher(const std::optional<KVEventsConfig>& config,
                                                       std::int64_t data_parallel_rank = 0);

}  // namespace blis::vllm
