// blis-no-clock (X6, VLM-5, RTR-6): code that runs under simulated time never reads a real clock.
#pragma once

#include "lint.h"

namespace blis::lint {

class NoClock : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
