// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/distributed/kv_events.py@6e448d0e; see kv_event_publisher.h.
#include "distributed/kv_event_publisher.h"

#include <stdexcept>

namespace blis::vllm {

// kv_events.py@6e448d0e ZmqEventPublisher.publish (with _publisher_thread's next(self._seq_gen))
void ZmqEventPublisher::publish(KVEventBatch events) {
  if (!events.data_parallel_rank) events.data_parallel_rank = static_cast<int>(data_parallel_rank_);
  sent_.emplace_back(seq_gen_++, std::move(events));
}

// kv_events.py@6e448d0e ZmqEventPublisher._publisher_thread: the batches sent on the socket (the simulator).
std::vector<std::pair<std::uint64_t, KVEventBatch>> ZmqEventPublisher::take_sent() {
  std::vector<std::pair<std::uint64_t, KVEventBatch>> out;
  out.swap(sent_);
  return out;
}

// kv_events.py@6e448d0e EventPublisherFactory.create
std::unique_ptr<EventPublisher> create_event_publisher(const std::optional<KVEventsConfig>& config,
                                                       std::int64_t data_parallel_rank) {
  if (!config || !config->enable_kv_cache_events || config->publisher == "null") {
    return std::make_unique<NullEventPublisher>();
  }
  if (config->publisher == "zmq") return std::make_unique<ZmqEventPublisher>(data_parallel_rank, *config);
  throw std::invalid_argument("Unknown event publisher '" + config->publisher + "'");
}

}  // namespace blis::vllm
