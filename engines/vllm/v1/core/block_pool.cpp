// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e; see block_pool.h.
#include "v1/core/block_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "v1/kv_cache_interface.h"

namespace blis::vllm {

// ---- BlockHashToBlockMap -------------------------------------------------------------------------

// block_pool.py@6e448d0e BlockHashToBlockMap.get_one_block.
KVCacheBlock* BlockHashToBlockMap::get_one_block(const BlockHashWithGroupId& key) const {
  auto it = _cache.find(key);
  if (it == _cache.end() || it->second.empty()) return nullptr;
  return it->second.front();
}

// block_pool.py@6e448d0e BlockHashToBlockMap.contain.
bool BlockHashToBlockMap::contain(const BlockHashWithGroupId& key, std::int64_t block_id) const {
  auto it = _cache.find(key);
  if (it == _cache.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [block_id](const KVCacheBlock* b) { return b->block_id == block_id; });
}

// block_pool.py@6e448d0e BlockHashToBlockMap.insert: {block_id: block}, so a block id already present
// keeps its place and is replaced.
void BlockHashToBlockMap::insert(const BlockHashWithGroupId& key, KVCacheBlock* block) {
  auto& blocks = _cache[key];
  for (auto& b : blocks) {
    if (b->block_id == block->block_id) {
      b = block;
      return;
    }
  }
  blocks.push_back(block);
}

// block_pool.py@6e448d0e BlockHashToBlockMap.pop.
KVCacheBlock* BlockHashToBlockMap::pop(const BlockHashWithGroupId& key, std::int64_t block_id) {
  auto it = _cache.find(key);
  if (it == _cache.end()) return nullptr;
  auto& blocks = it->second;
  for (auto b = blocks.begin(); b != blocks.end(); ++b) {
    if ((*b)->block_id == block_id) {
      KVCacheBlock* found = *b;
      blocks.erase(b);
      if (blocks.empty()) _cache.erase(it);
      return found;
    }
  }
  return nullptr;
}

// ---- BlockPool -----------------------------------------------------------------------------------

std::vector<KVCacheBlock> BlockPool::make_blocks(std::int64_t n) {
  if (n <= 0) throw AssertionError("BlockPool: num_gpu_blocks must be a positive int");
  std::vector<KVCacheBlock> blocks;
  blocks.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) blocks.emplace_back(i);
  return blocks;
}

std::vector<KVCacheBlock*> BlockPool::pointers(std::vector<KVCacheBlock>& blocks) {
  std::vector<KVCacheBlock*> out;
  out.reserve(blocks.size());
  for (auto& b : blocks) out.push_back(&b);
  return out;
}

// block_pool.py@6e448d0e BlockPool.__init__.
BlockPool::BlockPool(std::int64_t num_gpu_blocks_, bool enable_caching_, std::int64_t hash_block_size_,
                     bool enable_kv_cache_events_, bool kv_events_use_int_block_hashes_)
    : num_gpu_blocks(num_gpu_blocks_),
      enable_caching(enable_caching_),
      hash_block_size(hash_block_size_),
      blocks(make_blocks(num_gpu_blocks_)),
      free_block_queue(pointers(blocks)),
      enable_kv_cache_events(enable_kv_cache_events_),
      kv_events_use_int_block_hashes(kv_events_use_int_block_hashes_) {
  null_block = free_block_queue.popleft();
  null_block->is_null = true;
}

// block_pool.py@6e448d0e BlockPool.get_cached_block.
std::optional<std::vector<KVCacheBlock*>> BlockPool::get_cached_block(const BlockHash& block_hash,
                                                                      const std::vector<std::int64_t>& kv_cache_group_ids) const {
  std::vector<KVCacheBlock*> cached_blocks;
  for (std::int64_t group_id : kv_cache_group_ids) {
    KVCacheBlock* block = cached_block_hash_to_block.get_one_block(make_block_hash_with_group_id(block_hash, group_id));
    if (block == nullptr) return std::nullopt;
    cached_blocks.push_back(block);
  }
  return cached_blocks;
}

