// blis-sampled-length (DEV-13): a request's sampled output length is written by the workload generator and
// read only by the trace writer, replay and the engine's stop check (where it acts as an end-of-sequence
// token at that position). Everything else (the engine's scheduler, the router, admission, flow control)
// sees what its real counterpart sees: the client's max tokens and the tokens emitted so far.
//
// The rule is by field name, whatever class holds it: the request type (written by the simulator issue)
// MUST name the length `sampled_output_len`, as a data member (INTERFACES.md "What a request carries"),
// and must not hide it behind an accessor (the accessor's body would be a read here).
//
// Flagged outside the declared sites (the record's allowances) and tests: every use of a data member named
// `sampled_output_len`: reading it (passing it on, copying it, comparing it, binding it in a structured
// binding, a template's `t.sampled_output_len`), writing it (assignment, ++/--, a designated initializer,
// a constructor's member initializer) and taking a pointer to it (`&Request::sampled_output_len`).
// Not flagged: the member's declaration (with its default initializer), unevaluated operands (sizeof,
// decltype), the compiler's implicit copies and moves of the whole request, and other names
// (`max_tokens`, a local variable or function called sampled_output_len).
#pragma once

#include "lint.h"

namespace blis::lint {

// The data member the rule is about (DEV-13).
inline constexpr const char* kSampledOutputLen = "sampled_output_len";

class SampledLength : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
