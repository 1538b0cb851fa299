// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/events.go@71f4f099 (EventType, KVCacheSpecKind, the three
// events, EventBatch, RawMessage, EngineAdapter). GenericEvent (a Go interface over event pointers) is a
// std::variant of the event structs; Go's Type() is EventTypeOf.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "contracts/engine/kv_events.h"
#include "router/kvcache/kvblock/extra_keys.h"

namespace blis::router::kvevents {

// pkg/kvevents/events.go@71f4f099 KVCacheSpecKind and its values
using KVCacheSpecKind = std::string;
inline const KVCacheSpecKind KVCacheSpecKindFullAttention = "full_attention";
inline const KVCacheSpecKind KVCacheSpecKindMlaAttention = "mla_attention";
inline const KVCacheSpecKind KVCacheSpecKindSlidingWindow = "sliding_window";
inline const KVCacheSpecKind KVCacheSpecKindSlidingWindowMla = "sliding_window_mla";
inline const KVCacheSpecKind KVCacheSpecKindMamba = "mamba";
inline const KVCacheSpecKind KVCacheSpecKindChunkedLocal = "chunked_local_attention";
inline const KVCacheSpecKind KVCacheSpecKindSinkFull = "sink_full_attention";
inline const KVCacheSpecKind KVCacheSpecKindEncoder = "encoder_only_attention";
inline const KVCacheSpecKind KVCacheSpecKindCross = "cross_attention";
inline const KVCacheSpecKind KVCacheSpecKindUnknown = "unknown";

// pkg/kvevents/events.go@71f4f099 EventType and its values
using EventType = std::string;
inline const EventType EventTypeBlockStored = "BlockStored";
inline const EventType EventTypeBlockRemoved = "BlockRemoved";
inline const EventType EventTypeAllBlocksCleared = "AllBlocksCleared";

// pkg/kvevents/events.go@71f4f099 BlockStoredEvent
struct BlockStoredEvent {
  std::vector<std::uint64_t> BlockHashes;
  std::vector<std::uint32_t> Tokens;
  std::uint64_t ParentHash = 0;
  int BlockSize = 0;
  std::string DeviceTier;
  std::optional<int> LoraID;
  std::optional<std::string> LoraName;
  kvblock::RawExtraKeys ExtraKeys;
  std::optional<int> GroupIdx;
  ::blis::router::kvevents::KVCacheSpecKind KVCacheSpecKind;
  std::optional<int> KVCacheSpecSlidingWindowSize;
};

// pkg/kvevents/events.go@71f4f099 BlockRemovedEvent
struct BlockRemovedEvent {
  std::vector<std::uint64_t> BlockHashes;
  std::string DeviceTier;
  std::optional<int> GroupIdx;
};

// pkg/kvevents/events.go@71f4f099 AllBlocksClearedEvent
struct AllBlocksClearedEvent {
  std::string DeviceTier;
};

// pkg/kvevents/events.go@71f4f099 GenericEvent
using GenericEvent = std::variant<BlockStoredEvent, BlockRemovedEvent, AllBlocksClearedEvent>;

// pkg/kvevents/events.go@71f4f099 BlockStoredEvent.Type / BlockRemovedEvent.Type / AllBlocksClearedEvent.Type
inline EventType EventTypeOf(const GenericEvent& e) {
  switch (e.index()) {
    case 0: return EventTypeBlockStored;
    case 1: return EventTypeBlockRemoved;
    default: return EventTypeAllBlocksCleared;
  }
}

// pkg/kvevents/events.go@71f4f099 EventBatch
struct EventBatch {
  double Timestamp = 0.0;
  std::vector<GenericEvent> Events;
};

// pkg/kvevents/events.go@71f4f099 RawMessage (what one ZMQ multipart message carries).
struct RawMessage {
  std::string Topic;
  std::uint64_t Sequence = 0;
  std::string Payload;         // raw msgpack bytes
  std::string SourceEndpoint;  // serving endpoint of the subscriber (overrides the topic's pod id)
  bool reset = false;          // unexported upstream: clear the pod instead of parsing
};

// pkg/kvevents/events.go@71f4f099 EngineAdapter ParseMessage's results.
struct ParsedMessage {
  std::string podID;
  std::string modelName;
  EventBatch batch;
};

// pkg/kvevents/events.go@71f4f099 EngineAdapter
class EngineAdapter {
 public:
  virtual ~EngineAdapter() = default;
  // ParseMessage: pod identity and model name from the topic, events from the payload; throws
  // std::runtime_error with upstream's error text.
  virtual ParsedMessage ParseMessage(const RawMessage& msg) const = 0;
  // ShardingKey: the key messages are ordered by.
  virtual std::string ShardingKey(const RawMessage& msg) const = 0;
  // Original to BLIS: ParseMessage on an engine's typed message (INTERFACES.md: inside a run KV events pass
  // without re-encoding): the same pod, model and events ParseMessage returns on the bytes the engine's codec
  // makes of it; throws std::runtime_error with upstream's error text where ParseMessage would. An adapter that
  // reads no typed messages throws std::runtime_error naming the topic.
  virtual ParsedMessage ParseTyped(const engine::KvEventMessage& msg) const {
    throw std::runtime_error("this engine adapter reads no typed KV-event messages (topic '" + msg.topic + "')");
  }
};

}  // namespace blis::router::kvevents
