// The content hashes of §3.3, which the Result records for the catalog and the registry.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace blis::data {

struct FileDigest {
  std::string_view path;    // relative to the tree, forward slashes
  std::string_view sha256;  // of the file's bytes, lower-case hex
};

// One line '<sha256> <path>' per file, sorted by path in byte order, each line (the last too) ending in
// a line feed. The hash is the SHA-256 of this text.
std::string content_hash_text(std::span<const FileDigest> files);

// SHA-256 of content_hash_text, lower-case hex.
std::string content_hash(std::span<const FileDigest> files);

// With no overlay, the base hash. Otherwise the SHA-256 of '<base> base\n' followed by
// '<overlay> overlay\n' for each overlay in the order applied.
std::string combined_hash(std::string_view base, std::span<const std::string> overlays);

}  // namespace blis::data
