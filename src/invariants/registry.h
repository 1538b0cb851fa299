// The invariant registry as compiled into the blis binary. blis-gen writes the table (in the build
// directory) from invariants/*.yaml; this header owns its shape. Absent optional text is empty.
#pragma once

#include <span>
#include <string_view>

namespace blis::invariants {

struct Check {
  std::string_view name, runs, target, status;
  std::span<const std::string_view> command;
  std::string_view input, runner, known_bad, expect;
  bool in_build = false;  // whether the program the check runs is part of this build
};

struct Review {
  std::string_view question, expertise, applies_when;
};

struct Counterpart {
  std::string_view design, here;
};

struct Invariant {
  std::string_view id, family, title, section, statement;
  std::span<const std::string_view> applies_to, kind;
  std::span<const Check> checks;
  const Review* review = nullptr;
  std::string_view status;
  const Counterpart* cpp_counterpart = nullptr;
  std::string_view not_applicable;
  std::span<const std::string_view> gaps;
  std::string_view trigger, undefined;
};

// Every record, sorted by identifier (family, then number).
std::span<const Invariant> table();

}  // namespace blis::invariants
