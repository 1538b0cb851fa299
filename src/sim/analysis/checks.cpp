#include "sim/analysis/checks.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace blis::sim::analysis::detail {

std::string number(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string number(std::size_t v) { return std::to_string(v); }

void refuse(std::string_view function, std::string_view parameter, std::string_view value, std::string_view cause) {
  std::string m;
  m.append(function).append(": ").append(parameter).append(" = ").append(value).append(": ").append(cause);
  throw std::invalid_argument(m);
}

void require_finite(std::string_view function, std::string_view parameter, std::span<const double> values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      refuse(function, std::string(parameter) + "[" + number(i) + "]", number(values[i]),
             "every value must be finite (not NaN or infinite)");
    }
  }
}

void require_size(std::string_view function, std::string_view parameter, std::span<const double> values,
                  std::size_t minimum, std::string_view why) {
  if (values.size() < minimum) {
    refuse(
        function, std::string(parameter) + ".size()", number(values.size()),
        std::string(why) + " (at least " + number(minimum) + (minimum == 1 ? " value is" : " values are") + " needed)");
  }
}

void require_confidence(std::string_view function, std::string_view parameter, double confidence) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    refuse(function, parameter, number(confidence), "a confidence level must lie in the open interval (0, 1)");
  }
}

}  // namespace blis::sim::analysis::detail
