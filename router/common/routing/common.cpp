// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/common/routing/common.go@71f4f099; see common.h for what is not
// ported.
#include "router/common/routing/common.h"

#include <cstddef>

namespace blis::router::routing {
namespace {

// Original to BLIS: strings.TrimSpace for ASCII whitespace.
std::string trimSpace(const std::string& s) {
  const char* ws = " \t\n\v\f\r";
  const std::size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  const std::size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

// Original to BLIS: strings.EqualFold for ASCII text.
bool equalFold(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

// pkg/common/routing/common.go@71f4f099 IsConditionalDecode
bool IsConditionalDecode(const std::map<std::string, std::string>& headers) {
  auto it = headers.find(PreferHeader);
  const std::string value = it == headers.end() ? std::string() : it->second;
  std::size_t start = 0;
  for (;;) {  // strings.Split(value, ",")
    const std::size_t comma = value.find(',', start);
    const std::string pref = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::string token = pref.substr(0, pref.find(';'));  // strings.Cut(pref, ";")
    if (equalFold(trimSpace(token), PreferIfAvailable)) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

// Original to BLIS: Go's net.JoinHostPort (used by the disagg and dataparallel handlers).
std::string JoinHostPort(const std::string& host, const std::string& port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

}  // namespace blis::router::routing
