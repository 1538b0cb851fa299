#include "contracts/doc/scalars.h"

#include <charconv>
#include <cmath>
#include <regex>

namespace blis::doc {
namespace {

bool matches(const std::string& s, const std::regex& re) { return std::regex_match(s, re); }

// Decimal-number syntax shared by YAML 1.2's core schema and JSON (no hex, octal or infinities).
const std::regex kDecimal(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
const std::regex kCoreInt("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
const std::regex kSpecialFloat(R"([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))");

std::string quoted(const std::string& s) { return "'" + s + "'"; }

bool refuse(Diagnostics& d, const Node& n, const std::string& field, std::string cause) {
  d.add(n.mark, field, std::move(cause));
  return false;
}

bool scalar_or_refuse(const Node& n, const std::string& field, Diagnostics& d, const char* expected) {
  if (n.kind == Kind::Scalar) return true;
  return refuse(d, n, field, std::string("expected ") + expected + ", got " + kind_name(n));
}

}  // namespace

const char* plain_type(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return "null";
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE") return "bool";
  if (matches(s, kCoreInt)) return "int";
  if (matches(s, kDecimal) || matches(s, kSpecialFloat)) return "float";
  return "str";
}

std::string show_number(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool to_int(const Node& n, const std::string& field, Diagnostics& d, std::int64_t& out) {
  if (!scalar_or_refuse(n, field, d, "an integer")) return false;
  const std::string& s = n.scalar;
  if (n.style == Style::Quoted)
    return refuse(d, n, field, "expected an integer, got the string " + quoted(s) + " (remove the quotes)");
  if (!matches(s, kDecimal)) return refuse(d, n, field, "expected an integer, got " + quoted(s));
  // Exact: digits * 10^exp, integral and inside int64, or refused. 3.0 and 1e3 are integers; 3.5 is not.
  bool negative = s[0] == '-';
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  std::string digits;
  long exp = 0;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') continue;
    digits += s[i];
  }
  if (const auto dot = s.find('.'); dot != std::string::npos) {
    const auto end = s.find_first_of("eE");
    exp -= static_cast<long>((end == std::string::npos ? s.size() : end) - dot - 1);
  }
  if (i < s.size()) {
    long e = 0;
    const char* first = s.data() + i + 1 + (s[i + 1] == '+' ? 1 : 0);
    auto r = std::from_chars(first, s.data() + s.size(), e);
    if (r.ec != std::errc{} || e > 1000 || e < -1000)
      return refuse(d, n, field, quoted(s) + " does not fit a 64-bit integer");
    exp += e;
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exp;
  }
  if (digits.empty()) {
    out = 0;
    return true;
  }
  if (exp < 0) return refuse(d, n, field, quoted(s) + " is not an integer");
  if (static_cast<long>(digits.size()) + exp > 19)
    return refuse(d, n, field, quoted(s) + " does not fit a 64-bit integer");
  digits.append(static_cast<std::size_t>(exp), '0');
  if (negative) digits.insert(0, "-");
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  if (r.ec != std::errc{}) return refuse(d, n, field, quoted(s) + " does not fit a 64-bit integer");
  return true;
}

bool to_number(const Node& n, const std::string& field, Diagnostics& d, double& out) {
  if (!scalar_or_refuse(n, field, d, "a number")) return false;
  const std::string& s = n.scalar;
  if (n.style == Style::Quoted)
    return refuse(d, n, field, "expected a number, got the string " + quoted(s) + " (remove the quotes)");
  if (std::string(plain_type(s)) == "float" && !matches(s, kDecimal))
    return refuse(d, n, field, quoted(s) + " is not a finite number");
  if (!matches(s, kDecimal)) return refuse(d, n, field, "expected a number, got " + quoted(s));
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  auto r = std::from_chars(first, s.data() + s.size(), out);
  if (r.ec == std::errc::result_out_of_range) {
    const bool tiny = s.find_first_of("123456789") != std::string::npos &&
                      (s.find("e-") != std::string::npos || s.find("E-") != std::string::npos);
    return refuse(d, n, field, quoted(s) + (tiny ? " is too small for a double (it would become 0)"
                                                 : " is too large for a double"));
  }
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size() || !std::isfinite(out))
    return refuse(d, n, field, quoted(s) + " is not a finite number");
  if (out == 0.0 && s.find_first_of("123456789") < s.find_first_of("eE"))
    return refuse(d, n, field, quoted(s) + " is too small for a double (it would become 0)");
  return true;
}

bool to_bool(const Node& n, const std::string& field, Diagnostics& d, bool& out) {
  if (!scalar_or_refuse(n, field, d, "true or false")) return false;
  if (n.style == Style::Plain && n.scalar == "true") { out = true; return true; }
  if (n.style == Style::Plain && n.scalar == "false") { out = false; return true; }
  return refuse(d, n, field, "expected true or false, got " +
                                 (n.style == Style::Quoted ? "the string " + quoted(n.scalar) : quoted(n.scalar)));
}

bool to_string(const Node& n, const std::string& field, Diagnostics& d, std::string& out) {
  if (!scalar_or_refuse(n, field, d, "a string")) return false;
  if (n.style == Style::Plain) {
    const std::string t = plain_type(n.scalar);
    if (t == "null") return refuse(d, n, field, "expected a string, got null");
    if (t != "str")
      return refuse(d, n, field, "expected a string, got " + quoted(n.scalar) + ", which YAML reads as " +
                                     (t == "bool" ? "a boolean" : "a number") + " (quote it)");
  }
  out = n.scalar;
  return true;
}

}  // namespace blis::doc
