// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099; see vllm_adapter.h.
#include "router/kvevents/engineadapter/vllm_adapter.h"

#include <stdexcept>
#include <type_traits>
#include <variant>

#include "router/kvevents/engineadapter/common.h"
#include "router/kvevents/engineadapter/msgpack.h"

namespace blis::router::engineadapter {

using kvblock::Any;
using kvblock::GoTypeName;

namespace {
// Original to BLIS: a helper of the port's own.
std::runtime_error err(const std::string& s) { return std::runtime_error(s); }

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 blockStoredFieldOrder, blockRemovedFieldOrder
const std::vector<std::string> blockStoredFieldOrder = {
    "block_hashes", "parent_block_hash", "token_ids", "block_size", "lora_id", "medium", "lora_name",
    "extra_keys", "group_idx", "kv_cache_spec_kind", "kv_cache_spec_sliding_window"};
const std::vector<std::string> blockRemovedFieldOrder = {"block_hashes", "medium", "group_idx"};

const Any kNil{};

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 fieldAt
const Any& fieldAt(const std::vector<Any>& fields, std::size_t i) { return i < fields.size() ? fields[i] : kNil; }

// Original to BLIS: a helper of the port's own.
// Wraps a conversion error as fmt.Errorf(prefix + ": %w", err).
template <typename F>
auto wrap(const std::string& prefix, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::runtime_error& e) {
    throw err(prefix + ": " + e.what());
  }
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.convertBlockStoredEvent
kvevents::GenericEvent convertBlockStoredEvent(const std::vector<Any>& fields) {
  if (fields.size() < 5) throw err("BlockStored: need at least 5 fields, got " + std::to_string(fields.size()));
  if (fields[1].kind != Any::Kind::Array)
    throw err(std::string("BlockStored: block_hashes is not an array: ") + GoTypeName(fields[1]));
  kvevents::BlockStoredEvent ev;
  ev.BlockHashes = convertBlockHashes(fields[1].array);
  if (!fields[2].IsNil()) ev.ParentHash = wrap("failed to parse parent hash", [&] { return getHashAsUint64(fields[2]); });
  ev.Tokens = wrap("BlockStored", [&] { return toUint32Slice(fields[3]); });
  ev.BlockSize = static_cast<int>(wrap("BlockStored: block_size", [&] { return toInt(fields[4]); }));
  if (const Any& raw = fieldAt(fields, 5); !raw.IsNil())
    ev.LoraID = static_cast<int>(wrap("BlockStored: lora_id", [&] { return toInt(raw); }));
  if (const Any& raw = fieldAt(fields, 6); !raw.IsNil()) {
    if (raw.kind != Any::Kind::String) throw err(std::string("BlockStored: medium is not a string: ") + GoTypeName(raw));
    ev.DeviceTier = raw.s;
  }
  if (const Any& raw = fieldAt(fields, 7); !raw.IsNil()) {
    if (raw.kind != Any::Kind::String) throw err(std::string("BlockStored: lora_name is not a string: ") + GoTypeName(raw));
    ev.LoraName = raw.s;
  }
  if (const Any& raw = fieldAt(fields, 8); !raw.IsNil()) {
    if (raw.kind != Any::Kind::Array) throw err(std::string("BlockStored: extra_keys is not an array: ") + GoTypeName(raw));
    ev.ExtraKeys = convertExtraKeys(&raw.array);
  }
  if (const Any& raw = fieldAt(fields, 9); !raw.IsNil()) {
    const std::int64_t group = wrap("BlockStored: group_idx", [&] { return toInt(raw); });
    if (group < 0) throw err("BlockStored: group_idx: negative value: " + std::to_string(group));
    ev.GroupIdx = static_cast<int>(group);
  }
  if (const Any& raw = fieldAt(fields, 10); !raw.IsNil()) {
    if (raw.kind != Any::Kind::String)
      throw err(std::string("BlockStored: kv_cache_spec_kind is not a string: ") + GoTypeName(raw));
    ev.KVCacheSpecKind = raw.s;
  }
  if (const Any& raw = fieldAt(fields, 11); !raw.IsNil())
    ev.KVCacheSpecSlidingWindowSize =
        static_cast<int>(wrap("BlockStored: kv_cache_spec_sliding_window", [&] { return toInt(raw); }));
  return ev;
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.convertBlockRemovedEvent
kvevents::GenericEvent convertBlockRemovedEvent(const std::vector<Any>& fields) {
  if (fields.size() < 2) throw err("BlockRemoved: need at least 2 fields, got " + std::to_string(fields.size()));
  if (fields[1].kind != Any::Kind::Array)
    throw err(std::string("BlockRemoved: block_hashes is not an array: ") + GoTypeName(fields[1]));
  kvevents::BlockRemovedEvent ev;
  ev.BlockHashes = convertBlockHashes(fields[1].array);
  if (const Any& raw = fieldAt(fields, 2); !raw.IsNil()) {
    if (raw.kind != Any::Kind::String) throw err(std::string("BlockRemoved: medium is not a string: ") + GoTypeName(raw));
    ev.DeviceTier = raw.s;
  }
  if (const Any& raw = fieldAt(fields, 3); !raw.IsNil()) {
    const std::int64_t group = wrap("BlockRemoved: group_idx", [&] { return toInt(raw); });
    if (group < 0) throw err("BlockRemoved: group_idx: negative value: " + std::to_string(group));
    ev.GroupIdx = static_cast<int>(group);
  }
  return ev;
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.decodeVLLMEvent (its tag dispatch, after the
// payload is decoded into fields)
kvevents::GenericEvent decodeVLLMFields(const std::vector<Any>& fields) {
  if (fields.empty()) throw err("malformed tagged union: no tag");
  if (fields[0].kind != Any::Kind::String) throw err(std::string("event tag is not a string: ") + GoTypeName(fields[0]));
  const std::string& tag = fields[0].s;
  if (tag == eventTagBlockStored) return convertBlockStoredEvent(fields);
  if (tag == eventTagBlockRemoved) return convertBlockRemovedEvent(fields);
  if (tag == eventTagAllBlocksCleared) return kvevents::AllBlocksClearedEvent{};
  throw err("unknown vLLM event tag: " + tag);
}

// Original to BLIS: a block hash as encoded (bytes as bin, an integer as an unsigned integer).
Any wireHash(const engine::KvBlockHash& h) {
  if (const auto* b = std::get_if<std::string>(&h)) return Any::Bin(*b);
  return wireUint(std::get<std::uint64_t>(h));
}

// Original to BLIS: a helper of wireFields (a list of block hashes as encoded).
Any wireHashes(const std::vector<engine::KvBlockHash>& hs) {
  std::vector<Any> out;
  out.reserve(hs.size());
  for (const auto& h : hs) out.push_back(wireHash(h));
  return Any::Arr(std::move(out));
}
// Original to BLIS: a helper of wireFields (an optional string: nil when absent).
Any wireOptStr(const std::optional<std::string>& s) { return s ? Any::Str(*s) : Any::Nil(); }
// Original to BLIS: a helper of wireFields (an optional integer: nil when absent).
Any wireOptInt(const std::optional<std::int64_t>& x) { return x ? wireInt(*x) : Any::Nil(); }
}  // namespace

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 toInt
std::int64_t toInt(const Any& raw) {
  if (raw.IsSignedInt()) return raw.i;
  if (raw.IsUnsignedInt()) return static_cast<std::int64_t>(raw.u);
  throw err(std::string("unsupported numeric type: ") + GoTypeName(raw));
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 toUint32Slice
std::vector<std::uint32_t> toUint32Slice(const Any& raw) {
  if (raw.kind != Any::Kind::Array) throw err(std::string("token_ids is not an array: ") + GoTypeName(raw));
  std::vector<std::uint32_t> result(raw.array.size());
  for (std::size_t i = 0; i < raw.array.size(); ++i)
    result[i] = static_cast<std::uint32_t>(wrap("token_ids[" + std::to_string(i) + "]", [&] { return toInt(raw.array[i]); }));
  return result;
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 mapEventToFields
std::vector<Any> mapEventToFields(const Any& ev) {
  const Any* rawTag = ev.Find("type");
  if (rawTag == nullptr) throw err("map-encoded event is missing the \"type\" tag");
  if (rawTag->kind != Any::Kind::String)
    throw err(std::string("map-encoded event tag (\"type\") is not a string: ") + GoTypeName(*rawTag));
  const std::string& tag = rawTag->s;
  const std::vector<std::string>* order = nullptr;
  if (tag == eventTagBlockStored) {
    order = &blockStoredFieldOrder;
  } else if (tag == eventTagBlockRemoved) {
    order = &blockRemovedFieldOrder;
  } else if (tag != eventTagAllBlocksCleared) {
    return {Any::Str(tag)};
  }
  std::vector<Any> fields;
  fields.push_back(Any::Str(tag));
  if (order != nullptr) {
    for (const auto& name : *order) {
      const Any* v = ev.Find(name);
      fields.push_back(v == nullptr ? Any::Nil() : *v);
    }
  }
  return fields;
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.ShardingKey
std::string VLLMAdapter::ShardingKey(const kvevents::RawMessage& msg) const { return parseTopic(msg.Topic).first; }

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.decodeVLLMEvent
kvevents::GenericEvent VLLMAdapter::decodeVLLMEvent(std::string_view rawEventBytes) const {
  const Any decoded = wrap("unmarshal event payload", [&] { return msgpack::UnmarshalAny(rawEventBytes); });
  std::vector<Any> fields;
  if (decoded.kind == Any::Kind::Array) {
    fields = decoded.array;
  } else if (decoded.kind == Any::Kind::Map) {
    fields = mapEventToFields(decoded);
  } else {
    throw err(std::string("event is neither an array nor a map: ") + GoTypeName(decoded));
  }
  return decodeVLLMFields(fields);
}

// pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 VLLMAdapter.ParseMessage
kvevents::ParsedMessage VLLMAdapter::ParseMessage(const kvevents::RawMessage& msg) const {
  auto [podID, modelName] = parseTopic(msg.Topic);
  const msgpackEventBatch vllmBatch =
      wrap("failed to decode vLLM event batch", [&] { return decodeEventBatch(msg.Payload); });
  kvevents::ParsedMessage out;
  out.batch.Events.reserve(vllmBatch.Events.size());
  for (std::string_view raw : vllmBatch.Events)
    out.batch.Events.push_back(wrap("failed to decode vLLM event", [&] { return decodeVLLMEvent(raw); }));
  out.batch.Timestamp = vllmBatch.TS;
  out.podID = podID;
  out.modelName = modelName;
  return out;
}

}  // namespace blis::router::engineadapter

namespace blis::router::engineadapter {

// Original to BLIS: see vllm_adapter.h.
std::vector<Any> wireFields(const engine::KvEvent& event) {
  if (const auto* e = std::get_if<engine::KvBlockStored>(&event)) {
    std::vector<Any> tokens;
    tokens.reserve(e->token_ids.size());
    for (std::int32_t t : e->token_ids) tokens.push_back(wireInt(t));
    Any extra = Any::Nil();
    if (e->extra_keys) {
      std::vector<Any> blocks;
      for (const auto& keys : *e->extra_keys) {
        if (!keys) {
          blocks.push_back(Any::Nil());
          continue;
        }
        std::vector<Any> ks;
        for (const auto& k : *keys) ks.push_back(Any::Str(k));
        blocks.push_back(Any::Arr(std::move(ks)));
      }
      extra = Any::Arr(std::move(blocks));
    }
    return {Any::Str(eventTagBlockStored),
            wireHashes(e->block_hashes),
            e->parent_block_hash ? wireHash(*e->parent_block_hash) : Any::Nil(),
            Any::Arr(std::move(tokens)),
            wireInt(e->block_size),
            wireOptInt(e->lora_id),
            wireOptStr(e->medium),
            wireOptStr(e->lora_name),
            std::move(extra),
            wireOptInt(e->group_idx),
            wireOptStr(e->kv_cache_spec_kind),
            wireOptInt(e->kv_cache_spec_sliding_window)};
  }
  if (const auto* e = std::get_if<engine::KvBlockRemoved>(&event)) {
    return {Any::Str(eventTagBlockRemoved), wireHashes(e->block_hashes), wireOptStr(e->medium), wireOptInt(e->group_idx)};
  }
  return {Any::Str(eventTagAllBlocksCleared)};
}

// Original to BLIS: see vllm_adapter.h. As ParseMessage: the topic's pod and model, and every event, whose
// failure fails the message ("failed to decode vLLM event: ...").
kvevents::ParsedMessage VLLMAdapter::ParseTyped(const engine::KvEventMessage& msg) const {
  auto [podID, modelName] = parseTopic(msg.topic);
  kvevents::ParsedMessage out;
  out.batch.Events.reserve(msg.events.size());
  for (const auto& e : msg.events) {
    out.batch.Events.push_back(wrap("failed to decode vLLM event", [&] { return decodeVLLMFields(wireFields(e)); }));
  }
  out.batch.Timestamp = msg.ts;
  out.podID = podID;
  out.modelName = modelName;
  return out;
}

}  // namespace blis::router::engineadapter
