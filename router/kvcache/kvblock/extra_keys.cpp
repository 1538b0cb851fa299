// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/extra_keys.go@71f4f099; see extra_keys.h.
#include "router/kvcache/kvblock/extra_keys.h"

#include <algorithm>

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 ParseRawExtraKeys
ExtraFeatures ParseRawExtraKeys(const RawExtraKeys& raw) {
  if (!raw) return std::nullopt;
  std::vector<std::optional<BlockExtraFeatures>> result(raw->size());
  for (std::size_t blockIdx = 0; blockIdx < raw->size(); ++blockIdx) {
    const auto& blockKeys = (*raw)[blockIdx];
    if (!blockKeys) continue;
    BlockExtraFeatures features;
    for (const Any& entry : *blockKeys) {
      if (entry.kind == Any::Kind::String) {
        // vLLM v0.18.0+: bare identifier string per MM item.
        features.MMHashes.push_back(MMHash{entry.s});
      } else if (entry.kind == Any::Kind::Array) {
        // Legacy format: [hash, offset] tuple — extract hash, ignore offset.
        if (!entry.array.empty() && entry.array[0].kind == Any::Kind::String)
          features.MMHashes.push_back(MMHash{entry.array[0].s});
      }
      // default: skip unknown entry types (e.g. LoRA, cache salt).
    }
    if (!features.MMHashes.empty()) result[blockIdx] = std::move(features);
  }
  return result;
}

namespace {
// pkg/kvcache/kvblock/extra_keys.go@71f4f099 mmItem
struct mmItem {
  std::string hash;
  int start;
  int end;
};
}  // namespace

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 ComputeBlockExtraFeatures
ExtraFeatures ComputeBlockExtraFeatures(const std::map<std::string, std::vector<std::string>>& mmHashes,
                                        const std::map<std::string, std::vector<PlaceholderRange>>& mmPlaceholders,
                                        int blockSize, int numTokens) {
  if (mmHashes.empty() || blockSize <= 0 || numTokens <= 0) return std::nullopt;

  std::vector<mmItem> items;
  for (const auto& [modality, hashes] : mmHashes) {
    auto it = mmPlaceholders.find(modality);
    if (it == mmPlaceholders.end()) continue;
    const auto& ranges = it->second;
    const std::size_t n = std::min(hashes.size(), ranges.size());
    for (std::size_t i = 0; i < n; ++i)
      items.push_back(mmItem{hashes[i], ranges[i].Offset, ranges[i].Offset + ranges[i].Length});
  }
  if (items.empty()) return std::nullopt;

  std::stable_sort(items.begin(), items.end(), [](const mmItem& a, const mmItem& b) { return a.start < b.start; });

  const int numBlocks = numTokens / blockSize;
  std::vector<std::optional<BlockExtraFeatures>> result(static_cast<std::size_t>(numBlocks));
  for (int blockIdx = 0; blockIdx < numBlocks; ++blockIdx) {
    const int blockStart = blockIdx * blockSize;
    const int blockEnd = blockStart + blockSize;
    std::vector<MMHash> hashes;
    for (const auto& item : items) {
      if (item.end <= blockStart) continue;  // placeholder ends before this block
      if (item.start >= blockEnd) break;     // sorted: no more overlaps
      hashes.push_back(MMHash{item.hash});
    }
    if (!hashes.empty()) result[static_cast<std::size_t>(blockIdx)] = BlockExtraFeatures{std::move(hashes)};
  }
  return result;
}

}  // namespace blis::router::kvblock
