// Refusals collected while reading a document: each names file:line:col, the field path and the cause.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/doc/node.h"

namespace blis::doc {

struct Diagnostic {
  std::string file;
  Mark mark;
  std::string field;  // e.g. "cluster.nodes" or "pools[0].engine"; empty for whole-document causes
  std::string cause;
  std::string str() const;  // "file:line:col: field: cause"
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file = {}) : file_(std::move(file)) {}
  void add(Mark at, std::string field, std::string cause);
  const std::string& file() const { return file_; }
  void set_file(std::string file) { file_ = std::move(file); }
  bool ok() const { return list_.empty(); }
  const std::vector<Diagnostic>& list() const { return list_; }
  std::string str() const;  // one diagnostic per line

 private:
  std::string file_;
  std::vector<Diagnostic> list_;
};

// The candidate closest to `word` by edit distance, or "" when none is close (for "did you mean").
std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace blis::doc