// block_pool.py@6e448d0e BlockPool.cache_full_blocks.
void BlockPool::cache_full_blocks(const Request& request, const std::vector<KVCacheBlock*>& blocks_,
                                  std::int64_t num_cached_blocks, std::int64_t num_full_blocks, std::int64_t block_size,
                                  std::int64_t kv_cache_group_id, const std::optional<std::vector<bool>>& block_mask) {
  if (num_cached_blocks >= num_full_blocks) return;
  std::int64_t n_blocks = static_cast<std::int64_t>(blocks_.size());
  // blocks[num_cached_blocks:num_full_blocks] with Python's slice clamping.
  std::int64_t lo = std::min(num_cached_blocks, n_blocks);
  std::int64_t hi = std::min(num_full_blocks, n_blocks);
  std::vector<KVCacheBlock*> new_full_blocks(blocks_.begin() + lo, blocks_.begin() + std::max(lo, hi));
  if (block_mask.has_value() && block_mask->size() != new_full_blocks.size()) {
    throw AssertionError("block_mask is None or len(block_mask) == len(new_full_blocks)");
  }
  BlockHashList block_hashes = resolve_block_hashes(request.block_hashes, hash_block_size, block_size);
  std::optional<std::vector<ExternalBlockHash>> new_hashes;
  if (enable_kv_cache_events) new_hashes.emplace();
  for (std::size_t i = 0; i < new_full_blocks.size(); ++i) {
    KVCacheBlock* blk = new_full_blocks[i];
    if (blk->is_null || (block_mask.has_value() && !(*block_mask)[i])) continue;
    const BlockHash& block_hash = block_hashes[num_cached_blocks + static_cast<std::int64_t>(i)];
    std::int64_t num_hash_tokens = (num_cached_blocks + static_cast<std::int64_t>(i) + 1) * block_size;
    BlockHashWithGroupId block_hash_with_group_id = make_block_hash_with_group_id(block_hash, kv_cache_group_id);
    if (blk->block_hash().has_value()) {
      if (!(blk->block_hash_num_tokens().has_value() && *blk->block_hash_num_tokens() < num_hash_tokens)) {
        throw AssertionError("cache_full_blocks: a new full block already has a full-block hash");
      }
      auto removed_hashes = _remove_cached_block_hashes(blk);
      _emit_block_removed_events(removed_hashes);
    }
    _insert_block_hash(block_hash_with_group_id, blk, num_hash_tokens);
    if (new_hashes) new_hashes->push_back(maybe_convert_block_hash(block_hash, kv_events_use_int_block_hashes));
  }

  if (enable_kv_cache_events) {
    std::optional<ExternalBlockHash> parent_block_hash;
    if (num_cached_blocks != 0) {
      parent_block_hash = maybe_convert_block_hash(block_hashes[num_cached_blocks - 1], kv_events_use_int_block_hashes);
    }
    std::int64_t start_token_idx = num_cached_blocks * block_size;
    std::int64_t end_token_idx = num_full_blocks * block_size;
    std::vector<BlockExtraKeys> extra_keys_list;
    std::int64_t curr_mm_idx = 0;
    for (std::int64_t i = num_cached_blocks; i < num_full_blocks; ++i) {
      if (blocks_.at(static_cast<std::size_t>(i))->is_null) continue;
      if (block_mask.has_value() && !(*block_mask)[static_cast<std::size_t>(i - num_cached_blocks)]) continue;
      std::int64_t block_start = i * block_size;
      std::int64_t block_end = block_start + block_size;
      auto [extra_keys, next_mm_idx] = generate_block_hash_extra_keys(request, block_start, block_end, curr_mm_idx);
      curr_mm_idx = next_mm_idx;
      extra_keys_list.push_back(std::move(extra_keys));
    }
    kv_event_queue.emplace_back(_build_block_stored_event(request, std::move(*new_hashes), parent_block_hash,
                                                          start_token_idx, end_token_idx, block_size,
                                                          kv_cache_group_id, extra_keys_list));
  }
}

// block_pool.py@6e448d0e BlockPool._build_block_stored_event.
BlockStored BlockPool::_build_block_stored_event(const Request& request, std::vector<ExternalBlockHash> block_hashes,
                                                 std::optional<ExternalBlockHash> parent_block_hash,
                                                 std::int64_t start_token_idx, std::int64_t end_token_idx,
                                                 std::int64_t block_size, std::int64_t kv_cache_group_id,
                                                 const std::vector<BlockExtraKeys>& extra_keys_list) const {
  const auto& all = request.all_token_ids();
  auto n = static_cast<std::int64_t>(all.size());
  std::int64_t lo = std::clamp<std::int64_t>(start_token_idx, 0, n);
  std::int64_t hi = std::clamp<std::int64_t>(end_token_idx, 0, n);
  BlockStored ev;
  ev.block_hashes = std::move(block_hashes);
  ev.parent_block_hash = std::move(parent_block_hash);
  if (lo < hi) ev.token_ids.assign(all.begin() + lo, all.begin() + hi);
  ev.block_size = block_size;
  if (request.lora_request) {
    ev.lora_id = request.lora_request->lora_int_id;  // LoRARequest.adapter_id
    ev.lora_name = request.lora_request->lora_name;  // LoRARequest.name
  }
  ev.medium = MEDIUM_GPU;
  if (!extra_keys_list.empty()) ev.extra_keys = extra_keys_list;
  ev.group_idx = kv_cache_group_id;
  return ev;
}

