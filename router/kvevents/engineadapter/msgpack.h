// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: the msgpack decoding pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 (and sglang_adapter.go) take
// from github.com/vmihailenco/msgpack/v5 (v5.4.1 at the pin), as a minimal reader written from the
// MessagePack specification (github.com/msgpack/msgpack spec.md: nil 0xc0, false/true 0xc2/0xc3, positive
// fixint 0x00-0x7f, negative fixint 0xe0-0xff, uint8/16/32/64 0xcc-0xcf, int8/16/32/64 0xd0-0xd3,
// float32/64 0xca/0xcb, fixstr 0xa0-0xbf, str8/16/32 0xd9-0xdb, bin8/16/32 0xc4-0xc6, fixarray 0x90-0x9f,
// array16/32 0xdc/0xdd, fixmap 0x80-0x8f, map16/32 0xde/0xdf, fixext/ext 0xd4-0xd8/0xc7-0xc9; big-endian
// lengths and numbers), with the Go types and leniencies of the library's decoders that upstream calls:
// DecodeInterface (Unmarshal into any), DecodeMap (string keys), the int/uint/float/string decoders, the
// raw-value skip (msgpack.RawMessage) and array-encoded struct decoding. Extension types are refused
// (vLLM and SGLang send none). Errors are std::runtime_error with the library's message where known.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "router/kvcache/kvblock/any.h"

namespace blis::router::engineadapter::msgpack {

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  // Decoder.DecodeInterface: one value as Go's any.
  kvblock::Any DecodeInterface();
  // Decoder.DecodeMap (map[string]any; nil -> a Nil Any).
  kvblock::Any DecodeMap();
  // Decoder.DecodeRaw / msgpack.RawMessage: the bytes of the next value, skipped.
  std::string_view DecodeRaw();
  // Decoder.int (for int, *int, int64 fields): nil -> 0; every int code; else an error.
  std::int64_t DecodeInt();
  // Decoder.uint (for uint32 fields): nil -> 0; every int code, reinterpreted; else an error.
  std::uint64_t DecodeUint();
  // Decoder.float64 (float64 fields): float32, float64, or any int code (nil -> 0).
  double DecodeFloat64();
  // Decoder.DecodeString: nil -> "", str or bin.
  std::string DecodeString();
  // arrayLen / mapLen: -1 for nil; throws for another code.
  int DecodeArrayLen();
  int DecodeMapLen();
  // Whether the next byte is nil (0xc0), without consuming it.
  bool PeekNil() const;
  std::size_t Pos() const { return pos_; }
  std::size_t Remaining() const { return data_.size() - pos_; }

 private:
  std::uint8_t readCode();
  std::uint64_t readBE(int n);
  std::string_view readN(std::size_t n);
  std::string stringOfCode(std::uint8_t c);
  kvblock::Any decodeSliceOfLen(int n);
  void skipValue();

  std::string_view data_;
  std::size_t pos_ = 0;
};

// msgpack.Unmarshal(b, &v) with v any: DecodeInterface on the bytes (trailing bytes are ignored, as the
// library does).
kvblock::Any UnmarshalAny(std::string_view b);

}  // namespace blis::router::engineadapter::msgpack
