// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvevents/engineadapter/common.go@71f4f099 (parseTopic,
// getHashAsUint64, decodeEvent, convertBlockHashes, convertExtraKeys, the event tags) and of the array-
// encoded event-batch struct both adapters decode (msgpackVLLMEventBatch / msgpackSGLangEventBatch).
// Errors are std::runtime_error with upstream's texts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "router/kvcache/kvblock/any.h"
#include "router/kvcache/kvblock/extra_keys.h"

namespace blis::router::engineadapter {

// pkg/kvevents/engineadapter/common.go@71f4f099 eventTagBlockStored, eventTagBlockRemoved, eventTagAllBlocksCleared
inline const std::string eventTagBlockStored = "BlockStored";
inline const std::string eventTagBlockRemoved = "BlockRemoved";
inline const std::string eventTagAllBlocksCleared = "AllBlocksCleared";

// pkg/kvevents/engineadapter/common.go@71f4f099 parseTopic: "kv@<pod-id>@<model-name>" -> (pod, model);
// any other shape -> (topic, "").
std::pair<std::string, std::string> parseTopic(const std::string& topic);

// pkg/kvevents/engineadapter/common.go@71f4f099 getHashAsUint64: uint64 or int64 as is; []byte as the
// big-endian value of its last 8 bytes (left-padded with zeros when shorter); anything else (including the
// int8/uint8/uint16/uint32 ... that small msgpack ints decode to) is an error.
std::uint64_t getHashAsUint64(const kvblock::Any& raw);

// pkg/kvevents/engineadapter/common.go@71f4f099 convertBlockHashes
std::vector<std::uint64_t> convertBlockHashes(const std::vector<kvblock::Any>& rawHashes);

// pkg/kvevents/engineadapter/common.go@71f4f099 convertExtraKeys (rawExtraKeys nullptr = Go nil slice)
kvblock::RawExtraKeys convertExtraKeys(const std::vector<kvblock::Any>* rawExtraKeys);

// The batch struct both adapters unmarshal into (`msgpack:",array"` with TS float64, Events
// []msgpack.RawMessage, DataParallelRank *int), decoded as vmihailenco/msgpack/v5 decodeStructValue does:
// nil -> zero batch; a map -> fields by name (TS, Events, DataParallelRank; others skipped); an array must
// have exactly 3 items (0 -> zero batch).
struct msgpackEventBatch {
  double TS = 0.0;
  std::vector<std::string_view> Events;  // raw bytes of each event (views into the payload)
  std::optional<std::int64_t> DataParallelRank;
};
msgpackEventBatch decodeEventBatch(std::string_view payload);

// Original to BLIS: an integer as the value its smallest msgpack form decodes to (positive fixint: int8;
// then uint8, uint16, uint32, uint64; negative fixint and int8: int8; then int16, int32, int64), which is
// how msgspec writes ints; the adapters' typed paths build the items an engine's encoder would write.
kvblock::Any wireUint(std::uint64_t x);
kvblock::Any wireInt(std::int64_t x);

}  // namespace blis::router::engineadapter
