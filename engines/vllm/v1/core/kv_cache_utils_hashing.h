// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/utils/hashing.py@6e448d0e (sha256, sha256_cbor, get_hash_fn_by_name)
// for the values vllm/v1/core/kv_cache_utils.py@6e448d0e hashes, with a pickle (protocol 5) writer and a
// canonical CBOR writer for exactly those value shapes: None, int, bytes, str and tuple. "xxhash" and
// "xxhash_cbor" are refused by name: the xxhash package is not part of this port.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace blis::vllm {

// A Python value of the shapes the prefix-cache hash serializes: None, int, bytes, str, tuple.
struct HashValue {
  enum class Kind { kNone, kInt, kBytes, kStr, kTuple };
  Kind kind = Kind::kNone;
  std::int64_t integer = 0;
  std::string data;  // bytes or UTF-8 str
  std::vector<HashValue> items;

  static HashValue none() { return {}; }
  static HashValue int_(std::int64_t v) { HashValue h; h.kind = Kind::kInt; h.integer = v; return h; }
  static HashValue bytes(std::string b) { HashValue h; h.kind = Kind::kBytes; h.data = std::move(b); return h; }
  static HashValue str(std::string s) { HashValue h; h.kind = Kind::kStr; h.data = std::move(s); return h; }
  static HashValue tuple(std::vector<HashValue> items) {
    HashValue h; h.kind = Kind::kTuple; h.items = std::move(items); return h;
  }
};

// A hash function of vllm/utils/hashing.py: a value to its digest bytes.
using HashFn = std::function<std::string(const HashValue&)>;

// pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL) (protocol 5, CPython's C pickler: framing and
// MEMOIZE as it writes them) for the value shapes above.
std::string pickle_dumps(const HashValue& value);
// cbor2.dumps(value, canonical=True) for the value shapes above (a tuple is a CBOR array).
std::string cbor_dumps_canonical(const HashValue& value);

// hashing.py@6e448d0e sha256: SHA-256 of the pickle; sha256_cbor: SHA-256 of the canonical CBOR.
std::string sha256(const HashValue& input);
std::string sha256_cbor(const HashValue& input);

// hashing.py@6e448d0e get_hash_fn_by_name: "sha256" and "sha256_cbor"; "xxhash" and "xxhash_cbor" throw
// std::invalid_argument (not modelled); any other name throws ValueError("Unsupported hash function: ...").
HashFn get_hash_fn_by_name(const std::string& hash_fn_name);

}  // namespace blis::vllm
