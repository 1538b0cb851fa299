#include "contracts/engine/results.h"

#include <array>

namespace blis::engine {

namespace {

constexpr std::array<std::string_view, 7> kNames = {"measured",    "calibrated", "transferred", "literature",
                                                    "vendor_spec", "roofline",   "assumed"};

}  // namespace

std::string_view method_name(Method m) {
  const int r = rank_of(m);
  return r >= 1 && r <= static_cast<int>(kNames.size()) ? kNames[static_cast<std::size_t>(r - 1)] : std::string_view();
}

std::optional<Method> method_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Method>(i + 1);
  return std::nullopt;
}

std::string_view basis_name(const MemoryBytes& bytes) {
  switch (bytes.index()) {
    case 0:
      return "rank";
    case 1:
      return "node";
    default:
      return "group";
  }
}

}  // namespace blis::engine
