// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of the wire encoding of vllm/distributed/kv_events.py@6e448d0e (msgspec's
// msgpack encoding of KVEventBatch and its events, the publisher's frames) and the matching decode.
#include "distributed/kv_events_codec.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

namespace blis::vllm {
namespace {

// ---------------------------------------------------------------------------------------------------
// Writer: msgspec _core.c mpack_encode_none / _long / _float / _cstr / _bin / _array_header / _map_header.

constexpr std::uint64_t kMax32 = 0xffffffffULL;

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF): what a Python str
// encodes to, and what msgspec's str decoding accepts.
bool is_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) { ++i; continue; }
    std::size_t len;
    std::uint32_t cp;
    if ((c & 0xe0) == 0xc0) { len = 2; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { len = 3; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { len = 4; cp = c & 0x07; }
    else return false;
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

class Writer {
 public:
  std::string out;

  void nil() { byte(0xc0); }
  // mpack_encode_long, x >= 0.
  void uint(std::uint64_t x) {
    if (x < 0x80) byte(static_cast<std::uint8_t>(x));
    else if (x < 0x100) { byte(0xcc); be(x, 1); }
    else if (x < 0x10000) { byte(0xcd); be(x, 2); }
    else if (x <= kMax32) { byte(0xce); be(x, 4); }
    else { byte(0xcf); be(x, 8); }
  }
  // mpack_encode_long, any sign.
  void sint(std::int64_t x) {
    if (x >= 0) { uint(static_cast<std::uint64_t>(x)); return; }
    auto u = static_cast<std::uint64_t>(x);  // two's complement bytes
    if (x >= -32) byte(static_cast<std::uint8_t>(u & 0xff));
    else if (x >= -128) { byte(0xd0); be(u, 1); }
    else if (x >= -32768) { byte(0xd1); be(u, 2); }
    else if (x >= -2147483648LL) { byte(0xd2); be(u, 4); }
    else { byte(0xd3); be(u, 8); }
  }
  // mpack_encode_float: always float64.
  void f64(double x) { byte(0xcb); be(std::bit_cast<std::uint64_t>(x), 8); }
  // mpack_encode_cstr.
  void str(std::string_view s) {
    if (!is_utf8(s)) throw std::invalid_argument("KV event encode: a str field holds bytes that are not UTF-8");
    std::uint64_t n = s.size();
    if (n < 32) byte(static_cast<std::uint8_t>(0xa0 | n));
    else if (n < 0x100) { byte(0xd9); be(n, 1); }
    else if (n < 0x10000) { byte(0xda); be(n, 2); }
    else if (n <= kMax32) { byte(0xdb); be(n, 4); }
    else throw std::invalid_argument("Can't encode strings longer than 2**32 - 1");
    out.append(s);
  }
  // mpack_encode_bin.
  void bin(std::string_view b) {
    std::uint64_t n = b.size();
    if (n < 0x100) { byte(0xc4); be(n, 1); }
    else if (n < 0x10000) { byte(0xc5); be(n, 2); }
    else if (n <= kMax32) { byte(0xc6); be(n, 4); }
    else throw std::invalid_argument("Can't encode bytes-like objects longer than 2**32 - 1");
    out.append(b);
  }
  // mpack_encode_array_header.
  void array(std::size_t n) {
    if (n < 16) byte(static_cast<std::uint8_t>(0x90 | n));
    else if (n < 0x10000) { byte(0xdc); be(n, 2); }
    else if (n <= kMax32) { byte(0xdd); be(n, 4); }
    else throw std::invalid_argument("Can't encode lists longer than 2**32 - 1");
  }
  // mpack_encode_map_header (a struct has at most 13 pairs: always a fixmap).
  void map(std::size_t n) {
    if (n >= 16) throw std::logic_error("KV event encode: a struct map of 16 or more pairs");
    byte(static_cast<std::uint8_t>(0x80 | n));
  }

 private:
  void byte(std::uint8_t b) { out.push_back(static_cast<char>(b)); }
  void be(std::uint64_t v, int n) {
    for (int k = n - 1; k >= 0; --k) byte(static_cast<std::uint8_t>((v >> (8 * k)) & 0xff));
  }
};

// ExternalBlockHash = bytes | int.
void write_hash(Writer& w, const ExternalBlockHash& h) {
  if (const auto* b = std::get_if<std::string>(&h)) w.bin(*b);
  else w.uint(std::get<std::uint64_t>(h));
}

void write_hashes(Writer& w, const std::vector<ExternalBlockHash>& hs) {
  w.array(hs.size());
  for (const auto& h : hs) write_hash(w, h);
}

void write_opt_str(Writer& w, const std::optional<std::string>& s) {
  if (s) w.str(*s);
  else w.nil();
}

void write_opt_int(Writer& w, const std::optional<std::int64_t>& x) {
  if (x) w.sint(*x);
  else w.nil();
}

// kv_events.py@6e448d0e BlockStored: 7 fields without a default (always written), then extra_keys,
// group_idx, kv_cache_spec_kind, kv_cache_spec_sliding_window, locality (default None: omitted when None).
void write_event(Writer& w, const BlockStored& e) {
  std::size_t n = 1 + 7 + (e.extra_keys ? 1 : 0) + (e.group_idx ? 1 : 0) + (e.kv_cache_spec_kind ? 1 : 0) +
                  (e.kv_cache_spec_sliding_window ? 1 : 0) + (e.locality ? 1 : 0);
  w.map(n);
  w.str("type");
  w.str("BlockStored");
  w.str("block_hashes");
  write_hashes(w, e.block_hashes);
  w.str("parent_block_hash");
  if (e.parent_block_hash) write_hash(w, *e.parent_block_hash);
  else w.nil();
  w.str("token_ids");
  w.array(e.token_ids.size());
  for (auto t : e.token_ids) w.sint(t);
  w.str("block_size");
  w.sint(e.block_size);
  w.str("lora_id");
  write_opt_int(w, e.lora_id);
  w.str("medium");
  write_opt_str(w, e.medium);
  w.str("lora_name");
  write_opt_str(w, e.lora_name);
  if (e.extra_keys) {
    w.str("extra_keys");
    w.array(e.extra_keys->size());
    for (const auto& keys : *e.extra_keys) {  // tuple[Any, ...] | None: a tuple encodes as an array
      if (!keys) { w.nil(); continue; }
      w.array(keys->size());
      for (const auto& k : *keys) w.str(k);
    }
  }
  if (e.group_idx) { w.str("group_idx"); w.sint(*e.group_idx); }
  if (e.kv_cache_spec_kind) { w.str("kv_cache_spec_kind"); w.str(*e.kv_cache_spec_kind); }
  if (e.kv_cache_spec_sliding_window) {
    w.str("kv_cache_spec_sliding_window");
    w.sint(*e.kv_cache_spec_sliding_window);
  }
  if (e.locality) { w.str("locality"); w.str(*e.locality); }
}

// kv_events.py@6e448d0e BlockRemoved: block_hashes, medium (always), group_idx, locality (omitted if None).
void write_event(Writer& w, const BlockRemoved& e) {
  w.map(1 + 2 + (e.group_idx ? 1 : 0) + (e.locality ? 1 : 0));
  w.str("type");
  w.str("BlockRemoved");
  w.str("block_hashes");
  write_hashes(w, e.block_hashes);
  w.str("medium");
  write_opt_str(w, e.medium);
  if (e.group_idx) { w.str("group_idx"); w.sint(*e.group_idx); }
  if (e.locality) { w.str("locality"); w.str(*e.locality); }
}

// kv_events.py@6e448d0e AllBlocksCleared: the tag alone.
void write_event(Writer& w, const AllBlocksCleared&) {
  w.map(1);
  w.str("type");
  w.str("AllBlocksCleared");
}

void write_any_event(Writer& w, const KVCacheEvent& ev) {
  std::visit([&](const auto& e) { write_event(w, e); }, ev);
}

// ---------------------------------------------------------------------------------------------------
// Reader: msgspec _core.c mpack_decode / mpack_skip over one msgpack value at a time.

enum class Kind { Nil, Bool, UInt, NegInt, Float, Str, Bin, Array, Map, Ext };

// msgspec's names for the msgpack types in its "Expected `x`, got `y`" errors.
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Nil: return "null";
    case Kind::Bool: return "bool";
    case Kind::UInt:
    case Kind::NegInt: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Bin: return "bytes";
    case Kind::Array: return "array";
    case Kind::Map: return "object";
    case Kind::Ext: return "ext";
  }
  return "?";
}