// block_pool.py@6e448d0e BlockPool.emit_cached_block_events.
void BlockPool::emit_cached_block_events(const Request& request, std::int64_t num_cached_blocks, std::int64_t block_size,
                                         std::int64_t kv_cache_group_id) {
  if (!enable_kv_cache_events || num_cached_blocks == 0) return;
  BlockHashList block_hashes = resolve_block_hashes(request.block_hashes, hash_block_size, block_size);
  std::vector<ExternalBlockHash> cached_hashes;
  std::vector<BlockExtraKeys> extra_keys_list;
  std::int64_t curr_mm_idx = 0;
  for (std::int64_t i = 0; i < num_cached_blocks; ++i) {
    std::int64_t block_start = i * block_size;
    std::int64_t block_end = block_start + block_size;
    cached_hashes.push_back(maybe_convert_block_hash(block_hashes[i], kv_events_use_int_block_hashes));
    auto [extra_keys, next_mm_idx] = generate_block_hash_extra_keys(request, block_start, block_end, curr_mm_idx);
    curr_mm_idx = next_mm_idx;
    extra_keys_list.push_back(std::move(extra_keys));
  }
  if (cached_hashes.empty()) return;
  kv_event_queue.emplace_back(_build_block_stored_event(request, std::move(cached_hashes), std::nullopt, 0,
                                                        num_cached_blocks * block_size, block_size, kv_cache_group_id,
                                                        extra_keys_list));
}

// block_pool.py@6e448d0e BlockPool.cache_partial_block.
std::optional<BlockHashWithGroupId> BlockPool::cache_partial_block(const Request& request, KVCacheBlock* block,
                                                                   std::int64_t num_tokens, std::int64_t kv_cache_group_id,
                                                                   std::int64_t block_size) {
  if (block->is_null) return std::nullopt;
  if (!(block_size > hash_block_size)) throw AssertionError("block_size > self.hash_block_size");
  if (block_size % hash_block_size != 0) throw AssertionError("block_size % self.hash_block_size == 0");
  if (num_tokens % block_size == 0) throw AssertionError("num_tokens % block_size != 0");
  BlockHash block_hash = _get_partial_block_hash(request, num_tokens);
  std::int64_t num_hash_blocks = num_tokens / hash_block_size;
  BlockHashWithGroupId block_hash_with_group_id = make_block_hash_with_group_id(block_hash, kv_cache_group_id);
  bool already_cached = block->block_hash() == block_hash_with_group_id ||
                        cached_block_hash_to_block.contain(block_hash_with_group_id, block->block_id);
  if (!already_cached && block->block_hash().has_value() && block->block_hash_num_tokens().has_value() &&
      *block->block_hash_num_tokens() < num_hash_blocks * hash_block_size) {
    auto removed_hashes = _remove_cached_block_hashes(block);
    _emit_block_removed_events(removed_hashes);
  }
  _insert_block_hash(block_hash_with_group_id, block, num_hash_blocks * hash_block_size);
  if (enable_kv_cache_events && !already_cached) {
    auto [parent_hash, block_start] = _get_partial_block_parent_hash_and_start(request, num_tokens);
    std::optional<ExternalBlockHash> parent_block_hash;
    if (parent_hash.has_value()) parent_block_hash = maybe_convert_block_hash(*parent_hash, kv_events_use_int_block_hashes);
    std::int64_t block_end = num_tokens;
    std::int64_t curr_mm_idx = block_start > 0 ? -1 : 0;
    auto extra = generate_block_hash_extra_keys(request, block_start, block_end, curr_mm_idx).first;
    BlockStored ev;
    ev.block_hashes = {maybe_convert_block_hash(block_hash, kv_events_use_int_block_hashes)};
    ev.parent_block_hash = parent_block_hash;
    const auto& all = request.all_token_ids();
    auto n = static_cast<std::int64_t>(all.size());
    std::int64_t lo = std::clamp<std::int64_t>(block_start, 0, n);
    std::int64_t hi = std::clamp<std::int64_t>(block_end, 0, n);
    if (lo < hi) ev.token_ids.assign(all.begin() + lo, all.begin() + hi);
    ev.block_size = block_end - block_start;
    if (request.lora_request) {
      ev.lora_id = request.lora_request->lora_int_id;
      ev.lora_name = request.lora_request->lora_name;
    }
    ev.medium = MEDIUM_GPU;
    ev.extra_keys = std::vector<BlockExtraKeys>{extra};
    ev.group_idx = kv_cache_group_id;
    kv_event_queue.emplace_back(std::move(ev));
  }
  return block_hash_with_group_id;
}

