// Original to BLIS: the KV-event batches the port's publisher sent (distributed/kv_event_publisher.h), as the
// engine contract's typed messages (contracts/engine/kv_events.h): field for field, in upstream's field order,
// with the publisher's topic and each batch's sequence number. The codec (distributed/kv_events_codec.h)
// turns the same batches into the bytes ZmqEventPublisher sends; inside a run nothing is encoded.
#pragma once

#include <cstdint>
#include <string>

#include "contracts/engine/kv_events.h"
#include "distributed/kv_events.h"

namespace blis::vllm {

engine::KvEventMessage to_contract(const std::string& topic, std::uint64_t sequence, const KVEventBatch& batch);

}  // namespace blis::vllm
