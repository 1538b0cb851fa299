// Option values as the commands read them: the whole text must be the number, nothing else.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blis::cli {

// A whole-text integer >= 1 (`--replications 3`), else std::nullopt.
inline std::optional<std::int64_t> positive(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || v < 1) return std::nullopt;
  return v;
}

// Why `flag`'s value is not a positive integer, naming the flag and the value (the refusal's text).
inline std::string positive_refusal(std::string_view flag, bool has_value, std::string_view value) {
  if (!has_value) return std::string(flag) + " needs a value: a positive integer";
  return std::string(flag) + ": '" + std::string(value) + "' is not a positive integer";
}

// A whole-text finite number (`--confidence 0.99`), else std::nullopt.
inline std::optional<double> finite_number(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace blis::cli
