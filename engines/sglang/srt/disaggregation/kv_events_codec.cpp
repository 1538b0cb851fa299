// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of the wire encoding of python/sglang/srt/disaggregation/kv_events.py@71de97b2;
// see kv_events_codec.h.
#include "srt/disaggregation/kv_events_codec.h"

#include <bit>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace blis::sglang {
namespace {

// Original to BLIS: msgspec's msgpack writer, the subset the events use.
class Writer {
 public:
  void nil() { byte(0xc0); }
  void int_(std::int64_t v) {
    if (v >= 0) return uint_(static_cast<std::uint64_t>(v));
    if (v >= -32) return byte(static_cast<std::uint8_t>(v));
    if (v >= -128) return head(0xd0, static_cast<std::uint64_t>(v), 1);
    if (v >= -32768) return head(0xd1, static_cast<std::uint64_t>(v), 2);
    if (v >= -2147483648LL) return head(0xd2, static_cast<std::uint64_t>(v), 4);
    head(0xd3, static_cast<std::uint64_t>(v), 8);
  }
  void uint_(std::uint64_t v) {
    if (v < 0x80) return byte(static_cast<std::uint8_t>(v));
    if (v < 0x100) return head(0xcc, v, 1);
    if (v < 0x10000) return head(0xcd, v, 2);
    if (v <= 0xffffffffULL) return head(0xce, v, 4);
    head(0xcf, v, 8);
  }
  void float64(double d) { head(0xcb, std::bit_cast<std::uint64_t>(d), 8); }
  void str(std::string_view s) {
    const std::uint64_t n = s.size();
    if (n < 32) byte(static_cast<std::uint8_t>(0xa0 | n));
    else if (n < 0x100) head(0xd9, n, 1);
    else if (n < 0x10000) head(0xda, n, 2);
    else if (n <= 0xffffffffULL) head(0xdb, n, 4);
    else throw std::invalid_argument("can't serialize a str longer than 2**32 - 1");
    out_.append(s);
  }
  void array(std::uint64_t n) {
    if (n < 16) byte(static_cast<std::uint8_t>(0x90 | n));
    else if (n < 0x10000) head(0xdc, n, 2);
    else if (n <= 0xffffffffULL) head(0xdd, n, 4);
    else throw std::invalid_argument("can't serialize a list longer than 2**32 - 1");
  }
  void map(std::uint64_t n) { byte(static_cast<std::uint8_t>(0x80 | n)); }  // fixmap: the events' maps are small
  void opt_int(const std::optional<std::int64_t>& v) { v ? int_(*v) : nil(); }
  void opt_str(const std::optional<std::string>& v) { v ? str(*v) : nil(); }
  std::string take() { return std::move(out_); }