// The header of one value. For str, bin and ext `len` is the payload size (ext: plus its type byte),
// for array and map the item / pair count; `u` holds a non-negative int, `i` a negative one.
struct Head {
  Kind kind = Kind::Nil;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double f = 0.0;
  std::uint64_t len = 0;
};

[[noreturn]] void fail(const std::string& what) { throw KVEventDecodeError("KV event decode: " + what); }

[[noreturn]] void type_error(const char* expected, const Head& got, const std::string& path) {
  fail(std::string("Expected `") + expected + "`, got `" + kind_name(got.kind) + "` - at `" + path + "`");
}

class Reader {
 public:
  explicit Reader(std::string_view data) : d_(data) {}

  std::size_t pos() const { return p_; }
  void seek(std::size_t p) { p_ = p; }
  bool at_end() const { return p_ == d_.size(); }

  // Consumes a nil if one is next.
  bool take_nil() {
    if (p_ < d_.size() && static_cast<unsigned char>(d_[p_]) == 0xc0) { ++p_; return true; }
    return false;
  }

  Head head() {
    Head h;
    std::size_t at = p_;
    std::uint8_t b = byte();
    if (b <= 0x7f) { h.kind = Kind::UInt; h.u = b; }
    else if (b <= 0x8f) { h.kind = Kind::Map; h.len = b & 0x0f; }
    else if (b <= 0x9f) { h.kind = Kind::Array; h.len = b & 0x0f; }
    else if (b <= 0xbf) { h.kind = Kind::Str; h.len = b & 0x1f; }
    else if (b >= 0xe0) { h.kind = Kind::NegInt; h.i = static_cast<std::int8_t>(b); }
    else {
      switch (b) {
        case 0xc0: h.kind = Kind::Nil; break;
        case 0xc2: case 0xc3: h.kind = Kind::Bool; break;
        case 0xc4: case 0xc5: case 0xc6: h.kind = Kind::Bin; h.len = be(1 << (b - 0xc4)); break;
        case 0xc7: case 0xc8: case 0xc9: h.kind = Kind::Ext; h.len = be(1 << (b - 0xc7)) + 1; break;
        case 0xca: h.kind = Kind::Float; h.f = std::bit_cast<float>(static_cast<std::uint32_t>(be(4))); break;
        case 0xcb: h.kind = Kind::Float; h.f = std::bit_cast<double>(be(8)); break;
        case 0xcc: case 0xcd: case 0xce: case 0xcf: h.kind = Kind::UInt; h.u = be(1 << (b - 0xcc)); break;
        case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
          int n = 1 << (b - 0xd0);
          std::uint64_t raw = be(n);
          std::int64_t x = n == 8 ? static_cast<std::int64_t>(raw)
                                  : static_cast<std::int64_t>(raw << (64 - 8 * n)) >> (64 - 8 * n);
          if (x >= 0) { h.kind = Kind::UInt; h.u = static_cast<std::uint64_t>(x); }
          else { h.kind = Kind::NegInt; h.i = x; }
          break;
        }
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:  // fixext 1, 2, 4, 8, 16 (+ the type byte)
          h.kind = Kind::Ext; h.len = (1u << (b - 0xd4)) + 1; break;
        case 0xd9: case 0xda: case 0xdb: h.kind = Kind::Str; h.len = be(1 << (b - 0xd9)); break;
        case 0xdc: case 0xdd: h.kind = Kind::Array; h.len = be(2 << (b - 0xdc)); break;
        case 0xde: case 0xdf: h.kind = Kind::Map; h.len = be(2 << (b - 0xde)); break;
        default: fail("MessagePack data is malformed: invalid opcode 0xc1 (byte " + std::to_string(at) + ")");
      }
    }
    return h;
  }

  std::string_view take(std::uint64_t n) {
    if (n > d_.size() - p_) truncated();
    std::string_view out = d_.substr(p_, static_cast<std::size_t>(n));
    p_ += static_cast<std::size_t>(n);
    return out;
  }

  // mpack_skip: one whole value, iteratively (no recursion on nested input).
  void skip_value() {
    std::uint64_t pending = 1;
    while (pending > 0) {
      --pending;
      Head h = head();
      if (h.kind == Kind::Str || h.kind == Kind::Bin || h.kind == Kind::Ext) take(h.len);
      else if (h.kind == Kind::Array) pending += h.len;
      else if (h.kind == Kind::Map) pending += 2 * h.len;
    }
  }

  // An upper bound for reserving `n` items: every item takes at least one byte.
  std::size_t reserve_bound(std::uint64_t n) const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(n, d_.size() - p_));
  }

 private:
  [[noreturn]] static void truncated() { fail("Input data was truncated"); }
  std::uint8_t byte() {
    if (p_ >= d_.size()) truncated();
    return static_cast<std::uint8_t>(d_[p_++]);
  }
  std::uint64_t be(int n) {
    std::uint64_t v = 0;
    for (int k = 0; k < n; ++k) v = (v << 8) | byte();
    return v;
  }

  std::string_view d_;
  std::size_t p_ = 0;
};

