// Where validation plugs into the loader. Every load runs the validator of every loaded file's kind and
// then every cross-check over the combined catalog and registry (§3.3 "Checking data at load", SUB-9).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "data/data_set.h"
#include "data/diagnostics.h"
#include "data/patterns.h"

namespace blis::data {

// Checks one document (parse it from file.bytes) and reports each problem with diags.error(file, line, col, ...).
using KindValidator = std::function<void(const LoadedFile& file, Diagnostics& diags)>;

// Checks the combined data (after overlays): rules between files and between catalog and registry.
using CrossCheck = std::function<void(const DataSet& data, Diagnostics& diags)>;

class ValidatorTable {
 public:
  // One validator per kind; a second registration for the same kind replaces the first.
  void set_kind_validator(std::string kind, KindValidator v);
  // Cross-checks run in name order; a second registration under one name replaces the first.
  void add_cross_check(std::string name, CrossCheck c);

  const KindValidator* kind_validator(std::string_view kind) const;
  const std::map<std::string, CrossCheck, std::less<>>& cross_checks() const { return cross_; }
  // The kinds of the catalog and registry patterns that have no validator (a load refuses any file of one).
  std::vector<std::string> missing_kinds(const PatternTable& table) const;

 private:
  std::map<std::string, KindValidator, std::less<>> kinds_;
  std::map<std::string, CrossCheck, std::less<>> cross_;
};

// The table every production load uses: the generated validator of each document kind and the
// cross-checks (add_builtin_cross_checks). Defined in standard_validators.cpp, the one place to wire them.
ValidatorTable standard_validators();

}  // namespace blis::data