// block_pool.py@6e448d0e BlockPool._get_partial_block_hash.
BlockHash BlockPool::_get_partial_block_hash(const Request& request, std::int64_t num_tokens) const {
  if (num_tokens % hash_block_size != 0) throw AssertionError("num_tokens % self.hash_block_size == 0");
  std::int64_t num_hash_blocks = num_tokens / hash_block_size;
  if (!(num_hash_blocks > 0 && num_hash_blocks <= static_cast<std::int64_t>(request.block_hashes.size()))) {
    throw AssertionError("0 < num_hash_blocks <= len(request.block_hashes)");
  }
  return request.block_hashes[static_cast<std::size_t>(num_hash_blocks - 1)];
}

// block_pool.py@6e448d0e BlockPool._get_partial_block_parent_hash_and_start.
std::pair<std::optional<BlockHash>, std::int64_t> BlockPool::_get_partial_block_parent_hash_and_start(
    const Request& request, std::int64_t num_tokens) const {
  std::int64_t num_hash_blocks = num_tokens / hash_block_size;
  std::optional<BlockHash> parent_hash;
  if (num_hash_blocks > 1) parent_hash = request.block_hashes.at(static_cast<std::size_t>(num_hash_blocks - 2));
  return {parent_hash, (num_hash_blocks - 1) * hash_block_size};
}

// block_pool.py@6e448d0e BlockPool._remove_cached_block_hashes (the extra hashes of a block in sorted
// order where upstream walks a set).
std::vector<BlockHashWithGroupId> BlockPool::_remove_cached_block_hashes(KVCacheBlock* block) {
  std::vector<BlockHashWithGroupId> hashes;
  if (block->block_hash().has_value()) hashes.push_back(*block->block_hash());
  auto it = cached_block_hashes_by_block.find(block->block_id);
  if (it != cached_block_hashes_by_block.end()) {
    hashes.insert(hashes.end(), it->second.begin(), it->second.end());
    cached_block_hashes_by_block.erase(it);
  }
  if (hashes.empty()) return {};
  std::vector<BlockHashWithGroupId> removed_hashes;
  for (const auto& h : hashes) {
    if (cached_block_hash_to_block.pop(h, block->block_id) != nullptr) removed_hashes.push_back(h);
  }
  block->reset_hash();
  return removed_hashes;
}

// block_pool.py@6e448d0e BlockPool._emit_block_removed_events.
void BlockPool::_emit_block_removed_events(const std::vector<BlockHashWithGroupId>& block_hashes) {
  if (!enable_kv_cache_events) return;
  for (const auto& h : block_hashes) {
    BlockRemoved ev;
    ev.block_hashes = {maybe_convert_block_hash(get_block_hash(h), kv_events_use_int_block_hashes)};
    ev.medium = MEDIUM_GPU;
    ev.group_idx = get_group_id(h);
    kv_event_queue.emplace_back(std::move(ev));
  }
}

// block_pool.py@6e448d0e BlockPool._insert_block_hash.
void BlockPool::_insert_block_hash(const BlockHashWithGroupId& block_hash_with_group_id, KVCacheBlock* block,
                                   std::optional<std::int64_t> num_tokens) {
  if (block->block_hash() == block_hash_with_group_id) return;
  if (cached_block_hash_to_block.contain(block_hash_with_group_id, block->block_id)) return;
  if (!block->block_hash().has_value()) {
    block->set_block_hash(block_hash_with_group_id, num_tokens);
  } else {
    cached_block_hashes_by_block[block->block_id].insert(block_hash_with_group_id);
  }
  cached_block_hash_to_block.insert(block_hash_with_group_id, block);
}

