// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/utils/hashing.py@6e448d0e; see kv_cache_utils_hashing.h. The pickle
// writer follows CPython's Modules/_pickle.c (save, save_long, save_bytes, save_unicode, save_tuple,
// memo_put, the framer) for protocol 5; the CBOR writer follows cbor2's encoder with canonical=True.
#include "v1/core/kv_cache_utils_hashing.h"

#include <stdexcept>

#include "contracts/sha256.h"
#include "v1/kv_cache_interface.h"

namespace blis::vllm {

namespace {

// _pickle.c opcodes used here.
constexpr char kProto = static_cast<char>(0x80);
constexpr char kFrame = static_cast<char>(0x95);
constexpr char kStop = '.';
constexpr char kNone = 'N';
constexpr char kBinInt = 'J';
constexpr char kBinInt1 = 'K';
constexpr char kBinInt2 = 'M';
constexpr char kLong1 = static_cast<char>(0x8a);
constexpr char kLong4 = static_cast<char>(0x8b);
constexpr char kShortBinBytes = 'C';
constexpr char kBinBytes = 'B';
constexpr char kBinBytes8 = static_cast<char>(0x8e);
constexpr char kShortBinUnicode = static_cast<char>(0x8c);
constexpr char kBinUnicode = 'X';
constexpr char kBinUnicode8 = static_cast<char>(0x8d);
constexpr char kEmptyTuple = ')';
constexpr char kMark = '(';
constexpr char kTuple = 't';
constexpr char kTuple1 = static_cast<char>(0x85);
constexpr char kTuple2 = static_cast<char>(0x86);
constexpr char kTuple3 = static_cast<char>(0x87);
constexpr char kMemoize = static_cast<char>(0x94);
constexpr std::size_t kFrameHeaderSize = 9;
constexpr std::size_t kFrameSizeMin = 4;
constexpr std::size_t kFrameSizeTarget = 64 * 1024;

void put_le(std::string& out, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// _pickle.c's PicklerObject, reduced to the output buffer and the framer (each value hashed is a fresh
// tree, so the memo only ever grows; no object is met twice).
class Pickler {
 public:
  std::string run(const HashValue& v) {
    out_.push_back(kProto);
    out_.push_back(5);
    framing_ = true;
    save(v);
    write(std::string(1, kStop));
    commit_frame();
    return out_;
  }

 private:
  // _Pickler_Write: opens a frame (reserving its header) when none is open.
  void write(const std::string& s) {
    if (framing_ && frame_start_ < 0) {
      frame_start_ = static_cast<std::int64_t>(out_.size());
      out_.append(kFrameHeaderSize, '\0');
    }
    out_ += s;
  }
  // _Pickler_CommitFrame.
  void commit_frame() {
    if (!framing_ || frame_start_ < 0) return;
    std::size_t start = static_cast<std::size_t>(frame_start_);
    std::size_t frame_len = out_.size() - start - kFrameHeaderSize;
    if (frame_len >= kFrameSizeMin) {
      std::string header(1, kFrame);
      put_le(header, frame_len, 8);
      out_.replace(start, kFrameHeaderSize, header);
    } else {
      out_.erase(start, kFrameHeaderSize);
    }
    frame_start_ = -1;
  }
  // _Pickler_OpcodeBoundary.
  void opcode_boundary() {
    if (!framing_ || frame_start_ < 0) return;
    std::size_t frame_len = out_.size() - static_cast<std::size_t>(frame_start_) - kFrameHeaderSize;
    if (frame_len >= kFrameSizeTarget) commit_frame();
  }
  // _Pickler_write_bytes: a payload of at least a frame's target size is written outside any frame.
  void write_bytes(const std::string& header, const std::string& payload) {
    if (framing_ && payload.size() >= kFrameSizeTarget) {
      commit_frame();
      out_ += header;
      out_ += payload;
    } else {
      write(header + payload);
    }
  }
  // memo_put (protocol >= 4 writes MEMOIZE).
  void memo_put() { write(std::string(1, kMemoize)); }

  void save(const HashValue& v) {
    switch (v.kind) {
      case HashValue::Kind::kNone: write(std::string(1, kNone)); break;
      case HashValue::Kind::kInt: save_long(v.integer); break;
      case HashValue::Kind::kBytes: save_sized(v.data, kShortBinBytes, kBinBytes, kBinBytes8); break;
      case HashValue::Kind::kStr: save_sized(v.data, kShortBinUnicode, kBinUnicode, kBinUnicode8); break;
      case HashValue::Kind::kTuple: save_tuple(v); break;
    }
    opcode_boundary();
  }

  // save_long.
  void save_long(std::int64_t x) {
    std::string s;
    if (x >= -0x80000000LL && x <= 0x7fffffffLL) {
      if (x >= 0 && x <= 0xff) {
        s.push_back(kBinInt1);
        put_le(s, static_cast<std::uint64_t>(x), 1);
      } else if (x >= 0 && x <= 0xffff) {
        s.push_back(kBinInt2);
        put_le(s, static_cast<std::uint64_t>(x), 2);
      } else {
        s.push_back(kBinInt);
        put_le(s, static_cast<std::uint64_t>(static_cast<std::uint32_t>(static_cast<std::int32_t>(x))), 4);
      }
      write(s);
      return;
    }
    // encode_long: nbytes = nbits/8 + 1 of |x|, little-endian two's complement, one 0xff byte trimmed for
    // negative values whose top is 0xff followed by a byte with its high bit set.
    std::uint64_t mag = x < 0 ? static_cast<std::uint64_t>(-(x + 1)) + 1 : static_cast<std::uint64_t>(x);
    int nbits = 0;
    while (nbits < 64 && (mag >> nbits) != 0) ++nbits;
    int nbytes = nbits / 8 + 1;
    std::string data;
    for (int i = 0; i < nbytes; ++i) {
      data.push_back(i < 8 ? static_cast<char>((static_cast<std::uint64_t>(x) >> (8 * i)) & 0xff)
                           : static_cast<char>(x < 0 ? 0xff : 0x00));
    }
    if (x < 0 && nbytes > 1 && static_cast<unsigned char>(data[nbytes - 1]) == 0xff &&
        (static_cast<unsigned char>(data[nbytes - 2]) & 0x80) != 0) {
      data.pop_back();
    }
    s.push_back(data.size() < 256 ? kLong1 : kLong4);
    put_le(s, data.size(), data.size() < 256 ? 1 : 4);
    write(s + data);
  }

  // _save_bytes_data / write_unicode_binary, then memo_put.
  void save_sized(const std::string& data, char op1, char op4, char op8) {
    std::string header;
    if (data.size() <= 0xff) {
      header.push_back(op1);
      put_le(header, data.size(), 1);
    } else if (data.size() <= 0xffffffffULL) {
      header.push_back(op4);
      put_le(header, data.size(), 4);
    } else {
      header.push_back(op8);
      put_le(header, data.size(), 8);
    }
    write_bytes(header, data);
    memo_put();
  }

  // save_tuple.
  void save_tuple(const HashValue& v) {
    std::size_t n = v.items.size();
    if (n == 0) {
      write(std::string(1, kEmptyTuple));
      return;
    }
    if (n <= 3) {
      for (const auto& item : v.items) save(item);
      static const char ops[] = {kTuple1, kTuple2, kTuple3};
      write(std::string(1, ops[n - 1]));
      memo_put();
      return;
    }
    write(std::string(1, kMark));
    for (const auto& item : v.items) save(item);
    write(std::string(1, kTuple));
    memo_put();
  }

  std::string out_;
  bool framing_ = false;
  std::int64_t frame_start_ = -1;
};

// cbor2's encode_length: the major type in the top three bits and the minimal-length argument.
void cbor_head(std::string& out, int major, std::uint64_t arg) {
  auto m = static_cast<std::uint8_t>(major << 5);
  if (arg < 24) {
    out.push_back(static_cast<char>(m | arg));
  } else if (arg <= 0xff) {
    out.push_back(static_cast<char>(m | 24));
    out.push_back(static_cast<char>(arg));
  } else if (arg <= 0xffff) {
    out.push_back(static_cast<char>(m | 25));
    for (int i = 1; i >= 0; --i) out.push_back(static_cast<char>((arg >> (8 * i)) & 0xff));
  } else if (arg <= 0xffffffffULL) {
    out.push_back(static_cast<char>(m | 26));
    for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((arg >> (8 * i)) & 0xff));
  } else {
    out.push_back(static_cast<char>(m | 27));
    for (int i = 7; i >= 0; --i) out.push_back(static_cast<char>((arg >> (8 * i)) & 0xff));
  }
}

void cbor_encode(std::string& out, const HashValue& v) {
  switch (v.kind) {
    case HashValue::Kind::kNone: out.push_back(static_cast<char>(0xf6)); break;
    case HashValue::Kind::kInt:
      if (v.integer >= 0) {
        cbor_head(out, 0, static_cast<std::uint64_t>(v.integer));
      } else {
        cbor_head(out, 1, static_cast<std::uint64_t>(-(v.integer + 1)));
      }
      break;
    case HashValue::Kind::kBytes:
      cbor_head(out, 2, v.data.size());
      out += v.data;
      break;
    case HashValue::Kind::kStr:
      cbor_head(out, 3, v.data.size());
      out += v.data;
      break;
    case HashValue::Kind::kTuple:
      cbor_head(out, 4, v.items.size());
      for (const auto& item : v.items) cbor_encode(out, item);
      break;
  }
}

std::string sha256_digest(const std::string& bytes) {
  blis::contracts::Sha256 h;
  h.update(std::string_view(bytes));
  auto d = h.digest();
  return std::string(reinterpret_cast<const char*>(d.data()), d.size());
}

}  // namespace

std::string pickle_dumps(const HashValue& value) { return Pickler().run(value); }

std::string cbor_dumps_canonical(const HashValue& value) {
  std::string out;
  cbor_encode(out, value);
  return out;
}

// hashing.py@6e448d0e sha256.
std::string sha256(const HashValue& input) { return sha256_digest(pickle_dumps(input)); }

// hashing.py@6e448d0e sha256_cbor.
std::string sha256_cbor(const HashValue& input) { return sha256_digest(cbor_dumps_canonical(input)); }

// hashing.py@6e448d0e get_hash_fn_by_name.
HashFn get_hash_fn_by_name(const std::string& hash_fn_name) {
  if (hash_fn_name == "sha256") return [](const HashValue& v) { return sha256(v); };
  if (hash_fn_name == "sha256_cbor") return [](const HashValue& v) { return sha256_cbor(v); };
  if (hash_fn_name == "xxhash" || hash_fn_name == "xxhash_cbor") {
    throw std::invalid_argument("prefix_caching_hash_algo '" + hash_fn_name +
                                "' is not modelled by this port: the xxhash package (xxh3_128) is not ported");
  }
  throw ValueError("Unsupported hash function: " + hash_fn_name);
}

}  // namespace blis::vllm
