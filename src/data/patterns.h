// Which files count as data (§3.3, SUB-9): the pattern table gen/embed_data.py compiles from patterns.yaml.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blis::data {

// The three trees of data. The catalog and the registry load from the embedded copy or a path; the
// ledger's published role lists are embedded only.
enum class Tree : std::uint8_t { catalog, registry, ledger };
std::string_view tree_name(Tree t);

// How an overlay entry is identified (§3.3).
enum class OverlayIdentity : std::uint8_t {
  file,         // the whole file
  directory,    // the whole directory the file sits in (models/<name>/)
  coefficient,  // one coefficient-set entry: set, name, scope, method
  none,         // the tree takes no overlay
};
std::string_view overlay_identity_name(OverlayIdentity o);

struct PatternRow {
  Tree tree;
  std::string_view pattern;  // '/'-separated; a segment holds at most one '*' (a non-empty run without '/')
  std::string_view kind;     // the document kind, which selects the validator
  OverlayIdentity overlay;
};

struct IgnoredRow {  // a file inside a data directory that is not data (a model's config.json)
  Tree tree;
  std::string_view pattern;
};

bool glob_match(std::string_view pattern, std::string_view path);

struct Classification {
  enum class What : std::uint8_t {
    data,       // matches `row`
    ignored,    // matches an ignored pattern
    outside,    // outside every data directory, and no top-level pattern: not data, never read
    unmatched,  // inside a data directory, matching nothing: refused
  };
  What what;
  const PatternRow* row = nullptr;
};

class PatternTable {
 public:
  PatternTable(std::span<const PatternRow> rows, std::span<const IgnoredRow> ignored);

  // The table compiled from src/data/patterns.yaml, the one the embedded copy was selected with.
  static const PatternTable& compiled();

  Classification classify(Tree tree, std::string_view path) const;
  bool is_data_directory(Tree tree, std::string_view name) const;
  // The patterns under one data directory, comma-separated, for messages.
  std::string patterns_under(Tree tree, std::string_view directory) const;
  // Every document kind of a tree, in table order without repeats.
  std::vector<std::string_view> kinds(Tree tree) const;

  std::span<const PatternRow> rows() const { return rows_; }
  std::span<const IgnoredRow> ignored() const { return ignored_; }

 private:
  std::span<const PatternRow> rows_;
  std::span<const IgnoredRow> ignored_;
};

}  // namespace blis::data