std::string index_path(const std::string& path, std::uint64_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string read_str(Reader& r, const std::string& path) {
  Head h = r.head();
  if (h.kind != Kind::Str) type_error("str", h, path);
  std::string_view s = r.take(h.len);
  if (!is_utf8(s)) fail("invalid UTF-8 in a str - at `" + path + "`");
  return std::string(s);
}

std::optional<std::string> read_opt_str(Reader& r, const std::string& path) {
  if (r.take_nil()) return std::nullopt;
  return read_str(r, path);
}

// An int that must fit T (the port's type for the Python int).
template <typename T>
T read_int(Reader& r, const std::string& path) {
  Head h = r.head();
  if (h.kind == Kind::UInt) {
    if (h.u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
      fail("int " + std::to_string(h.u) + " is beyond this port's range for the field - at `" + path + "`");
    }
    return static_cast<T>(h.u);
  }
  if (h.kind == Kind::NegInt) {
    if (h.i < static_cast<std::int64_t>(std::numeric_limits<T>::min())) {
      fail("int " + std::to_string(h.i) + " is beyond this port's range for the field - at `" + path + "`");
    }
    return static_cast<T>(h.i);
  }
  type_error("int", h, path);
}

std::optional<std::int64_t> read_opt_int(Reader& r, const std::string& path) {
  if (r.take_nil()) return std::nullopt;
  return read_int<std::int64_t>(r, path);
}

// ExternalBlockHash = bytes | int.
ExternalBlockHash read_hash(Reader& r, const std::string& path) {
  Head h = r.head();
  if (h.kind == Kind::Bin) return std::string(r.take(h.len));
  if (h.kind == Kind::UInt) return h.u;
  if (h.kind == Kind::NegInt) {
    fail("a negative int block hash is not modelled by this port: vLLM's int hashes are the low 64 bits of a "
         "digest - at `" + path + "`");
  }
  type_error("bytes | int", h, path);
}

std::uint64_t read_array_len(Reader& r, const std::string& path) {
  Head h = r.head();
  if (h.kind != Kind::Array) type_error("array", h, path);
  return h.len;
}

std::vector<ExternalBlockHash> read_hashes(Reader& r, const std::string& path) {
  std::uint64_t n = read_array_len(r, path);
  std::vector<ExternalBlockHash> out;
  out.reserve(r.reserve_bound(n));
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(read_hash(r, index_path(path, i)));
  return out;
}

// list[tuple[Any, ...] | None] | None, where this port holds str keys only.
std::optional<std::vector<BlockExtraKeys>> read_extra_keys(Reader& r, const std::string& path) {
  if (r.take_nil()) return std::nullopt;
  std::uint64_t n = read_array_len(r, path);
  std::vector<BlockExtraKeys> out;
  out.reserve(r.reserve_bound(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string p = index_path(path, i);
    if (r.take_nil()) { out.emplace_back(std::nullopt); continue; }
    std::uint64_t m = read_array_len(r, p);
    std::vector<std::string> keys;
    keys.reserve(r.reserve_bound(m));
    for (std::uint64_t k = 0; k < m; ++k) {
      std::string kp = index_path(p, k);
      std::size_t at = r.pos();
      Head h = r.head();
      if (h.kind != Kind::Str) {
        fail(std::string("an extra key of type `") + kind_name(h.kind) +
             "` is not modelled by this port: it holds str keys only (LoRA name, cache salt) - at `" + kp + "`");
      }
      r.seek(at);
      keys.push_back(read_str(r, kp));
    }
    out.emplace_back(std::move(keys));
  }
  return out;
}

// A map key of a struct (msgspec mpack_decode_cstr: a str).
std::string read_key(Reader& r, const std::string& path) { return read_str(r, path + ".<key>"); }

// mpack_ensure_tag_matches: a repeated tag field must name this struct.
void check_tag(Reader& r, const std::string& path, std::string_view tag) {
  std::string got = read_str(r, path + ".type");
  if (got != tag) fail("Invalid value '" + got + "' - at `" + path + ".type`");
}

[[noreturn]] void missing(const char* field, const std::string& path) {
  fail(std::string("Object missing required field `") + field + "` - at `" + path + "`");
}

// mpack_decode_struct_map for BlockStored (n pairs left to read).
BlockStored read_block_stored(Reader& r, std::uint64_t n, const std::string& path) {
  static constexpr const char* kRequired[] = {"block_hashes", "parent_block_hash", "token_ids", "block_size",
                                              "lora_id",      "medium",            "lora_name"};
  BlockStored e;
  bool seen[7] = {};
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string key = read_key(r, path);
    std::string fp = path + "." + key;
    if (key == "type") check_tag(r, path, "BlockStored");
    else if (key == "block_hashes") { e.block_hashes = read_hashes(r, fp); seen[0] = true; }
    else if (key == "parent_block_hash") {
      e.parent_block_hash = r.take_nil() ? std::nullopt : std::optional<ExternalBlockHash>(read_hash(r, fp));
      seen[1] = true;
    } else if (key == "token_ids") {
      std::uint64_t m = read_array_len(r, fp);
      e.token_ids.clear();
      e.token_ids.reserve(r.reserve_bound(m));
      for (std::uint64_t k = 0; k < m; ++k) e.token_ids.push_back(read_int<std::int32_t>(r, index_path(fp, k)));
      seen[2] = true;
    } else if (key == "block_size") { e.block_size = read_int<std::int64_t>(r, fp); seen[3] = true; }
    else if (key == "lora_id") { e.lora_id = read_opt_int(r, fp); seen[4] = true; }
    else if (key == "medium") { e.medium = read_opt_str(r, fp); seen[5] = true; }
    else if (key == "lora_name") { e.lora_name = read_opt_str(r, fp); seen[6] = true; }
    else if (key == "extra_keys") e.extra_keys = read_extra_keys(r, fp);
    else if (key == "group_idx") e.group_idx = read_opt_int(r, fp);
    else if (key == "kv_cache_spec_kind") e.kv_cache_spec_kind = read_opt_str(r, fp);
    else if (key == "kv_cache_spec_sliding_window") e.kv_cache_spec_sliding_window = read_opt_int(r, fp);
    else if (key == "locality") e.locality = read_opt_str(r, fp);
    else r.skip_value();  // an unknown field (forbid_unknown_fields is off)
  }
  for (int k = 0; k < 7; ++k) {
    if (!seen[k]) missing(kRequired[k], path);
  }
  return e;
}

// mpack_decode_struct_map for BlockRemoved.
BlockRemoved read_block_removed(Reader& r, std::uint64_t n, const std::string& path) {
  BlockRemoved e;
  bool has_hashes = false, has_medium = false;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string key = read_key(r, path);
    std::string fp = path + "." + key;
    if (key == "type") check_tag(r, path, "BlockRemoved");
    else if (key == "block_hashes") { e.block_hashes = read_hashes(r, fp); has_hashes = true; }
    else if (key == "medium") { e.medium = read_opt_str(r, fp); has_medium = true; }
    else if (key == "group_idx") e.group_idx = read_opt_int(r, fp);
    else if (key == "locality") e.locality = read_opt_str(r, fp);
    else r.skip_value();
  }
  if (!has_hashes) missing("block_hashes", path);
  if (!has_medium) missing("medium", path);
  return e;
}

