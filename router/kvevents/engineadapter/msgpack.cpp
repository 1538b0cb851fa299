// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: see msgpack.h (the msgpack decoding pkg/kvevents/engineadapter/vllm_adapter.go@71f4f099 takes
// from vmihailenco/msgpack/v5 v5.4.1, written from the MessagePack specification).
#include "router/kvevents/engineadapter/msgpack.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace blis::router::engineadapter::msgpack {

using kvblock::Any;

namespace {
// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::string hex(std::uint8_t c) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  if (c >= 16) s.push_back(digits[c >> 4]);
  s.push_back(digits[c & 0xf]);
  return s;
}
// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
bool isFixedNum(std::uint8_t c) { return c <= 0x7f || c >= 0xe0; }
// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
bool isFixedMap(std::uint8_t c) { return c >= 0x80 && c <= 0x8f; }
// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
bool isFixedArray(std::uint8_t c) { return c >= 0x90 && c <= 0x9f; }
// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
bool isFixedString(std::uint8_t c) { return c >= 0xa0 && c <= 0xbf; }
}  // namespace

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::uint8_t Reader::readCode() {
  if (pos_ >= data_.size()) throw std::runtime_error("EOF");
  return static_cast<std::uint8_t>(data_[pos_++]);
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::uint64_t Reader::readBE(int n) {
  if (data_.size() - pos_ < static_cast<std::size_t>(n)) throw std::runtime_error("unexpected EOF");
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<std::uint8_t>(data_[pos_++]);
  return v;
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::string_view Reader::readN(std::size_t n) {
  if (data_.size() - pos_ < n) throw std::runtime_error("unexpected EOF");
  auto v = data_.substr(pos_, n);
  pos_ += n;
  return v;
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
bool Reader::PeekNil() const { return pos_ < data_.size() && static_cast<std::uint8_t>(data_[pos_]) == 0xc0; }

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_slice.go arrayLen
int Reader::DecodeArrayLen() {
  const std::uint8_t c = readCode();
  if (c == 0xc0) return -1;
  if (isFixedArray(c)) return c & 0x0f;
  if (c == 0xdc) return static_cast<int>(readBE(2));
  if (c == 0xdd) return static_cast<int>(readBE(4));
  throw std::runtime_error("msgpack: invalid code=" + hex(c) + " decoding array length");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_map.go mapLen
int Reader::DecodeMapLen() {
  const std::uint8_t c = readCode();
  if (c == 0xc0) return -1;
  if (isFixedMap(c)) return c & 0x0f;
  if (c == 0xde) return static_cast<int>(readBE(2));
  if (c == 0xdf) return static_cast<int>(readBE(4));
  throw std::runtime_error("msgpack: unexpected code=" + hex(c) + " decoding map length");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_string.go bytesLen + string
std::string Reader::stringOfCode(std::uint8_t c) {
  std::int64_t n;
  if (c == 0xc0) return "";
  if (isFixedString(c)) {
    n = c & 0x1f;
  } else if (c == 0xd9 || c == 0xc4) {
    n = static_cast<std::int64_t>(readBE(1));
  } else if (c == 0xda || c == 0xc5) {
    n = static_cast<std::int64_t>(readBE(2));
  } else if (c == 0xdb || c == 0xc6) {
    n = static_cast<std::int64_t>(readBE(4));
  } else {
    throw std::runtime_error("msgpack: invalid code=" + hex(c) + " decoding string/bytes length");
  }
  return std::string(readN(static_cast<std::size_t>(n)));
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::string Reader::DecodeString() { return stringOfCode(readCode()); }

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_number.go int
std::int64_t Reader::DecodeInt() {
  const std::uint8_t c = readCode();
  if (c == 0xc0) return 0;
  if (isFixedNum(c)) return static_cast<std::int8_t>(c);
  switch (c) {
    case 0xcc: return static_cast<std::int64_t>(readBE(1));
    case 0xd0: return static_cast<std::int8_t>(readBE(1));
    case 0xcd: return static_cast<std::int64_t>(readBE(2));
    case 0xd1: return static_cast<std::int16_t>(readBE(2));
    case 0xce: return static_cast<std::int64_t>(readBE(4));
    case 0xd2: return static_cast<std::int32_t>(readBE(4));
    case 0xcf:
    case 0xd3: return static_cast<std::int64_t>(readBE(8));
    default: break;
  }
  throw std::runtime_error("msgpack: invalid code=" + hex(c) + " decoding int64");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_number.go uint
std::uint64_t Reader::DecodeUint() {
  const std::uint8_t c = readCode();
  if (c == 0xc0) return 0;
  if (isFixedNum(c)) return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(c)));
  switch (c) {
    case 0xcc: return readBE(1);
    case 0xd0: return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(readBE(1))));
    case 0xcd: return readBE(2);
    case 0xd1: return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int16_t>(readBE(2))));
    case 0xce: return readBE(4);
    case 0xd2: return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(readBE(4))));
    case 0xcf:
    case 0xd3: return readBE(8);
    default: break;
  }
  throw std::runtime_error("msgpack: invalid code=" + hex(c) + " decoding uint64");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_number.go float64
