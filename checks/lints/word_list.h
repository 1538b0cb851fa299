// The engine-word list (X2, X19): invariants/engine-words.txt, read once, matched against identifiers,
// string literals, keys and script tokens.
//
// File format: one entry per line; `#` starts a comment; blank lines are ignored. An entry is a word
// (engine name, engine-only setting name, engine version string, upstream source-path fragment).
// Matching is per token (a maximal run of letters, digits, '_', '-', '.', '/'): the token and the entry are
// compared case-insensitively with '_' and '-' removed ('.' and '/' are kept and must match), so
// `max_num_seqs`, `maxNumSeqs` and `max-num-seqs` are one word and `0.5.18` is not the date `05-18`; an
// entry matches when it is a run of the token's parts: it starts and ends at a part boundary (a separator,
// a lower-to-upper case change, a change between letters and digits, or the token's ends).
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace blis::lint {

struct WordMatch {
  size_t offset = 0;  // byte offset of the token in the text searched
  size_t length = 0;  // the token's length
  std::string word;   // the list entry that matched
};

// INTERFACES.md "Lint allowances": keys whose values (and what is nested under them) cite a data source;
// provenance, not engine words (source, cite, url, quote, title, ...).
const std::set<std::string>& citation_keys();

// The versions file a run reads: a fixture directory's own versions.yaml stands in for the repository's.
std::filesystem::path versions_file(const std::filesystem::path& root, const std::filesystem::path& fixture_root);

class EngineWords {
 public:
  // Reads the list; errors name the file and line (an empty or duplicate entry, a bad character).
  static EngineWords load(const std::filesystem::path& file, std::vector<std::string>& errors);
  static EngineWords from_words(std::vector<std::string> words);
  // The list plus the pinned engine releases and commits, which are engine words too: X23 lets only the
  // versions file state a version, so they are read from its `upstreams:` entries whose key is a listed
  // word (vllm, sglang; the router's pin is not an engine's), never restated in the list.
  static EngineWords load_with_pins(const std::filesystem::path& list, const std::filesystem::path& versions,
                                    std::vector<std::string>& errors);

  // Every token of `text` that holds a listed word, in text order (one match per token).
  std::vector<WordMatch> find(std::string_view text) const;
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::vector<std::string> words_;  // as written
  std::vector<std::string> keys_;   // lower case, without '_' and '-'
};

}  // namespace blis::lint
