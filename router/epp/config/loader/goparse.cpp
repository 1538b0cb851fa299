// Original to BLIS: see goparse.h (ports of strconv.ParseBool, time.ParseDuration and the syntax check of
// resource.ParseQuantity).
#include "router/epp/config/loader/goparse.h"

#include <limits>
#include <map>

namespace blis::router::loader {

// strconv/atob.go ParseBool
BoolResult ParseBool(const std::string& s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return {true, std::nullopt};
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") return {false, std::nullopt};
  return {std::nullopt, "strconv.ParseBool: parsing \"" + s + "\": invalid syntax"};
}

// time/format.go ParseDuration (same grammar, overflow checks and unit table; nanosecond result).
DurationResult ParseDuration(const std::string& orig) {
  const auto quoted = "\"" + orig + "\"";
  const auto invalid = [&] { return DurationResult{std::nullopt, "time: invalid duration " + quoted}; };
  std::string s = orig;
  std::uint64_t d = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s = s.substr(1);
  }
  if (s == "0") return {0, std::nullopt};
  if (s.empty()) return invalid();
  static const std::map<std::string, std::uint64_t> unitMap = {
      {"ns", 1ULL}, {"us", 1000ULL}, {"\xc2\xb5s", 1000ULL}, {"\xce\xbcs", 1000ULL}, {"ms", 1000000ULL},
      {"s", 1000000000ULL}, {"m", 60ULL * 1000000000ULL}, {"h", 3600ULL * 1000000000ULL}};
  const std::uint64_t maxNeg = 1ULL << 63;
  while (!s.empty()) {
    std::uint64_t v = 0, f = 0;
    double scale = 1;
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) return invalid();
    // leadingInt
    std::size_t i = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (v > maxNeg / 10) return invalid();
      v = v * 10 + static_cast<std::uint64_t>(s[i] - '0');
      if (v > maxNeg) return invalid();
    }
    bool pre = i != 0;
    s = s.substr(i);
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s = s.substr(1);
      // leadingFraction
      std::size_t j = 0;
      bool overflow = false;
      for (; j < s.size() && s[j] >= '0' && s[j] <= '9'; ++j) {
        if (overflow) continue;
        if (f > (std::numeric_limits<std::int64_t>::max() - 9) / 10) {
          overflow = true;
          continue;
        }
        std::uint64_t y = f * 10 + static_cast<std::uint64_t>(s[j] - '0');
        if (y > maxNeg) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j != 0;
      s = s.substr(j);
    }
    if (!pre && !post) return invalid();
    std::size_t u = 0;
    for (; u < s.size(); ++u) {
      char c = s[u];
      if (c == '.' || (c >= '0' && c <= '9')) break;
    }
    if (u == 0) return {std::nullopt, "time: missing unit in duration " + quoted};
    std::string unitName = s.substr(0, u);
    s = s.substr(u);
    auto it = unitMap.find(unitName);
    if (it == unitMap.end()) return {std::nullopt, "time: unknown unit \"" + unitName + "\" in duration " + quoted};
    std::uint64_t unit = it->second;
    if (v > maxNeg / unit) return invalid();
    v *= unit;
    if (f > 0) {
      v += static_cast<std::uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > maxNeg) return invalid();
    }
    d += v;
    if (d > maxNeg) return invalid();
  }
  if (neg) return {-static_cast<std::int64_t>(d - 1) - 1, std::nullopt};
  if (d > maxNeg - 1) return invalid();
  return {static_cast<std::int64_t>(d), std::nullopt};
}

// k8s.io/apimachinery/pkg/api/resource/quantity.go@v0.34 parseQuantityString + ParseQuantity's suffix check
std::optional<std::string> ValidateQuantity(const std::string& str) {
  const std::string errFormat =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  if (str.empty()) return std::string("expected non-empty quantity");
  std::size_t pos = 0, end = str.size();
  if (str[pos] == '+' || str[pos] == '-') ++pos;
  if (pos == end) return errFormat;
  bool digits = false;
  // whole part
  while (pos < end && str[pos] >= '0' && str[pos] <= '9') { ++pos; digits = true; }
  if (pos < end && str[pos] == '.') {
    ++pos;
    while (pos < end && str[pos] >= '0' && str[pos] <= '9') { ++pos; digits = true; }
  }
  if (!digits) return errFormat;
  // suffix: the rest must be one of the known suffixes or an exponent form.
  std::string suffix = str.substr(pos);
  static const char* known[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E"};
  for (const char* k : known) {
    if (suffix == k) return std::nullopt;
  }
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::size_t i = 1;
    if (suffix[i] == '+' || suffix[i] == '-') ++i;
    if (i < suffix.size()) {
      bool ok = true;
      for (std::size_t j = i; j < suffix.size(); ++j) ok = ok && suffix[j] >= '0' && suffix[j] <= '9';
      if (ok) return std::nullopt;
    }
  }
  for (char c : suffix) {
    bool allowed = (c >= '0' && c <= '9') || c == '+' || c == '-' || std::string("eEinumkKMGTP").find(c) != std::string::npos;
    if (!allowed) return errFormat;
  }
  return std::string("unable to parse quantity's suffix");
}

}  // namespace blis::router::loader
