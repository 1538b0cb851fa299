#include "data/scope_precedence.h"

#include <algorithm>
#include <array>

namespace blis::data {
namespace {

constexpr std::array<std::string_view, 13> kPrecedence = {
    "kernel", "chip", "dtype", "model", "workload", "fabric", "span", "group_size", "tp", "ep", "pp", "dp", "cp"};

const ScopeItem* find(std::span<const ScopeItem> s, std::string_view key) {
  for (const auto& i : s) {
    if (i.key == key) return &i;
  }
  return nullptr;
}

bool values_compatible(const ScopeItem& a, const ScopeItem& b) {
  if (a.fields.empty() || b.fields.empty()) return a.value == b.value;  // a scalar or a list: equal
  for (const auto& [k, items] : a.fields) {  // a mapping: shared fields agree (lists overlap)
    for (const auto& [k2, items2] : b.fields) {
      if (k != k2) continue;
      const bool overlap = std::any_of(items.begin(), items.end(), [&](const std::string& x) {
        return std::binary_search(items2.begin(), items2.end(), x);
      });
      if (!overlap) return false;
    }
  }
  return true;
}

}  // namespace

std::span<const std::string_view> scope_precedence() { return kPrecedence; }

bool scopes_compatible(std::span<const ScopeItem> a, std::span<const ScopeItem> b) {
  for (const auto& x : a) {
    const ScopeItem* y = find(b, x.key);
    if (y != nullptr && !values_compatible(x, *y)) return false;
  }
  return true;
}

ScopeOrder compare_scopes(std::span<const ScopeItem> a, std::span<const ScopeItem> b) {
  if (!scopes_compatible(a, b)) return ScopeOrder::disjoint;
  for (auto key : kPrecedence) {
    const bool in_a = find(a, key) != nullptr;
    const bool in_b = find(b, key) != nullptr;
    if (in_a != in_b) return in_a ? ScopeOrder::first_wins : ScopeOrder::second_wins;
  }
  return ScopeOrder::unordered;
}

}  // namespace blis::data
