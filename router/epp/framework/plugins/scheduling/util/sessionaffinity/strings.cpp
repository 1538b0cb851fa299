// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: the Go standard-library string helpers that
// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/header.go@71f4f099 and session_id.go@71f4f099 call;
// see strings.h.
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/strings.h"

#include <array>
#include <stdexcept>
#include <string_view>

namespace blis::router::sessionutil {
namespace {

// Original to BLIS: the ASCII white space of unicode.IsSpace.
bool asciiSpace(unsigned char c) { return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ' '; }

// The UTF-8 encodings of the non-ASCII runes unicode.IsSpace accepts.
constexpr std::array<std::string_view, 17> kWideSpaces = {
    "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82",
    "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88",
    "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF"};
constexpr std::array<std::string_view, 2> kWideSpaces2 = {"\xE2\x81\x9F", "\xE3\x80\x80"};

// The byte length of the white-space rune s starts with (0 when it does not start with one).
// Original to BLIS: the white-space rune at the start of s, as utf8.DecodeRuneInString decodes it.
std::size_t leadingSpace(std::string_view s) {
  if (s.empty()) return 0;
  if (asciiSpace(static_cast<unsigned char>(s.front()))) return 1;
  for (auto w : kWideSpaces) if (s.starts_with(w)) return w.size();
  for (auto w : kWideSpaces2) if (s.starts_with(w)) return w.size();
  return 0;
}

// The byte length of the white-space rune s ends with (0 when it does not end with one). A valid encoding at
// the end is what utf8.DecodeLastRuneInString decodes there, so matching suffixes is equivalent.
// Original to BLIS: the white-space rune at the end of s, as utf8.DecodeLastRuneInString decodes it.
std::size_t trailingSpace(std::string_view s) {
  if (s.empty()) return 0;
  if (asciiSpace(static_cast<unsigned char>(s.back()))) return 1;
  for (auto w : kWideSpaces) if (s.ends_with(w)) return w.size();
  for (auto w : kWideSpaces2) if (s.ends_with(w)) return w.size();
  return 0;
}

}  // namespace

// Original to BLIS: Go's strings.TrimSpace (see strings.h).
std::string TrimSpace(const std::string& s) {
  std::string_view v(s);
  for (std::size_t n = leadingSpace(v); n > 0; n = leadingSpace(v)) v.remove_prefix(n);
  for (std::size_t n = trailingSpace(v); n > 0; n = trailingSpace(v)) v.remove_suffix(n);
  return std::string(v);
}

// Original to BLIS: Go's strings.ToLower for ASCII (see strings.h).
std::string ToLower(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      throw std::invalid_argument("lower-casing the non-ASCII name \"" + s +
                                  "\" is not modelled by this port: Go's Unicode case mapping is not ported");
    }
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Original to BLIS: Go's strconv.Quote (see strings.h).
std::string QuoteGo(const std::string& s) {
  static constexpr const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // A valid UTF-8 sequence (no overlong forms, surrogates or values beyond U+10FFFF) is kept.
    std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c >= 0xF5) n = 0;
    bool valid = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; valid && k < n; ++k) valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (valid && n >= 3) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
          (c == 0xF4 && c1 >= 0x90)) {
        valid = false;
      }
    }
    if (valid) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  return out + "\"";
}

}  // namespace blis::router::sessionutil
