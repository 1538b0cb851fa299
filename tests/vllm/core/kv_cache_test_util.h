// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: the spec and request factories of tests/v1/core/test_kv_cache_utils.py@6e448d0e
// (new_kv_cache_spec, new_sliding_window_spec, new_chunked_local_attention_spec, new_mamba_spec,
// make_request), shared by the KV-cache tests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "v1/core/kv_cache_utils.h"
#include "v1/kv_cache_interface.h"
#include "v1/request.h"

namespace blis::vllm::testing {

inline std::shared_ptr<const FullAttentionSpec> new_kv_cache_spec(
    std::int64_t block_size = 16, std::int64_t num_kv_heads = 2, std::int64_t head_size = 64,
    std::string dtype = "float32", std::optional<std::int64_t> page_size_padded = std::nullopt,
    std::optional<std::int64_t> sliding_window = std::nullopt,
    std::optional<std::int64_t> attention_chunk_size = std::nullopt, bool indexes_kv_by_block_stride = false,
    KVQuantMode kv_quant_mode = KVQuantMode::NONE) {
  FullAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = num_kv_heads;
  a.head_size = head_size;
  a.dtype = dtype;
  a.page_size_padded = page_size_padded;
  a.sliding_window = sliding_window;
  a.attention_chunk_size = attention_chunk_size;
  a.indexes_kv_by_block_stride = indexes_kv_by_block_stride;
  a.kv_quant_mode = kv_quant_mode;
  return std::make_shared<FullAttentionSpec>(a);
}

inline std::shared_ptr<const SlidingWindowSpec> new_sliding_window_spec(
    std::int64_t block_size = 16, std::int64_t num_kv_heads = 2, std::int64_t head_size = 64,
    std::string dtype = "float32", std::optional<std::int64_t> page_size_padded = std::nullopt,
    std::int64_t sliding_window = 1, bool indexes_kv_by_block_stride = false) {
  SlidingWindowSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = num_kv_heads;
  a.head_size = head_size;
  a.dtype = dtype;
  a.page_size_padded = page_size_padded;
  a.sliding_window = sliding_window;
  a.indexes_kv_by_block_stride = indexes_kv_by_block_stride;
  return std::make_shared<SlidingWindowSpec>(a);
}

inline std::shared_ptr<const ChunkedLocalAttentionSpec> new_chunked_local_attention_spec(
    std::int64_t block_size = 16, std::int64_t num_kv_heads = 2, std::int64_t head_size = 64,
    std::string dtype = "float32", std::optional<std::int64_t> page_size_padded = std::nullopt,
    std::int64_t attention_chunk_size = 4) {
  ChunkedLocalAttentionSpec::Args a;
  a.block_size = block_size;
  a.num_kv_heads = num_kv_heads;
  a.head_size = head_size;
  a.dtype = dtype;
  a.page_size_padded = page_size_padded;
  a.attention_chunk_size = attention_chunk_size;
  return std::make_shared<ChunkedLocalAttentionSpec>(a);
}

inline std::shared_ptr<const MambaSpec> new_mamba_spec(
    std::int64_t block_size = 16, std::vector<std::vector<std::int64_t>> shapes = {{2, 512}, {3, 32, 32}},
    std::vector<std::string> dtypes = {"float32", "float32"}, std::int64_t num_speculative_blocks = 2,
    std::string mamba_cache_mode = "none", std::optional<std::int64_t> page_size_padded = std::nullopt) {
  MambaSpec::Args a;
  a.block_size = block_size;
  a.shapes = std::move(shapes);
  a.dtypes = std::move(dtypes);
  a.page_size_padded = page_size_padded;
  a.mamba_cache_mode = std::move(mamba_cache_mode);
  a.num_speculative_blocks = num_speculative_blocks;
  return std::make_shared<MambaSpec>(a);
}

inline std::vector<std::int32_t> iota_tokens(int n, int start = 0) {
  std::vector<std::int32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(start + i);
  return v;
}

// test_kv_cache_utils.py@6e448d0e make_request (max_tokens=17; no multimodal inputs, no prompt embeds).
inline Request make_request(const std::string& request_id, std::vector<std::int32_t> prompt_token_ids,
                            std::int64_t block_size, HashFn hash_fn,
                            std::optional<std::string> cache_salt = std::nullopt,
                            std::optional<LoRARequest> lora_request = std::nullopt) {
  return Request(request_id, std::move(prompt_token_ids), 17, 0.0, 0, std::move(lora_request), std::move(cache_salt),
                 get_request_block_hasher(block_size, std::move(hash_fn)));
}

inline HashFn sha256_fn() { return get_hash_fn_by_name("sha256"); }
inline HashFn sha256_cbor_fn() { return get_hash_fn_by_name("sha256_cbor"); }

// The Python tuple (parent, tuple(tokens), extra_keys) that hash_block_tokens hashes.
inline HashValue block_tuple(const std::string& parent, const std::vector<std::int32_t>& tokens,
                             const std::optional<std::vector<std::string>>& extra) {
  std::vector<HashValue> toks;
  for (auto t : tokens) toks.push_back(HashValue::int_(t));
  HashValue e = HashValue::none();
  if (extra) {
    std::vector<HashValue> keys;
    for (const auto& k : *extra) keys.push_back(HashValue::str(k));
    e = HashValue::tuple(keys);
  }
  return HashValue::tuple({HashValue::bytes(parent), HashValue::tuple(toks), e});
}

inline std::string hex(const std::string& bytes) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 0xf]);
  }
  return out;
}

}  // namespace blis::vllm::testing
