// What `blis invariants` prints: listings, JSON and the status summary, computed from a table.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "invariants/registry.h"

namespace blis::invariants {

struct Filter {
  std::string_view status;  // empty: any
  std::string_view family;  // empty: any
  std::string_view id;      // empty: any
};

std::vector<const Invariant*> select(std::span<const Invariant> all, const Filter& f);

// The registry as JSON, byte-identical to docs/invariants.json for the whole table.
std::string to_json(std::span<const Invariant* const> rows);

// One line per record: id, status, kind, title.
std::string to_text(std::span<const Invariant* const> rows);

struct StatusReport {
  std::string text;  // counts by family and status, then every problem found
  int problems = 0;  // records that claim ci or partial while a ci check is missing from the build
};

StatusReport status(std::span<const Invariant> all);

}  // namespace blis::invariants
