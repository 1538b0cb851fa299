// VAL-4's one order of precedence over every scope dimension, as registry/README.md writes it:
//
//   kernel > chip > dtype > model > workload > fabric > span > group_size > tp > ep > pp > dp > cp
//
// Two entries of one rank that can answer one lookup (every key both state agrees; for a mapping value
// such as kernel, every field both state agrees, and list fields such as code_hashes overlap) are compared
// dimension by dimension in this order: at the first dimension one states and the other leaves out, the
// one that states it wins, whatever order the entries were loaded in. Two entries that state the same
// dimensions are not ordered, and the load refuses them. The list equals the field order of Scope in
// schemas/registry/coefficient-set.yaml (a test compares them); the cost model resolves lookups by this
// same function (VAL-4's cost-scope-precedence test).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "data/data_set.h"

namespace blis::data {

std::span<const std::string_view> scope_precedence();

enum class ScopeOrder : std::uint8_t { disjoint, first_wins, second_wins, unordered };

// Whether one lookup can match both scopes (both sorted by key, as CoefficientId keeps them).
bool scopes_compatible(std::span<const ScopeItem> a, std::span<const ScopeItem> b);

// disjoint when no lookup matches both; otherwise which one the precedence picks, or unordered.
ScopeOrder compare_scopes(std::span<const ScopeItem> a, std::span<const ScopeItem> b);

}  // namespace blis::data
