// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port; the BlockHash type of vllm/v1/core/kv_cache_utils.py@6e448d0e, held apart
// from kv_cache_utils.h so that request.h can name it without the hashing functions.
#pragma once

#include <compare>
#include <string>

namespace blis::vllm {

// kv_cache_utils.py@6e448d0e `BlockHash = NewType("BlockHash", bytes)`: the digest bytes of one full block.
struct BlockHash {
  std::string bytes;
  friend auto operator<=>(const BlockHash&, const BlockHash&) = default;
  friend bool operator==(const BlockHash&, const BlockHash&) = default;
};

}  // namespace blis::vllm