// block_pool.py@6e448d0e BlockPool.move_block_hashes.
void BlockPool::move_block_hashes(KVCacheBlock* src_block, KVCacheBlock* dst_block) {
  if (dst_block->block_hash().has_value()) throw AssertionError("dst_block.block_hash is None");
  if (cached_block_hashes_by_block.count(dst_block->block_id) != 0) {
    throw AssertionError("dst_block.block_id not in self.cached_block_hashes_by_block");
  }
  std::optional<std::int64_t> num_tokens = src_block->block_hash_num_tokens();
  for (const auto& h : _remove_cached_block_hashes(src_block)) _insert_block_hash(h, dst_block, num_tokens);
}

// block_pool.py@6e448d0e BlockPool.get_new_blocks.
std::vector<KVCacheBlock*> BlockPool::get_new_blocks(std::int64_t num_blocks) {
  if (num_blocks > get_num_free_blocks()) {
    throw ValueError("Cannot get " + std::to_string(num_blocks) + " free blocks from the pool");
  }
  std::vector<KVCacheBlock*> ret = free_block_queue.popleft_n(num_blocks);
  for (KVCacheBlock* block : ret) {
    if (enable_caching) _maybe_evict_cached_block(block);
    if (block->ref_cnt != 0) throw AssertionError("block.ref_cnt == 0");
    block->ref_cnt += 1;
  }
  return ret;
}

// block_pool.py@6e448d0e BlockPool._maybe_evict_cached_block.
bool BlockPool::_maybe_evict_cached_block(KVCacheBlock* block) {
  auto evicted_hashes = _remove_cached_block_hashes(block);
  if (evicted_hashes.empty()) return false;
  _emit_block_removed_events(evicted_hashes);
  return true;
}

// block_pool.py@6e448d0e BlockPool.touch.
void BlockPool::touch(const std::vector<KVCacheBlock*>& blocks_) {
  for (KVCacheBlock* block : blocks_) {
    if (block->ref_cnt == 0 && !block->is_null) free_block_queue.remove(block);
    block->ref_cnt += 1;
  }
}

// block_pool.py@6e448d0e BlockPool.free_blocks.
void BlockPool::free_blocks(const std::vector<KVCacheBlock*>& ordered_blocks) {
  std::vector<KVCacheBlock*> blocks_with_hash;
  std::vector<KVCacheBlock*> blocks_without_hash;
  for (KVCacheBlock* block : ordered_blocks) {
    block->ref_cnt -= 1;
    if (block->ref_cnt == 0 && !block->is_null) {
      if (!block->block_hash().has_value() && enable_caching) {
        blocks_without_hash.push_back(block);
      } else {
        blocks_with_hash.push_back(block);
      }
    }
  }
  free_block_queue.prepend_n(blocks_without_hash);
  free_block_queue.append_n(blocks_with_hash);
}

// block_pool.py@6e448d0e BlockPool.evict_blocks (ascending block id where upstream walks a set).
void BlockPool::evict_blocks(const std::set<std::int64_t>& block_ids) {
  for (std::int64_t block_id : block_ids) {
    if (block_id >= static_cast<std::int64_t>(blocks.size())) {
      throw AssertionError("Invalid block_id " + std::to_string(block_id) + " >= " + std::to_string(blocks.size()) +
                           ". This indicates a bug in the KV connector - workers should only report block IDs that "
                           "were allocated by the scheduler.");
    }
    _maybe_evict_cached_block(&blocks[static_cast<std::size_t>(block_id)]);
  }
}

// block_pool.py@6e448d0e BlockPool.reset_prefix_cache.
bool BlockPool::reset_prefix_cache() {
  std::int64_t num_used_blocks = num_gpu_blocks - get_num_free_blocks();
  if (num_used_blocks != 1) return false;  // the null block is always used
  cached_block_hash_to_block = BlockHashToBlockMap();
  cached_block_hashes_by_block.clear();
  for (auto& block : blocks) block.reset_hash();
  if (enable_kv_cache_events) kv_event_queue.emplace_back(AllBlocksCleared{});
  return true;
}

// block_pool.py@6e448d0e BlockPool.get_usage.
double BlockPool::get_usage() const {
  std::int64_t total_gpu_blocks = num_gpu_blocks - 1;
  if (total_gpu_blocks == 0) return 0;
  return 1.0 - (static_cast<double>(get_num_free_blocks()) / static_cast<double>(total_gpu_blocks));
}

// block_pool.py@6e448d0e BlockPool.take_events.
std::vector<KVCacheEvent> BlockPool::take_events() {
  if (!enable_kv_cache_events) return {};
  std::vector<KVCacheEvent> events;
  events.swap(kv_event_queue);
  return events;
}

}  // namespace blis::vllm
