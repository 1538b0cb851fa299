// blis-model-literals (SUB-3): no model value is hard-coded in the cost model or an engine's lowering code.
// The model names are not written here: they are read at run time from the catalog under --root
// (catalog/models/<dir>/model.yaml and graph.yaml), so a model added to the catalog is covered at once.
//
// A string literal or a declared name (variable, function, field, type, enumerator, namespace) is flagged
// when it holds, case-insensitively:
//   - a model's Hugging Face id (`Qwen/Qwen3-8B`), its name part (`Qwen3-8B`) or its catalog directory
//     name (`Qwen--Qwen3-8B`); '-', '_', '.', '/' and ' ' count as the same separator, so `qwen3_8b`
//     in an identifier is the name part too;
//   - a model family the catalog implies: the leading letters of a model's name part (`Qwen3-8B` ->
//     `qwen`, `DeepSeek-V3` -> `deepseek`) when they have three letters or more and the model's graph
//     names an architecture that starts with them (`Qwen3ForCausalLM`), or the model has no graph yet.
//     So `Meta-Llama-3.1-8B` (architecture LlamaForCausalLM) yields no family `meta`, and `Yi-34B` none.
// Each term matches only as a whole word: at a separator, a digit, the text's ends, or a camel-case
// boundary (`isLlama4`, `kDeepseekV3`), never inside a longer word (`gptq`, `llamas`, `yield`).
// Architecture words (moe, attention, rope, mla), comments and tests are not model names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint.h"

namespace blis::lint {

class ModelLiterals : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  struct Term {
    std::string text;  // as the catalog spells it
    bool family = false;
  };
  void load_catalog(Context& ctx);
  // The longest catalog term `text` holds as a whole word, or nullptr.
  const Term* term_in(std::string_view text) const;

  Context* ctx_ = nullptr;
  std::vector<Term> terms_;  // longest first
};

}  // namespace blis::lint
