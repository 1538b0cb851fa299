// SPDX-License-Identifier: Apache-2.0
// Original to BLIS: a test-only msgpack writer producing the bytes upstream's Go tests build with
// github.com/vmihailenco/msgpack/v5 (v5.4.1) msgpack.Marshal under its default (non-compact) options: a Go
// uint64 as 0xcf + 8 bytes, int/int64 as 0xd3 + 8 bytes, uint32 as 0xce + 4 bytes, float64 as 0xcb,
// strings as fixstr/str8/str16/str32, []byte as bin8/16/32, slices as fixarray/array16/array32, maps as
// fixmap/map16/map32 (MessagePack spec). Used to transcribe the Go tests' inputs byte for byte.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace blis::router::testing {

class GoMsgpack {
 public:
  GoMsgpack& nil() { return byte(0xc0); }
  GoMsgpack& u64(std::uint64_t v) { byte(0xcf); return be(v, 8); }
  GoMsgpack& i64(std::int64_t v) { byte(0xd3); return be(static_cast<std::uint64_t>(v), 8); }  // Go int / int64
  GoMsgpack& u32(std::uint32_t v) { byte(0xce); return be(v, 4); }
  GoMsgpack& f64(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, 8);
    byte(0xcb);
    return be(bits, 8);
  }
  GoMsgpack& str(std::string_view s) {
    if (s.size() < 32) byte(0xa0 | static_cast<unsigned>(s.size()));
    else if (s.size() < 256) { byte(0xd9); be(s.size(), 1); }
    else if (s.size() < 65536) { byte(0xda); be(s.size(), 2); }
    else { byte(0xdb); be(s.size(), 4); }
    out_.append(s);
    return *this;
  }
  GoMsgpack& bin(std::string_view s) {
    if (s.size() < 256) { byte(0xc4); be(s.size(), 1); }
    else if (s.size() < 65536) { byte(0xc5); be(s.size(), 2); }
    else { byte(0xc6); be(s.size(), 4); }
    out_.append(s);
    return *this;
  }
  GoMsgpack& arr(std::size_t n) {
    if (n < 16) return byte(0x90 | static_cast<unsigned>(n));
    if (n < 65536) { byte(0xdc); return be(n, 2); }
    byte(0xdd);
    return be(n, 4);
  }
  GoMsgpack& map(std::size_t n) {
    if (n < 16) return byte(0x80 | static_cast<unsigned>(n));
    if (n < 65536) { byte(0xde); return be(n, 2); }
    byte(0xdf);
    return be(n, 4);
  }
  GoMsgpack& raw(std::string_view bytes) { out_.append(bytes); return *this; }
  GoMsgpack& byte(unsigned b) { out_.push_back(static_cast<char>(b)); return *this; }
  const std::string& bytes() const { return out_; }

 private:
  GoMsgpack& be(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  std::string out_;
};

}  // namespace blis::router::testing
