// blis-label-branch (SUB-20): no price, size or engine decision depends on a free-text label. Schema fields
// kept only for people (descriptions, notes, free-text titles and reasons) carry `label: true` in
// schemas/; blis-gen declares them with the type alias blis::Label (src/contracts/label.h), and this lint
// refuses, outside tests, every comparison on an expression of that type:
//   - ==, !=, <, >, <=, >=, <=> (and their C++20 rewritten forms), std::equal_to and the like;
//   - compare, starts_with, ends_with, find and its variants, contains, on a label or with a label
//     argument, and the C library's strcmp family, std::regex_match and std::regex_search;
//   - use as a lookup key: find, count, contains, at, lower_bound, upper_bound, equal_range or [] with a
//     label argument (a map keyed by a label decides by it);
//   - switch-like uses: a switch whose condition reads a label.
// A label is followed through the ways code holds one: `const Label&` parameters and variables, pointers
// to a Label, std::optional<Label> and containers of labels (*, ->, value(), value_or(), [], at(),
// front(), back(), range-for), .c_str(), .data(), .substr(), a character of it, a std::string or
// std::string_view made from it, and a local variable initialised from one.
// Printing, copying, hashing, testing presence or emptiness and writing to JSON are not comparisons.
#pragma once

#include "lint.h"

namespace blis::lint {

class LabelBranch : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
