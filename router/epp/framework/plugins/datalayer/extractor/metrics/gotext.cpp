// Original to BLIS: Go standard-library texts and conversions the core metrics extractor relies on (see
// gotext.h).
#include "router/epp/framework/plugins/datalayer/extractor/metrics/gotext.h"

#include <cmath>
#include <limits>

namespace blis::router::metrics {

// Original to BLIS: strconv.Quote (see gotext.h).
std::string goQuote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
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
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 0xf];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// Original to BLIS: fmt's %v of a map[string]string.
std::string goMapString(const std::map<std::string, std::string>& m) {
  std::string out = "map[";
  bool first = true;
  for (const auto& [k, v] : m) {
    if (!first) out += " ";
    first = false;
    out += k + ":" + v;
  }
  return out + "]";
}

// Original to BLIS: errors.Join.
Error joinErrors(const std::vector<std::string>& errs) {
  if (errs.empty()) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < errs.size(); ++i) {
    if (i > 0) out += "\n";
    out += errs[i];
  }
  return out;
}

// Original to BLIS: strconv.Atoi (its fast path and ParseInt's slow path give the same values and errors for
// base 10; a range error is reported as soon as the digits overflow, even before a later invalid byte).
AtoiResult goAtoi(const std::string& s0) {
  auto syntax = [&] { return AtoiResult{0, "strconv.Atoi: parsing " + goQuote(s0) + ": invalid syntax"}; };
  auto range = [&] { return AtoiResult{0, "strconv.Atoi: parsing " + goQuote(s0) + ": value out of range"}; };
  if (s0.empty()) return syntax();
  size_t i = 0;
  bool neg = false;
  if (s0[0] == '+' || s0[0] == '-') {
    neg = s0[0] == '-';
    i = 1;
  }
  if (i == s0.size()) return syntax();
  const std::uint64_t cutoff = std::uint64_t{1} << 63;  // |int64 min|
  std::uint64_t n = 0;
  for (; i < s0.size(); ++i) {
    const char c = s0[i];
    if (c < '0' || c > '9') return syntax();
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (n > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return range();
    n = n * 10 + d;
  }
  if (!neg && n >= cutoff) return range();
  if (neg && n > cutoff) return range();
  if (neg) return AtoiResult{n == cutoff ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(n),
                             std::nullopt};
  return AtoiResult{static_cast<std::int64_t>(n), std::nullopt};
}

// Original to BLIS: int(float64) (see gotext.h).
int goIntFromFloat(double x) {
  if (std::isnan(x)) return std::numeric_limits<int>::min();
  const double t = std::trunc(x);
  if (t < static_cast<double>(std::numeric_limits<int>::min()) ||
      t > static_cast<double>(std::numeric_limits<int>::max())) {
    return t > 0 && t < 9223372036854775807.0 ? std::numeric_limits<int>::max() : std::numeric_limits<int>::min();
  }
  return static_cast<int>(t);
}

// Original to BLIS: a Go int in a C++ int (see gotext.h).
int goIntFromInt64(std::int64_t v) {
  if (v < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
  if (v > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  return static_cast<int>(v);
}

}  // namespace blis::router::metrics
