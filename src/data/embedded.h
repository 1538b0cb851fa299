// What gen/embed_data.py compiles into blis: the pattern table and every data file's bytes (SUB-9).
// Defined only in the generated source; read it through PatternTable::compiled() and scan_embedded().
#pragma once

#include <span>
#include <string_view>

#include "data/patterns.h"

namespace blis::data {

struct EmbeddedFile {
  Tree tree;
  std::string_view path;  // relative to the tree, forward slashes
  std::string_view kind;  // as the generator classified it
  std::string_view bytes;
  std::string_view sha256;  // computed by the generator (Python's hashlib)
};

namespace generated {

std::string_view patterns_yaml();            // src/data/patterns.yaml, byte for byte
std::span<const PatternRow> pattern_rows();  // its patterns, in file order
std::span<const IgnoredRow> ignored_rows();  // its ignored patterns
std::span<const EmbeddedFile> files();       // every embedded file, by tree, then path in byte order
std::string_view content_hash(Tree tree);    // §3.3's hash of a tree, computed by the generator

}  // namespace generated
}  // namespace blis::data
