// blis-unordered-iteration (X6, RTR-6): no walk over a std::unordered_* container in simulation, cost,
// engine or router code: its order follows the hash function and the insertion history, which differ
// across library versions and platforms, so a walk that reaches output or a decision breaks the byte gate.
//
// A container is recognised by its type, through aliases, `const&`, pointers, members, std::pmr and classes
// derived from one. Flagged:
//   - a range-for over it;
//   - begin()/cbegin() on it (member, std::begin, std::cbegin; also the bucket form begin(n)): every
//     iterator walk, a std:: algorithm over its iterators, `*m.begin()` and `m.erase(m.begin())` start here;
//   - passing it to anything in std::ranges (algorithms and views: ranges::for_each, views::keys, `m | ...`)
//     except ranges::size/ssize/empty/swap;
//   - advancing one of its iterators (++, --, std::next, std::advance): walking on from a find() or across
//     an equal_range, whose order of equal keys is unspecified. The iterator types are libstdc++'s
//     (std::__detail::_Node_iterator and friends), the toolchain of TOOLCHAIN.md.
// Not flagged: lookups (find, count, contains, at, operator[], equal_range itself, end() compared with a
// find result), insert/erase by key, size/empty, swap, comparing two containers, std::erase_if (what
// remains does not depend on the order).
// Decided: copying a std::unordered_map/unordered_set into a std::map/std::set, by the iterator-pair
// constructor or insert(first, last), is the one walk allowed: the ordered container's content does not
// depend on the order it was filled in. Copies of the multi containers are flagged (a std::map keeps the
// first of equal keys, which depends on order), and so are copies into a vector, even when sorted after:
// the lint cannot see that the sort makes the order total. An order-free reduction (a count, an integer
// sum) is flagged too, because the lint cannot tell it from an order-dependent one (a floating-point sum):
// write it over an ordered container.
#pragma once

#include <string>

#include "lint.h"

namespace blis::lint {

class UnorderedIteration : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  void found(const clang::SourceManager& sm, clang::SourceLocation loc);
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
