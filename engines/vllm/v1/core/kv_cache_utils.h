// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/kv_cache_utils.py@6e448d0e, first part: block hashes
// (BlockHashWithGroupId, NONE_HASH, hash_block_tokens, the request block hasher, the extra keys of LoRA
// and cache_salt), KVCacheBlock, FreeKVCacheBlockQueue and the block-size views of block hashes. The
// start-up grouping and sizing are in kv_cache_utils_config.h, the hash functions in
// kv_cache_utils_hashing.h. Multimodal and prompt-embedding extra keys are not ported (Request refuses
// those inputs before a run).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "distributed/kv_events.h"
#include "v1/core/block_hash.h"
#include "v1/core/kv_cache_utils_hashing.h"
#include "v1/request.h"

namespace blis::vllm {

// kv_cache_utils.py@6e448d0e BlockHashWithGroupId: the block hash bytes followed by the group id as 4
// big-endian bytes.
struct BlockHashWithGroupId {
  std::string bytes;
  friend auto operator<=>(const BlockHashWithGroupId&, const BlockHashWithGroupId&) = default;
  friend bool operator==(const BlockHashWithGroupId&, const BlockHashWithGroupId&) = default;
};

// std::hash-like functor for unordered lookups keyed by BlockHashWithGroupId (never iterated).
struct BlockHashWithGroupIdHash {
  std::size_t operator()(const BlockHashWithGroupId& k) const { return std::hash<std::string>{}(k.bytes); }
};

// kv_cache_utils.py@6e448d0e make_block_hash_with_group_id / get_block_hash / get_group_id.
BlockHashWithGroupId make_block_hash_with_group_id(const BlockHash& block_hash, std::int64_t group_id);
BlockHash get_block_hash(const BlockHashWithGroupId& key);
std::int64_t get_group_id(const BlockHashWithGroupId& key);

// kv_cache_utils.py@6e448d0e maybe_convert_block_hash. `use_int_block_hashes` stands in for
// envs.VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES (upstream default: true).
ExternalBlockHash maybe_convert_block_hash(const BlockHash& hash_bytes, bool use_int_block_hashes = true);

// kv_cache_utils.py@6e448d0e NONE_HASH: the parent hash of the first block of every prefix.
extern BlockHash NONE_HASH;

// kv_cache_utils.py@6e448d0e init_none_hash. Upstream reads PYTHONHASHSEED and, when unset, draws
// os.urandom(32). Here the caller supplies both: `python_hash_seed` is PYTHONHASHSEED's value if set
// (NONE_HASH = hash_fn(seed as a str)), otherwise `random_bytes` must hold the 32 random bytes drawn by
// the caller (NONE_HASH = those bytes). Returns the new NONE_HASH.
BlockHash init_none_hash(const HashFn& hash_fn, const std::optional<std::string>& python_hash_seed,
                         std::string_view random_bytes = {});
// The value init_none_hash assigns, without assigning the process-wide NONE_HASH: engines built in
// concurrent replications (the replication runner's threads) each keep their own (BLIS).
BlockHash compute_none_hash(const HashFn& hash_fn, const std::optional<std::string>& python_hash_seed,
                            std::string_view random_bytes = {});

// kv_cache_utils.py@6e448d0e KVCacheBlock.
struct KVCacheBlock {
  explicit KVCacheBlock(std::int64_t block_id_) : block_id(block_id_) {}

  std::int64_t block_id = 0;  // 0 .. num_gpu_blocks - 1 (-1 for the free queue's sentinels)
  std::int64_t ref_cnt = 0;
  std::optional<BlockHashWithGroupId> _block_hash;
  std::optional<std::int64_t> _block_hash_num_tokens;
  KVCacheBlock* prev_free_block = nullptr;  // only FreeKVCacheBlockQueue touches these
  KVCacheBlock* next_free_block = nullptr;
  bool is_null = false;

  // KVCacheBlock.block_hash / block_hash_num_tokens (properties).
  const std::optional<BlockHashWithGroupId>& block_hash() const { return _block_hash; }
  std::optional<std::int64_t> block_hash_num_tokens() const { return _block_hash_num_tokens; }
  // KVCacheBlock.set_block_hash (AssertionError if the block already has a hash) and reset_hash.
  void set_block_hash(const BlockHashWithGroupId& block_hash, std::optional<std::int64_t> num_tokens = std::nullopt);
  void reset_hash();
  // KVCacheBlock.__repr__ (hash bytes as a Python bytes literal).
  std::string repr() const;
};

// kv_cache_utils.py@6e448d0e FreeKVCacheBlockQueue: a doubly linked list of free blocks threaded
// through KVCacheBlock::prev_free_block/next_free_block, between two sentinel blocks it owns (so it is
// neither copied nor moved).
class FreeKVCacheBlockQueue {
 public:
  explicit FreeKVCacheBlockQueue(const std::vector<KVCacheBlock*>& blocks);
  FreeKVCacheBlockQueue(const FreeKVCacheBlockQueue&) = delete;
  FreeKVCacheBlockQueue& operator=(const FreeKVCacheBlockQueue&) = delete;

  std::int64_t num_free_blocks = 0;
  KVCacheBlock fake_free_list_head{-1};
  KVCacheBlock fake_free_list_tail{-1};

