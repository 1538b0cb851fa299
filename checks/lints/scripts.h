// blis-scripts (X19, X2): scripts and generators never write an engine default, and name no engine.
//
// Over every *.py and *.sh file of the lint's scope (catalog/scripts/, registry/scripts/, gen/, scripts/,
// ledger/, and the scripts of checks/ up to three levels down, named by pattern so the lint pass does not
// parse checks/' C++ for this file lint), tests excepted (any path with a test/ or tests/ component, which
// also keeps the lint fixtures under checks/lints/test/ out), it flags:
//  (a) engine words (invariants/engine-words.txt, matched by word_list.h): in Python, in identifiers and
//      string literals (read with the tree-sitter reader, python/reader.h); in shell, in the tokens of the
//      script. A string that is the value of a citation key (`source=`, `{"url": ...}`, `cite = ...`)
//      cites a data source and is not an engine word (INTERFACES.md "Lint allowances").
//  (b) literal engine defaults: an assignment, class field, parameter default, keyword argument, dict
//      entry or argparse declaration (`add_argument("--max-num-seqs", default=256)`) whose name or key is
//      an engine word, with a literal value (a number, string, bool or collection of them); in shell,
//      `NAME=value`, `--name=value` and `--name value` with a literal value. `None` is not a default: it
//      leaves the setting unstated, as X19 asks (the name itself is still an engine word).
//  A Python file that does not parse is a finding, not a silent pass.
//
// Not flagged, by decision: comments (Python `#`, shell `#` outside quotes) and Python docstrings. They
// reach no output and cannot write a value, and they are where a script cites the measurement or
// upstream file its data came from; the same holds in blis-engine-words for C++ comments.
//
// What this lint cannot see (X19): a bare number under a neutral key (`max_batch = 256` that is in fact
// an engine's default), a default computed rather than written, or one read from another file. X19's
// second check, a test in every scenario generator that a generated scenario holds only stated or
// recorded values and cited workload-dependent ones, is the one that catches those. Shell is read by a
// small tokenizer (no bash grammar is pinned), so a here-document is read as if it were commands.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lint.h"
#include "word_list.h"

namespace blis::lint {

class ScriptsLint : public Lint {
 public:
  using Lint::Lint;
  bool reads_units() const override { return false; }  // scripts only: no translation unit
  bool wants_file(const std::string& repo_path) const override;
  void scan_file(const std::string& repo_path, const std::string& text, Context& ctx) override;

 private:
  void load_words(Context& ctx);
  void scan_python(const std::string& path, const std::string& text, Context& ctx);
  void scan_shell(const std::string& path, const std::string& text, Context& ctx);
  // The first list word a name holds ("" if none).
  std::string word_in(std::string_view name) const;

  bool loaded_ = false;
  EngineWords words_;
  std::vector<std::string> list_errors_;
};

}  // namespace blis::lint
