// blis-engine-words (X2): the engine-independent foundation knows no engine. No word of
// invariants/engine-words.txt in the declared names (functions, variables, parameters, fields, types,
// enumerators, namespaces) and string literals of src/contracts/, src/cost/, src/data/, nor in the keys
// and values of the data files (YAML, JSON, text) of catalog/, registry/ and schemas/ (not
// schemas/examples/, which is test input, nor schemas/json/, generated from schemas/*.yaml which is read).
//
// Not engine words (INTERFACES.md "Lint allowances"): the kernel library names vllm-csrc and
// sglang-kernel; data-source citations (values under citation keys: source, cite, url, quote, title, ...);
// comments; tests (any path with a test/ or tests/ component); Python (the scripts lint reads it) and prose
// (Markdown).
//
// The pinned engine releases and commits are engine words too; they are read from versions.yaml (the one
// place X23 lets a version be written), never restated in the list.
//
// The count per scope directory is a ratchet that may only fall (invariants/engine-words-ratchet.txt, a
// text file because every invariants/*.yaml is a record:
// `<directory>: <allowed count>`, a missing entry is 0): every occurrence in a directory over its ratchet
// is reported, and so is a ratchet entry above the count found ("lower the ratchet").
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "lint.h"
#include "word_list.h"

namespace blis::lint {

class EngineWordsLint : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  bool wants_file(const std::string& repo_path) const override;
  void scan_file(const std::string& repo_path, const std::string& text, Context& ctx) override;
  void finish(Context& ctx) override;

 private:
  struct Occurrence {
    std::string path;
    unsigned line = 0;
    unsigned col = 0;
    std::string message;
    auto operator<=>(const Occurrence&) const = default;
  };
  struct Ratchet {
    long allowed = 0;
    unsigned line = 0;
  };

  void load_words(Context& ctx);
  // The engine words of `text` that no allowance covers, as (offset, word).
  std::vector<std::pair<size_t, std::string>> words_in(std::string_view text) const;
  void add(const std::string& path, unsigned line, unsigned col, const std::string& word, const char* where);
  void scan_data(const std::string& path, const std::string& text);
  void scan_ratchet(const std::string& path, const std::string& text);
  std::string ratchet_dir(const std::string& path) const;

  Context* ctx_ = nullptr;
  bool loaded_ = false;
  EngineWords words_;
  std::vector<std::string> list_errors_;
  std::set<Occurrence> found_;  // ordered and deduplicated (headers and templates are seen many times)
  std::map<std::string, Ratchet> ratchet_;
  std::vector<Occurrence> ratchet_errors_;
};

}  // namespace blis::lint