  // FreeKVCacheBlockQueue.popleft (ValueError "No free blocks available" when empty).
  KVCacheBlock* popleft();
  // FreeKVCacheBlockQueue.popleft_n.
  std::vector<KVCacheBlock*> popleft_n(std::int64_t n);
  // FreeKVCacheBlockQueue.remove (std::runtime_error for a block not in the list).
  void remove(KVCacheBlock* block);
  // FreeKVCacheBlockQueue.append / prepend_n / append_n.
  void append(KVCacheBlock* block);
  void prepend_n(const std::vector<KVCacheBlock*>& blocks);
  void append_n(const std::vector<KVCacheBlock*>& blocks);
  // FreeKVCacheBlockQueue.get_all_free_blocks.
  std::vector<KVCacheBlock*> get_all_free_blocks() const;
  // FreeKVCacheBlockQueue.iter_blocks_after, materialized: the free blocks after `cursor` (nullptr: all).
  std::vector<KVCacheBlock*> iter_blocks_after(const KVCacheBlock* cursor) const;
};

// kv_cache_utils.py@6e448d0e need_extra_keys.
bool need_extra_keys(const Request& request);
// kv_cache_utils.py@6e448d0e _gen_lora_extra_hash_keys.
std::vector<std::string> _gen_lora_extra_hash_keys(const Request& request);
// kv_cache_utils.py@6e448d0e generate_block_hash_extra_keys: (extra keys or nullopt, next mm index).
// Only LoRA and cache_salt keys exist in this port; the mm index is passed through.
std::pair<BlockExtraKeys, std::int64_t> generate_block_hash_extra_keys(const Request& request,
                                                                       std::int64_t start_token_idx,
                                                                       std::int64_t end_token_idx,
                                                                       std::int64_t start_mm_idx);

// kv_cache_utils.py@6e448d0e hash_block_tokens: hash_function((parent or NONE_HASH, tuple(tokens),
// extra_keys)). `none_hash` is the NONE_HASH to use (defaults to the global one, read at call time).
BlockHash hash_block_tokens(const HashFn& hash_function, const std::optional<BlockHash>& parent_block_hash,
                            std::span<const std::int32_t> curr_block_token_ids,
                            const BlockExtraKeys& extra_keys = std::nullopt,
                            const BlockHash& none_hash = NONE_HASH);

// kv_cache_utils.py@6e448d0e get_request_block_hasher. The hasher captures NONE_HASH when it is made
// (call init_none_hash first), so that engines sharing a process keep their own seeds.
BlockHasher get_request_block_hasher(std::int64_t hash_block_size, HashFn caching_hash_fn);
// The same hasher with an explicit NONE_HASH (BLIS: no process-wide state shared by concurrent engines).
BlockHasher get_request_block_hasher(std::int64_t hash_block_size, HashFn caching_hash_fn, BlockHash none_hash);

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize: a lazy view of hashes computed at
// hash_block_size as hashes at target_block_size (a multiple of it). Holds a pointer to the list.
class BlockHashListWithBlockSize {
 public:
  BlockHashListWithBlockSize(const std::vector<BlockHash>& block_hashes, std::int64_t hash_block_size,
                             std::int64_t target_block_size);
  const std::vector<BlockHash>* block_hashes;
  std::int64_t scale_factor;
  std::int64_t size() const;                              // __len__
  const BlockHash& operator[](std::int64_t idx) const;   // __getitem__(int), idx >= 0
  std::vector<BlockHash> slice(std::int64_t start, std::int64_t stop) const;  // __getitem__(slice) step 1
  const BlockHash& _get_value_at(std::int64_t idx) const;
};

// kv_cache_utils.py@6e448d0e `BlockHashList = list[BlockHash] | BlockHashListWithBlockSize`: a
// non-owning view of either (the list must outlive it).
class BlockHashList {
 public:
  BlockHashList(const std::vector<BlockHash>& list) : v_(&list) {}  // NOLINT: implicit, as upstream's union
  BlockHashList(const BlockHashListWithBlockSize& view) : v_(view) {}  // NOLINT
  bool is_block_size_view() const { return std::holds_alternative<BlockHashListWithBlockSize>(v_); }
  const BlockHashListWithBlockSize& as_block_size_view() const { return std::get<BlockHashListWithBlockSize>(v_); }
  // The plain list, or nullptr for a block-size view.
  const std::vector<BlockHash>* raw_list() const {
    return is_block_size_view() ? nullptr : std::get<const std::vector<BlockHash>*>(v_);
  }
  std::int64_t size() const;
  const BlockHash& operator[](std::int64_t idx) const;  // idx >= 0
  std::vector<BlockHash> slice(std::int64_t start, std::int64_t stop) const;

 private:
  std::variant<const std::vector<BlockHash>*, BlockHashListWithBlockSize> v_;
};

// kv_cache_utils.py@6e448d0e resolve_block_hashes.
BlockHashList resolve_block_hashes(const BlockHashList& block_hashes, std::int64_t hash_block_size,
                                   std::int64_t block_size, bool supports_fine_grained_hash_lookup = false,
                                   std::optional<std::int64_t> alignment_tokens = std::nullopt);

}  // namespace blis::vllm
