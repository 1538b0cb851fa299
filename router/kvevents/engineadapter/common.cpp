// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/common.go@71f4f099; see common.h.
#include "router/kvevents/engineadapter/common.h"

#include <stdexcept>

#include "router/kvevents/engineadapter/msgpack.h"

namespace blis::router::engineadapter {

using kvblock::Any;

// pkg/kvevents/engineadapter/common.go@71f4f099 parseTopic (strings.Split on "@", exactly 3 parts)
std::pair<std::string, std::string> parseTopic(const std::string& topic) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = topic.find('@', start);
    if (at == std::string::npos) {
      parts.push_back(topic.substr(start));
      break;
    }
    parts.push_back(topic.substr(start, at - start));
    start = at + 1;
  }
  if (parts.size() == 3) return {parts[1], parts[2]};
  return {topic, ""};
}

// pkg/kvevents/engineadapter/common.go@71f4f099 getHashAsUint64
std::uint64_t getHashAsUint64(const Any& raw) {
  switch (raw.kind) {
    case Any::Kind::Uint64: return raw.u;
    case Any::Kind::Int64: return static_cast<std::uint64_t>(raw.i);
    case Any::Kind::Bytes: {
      const std::string& val = raw.s;
      if (val.empty()) throw std::runtime_error("hash byte slice is empty");
      std::uint64_t v = 0;
      const std::size_t from = val.size() >= 8 ? val.size() - 8 : 0;
      for (std::size_t i = from; i < val.size(); ++i) v = (v << 8) | static_cast<std::uint8_t>(val[i]);
      return v;
    }
    default: break;
  }
  throw std::runtime_error(std::string("unsupported hash type: ") + kvblock::GoTypeName(raw));
}

// pkg/kvevents/engineadapter/common.go@71f4f099 convertBlockHashes
std::vector<std::uint64_t> convertBlockHashes(const std::vector<Any>& rawHashes) {
  std::vector<std::uint64_t> blockHashes;
  blockHashes.reserve(rawHashes.size());
  for (const Any& rawHash : rawHashes) {
    try {
      blockHashes.push_back(getHashAsUint64(rawHash));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string("failed to parse block hash: ") + e.what());
    }
  }
  return blockHashes;
}

// pkg/kvevents/engineadapter/common.go@71f4f099 convertExtraKeys
kvblock::RawExtraKeys convertExtraKeys(const std::vector<Any>* rawExtraKeys) {
  if (rawExtraKeys == nullptr) return std::nullopt;
  std::vector<std::optional<std::vector<Any>>> extraKeys;
  extraKeys.reserve(rawExtraKeys->size());
  for (std::size_t i = 0; i < rawExtraKeys->size(); ++i) {
    const Any& rawKey = (*rawExtraKeys)[i];
    if (rawKey.IsNil()) {
      extraKeys.emplace_back(std::nullopt);
    } else if (rawKey.kind == Any::Kind::Array) {
      extraKeys.emplace_back(rawKey.array);
    } else {
      throw std::runtime_error("extra_keys[" + std::to_string(i) + "] has invalid type " + kvblock::GoTypeName(rawKey) +
                               ", expected []any or nil");
    }
  }
  return extraKeys;
}

namespace {
// Original to BLIS: a helper of the port's own.
// The fields of the batch struct, in declaration order.
void decodeBatchField(msgpack::Reader& r, int field, msgpackEventBatch& b) {
  switch (field) {
    case 0: b.TS = r.DecodeFloat64(); return;
    case 1: {
      const int n = r.DecodeArrayLen();
      b.Events.clear();
      for (int i = 0; i < n; ++i) b.Events.push_back(r.DecodeRaw());
      return;
    }
    case 2:
      if (r.PeekNil()) {
        r.DecodeRaw();
        b.DataParallelRank.reset();
      } else {
        b.DataParallelRank = r.DecodeInt();
      }
      return;
    default: r.DecodeRaw(); return;
  }
}
}  // namespace

// Original to BLIS: a helper of the port's own.
// vmihailenco/msgpack/v5 decodeStructValue for msgpackVLLMEventBatch / msgpackSGLangEventBatch.
msgpackEventBatch decodeEventBatch(std::string_view payload) {
  msgpackEventBatch b;
  if (payload.empty()) throw std::runtime_error("EOF");
  const auto c = static_cast<std::uint8_t>(payload[0]);
  msgpack::Reader r(payload);
  const bool isMap = c == 0xc0 || (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf;
  if (isMap) {
    const int n = r.DecodeMapLen();
    for (int i = 0; i < n; ++i) {
      const std::string name = r.DecodeString();
      const int field = name == "TS" ? 0 : name == "Events" ? 1 : name == "DataParallelRank" ? 2 : -1;
      decodeBatchField(r, field, b);
    }
    return b;
  }
  const bool isArray = (c >= 0x90 && c <= 0x9f) || c == 0xdc || c == 0xdd;
  if (!isArray) {
    static const char* digits = "0123456789abcdef";
    std::string h;
    if (c >= 16) h.push_back(digits[c >> 4]);
    h.push_back(digits[c & 0xf]);
    throw std::runtime_error("msgpack: unexpected code=" + h + " decoding map length");
  }
  const int n = r.DecodeArrayLen();
  if (n <= 0) return b;
  if (n != 3) throw std::runtime_error("msgpack: number of fields in array-encoded struct has changed");
  for (int f = 0; f < 3; ++f) decodeBatchField(r, f, b);
  return b;
}

// Original to BLIS: a non-negative integer as its minimal msgpack encoding decodes (positive fixint: int8;
// then uint8, uint16, uint32, uint64).
kvblock::Any wireUint(std::uint64_t x) {
  if (x < 0x80) return kvblock::Any::I64(static_cast<std::int64_t>(x), kvblock::Any::Kind::Int8);
  if (x < 0x100) return kvblock::Any::U64(x, kvblock::Any::Kind::Uint8);
  if (x < 0x10000) return kvblock::Any::U64(x, kvblock::Any::Kind::Uint16);
  if (x <= 0xffffffffULL) return kvblock::Any::U64(x, kvblock::Any::Kind::Uint32);
  return kvblock::Any::U64(x, kvblock::Any::Kind::Uint64);
}

// Original to BLIS: any integer as its minimal msgpack encoding decodes (negative fixint and int8: int8; then
// int16, int32, int64).
kvblock::Any wireInt(std::int64_t x) {
  if (x >= 0) return wireUint(static_cast<std::uint64_t>(x));
  if (x >= -128) return kvblock::Any::I64(x, kvblock::Any::Kind::Int8);
  if (x >= -32768) return kvblock::Any::I64(x, kvblock::Any::Kind::Int16);
  if (x >= -2147483648LL) return kvblock::Any::I64(x, kvblock::Any::Kind::Int32);
  return kvblock::Any::I64(x, kvblock::Any::Kind::Int64);
}

}  // namespace blis::router::engineadapter
