// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of the wire encoding of vllm/distributed/kv_events.py@6e448d0e (what
// ZmqEventPublisher sends: msgspec.msgpack.Encoder().encode(KVEventBatch) and its multipart frames), and
// the matching decode (msgspec.msgpack.Decoder(type=KVEventBatch)). Not ported: the sockets, the replay
// ROUTER and its END_SEQ marker, the publisher thread and queue.
//
// msgspec's rules this codec follows (msgspec _core.c, mpack_encode_* / mpack_decode_struct_*):
//  - KVEventBatch (array_like=True) is an array of all its fields, [ts, events, data_parallel_rank];
//    omit_defaults never drops an array_like field, so a None rank is nil.
//  - The events (KVCacheEvent: tag=True, omit_defaults=True, not array_like) are maps: first the tag
//    field "type" with the class name as value, then the fields in declaration order; a field without a
//    default is always written (None as nil), a field with a default is left out when it holds the
//    default (None), and the map header counts the pairs written.
//  - int: the smallest msgpack form (positive fixint, uint8/16/32/64; negative fixint, int8/16/32/64);
//    float: float64; str: fixstr/str8/str16/str32; bytes: bin8/16/32; list and tuple: fixarray/array16/
//    array32; nil for None.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "distributed/kv_events.h"

namespace blis::vllm {

// Thrown by the decode functions for bytes that are not what msgspec.msgpack.Decoder(type=...) reads as
// that type (malformed or truncated msgpack, a wrong type, a missing required field, an unknown tag,
// trailing bytes), and for values this port's structs cannot hold (a negative int block hash, an extra
// key that is not a str, an int beyond the field's C++ type); the message names the place ("$[1][0]...").
class KVEventDecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// kv_events.py@6e448d0e ZmqEventPublisher._publisher_thread `self._pack.encode(event)` with
// `msgspec.msgpack.Encoder()`: the payload bytes of one batch. Throws std::invalid_argument for what
// msgspec refuses to encode (a str, bytes or list longer than 2**32 - 1) and for a str that is not UTF-8.
std::string encode(const KVEventBatch& batch);
// msgspec.msgpack.encode of one event (the map described above).
std::string encode(const KVCacheEvent& event);

// msgspec.msgpack.Decoder(type=KVEventBatch).decode(payload) / Decoder(type=KVCacheEvent union).decode.
// Like msgspec: map keys in any order (the tag anywhere), unknown keys skipped, missing defaulted fields
// None, extra trailing items of the batch array skipped, an int accepted for ts.
KVEventBatch decode_kv_event_batch(std::string_view payload);
KVCacheEvent decode_kv_cache_event(std::string_view payload);

// kv_events.py@6e448d0e ZmqEventPublisher._publisher_thread `seq.to_bytes(8, "big")`.
std::string seq_to_bytes(std::uint64_t seq);

// kv_events.py@6e448d0e ZmqEventPublisher.publish + _publisher_thread: the three frames of one
// send_multipart, (topic as UTF-8, seq as 8 big-endian bytes, payload), where a batch whose
// data_parallel_rank is None is first given the publisher's `data_parallel_rank`.
std::array<std::string, 3> publish_frames(std::string_view topic, std::uint64_t seq, KVEventBatch batch,
                                          int data_parallel_rank);

}  // namespace blis::vllm
