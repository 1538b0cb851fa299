// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: the JSON form of pkg/kvcache/kvblock/token_processor.go@71f4f099 TokenProcessorConfig;
// see token_processor_json.h.
#include "router/kvcache/kvblock/token_processor_json.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace blis::router::kvblock {

namespace {
// Original to BLIS: a helper of the port's own.
std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}
// Original to BLIS: a helper of the port's own.
std::string kindOf(const nlohmann::json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  if (v.is_number_float()) return "number " + v.dump();
  return "number";
}
// Original to BLIS: a helper of the port's own.
[[noreturn]] void typeError(const nlohmann::json& v, const char* field, const char* goType) {
  throw std::invalid_argument("json: cannot unmarshal " + kindOf(v) + " into Go struct field TokenProcessorConfig." +
                              field + " of type " + goType);
}
// Original to BLIS: a helper of the port's own.
void intField(const nlohmann::json& v, const char* field, int& out) {
  if (v.is_null()) return;
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max())
                               : (v.get<std::int64_t>() > std::numeric_limits<int>::max() ||
                                  v.get<std::int64_t>() < std::numeric_limits<int>::min()))
      typeError(v, field, "int");  // Go's int is 64-bit; the port's is narrower: refuse what does not fit
    out = v.get<int>();
    return;
  }
  typeError(v, field, "int");
}
// Original to BLIS: a helper of the port's own.
// encoding/json's string encoding (encodeState.string with HTML escaping, Marshal's default): \" \\ \n \r \t,
// other control bytes and <, >, & as \u00XX, U+2028/U+2029 as \u2028/\u2029. (Invalid UTF-8, which Go
// replaces by U+FFFD, is passed through: the seeds the port is given are text.)
std::string goQuote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    } else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) == 0xa8 || static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
      out += static_cast<unsigned char>(s[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}
}  // namespace

// Original to BLIS: a helper of the port's own.
// encoding/json Unmarshal into TokenProcessorConfig: for each key, the field whose tag name equals it
// (exactly, else case-insensitively); a later duplicate key overwrites.
void UnmarshalTokenProcessorConfig(const nlohmann::json& data, TokenProcessorConfig& cfg) {
  if (data.is_null()) return;
  if (!data.is_object())
    throw std::invalid_argument("json: cannot unmarshal " + kindOf(data) + " into Go value of type kvblock.TokenProcessorConfig");
  for (auto it = data.begin(); it != data.end(); ++it) {
    const std::string k = lower(it.key());
    if (k == "blocksize") {
      intField(it.value(), "blockSize", cfg.BlockSize);
    } else if (k == "blocksizetokens") {
      intField(it.value(), "blockSizeTokens", cfg.BlockSizeTokens);
    } else if (k == "hashseed") {
      if (it.value().is_null()) continue;
      if (!it.value().is_string()) typeError(it.value(), "hashSeed", "string");
      cfg.HashSeed = it.value().get<std::string>();
    }
  }
}

// Original to BLIS: a helper of the port's own.
// encoding/json Marshal of TokenProcessorConfig (fields in declaration order; initHash is unexported).
std::string MarshalTokenProcessorConfig(const TokenProcessorConfig& cfg) {
  std::string out = "{";
  if (cfg.BlockSize != 0) out += "\"blockSize\":" + std::to_string(cfg.BlockSize) + ",";
  out += "\"blockSizeTokens\":" + std::to_string(cfg.BlockSizeTokens) + ",";
  out += "\"hashSeed\":" + goQuote(cfg.HashSeed) + "}";
  return out;
}

}  // namespace blis::router::kvblock