// mpack_decode_struct_map for AllBlocksCleared.
AllBlocksCleared read_all_blocks_cleared(Reader& r, std::uint64_t n, const std::string& path) {
  for (std::uint64_t i = 0; i < n; ++i) {
    if (read_key(r, path) == "type") check_tag(r, path, "AllBlocksCleared");
    else r.skip_value();
  }
  return AllBlocksCleared{};
}

// mpack_decode_struct_union: find the tag (usually the first key), then decode the struct it names.
KVCacheEvent read_event(Reader& r, const std::string& path) {
  Head h = r.head();
  if (h.kind != Kind::Map) type_error("object", h, path);
  std::size_t start = r.pos();
  for (std::uint64_t i = 0; i < h.len; ++i) {
    if (read_key(r, path) != "type") { r.skip_value(); continue; }
    std::string tag = read_str(r, path + ".type");
    std::uint64_t n = h.len;
    if (i == 0) --n;  // the common case: the tag came first and is read
    else r.seek(start);
    if (tag == "BlockStored") return read_block_stored(r, n, path);
    if (tag == "BlockRemoved") return read_block_removed(r, n, path);
    if (tag == "AllBlocksCleared") return read_all_blocks_cleared(r, n, path);
    fail("Invalid value '" + tag + "' - at `" + path + ".type`");
  }
  missing("type", path);
}

