#include "data/content_hash.h"

#include <algorithm>

#include "contracts/sha256.h"

namespace blis::data {

std::string content_hash_text(std::span<const FileDigest> files) {
  std::vector<FileDigest> sorted(files.begin(), files.end());
  std::sort(sorted.begin(), sorted.end(), [](const FileDigest& a, const FileDigest& b) { return a.path < b.path; });
  std::string text;
  for (const auto& f : sorted) {
    text.append(f.sha256);
    text.push_back(' ');
    text.append(f.path);
    text.push_back('\n');
  }
  return text;
}

std::string content_hash(std::span<const FileDigest> files) { return contracts::sha256_hex(content_hash_text(files)); }

std::string combined_hash(std::string_view base, std::span<const std::string> overlays) {
  if (overlays.empty()) return std::string(base);
  std::string text(base);
  text += " base\n";
  for (const auto& o : overlays) {
    text += o;
    text += " overlay\n";
  }
  return contracts::sha256_hex(text);
}

}  // namespace blis::data
