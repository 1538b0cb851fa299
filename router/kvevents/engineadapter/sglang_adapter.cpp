// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099; see sglang_adapter.h.
#include "router/kvevents/engineadapter/sglang_adapter.h"

#include <stdexcept>

#include "router/kvevents/engineadapter/common.h"
#include "router/kvevents/engineadapter/msgpack.h"
#include "router/kvevents/engineadapter/vllm_adapter.h"

namespace blis::router::engineadapter {

using kvblock::Any;
using kvblock::GoTypeName;

namespace {
// Original to BLIS: a helper of the port's own.
std::runtime_error err(const std::string& s) { return std::runtime_error(s); }

// Original to BLIS: a helper of the port's own.
std::string hexCode(std::uint8_t c) {
  static const char* digits = "0123456789abcdef";
  std::string h;
  if (c >= 16) h.push_back(digits[c >> 4]);
  h.push_back(digits[c & 0xf]);
  return h;
}

// Original to BLIS: a helper of the port's own.
// msgpack.Unmarshal(raw, &fields) with fields []any: nil -> empty, an array -> its items.
std::vector<Any> unmarshalSlice(std::string_view raw) {
  msgpack::Reader r(raw);
  const int n = r.DecodeArrayLen();
  std::vector<Any> out;
  for (int i = 0; i < n; ++i) out.push_back(r.DecodeInterface());
  return out;
}

// Original to BLIS: a helper of the port's own.
// The typed-field decoders vmihailenco/msgpack/v5 applies to a struct field, applied to a decoded value
// (the bytes padFields re-marshals decode to the same values): the code each Any kind came from.
std::uint8_t codeOf(const Any& a) {
  switch (a.kind) {
    case Any::Kind::Nil: return 0xc0;
    case Any::Kind::Bool: return a.b ? 0xc3 : 0xc2;
    case Any::Kind::Float32: return 0xca;
    case Any::Kind::Float64: return 0xcb;
    case Any::Kind::Array: return 0xdd;
    case Any::Kind::Map: return 0xdf;
    default: return 0;
  }
}
// Original to BLIS: a helper of the port's own.
// Decoder.int for int / *int fields
std::int64_t typedInt(const Any& a) {
  if (a.IsNil()) return 0;
  if (a.IsSignedInt()) return a.i;
  if (a.IsUnsignedInt()) return static_cast<std::int64_t>(a.u);
  throw err("msgpack: invalid code=" + hexCode(a.kind == Any::Kind::String ? 0xdb : a.kind == Any::Kind::Bytes ? 0xc6 : codeOf(a)) +
            " decoding int64");
}
// Original to BLIS: a helper of the port's own.
// Decoder.uint for uint32 items
std::uint32_t typedUint32(const Any& a) {
  if (a.IsNil()) return 0;
  if (a.IsSignedInt()) return static_cast<std::uint32_t>(static_cast<std::uint64_t>(a.i));
  if (a.IsUnsignedInt()) return static_cast<std::uint32_t>(a.u);
  throw err("msgpack: invalid code=" + hexCode(a.kind == Any::Kind::String ? 0xdb : a.kind == Any::Kind::Bytes ? 0xc6 : codeOf(a)) +
            " decoding uint64");
}
// Original to BLIS: a helper of the port's own.
// Decoder.DecodeString for string / *string fields
std::string typedString(const Any& a) {
  if (a.IsNil()) return "";
  if (a.kind == Any::Kind::String || a.kind == Any::Kind::Bytes) return a.s;
  throw err("msgpack: invalid code=" + hexCode(a.IsSignedInt() || a.IsUnsignedInt() ? 0xd3 : codeOf(a)) +
            " decoding string/bytes length");
}
// Original to BLIS: a helper of the port's own.
// []any field: nil -> nil slice; array -> items; else the array-length error.
const std::vector<Any>* typedSlice(const Any& a) {
  if (a.IsNil()) return nullptr;
  if (a.kind == Any::Kind::Array) return &a.array;
  throw err("msgpack: invalid code=" + hexCode(a.kind == Any::Kind::String ? 0xdb : a.kind == Any::Kind::Bytes ? 0xc6 :
                                                  a.IsSignedInt() || a.IsUnsignedInt() ? 0xd3 : codeOf(a)) +
            " decoding array length");
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 padFields (the expected-count check of the typed
// struct decode after padding: more fields than the struct's is msgpack's errArrayStruct).
void checkPadded(const std::vector<Any>& fields, int expectedCount, const std::string& what) {
  if (static_cast<int>(fields.size()) > expectedCount)
    throw err("failed to decode " + what + " event: msgpack: number of fields in array-encoded struct has changed");
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.convertBlockStoredEvent, from the
// decoded array's items on (the unmarshal is convertBlockStoredEvent's first step below).
kvevents::GenericEvent convertBlockStoredFields(std::vector<Any> fields) {
  if (static_cast<int>(fields.size()) < sglangBlockStoredMinFields)
    throw err("BlockStored event has too few fields: " + std::to_string(fields.size()) + " (minimum " +
              std::to_string(sglangBlockStoredMinFields) + ")");
  checkPadded(fields, sglangBlockStoredFieldCount, "BlockStored");
  fields.resize(sglangBlockStoredFieldCount);  // padFields: trailing nils

  kvevents::BlockStoredEvent ev;
  const std::vector<Any>* blockHashes = nullptr;
  const std::vector<Any>* extraKeys = nullptr;
  try {
    typedString(fields[0]);  // Tag
    blockHashes = typedSlice(fields[1]);
    if (const auto* toks = typedSlice(fields[3]))
      for (const Any& t : *toks) ev.Tokens.push_back(typedUint32(t));
    ev.BlockSize = static_cast<int>(typedInt(fields[4]));
    if (!fields[5].IsNil()) ev.LoraID = static_cast<int>(typedInt(fields[5]));
    if (!fields[6].IsNil()) ev.DeviceTier = typedString(fields[6]);
    if (!fields[7].IsNil()) ev.LoraName = typedString(fields[7]);
    extraKeys = typedSlice(fields[8]);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode BlockStored event: ") + e.what());
  }
  ev.BlockHashes = convertBlockHashes(blockHashes == nullptr ? std::vector<Any>{} : *blockHashes);
  if (!fields[2].IsNil()) {
    try {
      ev.ParentHash = getHashAsUint64(fields[2]);
    } catch (const std::runtime_error& e) {
      throw err(std::string("failed to parse parent hash: ") + e.what());
    }
  }
  ev.ExtraKeys = convertExtraKeys(extraKeys);
  return ev;
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.convertBlockStoredEvent
kvevents::GenericEvent convertBlockStoredEvent(std::string_view rawEventBytes) {
  std::vector<Any> fields;
  try {
    fields = unmarshalSlice(rawEventBytes);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode BlockStored event: ") + e.what());
  }
  return convertBlockStoredFields(std::move(fields));
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.convertBlockRemovedEvent, from the
// decoded array's items on.
kvevents::GenericEvent convertBlockRemovedFields(std::vector<Any> fields) {
  if (static_cast<int>(fields.size()) < sglangBlockRemovedMinFields)
    throw err("BlockRemoved event has too few fields: " + std::to_string(fields.size()) + " (minimum " +
              std::to_string(sglangBlockRemovedMinFields) + ")");
  checkPadded(fields, sglangBlockRemovedFieldCount, "BlockRemoved");
  fields.resize(sglangBlockRemovedFieldCount);
  kvevents::BlockRemovedEvent ev;
  const std::vector<Any>* blockHashes = nullptr;
  try {
    typedString(fields[0]);
    blockHashes = typedSlice(fields[1]);
    if (!fields[2].IsNil()) ev.DeviceTier = typedString(fields[2]);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode BlockRemoved event: ") + e.what());
  }
  ev.BlockHashes = convertBlockHashes(blockHashes == nullptr ? std::vector<Any>{} : *blockHashes);
  return ev;
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.convertBlockRemovedEvent
kvevents::GenericEvent convertBlockRemovedEvent(std::string_view rawEventBytes) {
  std::vector<Any> fields;
  try {
    fields = unmarshalSlice(rawEventBytes);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode BlockRemoved event: ") + e.what());
  }
  return convertBlockRemovedFields(std::move(fields));
}

// Original to BLIS: a block hash as SGLang's encoder writes it. SGLang's hashes are signed 64-bit integers
// (mem_cache/utils.py hash_str_to_int64 at the SGLang pin) and msgspec writes an int in its smallest form
// (positive fixint, uint8..uint64; negative fixint, int8..int64); a typed hash holds the same 64 bits
// unsigned, so one at or above 2**63 is the negative integer SGLang sends. (Go's decoder gives the small
// forms their own types, which getHashAsUint64 refuses, as upstream does.)
Any sglangWireHash(const engine::KvBlockHash& h) {
  if (const auto* b = std::get_if<std::string>(&h)) return Any::Bin(*b);
  return wireInt(static_cast<std::int64_t>(std::get<std::uint64_t>(h)));
}

// Original to BLIS: a helper of sglangWireFields (a list of hashes as SGLang writes them).
Any sglangWireHashes(const std::vector<engine::KvBlockHash>& hs) {
  std::vector<Any> out;
  out.reserve(hs.size());
  for (const auto& h : hs) out.push_back(sglangWireHash(h));
  return Any::Arr(std::move(out));
}

// Original to BLIS: the items SGLang's encoder writes for a typed event (disaggregation/kv_events.py at the
// SGLang pin: KVCacheEvent is array_like with tag=True, so [tag, fields...]): BlockStored [tag,
// block_hashes, parent_block_hash, token_ids, block_size, lora_id, medium], BlockRemoved [tag,
// block_hashes, medium], AllBlocksCleared [tag]. These are the first items of wireFields' layout, with the
// hashes as sglangWireHash writes them; a typed event holding a field SGLang's events do not have is
// refused, naming it, rather than dropped.
std::vector<Any> sglangWireFields(const engine::KvEvent& event) {
  std::vector<Any> fields = wireFields(event);
  if (const auto* e = std::get_if<engine::KvBlockStored>(&event)) {
    fields[1] = sglangWireHashes(e->block_hashes);
    if (e->parent_block_hash) fields[2] = sglangWireHash(*e->parent_block_hash);
  } else if (const auto* e = std::get_if<engine::KvBlockRemoved>(&event)) {
    fields[1] = sglangWireHashes(e->block_hashes);
  }
  std::size_t keep = 1;
  if (const auto* e = std::get_if<engine::KvBlockStored>(&event)) {
    keep = 7;
    const char* extra = e->lora_name ? "lora_name" : e->extra_keys ? "extra_keys" : e->group_idx ? "group_idx"
                        : e->kv_cache_spec_kind ? "kv_cache_spec_kind"
                        : e->kv_cache_spec_sliding_window ? "kv_cache_spec_sliding_window" : nullptr;
    if (extra != nullptr) throw err(std::string("BlockStored: SGLang's events have no ") + extra + " field");
  } else if (const auto* e = std::get_if<engine::KvBlockRemoved>(&event)) {
    if (e->group_idx) throw err("BlockRemoved: SGLang's events have no group_idx field");
    keep = 3;  // wireFields writes [tag, block_hashes, medium, group_idx]
  }
  fields.resize(keep);
  return fields;
}

// Original to BLIS: one typed event through decodeEvent's converters (see ParseTyped).
kvevents::GenericEvent convertTyped(const engine::KvEvent& event) {
  if (std::holds_alternative<engine::KvAllBlocksCleared>(event)) return kvevents::AllBlocksClearedEvent{};
  std::vector<Any> fields = sglangWireFields(event);
  if (std::holds_alternative<engine::KvBlockStored>(event)) return convertBlockStoredFields(std::move(fields));
  return convertBlockRemovedFields(std::move(fields));
}
}  // namespace

// pkg/kvevents/engineadapter/common.go@71f4f099 decodeEvent
kvevents::GenericEvent SGLangAdapter::decodeEvent(std::string_view rawEventBytes) const {
  std::vector<Any> taggedUnion;
  try {
    taggedUnion = unmarshalSlice(rawEventBytes);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode tagged union: ") + e.what());
  }
  if (taggedUnion.empty()) throw err("malformed tagged union: no tag");
  if (taggedUnion[0].kind != Any::Kind::String)
    throw err(std::string("event tag is not a string: ") + GoTypeName(taggedUnion[0]));
  const std::string& tag = taggedUnion[0].s;
  if (tag == eventTagBlockStored) return convertBlockStoredEvent(rawEventBytes);
  if (tag == eventTagBlockRemoved) return convertBlockRemovedEvent(rawEventBytes);
  if (tag == eventTagAllBlocksCleared) return kvevents::AllBlocksClearedEvent{};
  throw err("unknown event tag: " + tag);
}

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.ShardingKey
std::string SGLangAdapter::ShardingKey(const kvevents::RawMessage& msg) const { return parseTopic(msg.Topic).first; }

// pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099 SGLangAdapter.ParseMessage
kvevents::ParsedMessage SGLangAdapter::ParseMessage(const kvevents::RawMessage& msg) const {
  auto [podID, modelName] = parseTopic(msg.Topic);
  msgpackEventBatch batch;
  try {
    batch = decodeEventBatch(msg.Payload);
  } catch (const std::runtime_error& e) {
    throw err(std::string("failed to decode SGLang event batch: ") + e.what());
  }
  kvevents::ParsedMessage out;
  for (std::string_view raw : batch.Events) {
    try {
      out.batch.Events.push_back(decodeEvent(raw));
    } catch (const std::runtime_error& e) {
      throw err(std::string("failed to decode SGLang event: ") + e.what());
    }
  }
  out.batch.Timestamp = batch.TS;
  out.podID = podID;
  out.modelName = modelName;
  return out;
}

// Original to BLIS: see sglang_adapter.h. As ParseMessage: the topic's pod and model, and every event through
// decodeEvent's converters from the items SGLang's encoder writes (sglangWireFields), whose failure fails the
// message ("failed to decode SGLang event: ...").
kvevents::ParsedMessage SGLangAdapter::ParseTyped(const engine::KvEventMessage& msg) const {
  auto [podID, modelName] = parseTopic(msg.topic);
  kvevents::ParsedMessage out;
  out.batch.Events.reserve(msg.events.size());
  for (const auto& e : msg.events) {
    try {
      out.batch.Events.push_back(convertTyped(e));
    } catch (const std::runtime_error& ex) {
      throw err(std::string("failed to decode SGLang event: ") + ex.what());
    }
  }
  out.batch.Timestamp = msg.ts;
  out.podID = podID;
  out.modelName = modelName;
  return out;
}

}  // namespace blis::router::engineadapter