 private:
  void byte(std::uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void head(std::uint8_t code, std::uint64_t v, int n) {
    byte(code);
    for (int i = n - 1; i >= 0; --i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::string out_;
};

// kv_events.py@71de97b2 KVCacheEvent subclasses under msgspec's array_like + tag encoding.
void write_event(Writer& w, const KVCacheEvent& event) {
  std::visit(
      [&](const auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, BlockStored>) {
          w.array(e.metadata ? 8 : 7);
          w.str("BlockStored");
          w.array(e.block_hashes.size());
          for (std::int64_t h : e.block_hashes) w.int_(h);
          w.opt_int(e.parent_block_hash);
          w.array(e.token_ids.size());
          for (const EventToken& t : e.token_ids) {
            if (const auto* p = std::get_if<std::pair<std::int64_t, std::int64_t>>(&t)) {
              w.array(2);
              w.int_(p->first);
              w.int_(p->second);
            } else {
              w.int_(std::get<std::int64_t>(t));
            }
          }
          w.int_(e.block_size);
          w.opt_int(e.lora_id);
          w.opt_str(e.medium);
          if (e.metadata) {  // BlockStoredMetadata: a plain struct, a map
            w.map(1);
            w.str("cache_salt");
            w.str(e.metadata->cache_salt);
          }
        } else if constexpr (std::is_same_v<T, BlockRemoved>) {
          w.array(3);
          w.str("BlockRemoved");
          w.array(e.block_hashes.size());
          for (std::int64_t h : e.block_hashes) w.int_(h);
          w.opt_str(e.medium);
        } else {
          w.array(1);
          w.str("AllBlocksCleared");
        }
      },
      event);
}

}  // namespace

// kv_events.py@71de97b2 ZmqEventPublisher._publisher_thread (msgspec.msgpack.Encoder().encode).
std::string encode(const KVEventBatch& batch) {
  Writer w;
  w.array(3);
  w.float64(batch.ts);
  w.array(batch.events.size());
  for (const auto& e : batch.events) write_event(w, e);
  w.opt_int(batch.attn_dp_rank);
  return w.take();
}

// kv_events.py@71de97b2 KVCacheEvent (msgspec.msgpack.encode of one event).
std::string encode(const KVCacheEvent& event) {
  Writer w;
  write_event(w, event);
  return w.take();
}

// kv_events.py@71de97b2 ZmqEventPublisher._publisher_thread `seq.to_bytes(8, "big")`.
std::string seq_to_bytes(std::uint64_t seq) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>(seq >> (8 * (7 - i)));
  return out;
}

// kv_events.py@71de97b2 ZmqEventPublisher.publish and _publisher_thread's send_multipart.
std::array<std::string, 3> publish_frames(std::string_view topic, std::uint64_t seq, KVEventBatch batch,
                                          std::int64_t attn_dp_rank) {
  if (!batch.attn_dp_rank) batch.attn_dp_rank = attn_dp_rank;
  return {std::string(topic), seq_to_bytes(seq), encode(batch)};
}

// Original to BLIS: see kv_events_codec.h.
engine::KvEventMessage to_contract(std::string_view topic, std::uint64_t seq, const KVEventBatch& batch) {
  engine::KvEventMessage m;
  m.topic = std::string(topic);
  m.sequence = seq;
  m.ts = batch.ts;
  m.data_parallel_rank = batch.attn_dp_rank;
  for (const auto& event : batch.events) {
    if (const auto* e = std::get_if<BlockStored>(&event)) {
      if (e->metadata)
        throw std::invalid_argument("BlockStored: metadata (cache_salt '" + e->metadata->cache_salt +
                                    "') has no field in the engine contract's KV events");
      engine::KvBlockStored s;
      for (std::int64_t h : e->block_hashes) s.block_hashes.emplace_back(static_cast<std::uint64_t>(h));
      if (e->parent_block_hash) s.parent_block_hash = static_cast<std::uint64_t>(*e->parent_block_hash);
      for (const EventToken& t : e->token_ids) {
        if (!std::holds_alternative<std::int64_t>(t))
          throw std::invalid_argument("BlockStored: a bigram token pair has no field in the engine contract's KV events");
        const std::int64_t id = std::get<std::int64_t>(t);
        if (id < std::numeric_limits<std::int32_t>::min() || id > std::numeric_limits<std::int32_t>::max())
          throw std::invalid_argument("BlockStored: token id " + std::to_string(id) +
                                      " does not fit the engine contract's 32-bit token ids");
        s.token_ids.push_back(static_cast<std::int32_t>(id));
      }
      s.block_size = e->block_size;
      s.lora_id = e->lora_id;
      s.medium = e->medium;
      m.events.emplace_back(std::move(s));
    } else if (const auto* e = std::get_if<BlockRemoved>(&event)) {
      engine::KvBlockRemoved r;
      for (std::int64_t h : e->block_hashes) r.block_hashes.emplace_back(static_cast<std::uint64_t>(h));
      r.medium = e->medium;
      m.events.emplace_back(std::move(r));
    } else {
      m.events.emplace_back(engine::KvAllBlocksCleared{});
    }
  }
  return m;
}

}  // namespace blis::sglang
