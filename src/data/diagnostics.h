// Errors found while loading data, each naming where (source, file, line) and why.
#pragma once

#include <string>
#include <vector>

#include "data/data_set.h"

namespace blis::data {

struct Diagnostic {
  std::string location;      // '<directory>/<path>[:line[:col]]', 'embedded <tree> <path>', or a tree as a whole
  std::string path;          // relative to the tree (with :line[:col] when known); empty when not about one file
  std::string message;       // lower case, the cause, and the rule in brackets
  std::string text() const;  // '<location>: <message>'
};

class Diagnostics {
 public:
  void error(std::string location, std::string path, std::string message);
  void error(const LoadedFile& file, std::string message);
  void error(const LoadedFile& file, int line, int col, std::string message);  // line, col 1-based; 0: unknown
  void error(std::string message);                                             // about the data as a whole

  bool empty() const { return all_.empty(); }
  std::size_t size() const { return all_.size(); }
  const std::vector<Diagnostic>& all() const { return all_; }
  std::string text() const;  // one diagnostic a line

 private:
  std::vector<Diagnostic> all_;
};

}  // namespace blis::data
