// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock/extra_keys.go@71f4f099 (MMHash, BlockExtraFeatures,
// PlaceholderRange, ParseRawExtraKeys, ComputeBlockExtraFeatures); no logging.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "router/kvcache/kvblock/any.h"

namespace blis::router::kvblock {

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 MMHash
struct MMHash {
  std::string Hash;
  friend bool operator==(const MMHash&, const MMHash&) = default;
};

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 BlockExtraFeatures. A Go nil *BlockExtraFeatures (pure text)
// is std::nullopt in the vectors below. An empty MMHashes is hashed as an empty CBOR array; Go would hash a
// nil MMHashes as null, but no ported path builds a BlockExtraFeatures without hashes.
struct BlockExtraFeatures {
  std::vector<MMHash> MMHashes;
  friend bool operator==(const BlockExtraFeatures&, const BlockExtraFeatures&) = default;
};

// []*BlockExtraFeatures: std::nullopt is Go's nil slice (text only).
using ExtraFeatures = std::optional<std::vector<std::optional<BlockExtraFeatures>>>;

// [][]any as decoded from the wire: std::nullopt is a nil slice at either level.
using RawExtraKeys = std::optional<std::vector<std::optional<std::vector<Any>>>>;

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 PlaceholderRange
struct PlaceholderRange {
  int Offset = 0;  // absolute start token index
  int Length = 0;  // number of placeholder tokens
};

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 ParseRawExtraKeys (never fails upstream; the error result is
// always nil, so the port returns the features only).
ExtraFeatures ParseRawExtraKeys(const RawExtraKeys& raw);

// pkg/kvcache/kvblock/extra_keys.go@71f4f099 ComputeBlockExtraFeatures. Go ranges over the mmHashes map
// (random order) and then sorts by start with the unstable sort.Slice, so items sharing a start have no
// defined order upstream; the port visits modalities in key order and sorts stably.
ExtraFeatures ComputeBlockExtraFeatures(const std::map<std::string, std::vector<std::string>>& mmHashes,
                                        const std::map<std::string, std::vector<PlaceholderRange>>& mmPlaceholders,
                                        int blockSize, int numTokens);

}  // namespace blis::router::kvblock