// mpack_decode_struct_array_inner for KVEventBatch: at least ts and events; extra trailing items skipped.
KVEventBatch read_batch(Reader& r) {
  const std::string path = "$";
  Head h = r.head();
  if (h.kind != Kind::Array) type_error("array", h, path);
  if (h.len < 2) fail("Expected `array` of at least length 2, got " + std::to_string(h.len) + " - at `$`");
  KVEventBatch batch;
  Head ts = r.head();
  if (ts.kind == Kind::Float) batch.ts = ts.f;
  else if (ts.kind == Kind::UInt) batch.ts = static_cast<double>(ts.u);
  else if (ts.kind == Kind::NegInt) batch.ts = static_cast<double>(ts.i);
  else type_error("float", ts, "$[0]");
  std::uint64_t n = read_array_len(r, "$[1]");
  batch.events.reserve(r.reserve_bound(n));
  for (std::uint64_t i = 0; i < n; ++i) batch.events.push_back(read_event(r, index_path("$[1]", i)));
  if (h.len >= 3 && !r.take_nil()) batch.data_parallel_rank = read_int<int>(r, "$[2]");
  for (std::uint64_t i = 3; i < h.len; ++i) r.skip_value();
  return batch;
}

void expect_end(const Reader& r) {
  if (!r.at_end()) {
    fail("MessagePack data is malformed: trailing characters (byte " + std::to_string(r.pos()) + ")");
  }
}

}  // namespace