double Reader::DecodeFloat64() {
  if (pos_ < data_.size()) {
    const auto c = static_cast<std::uint8_t>(data_[pos_]);
    if (c == 0xca) {
      ++pos_;
      return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(readBE(4))));
    }
    if (c == 0xcb) {
      ++pos_;
      return std::bit_cast<double>(readBE(8));
    }
  }
  try {
    return static_cast<double>(DecodeInt());
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind("msgpack: invalid code", 0) == 0) {
      throw std::runtime_error("msgpack: invalid code=" + hex(static_cast<std::uint8_t>(data_[pos_ - 1])) +
                               " decoding float32");
    }
    throw;
  }
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
Any Reader::decodeSliceOfLen(int n) {
  if (n == -1) return Any::Nil();
  Any a;
  a.kind = Any::Kind::Array;
  a.array.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) a.array.push_back(DecodeInterface());
  return a;
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode_map.go DecodeMap: string keys, interface values.
Any Reader::DecodeMap() {
  const int n = DecodeMapLen();
  if (n == -1) return Any::Nil();
  Any m;
  m.kind = Any::Kind::Map;
  for (int i = 0; i < n; ++i) {
    std::string k = DecodeString();
    Any v = DecodeInterface();
    m.Set(k, std::move(v));
  }
  return m;
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// decode.go DecodeInterface
Any Reader::DecodeInterface() {
  const std::uint8_t c = readCode();
  if (isFixedNum(c)) return Any::I64(static_cast<std::int8_t>(c), Any::Kind::Int8);
  if (isFixedMap(c)) {
    --pos_;
    return DecodeMap();
  }
  if (isFixedArray(c)) return decodeSliceOfLen(c & 0x0f);
  if (isFixedString(c)) return Any::Str(stringOfCode(c));
  switch (c) {
    case 0xc0: return Any::Nil();
    case 0xc2: return Any::Bool(false);
    case 0xc3: return Any::Bool(true);
    case 0xca: {
      Any a;
      a.kind = Any::Kind::Float32;
      a.f = static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(readBE(4))));
      return a;
    }
    case 0xcb: return Any::F64(std::bit_cast<double>(readBE(8)));
    case 0xcc: return Any::U64(readBE(1), Any::Kind::Uint8);
    case 0xcd: return Any::U64(readBE(2), Any::Kind::Uint16);
    case 0xce: return Any::U64(readBE(4), Any::Kind::Uint32);
    case 0xcf: return Any::U64(readBE(8), Any::Kind::Uint64);
    case 0xd0: return Any::I64(static_cast<std::int8_t>(readBE(1)), Any::Kind::Int8);
    case 0xd1: return Any::I64(static_cast<std::int16_t>(readBE(2)), Any::Kind::Int16);
    case 0xd2: return Any::I64(static_cast<std::int32_t>(readBE(4)), Any::Kind::Int32);
    case 0xd3: return Any::I64(static_cast<std::int64_t>(readBE(8)), Any::Kind::Int64);
    case 0xc4:
    case 0xc5:
    case 0xc6: return Any::Bin(stringOfCode(c));
    case 0xd9:
    case 0xda:
    case 0xdb: return Any::Str(stringOfCode(c));
    case 0xdc: return decodeSliceOfLen(static_cast<int>(readBE(2)));
    case 0xdd: return decodeSliceOfLen(static_cast<int>(readBE(4)));
    case 0xde:
    case 0xdf:
      --pos_;
      return DecodeMap();
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: case 0xc7: case 0xc8: case 0xc9:
      throw std::runtime_error("msgpack: extension types are not modelled by this port (code=" + hex(c) + ")");
    default: break;
  }
  throw std::runtime_error("msgpack: unknown code " + hex(c) + " decoding interface{}");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
// Skips one value (decode.go Skip).
void Reader::skipValue() {
  const std::uint8_t c = readCode();
  if (isFixedNum(c) || c == 0xc0 || c == 0xc2 || c == 0xc3) return;
  if (isFixedMap(c)) {
    for (int i = 0; i < 2 * (c & 0x0f); ++i) skipValue();
    return;
  }
  if (isFixedArray(c)) {
    for (int i = 0; i < (c & 0x0f); ++i) skipValue();
    return;
  }
  if (isFixedString(c)) {
    readN(c & 0x1f);
    return;
  }
  switch (c) {
    case 0xcc: case 0xd0: readN(1); return;
    case 0xcd: case 0xd1: readN(2); return;
    case 0xce: case 0xd2: case 0xca: readN(4); return;
    case 0xcf: case 0xd3: case 0xcb: readN(8); return;
    case 0xc4: case 0xd9: readN(readBE(1)); return;
    case 0xc5: case 0xda: readN(readBE(2)); return;
    case 0xc6: case 0xdb: readN(readBE(4)); return;
    case 0xdc: { const auto n = readBE(2); for (std::uint64_t i = 0; i < n; ++i) skipValue(); return; }
    case 0xdd: { const auto n = readBE(4); for (std::uint64_t i = 0; i < n; ++i) skipValue(); return; }
    case 0xde: { const auto n = readBE(2); for (std::uint64_t i = 0; i < 2 * n; ++i) skipValue(); return; }
    case 0xdf: { const auto n = readBE(4); for (std::uint64_t i = 0; i < 2 * n; ++i) skipValue(); return; }
    case 0xd4: readN(2); return;
    case 0xd5: readN(3); return;
    case 0xd6: readN(5); return;
    case 0xd7: readN(9); return;
    case 0xd8: readN(17); return;
    case 0xc7: readN(1 + readBE(1)); return;
    case 0xc8: readN(1 + readBE(2)); return;
    case 0xc9: readN(1 + readBE(4)); return;
    default: break;
  }
  throw std::runtime_error("msgpack: unknown code " + hex(c) + " skipping value");
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
std::string_view Reader::DecodeRaw() {
  const std::size_t start = pos_;
  skipValue();
  return data_.substr(start, pos_ - start);
}

// Original to BLIS: part of a msgpack reader written from the msgpack specification, decoding into Go values as vmihailenco/msgpack v5 (llm-d's dependency, not an llm-d file) does.
Any UnmarshalAny(std::string_view b) {
  Reader r(b);
  return r.DecodeInterface();
}

}  // namespace blis::router::engineadapter::msgpack
