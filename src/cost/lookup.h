// Resolving a coefficient lookup to one registry entry (§9.2, VAL-3, VAL-4, VAL-8, VAL-10;
// registry/README.md "Lookup and the order of precedence").
//
// An entry answers a lookup when every scope key it states equals the lookup's; an entry stating `kernel`
// answers only the exact library and variant with the lookup's hash among its code_hashes (no fallback to
// a sibling implementation, VAL-8), and a key the lookup leaves unset is answered only by entries that
// leave it out too. Of the answering entries the smallest rank is used; within that rank VAL-4's precedence
// (src/data's compare_scopes, through Coefficients::order) picks one. Flags never change the choice, only
// how the price reports it: extrapolated (the input point lies outside the entry's input_range: effective
// rank max(rank, 3), transferred) and unidentified (interval unbounded or wider than half |value|:
// effective rank 7, assumed). Every other answering entry is reported as displaced.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cost/coefficients.h"

namespace blis::cost {

// What executes a primitive (design §6.2 KernelImpl).
struct KernelImpl {
  std::string library;
  std::string variant;
  std::string code_hash;
};

// The full key of what is priced; an unset field is a dimension the lookup does not have.
struct LookupKey {
  std::optional<KernelImpl> kernel;
  std::string chip;
  std::optional<std::string> dtype, model, workload, fabric, span;
  std::optional<std::int64_t> group_size, tp, ep, pp, dp, cp;

  std::string text() const;  // {kernel: lib/variant@hash, chip: ..., ...} in precedence order
};

struct Resolved {
  std::string name;         // the coefficient looked up
  const Entry* entry = nullptr;
  bool charged = true;      // false for not_charged: the term that reads it adds nothing
  double value = 0.0;       // at the input point (the curve's value where the entry has one); 0 when not charged
  Method method = Method::assumed;
  int rank = 0;
  int effective_rank = 0;
  bool extrapolated = false;
  bool unidentified = false;
  std::vector<std::string> displaced;  // identity texts of every other answering entry, in registry order
  std::vector<std::string> extrapolated_inputs;  // "m = 1e+06 outside [1, 4096]"
};

// Whether `entry` answers `key` (the scope rule above).
bool answers(const Entry& entry, const LookupKey& key);

// Resolves `name` (<family>.<coefficient>) for `key` at `point`. Refuses (CostError) a lookup no entry
// answers (naming the coefficient and the key), two entries of the smallest rank the precedence leaves
// unordered (the load should have refused them), and an input_range input the point does not give.
Resolved resolve(const Coefficients& coefficients, std::string_view name, const LookupKey& key, const InputPoint& point);

}  // namespace blis::cost