// kv_events.py@6e448d0e ZmqEventPublisher._publisher_thread (`self._pack.encode(event)`), KVEventBatch.
std::string encode(const KVEventBatch& batch) {
  Writer w;
  w.array(3);
  w.f64(batch.ts);
  w.array(batch.events.size());
  for (const auto& ev : batch.events) write_any_event(w, ev);
  if (batch.data_parallel_rank) w.sint(*batch.data_parallel_rank);
  else w.nil();
  return std::move(w.out);
}

std::string encode(const KVCacheEvent& event) {
  Writer w;
  write_any_event(w, event);
  return std::move(w.out);
}

// kv_events.py@6e448d0e ZmqEventPublisher._publisher_thread `seq.to_bytes(8, "big")`.
std::string seq_to_bytes(std::uint64_t seq) {
  std::string out(8, '\0');
  for (int k = 0; k < 8; ++k) out[static_cast<std::size_t>(k)] = static_cast<char>((seq >> (8 * (7 - k))) & 0xff);
  return out;
}

// kv_events.py@6e448d0e ZmqEventPublisher.publish (rank fill) and _publisher_thread (the frames).
std::array<std::string, 3> publish_frames(std::string_view topic, std::uint64_t seq, KVEventBatch batch,
                                          int data_parallel_rank) {
  if (!batch.data_parallel_rank) batch.data_parallel_rank = data_parallel_rank;
  if (!is_utf8(topic)) throw std::invalid_argument("KV event publish: the topic is not UTF-8");
  return {std::string(topic), seq_to_bytes(seq), encode(batch)};
}

// msgspec.msgpack.Decoder(type=KVEventBatch).decode: the inverse of encode(const KVEventBatch&).
KVEventBatch decode_kv_event_batch(std::string_view payload) {
  Reader r(payload);
  KVEventBatch batch = read_batch(r);
  expect_end(r);
  return batch;
}

// msgspec.msgpack.Decoder(type=BlockStored | BlockRemoved | AllBlocksCleared).decode.
KVCacheEvent decode_kv_cache_event(std::string_view payload) {
  Reader r(payload);
  KVCacheEvent ev = read_event(r, "$");
  expect_end(r);
  return ev;
}

}  // namespace blis::vllm
