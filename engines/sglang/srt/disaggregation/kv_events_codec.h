// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of the wire encoding of python/sglang/srt/disaggregation/kv_events.py@71de97b2
// (what ZmqEventPublisher sends: msgspec.msgpack.Encoder().encode(KVEventBatch) and its multipart frames),
// and the typed message the simulator hands the router (engine::KvEventMessage). Not ported: the sockets,
// the replay ROUTER, the publisher thread and queue.
//
// msgspec's rules this encoder follows:
//  - EventBatch / KVEventBatch (array_like=True) is the array [ts, events, attn_dp_rank]; array_like
//    structs write every field, so a None rank is nil.
//  - KVCacheEvent (array_like=True, tag=True) is the array [tag, fields...] with the class name as tag and
//    every field in declaration order (None as nil): BlockStored [tag, block_hashes, parent_block_hash,
//    token_ids, block_size, lora_id, medium]; BlockStoredWithMetadata (tag "BlockStored", kw_only) appends
//    metadata, a BlockStoredMetadata map {"cache_salt": ...}; BlockRemoved [tag, block_hashes, medium];
//    AllBlocksCleared [tag]. A bigram token (a tuple) is a 2-item array.
//  - int: the smallest form (positive fixint, uint8/16/32/64; negative fixint, int8/16/32/64); float:
//    float64; str: fixstr/str8/str16/str32; list and tuple: fixarray/array16/array32; map: fixmap.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/engine/kv_events.h"
#include "srt/disaggregation/kv_events.h"

namespace blis::sglang {

// kv_events.py@71de97b2 EventBatch / KVEventBatch.
struct KVEventBatch {
  double ts = 0.0;
  std::vector<KVCacheEvent> events;
  std::optional<std::int64_t> attn_dp_rank{};
};

// kv_events.py@71de97b2 ZmqEventPublisher._publisher_thread `self._pack.encode(event)`: the payload bytes
// of one batch. Throws std::invalid_argument for what msgspec refuses (a str or list longer than 2**32 - 1).
std::string encode(const KVEventBatch& batch);
// msgspec.msgpack.encode of one event (the array described above).
std::string encode(const KVCacheEvent& event);

// kv_events.py@71de97b2 ZmqEventPublisher._publisher_thread `seq.to_bytes(8, "big")`.
std::string seq_to_bytes(std::uint64_t seq);

// kv_events.py@71de97b2 ZmqEventPublisher.publish + _publisher_thread: the three frames of one
// send_multipart, (topic as UTF-8, seq as 8 big-endian bytes, payload), where a batch whose attn_dp_rank
// is None is first given the publisher's rank.
std::array<std::string, 3> publish_frames(std::string_view topic, std::uint64_t seq, KVEventBatch batch,
                                          std::int64_t attn_dp_rank);

// Original to BLIS: the batch as the engine contract's typed message (what passes to the router inside a
// run, never re-encoded): hashes keep their 64 bits as unsigned integers, the rank is data_parallel_rank.
// Throws std::invalid_argument naming what the contract's events cannot hold: a bigram token pair, a
// BlockStoredWithMetadata's metadata (cache_salt).
engine::KvEventMessage to_contract(std::string_view topic, std::uint64_t seq, const KVEventBatch& batch);

}  // namespace blis::sglang
