// Input checks shared by the output-analysis functions (internal to src/sim/analysis). Every refusal is a
// std::invalid_argument whose message reads "<function>: <parameter> = <value>: <cause>", so it names the
// parameter, the value and the cause.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace blis::sim::analysis::detail {

// The shortest decimal that reads back as v (std::to_chars), so a message shows the exact value.
std::string number(double v);
std::string number(std::size_t v);

[[noreturn]] void refuse(std::string_view function, std::string_view parameter, std::string_view value,
                         std::string_view cause);

// Refuses a NaN or infinite element, naming its index and value.
void require_finite(std::string_view function, std::string_view parameter, std::span<const double> values);
// Refuses fewer than `minimum` elements, naming the size, `why` (the cause) and the minimum.
void require_size(std::string_view function, std::string_view parameter, std::span<const double> values,
                  std::size_t minimum, std::string_view why);
// Refuses a confidence level outside the open interval (0, 1), or NaN.
void require_confidence(std::string_view function, std::string_view parameter, double confidence);

}  // namespace blis::sim::analysis::detail
