// The loaded catalog and registry: every file with its origin, the combined view after overlays, and the
// registry's coefficient entries by identity (§3.3).
#pragma once

#include <compare>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/patterns.h"

namespace blis::data {

enum class Source : std::uint8_t { embedded, path };
std::string_view source_name(Source s);

struct LoadedFile {
  Tree tree = Tree::catalog;
  std::string path;  // relative to its tree, forward slashes
  std::string kind;  // document kind (patterns.yaml), which selects the validator
  OverlayIdentity overlay = OverlayIdentity::file;
  std::string bytes;
  std::string sha256;     // of bytes, lower-case hex
  std::size_t layer = 0;  // 0: the base; n: the n-th overlay applied
  Source source = Source::embedded;
  std::string directory;  // the directory as given (a path source); empty when embedded

  // How messages name the file: '<directory>/<path>', or 'embedded <tree> <path>'.
  std::string location() const;
};

using FileRef = std::shared_ptr<const LoadedFile>;

struct Layer {
  Source source = Source::embedded;
  std::string directory;       // as given; empty when embedded
  std::string hash;            // §3.3's content hash of this layer's files
  std::vector<FileRef> files;  // sorted by path in byte order
};

struct TreeData {
  Tree tree = Tree::catalog;
  std::vector<Layer> layers;   // [0] the base, then each overlay in the order applied
  std::vector<FileRef> files;  // the combined data: sorted by path, then layer
  std::string combined_hash;

  // Where the base layer came from, for messages: "the embedded catalog" or "catalog <dir>".
  std::string source_text() const;

  // The combined file at path (for a coefficient set present in several layers: the last one).
  FileRef find(std::string_view path) const;
  std::vector<FileRef> of_kind(std::string_view kind) const;
};

struct ScopeItem {
  std::string key;
  std::string value;  // canonical text: a scalar as written; a list sorted, a mapping by key, in flow form
  // For a mapping value (kernel: library, variant, code_hashes): each field's items, sorted (a scalar is
  // one item). Empty for a scalar or list value.
  std::vector<std::pair<std::string, std::vector<std::string>>> fields;
  auto operator<=>(const ScopeItem&) const = default;
};

// A coefficient's identity (§3.3): its set, its name, its scope and its method.
struct CoefficientId {
  std::string set;
  std::string name;
  std::vector<ScopeItem> scope;  // sorted by key
  std::string method;            // the method's name (measured, calibrated, ...)
  auto operator<=>(const CoefficientId&) const = default;

  std::string text() const;  // (set s, name n, scope {k: v, ...}, method m)
};

struct Coefficient {
  CoefficientId id;
  std::string family;
  FileRef file;
  std::size_t entry = 0;         // index in the file's entries
  int line = 0;                  // 1-based line of the entry in file
  std::string location() const;  // file location with :line
};

struct DataSet {
  TreeData catalog;
  TreeData registry;
  std::vector<Coefficient> coefficients;  // the combined entries, sorted by identity
  std::vector<std::string> overlay_log;   // what each overlay replaced or added, in the order applied

  const TreeData& tree(Tree t) const { return t == Tree::catalog ? catalog : registry; }
  bool has_overlays() const { return catalog.layers.size() > 1 || registry.layers.size() > 1; }
};

}  // namespace blis::data
