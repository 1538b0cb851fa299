// Reading one tree of data, from a directory or from the embedded copy, under the same rules (SUB-9).
// gen/embed_data.py applies the same rules with the same messages; a parity test runs both.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "data/patterns.h"

namespace blis::data {

struct ScannedFile {
  std::string path;  // relative to the tree, forward slashes
  const PatternRow* row = nullptr;
  std::string bytes;
};

struct Problem {
  std::string path;  // relative to the tree; empty for the tree's directory itself
  std::string message;
  auto operator<=>(const Problem&) const = default;
};

struct Scan {
  std::vector<ScannedFile> files;  // sorted by path in byte order
  std::vector<Problem> problems;   // sorted by path, then message; empty when the tree may be used
};

// Reads a directory. Refuses a file under a data directory that matches no pattern, a symbolic link, a
// file that is neither regular nor a directory, a carriage return in a data file, and two paths that
// differ only in (ASCII) letter case. Files outside the data directories are not read. An overlay also
// refuses a top-level ledger/.
Scan scan_directory(const PatternTable& table, Tree tree, const std::filesystem::path& root, bool overlay);

// The embedded files of one tree, checked by the same rules (and against the generator's classification).
Scan scan_embedded(const PatternTable& table, Tree tree);

// The checks that follow selection, shared by both: carriage returns and case collisions over `files`.
// Appends to `problems`; sorts both lists.
void finish_scan(Scan& scan);

// The problem text for paths that differ only in case, for checks over combined data.
std::string case_collision_message(const std::string& other);
// Every path and directory prefix of `paths` that differs only in case from another one.
std::vector<Problem> case_collisions(const std::vector<std::string>& paths);

}  // namespace blis::data
