// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: Go's `any` as llm-d's msgpack decoding (github.com/vmihailenco/msgpack/v5 v5.4.1,
// Decoder.DecodeInterface) fills it, for the raw extra_keys of pkg/kvevents/events.go@71f4f099
// BlockStoredEvent.ExtraKeys ([][]any) that pkg/kvcache/kvblock/extra_keys.go@71f4f099 ParseRawExtraKeys
// reads; the dynamic type is kept (int8 vs uint64 ...) because upstream's type switches depend on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace blis::router::kvblock {

// One decoded value with the Go dynamic type vmihailenco/msgpack/v5 DecodeInterface gives it:
// nil; bool; a positive or negative fixint as int8; uint8/16/32/64 and int8/16/32/64 as those types;
// float32/float64; str as string; bin as []byte; arrays as []any; maps as map[string]any.
struct Any {
  enum class Kind { Nil, Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64,
                    String, Bytes, Array, Map };
  Kind kind = Kind::Nil;
  bool b = false;
  std::int64_t i = 0;   // the Int* kinds
  std::uint64_t u = 0;  // the Uint* kinds
  double f = 0.0;       // Float32 (widened exactly) and Float64
  std::string s;        // String and Bytes
  std::vector<Any> array;
  // map[string]any as parallel key/value vectors: a key decoded twice keeps the last value (Go map
  // assignment); the order is the wire order of first appearance (no Go code reads a map's order).
  std::vector<std::string> mapKeys;
  std::vector<Any> mapValues;

  bool IsNil() const { return kind == Kind::Nil; }
  bool IsSignedInt() const {
    return kind == Kind::Int8 || kind == Kind::Int16 || kind == Kind::Int32 || kind == Kind::Int64;
  }
  bool IsUnsignedInt() const {
    return kind == Kind::Uint8 || kind == Kind::Uint16 || kind == Kind::Uint32 || kind == Kind::Uint64;
  }
  // Go map index `m[key]`: the value, or nullptr when absent (Go yields a nil any).
  const Any* Find(const std::string& key) const {
    for (std::size_t i = 0; i < mapKeys.size(); ++i)
      if (mapKeys[i] == key) return &mapValues[i];
    return nullptr;
  }
  void Set(const std::string& key, Any value) {
    for (std::size_t i = 0; i < mapKeys.size(); ++i)
      if (mapKeys[i] == key) { mapValues[i] = std::move(value); return; }
    mapKeys.push_back(key);
    mapValues.push_back(std::move(value));
  }

  static Any Nil() { return Any{}; }
  static Any Str(std::string v) { Any a; a.kind = Kind::String; a.s = std::move(v); return a; }
  static Any Bin(std::string v) { Any a; a.kind = Kind::Bytes; a.s = std::move(v); return a; }
  static Any I64(std::int64_t v, Kind k = Kind::Int64) { Any a; a.kind = k; a.i = v; return a; }
  static Any U64(std::uint64_t v, Kind k = Kind::Uint64) { Any a; a.kind = k; a.u = v; return a; }
  static Any Arr(std::vector<Any> v) { Any a; a.kind = Kind::Array; a.array = std::move(v); return a; }
  static Any Bool(bool v) { Any a; a.kind = Kind::Bool; a.b = v; return a; }
  static Any F64(double v) { Any a; a.kind = Kind::Float64; a.f = v; return a; }
};

// The Go type name of a value's dynamic type, as fmt's %T prints it ("int8", "[]interface {}",
// "map[string]interface {}", "<nil>").
inline const char* GoTypeName(const Any& a) {
  switch (a.kind) {
    case Any::Kind::Nil: return "<nil>";
    case Any::Kind::Bool: return "bool";
    case Any::Kind::Int8: return "int8";
    case Any::Kind::Int16: return "int16";
    case Any::Kind::Int32: return "int32";
    case Any::Kind::Int64: return "int64";
    case Any::Kind::Uint8: return "uint8";
    case Any::Kind::Uint16: return "uint16";
    case Any::Kind::Uint32: return "uint32";
    case Any::Kind::Uint64: return "uint64";
    case Any::Kind::Float32: return "float32";
    case Any::Kind::Float64: return "float64";
    case Any::Kind::String: return "string";
    case Any::Kind::Bytes: return "[]uint8";
    case Any::Kind::Array: return "[]interface {}";
    case Any::Kind::Map: return "map[string]interface {}";
  }
  return "<nil>";
}

}  // namespace blis::router::kvblock
