// blis-published-cache-key (DEV-4): a value one component publishes for others carries its time and publication
// sequence, and every cache of it is keyed on both. A published value is an engine's metrics as the contract
// holds them: blis::engine::Published, or blis::engine::MetricSample (a sample of its metrics endpoint).
//
// Flagged: a data member of a class or struct whose type holds a published value (directly, or inside a
// template argument, an optional, a container, a pointer, a reference or an array) when the same record has no
// data member whose name contains `published` (the publication's time) or none whose name contains `sequence`
// (its publication sequence). The finding sits at the member holding the value.
// Not flagged: the published-value types themselves (Published holds its samples), locals and parameters (a
// value in flight is not a cache), records holding both keys beside the value, and other types.
#pragma once

#include "lint.h"

namespace blis::lint {

class PublishedCacheKey : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
