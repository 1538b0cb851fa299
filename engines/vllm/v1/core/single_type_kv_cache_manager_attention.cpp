// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/single_type_kv_cache_manager.py@6e448d0e, the attention
// managers: FullAttentionManager, SlidingWindowManager, ChunkedLocalAttentionManager,
// CrossAttentionManager, SinkFullAttentionManager. MambaManager and RSWAManager are not ported.
#include <algorithm>
#include <stdexcept>

#include "v1/core/single_type_kv_cache_manager.h"

namespace blis::vllm {

namespace {

void truncate_all(CacheHitBlocks& computed_blocks, std::int64_t n) {
  for (auto& computed : computed_blocks) {
    if (static_cast<std::int64_t>(computed.size()) > n) computed.resize(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  }
}

void pop_all(CacheHitBlocks& computed_blocks) {
  for (auto& computed : computed_blocks) computed.pop_back();
}

}  // namespace

// single_type_kv_cache_manager.py@6e448d0e FullAttentionManager.find_longest_cache_hit
std::pair<CacheHitBlocks, std::int64_t> FullAttentionManager::find_longest_cache_hit(
    const BlockHashList& block_hashes_in, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
    BlockPool& block_pool_, const KVCacheSpec& spec, bool drop_eagle_block, std::int64_t alignment_tokens,
    std::int64_t dcp_world_size_, std::int64_t /*pcp_world_size*/) const {
  if (!isinstance<FullAttentionSpec>(spec) && !isinstance<ChunkedLocalAttentionSpec>(spec)) {
    throw AssertionError("FullAttentionManager can only be used for full attention and chunked local attention groups");
  }
  std::int64_t bs = spec.block_size;
  if (dcp_world_size_ > 1) bs *= dcp_world_size_;
  const BlockHashList block_hashes = resolve_block_hashes(block_hashes_in, block_pool_.hash_block_size, bs,
                                                          supports_fine_grained_hash_lookup(), alignment_tokens);
  const bool fine_grained = alignment_tokens < bs && bs % alignment_tokens == 0;
  const BlockHashList* full_block_hashes = &block_hashes;
  std::vector<BlockHash> raw_hashes;  // the raw hash-granularity list the fine-grained view reads
  std::optional<BlockHashList> full_holder;
  if (fine_grained) {
    if (block_hashes.is_block_size_view()) throw AssertionError("fine-grained lookup needs the raw hash list");
    // BlockHashListWithBlockSize(block_hashes, alignment_tokens, block_size) over the raw list.
    raw_hashes = block_hashes.slice(0, block_hashes.size());
    full_holder.emplace(BlockHashListWithBlockSize(raw_hashes, alignment_tokens, bs));
    full_block_hashes = &*full_holder;
  }

  CacheHitBlocks computed_blocks(kv_cache_group_ids.size());
  // Phase 1: longest run of cached full blocks from the start.
  const std::int64_t limit = std::min<std::int64_t>(floor_div(max_length, bs), full_block_hashes->size());
  for (std::int64_t i = 0; i < limit; ++i) {
    auto cached_block = block_pool_.get_cached_block((*full_block_hashes)[i], kv_cache_group_ids);
    if (!cached_block) break;
    for (std::size_t g = 0; g < computed_blocks.size(); ++g) computed_blocks[g].push_back((*cached_block)[g]);
  }
  std::int64_t hit_length = static_cast<std::int64_t>(computed_blocks[0].size()) * bs;

  // Phase 2 (fine-grained only): extend into the first non-full block.
  if (fine_grained) {
    const std::int64_t scale_factor = bs / alignment_tokens;
    const std::int64_t first_partial_idx = static_cast<std::int64_t>(computed_blocks[0].size()) * scale_factor;
    const std::int64_t max_partial_idx = std::min({first_partial_idx + scale_factor - 1,
                                                   floor_div(max_length, alignment_tokens), block_hashes.size()});
    for (std::int64_t fine_idx = max_partial_idx - 1; fine_idx >= first_partial_idx; --fine_idx) {
      auto cached_tail = block_pool_.get_cached_block(block_hashes[fine_idx], kv_cache_group_ids);
      if (!cached_tail) continue;
      for (std::size_t g = 0; g < computed_blocks.size(); ++g) computed_blocks[g].push_back((*cached_tail)[g]);
      hit_length = (fine_idx + 1) * alignment_tokens;
      break;
    }
  }

  if (drop_eagle_block && hit_length > 0) hit_length -= std::min(alignment_tokens, bs);
  hit_length -= hit_length % alignment_tokens;
  truncate_all(computed_blocks, cdiv(hit_length, bs));
  return {std::move(computed_blocks), hit_length};
}

// single_type_kv_cache_manager.py@6e448d0e FullAttentionManager.cache_blocks
void FullAttentionManager::cache_blocks(const Request& request, std::int64_t num_tokens,
                                        std::optional<std::int64_t> retention_interval) {
  SingleTypeKVCacheManager::cache_blocks(request, num_tokens, retention_interval);
  if (block_size == block_pool->hash_block_size) return;
  _cache_partial_tail_block(request, num_tokens);
}

// single_type_kv_cache_manager.py@6e448d0e FullAttentionManager._cache_partial_tail_block
void FullAttentionManager::_cache_partial_tail_block(const Request& request, std::int64_t num_tokens) {
  const std::int64_t hash_block_size = block_pool->hash_block_size;
  const std::int64_t boundary_tokens = floor_div(request.num_prompt_tokens, hash_block_size) * hash_block_size;
  if (boundary_tokens == 0 || boundary_tokens > num_tokens) return;
  if (boundary_tokens % block_size == 0) return;
  auto& blocks = req_to_blocks[request.request_id];
  const std::int64_t block_idx = floor_div(boundary_tokens, block_size);
  if (block_idx >= static_cast<std::int64_t>(blocks.size())) return;
  block_pool->cache_partial_block(request, blocks[static_cast<std::size_t>(block_idx)], boundary_tokens,
                                  kv_cache_group_id, block_size);
}

// single_type_kv_cache_manager.py@6e448d0e FullAttentionManager.get_num_common_prefix_blocks
std::int64_t FullAttentionManager::get_num_common_prefix_blocks(const std::string& running_request_id) {
  const auto& blocks = req_to_blocks[running_request_id];
  std::int64_t num_common_blocks = 0;
  for (auto* block : blocks) {
    if (block->ref_cnt == static_cast<std::int64_t>(req_to_blocks.size())) {
      ++num_common_blocks;
    } else {
      break;
    }
  }
  return num_common_blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager.__init__
SlidingWindowManager::SlidingWindowManager(KVCacheSpecPtr spec, BlockPool* pool, bool enable_caching_,
                                           std::int64_t group_id, std::int64_t sched_block_size, std::int64_t dcp,
                                           std::int64_t pcp, bool needs_zeroing, std::optional<std::int64_t> cap)
    : SingleTypeKVCacheManager(spec, pool, enable_caching_, group_id, sched_block_size, dcp, pcp, needs_zeroing, cap),
      sliding_window(0) {
  const auto* sw = dynamic_cast<const SlidingWindowSpec*>(kv_cache_spec.get());
  if (sw == nullptr) throw AssertionError("SlidingWindowManager needs a SlidingWindowSpec");
  sliding_window = sw->sliding_window;
}

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager._contiguous_blocks_for_hit
std::int64_t SlidingWindowManager::_contiguous_blocks_for_hit(std::int64_t window_size, std::int64_t bs,
                                                              bool use_eagle_) {
  std::int64_t blocks = cdiv(window_size - 1, bs);
  if (use_eagle_) blocks += 1;
  return blocks;
}

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager.find_longest_cache_hit
std::pair<CacheHitBlocks, std::int64_t> SlidingWindowManager::find_longest_cache_hit(
    const BlockHashList& block_hashes_in, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
    BlockPool& block_pool_, const KVCacheSpec& spec, bool drop_eagle_block, std::int64_t alignment_tokens,
    std::int64_t dcp_world_size_, std::int64_t pcp_world_size_) const {
  const auto* sw = dynamic_cast<const SlidingWindowSpec*>(&spec);
  if (sw == nullptr) throw AssertionError("SlidingWindowManager can only be used for sliding window groups");
  if (dcp_world_size_ != 1) throw AssertionError("DCP not support sliding window attn now.");
  if (pcp_world_size_ != 1) throw AssertionError("PCP not support sliding window attn now.");
  if (alignment_tokens % spec.block_size != 0) {
    throw AssertionError("SlidingWindowManager does not support fine-grained (partial) cache hits");
  }
  const BlockHashList block_hashes = resolve_block_hashes(block_hashes_in, block_pool_.hash_block_size,
                                                          spec.block_size, supports_fine_grained_hash_lookup(),
                                                          alignment_tokens);
  const std::int64_t sliding_window_contiguous_blocks =
      _contiguous_blocks_for_hit(sw->sliding_window, spec.block_size, drop_eagle_block);
  const std::int64_t max_num_blocks = floor_div(max_length, spec.block_size);
  const std::int64_t bs = spec.block_size;
  CacheHitBlocks computed_blocks(kv_cache_group_ids.size(),
                                 std::vector<KVCacheBlock*>(static_cast<std::size_t>(std::max<std::int64_t>(max_num_blocks, 0)),
                                                            block_pool_.null_block));
  std::int64_t num_contiguous_blocks = 0;
  bool match_found = false;
  for (std::int64_t i = max_num_blocks - 1; i >= 0; --i) {
    auto cached_block = block_pool_.get_cached_block(block_hashes[i], kv_cache_group_ids);
    if (cached_block) {
      if (num_contiguous_blocks == 0 && bs != alignment_tokens) {
        const std::int64_t post_pop_blocks = drop_eagle_block ? i : i + 1;
        if ((post_pop_blocks * bs) % alignment_tokens != 0) continue;
      }
      for (std::size_t g = 0; g < computed_blocks.size(); ++g) {
        computed_blocks[g][static_cast<std::size_t>(i)] = (*cached_block)[g];
      }
      ++num_contiguous_blocks;
      if (num_contiguous_blocks >= sliding_window_contiguous_blocks) {
        truncate_all(computed_blocks, i + num_contiguous_blocks);
        match_found = true;
        break;
      }
    } else {
      num_contiguous_blocks = 0;
    }
  }
  if (!match_found) {
    truncate_all(computed_blocks, num_contiguous_blocks);
    while (bs != alignment_tokens && static_cast<std::int64_t>(computed_blocks[0].size()) * bs % alignment_tokens != 0) {
      pop_all(computed_blocks);
    }
  }
  if (drop_eagle_block && !computed_blocks[0].empty()) {
    pop_all(computed_blocks);
    while (bs != alignment_tokens && static_cast<std::int64_t>(computed_blocks[0].size()) * bs % alignment_tokens != 0) {
      pop_all(computed_blocks);
    }
  }
  const std::int64_t hit_length = static_cast<std::int64_t>(computed_blocks[0].size()) * bs;
  return {std::move(computed_blocks), hit_length};
}

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager.reachable_block_mask
std::optional<std::vector<bool>> SlidingWindowManager::reachable_block_mask(
    std::int64_t start_block, std::int64_t end_block, std::optional<std::int64_t> alignment_tokens,
    const KVCacheSpec& spec, bool use_eagle_, std::optional<std::int64_t> retention_interval,
    const std::vector<std::int64_t>& reachable_boundaries) const {
  const auto* sw = dynamic_cast<const SlidingWindowSpec*>(&spec);
  if (sw == nullptr) throw AssertionError("reachable_block_mask: not a SlidingWindowSpec");
  if (!alignment_tokens.has_value()) return std::nullopt;
  if (*alignment_tokens % spec.block_size != 0) throw AssertionError("alignment_tokens % block_size != 0");
  const std::int64_t bs = spec.block_size;
  const std::int64_t need = _contiguous_blocks_for_hit(sw->sliding_window, bs, use_eagle_);
  const std::int64_t shift = use_eagle_ ? 1 : 0;
  std::vector<bool> mask(static_cast<std::size_t>(end_block - start_block), false);

  // (1) Segment-boundary tails.
  std::optional<std::int64_t> segment_tokens;
  if (!retention_interval.has_value()) {
    segment_tokens = alignment_tokens;
  } else if (*retention_interval != 0) {
    segment_tokens = retention_interval;
  }
  if (segment_tokens.has_value()) {
    const std::int64_t per_segment = floor_div(*segment_tokens, bs);
    if (need >= per_segment) return std::nullopt;  // every block is reachable
    for (std::int64_t i = start_block; i < end_block; ++i) {
      // Python's % on a non-negative left operand.
      if (i >= shift && (i - shift) % per_segment >= per_segment - need) mask[static_cast<std::size_t>(i - start_block)] = true;
    }
  }
  // (2) Reachable-boundary tails (sparse retention only).
  if (retention_interval.has_value()) {
    for (const std::int64_t boundary_tokens : reachable_boundaries) {
      const std::int64_t aligned = floor_div(boundary_tokens, *alignment_tokens) * *alignment_tokens;
      const std::int64_t end = floor_div(aligned, bs) + shift;
      for (std::int64_t j = std::max(start_block, end - need); j < std::min(end_block, end); ++j) {
        mask[static_cast<std::size_t>(j - start_block)] = true;
      }
    }
  }
  return mask;
}

// single_type_kv_cache_manager.py@6e448d0e SlidingWindowManager.get_num_skipped_tokens
std::int64_t SlidingWindowManager::get_num_skipped_tokens(std::int64_t num_computed_tokens) const {
  return std::max<std::int64_t>(0, num_computed_tokens - sliding_window + 1);
}

// single_type_kv_cache_manager.py@6e448d0e ChunkedLocalAttentionManager.__init__
ChunkedLocalAttentionManager::ChunkedLocalAttentionManager(KVCacheSpecPtr spec, BlockPool* pool, bool enable_caching_,
                                                           std::int64_t group_id, std::int64_t sched_block_size,
                                                           std::int64_t dcp, std::int64_t pcp, bool needs_zeroing,
                                                           std::optional<std::int64_t> cap)
    : SingleTypeKVCacheManager(spec, pool, enable_caching_, group_id, sched_block_size, dcp, pcp, needs_zeroing, cap),
      attention_chunk_size(0) {
  const auto* cl = dynamic_cast<const ChunkedLocalAttentionSpec*>(kv_cache_spec.get());
  if (cl == nullptr) throw AssertionError("ChunkedLocalAttentionManager needs a ChunkedLocalAttentionSpec");
  attention_chunk_size = cl->attention_chunk_size;
}

// single_type_kv_cache_manager.py@6e448d0e ChunkedLocalAttentionManager.find_longest_cache_hit
std::pair<CacheHitBlocks, std::int64_t> ChunkedLocalAttentionManager::find_longest_cache_hit(
    const BlockHashList& block_hashes_in, std::int64_t max_length, const std::vector<std::int64_t>& kv_cache_group_ids,
    BlockPool& block_pool_, const KVCacheSpec& spec, bool drop_eagle_block, std::int64_t alignment_tokens,
    std::int64_t dcp_world_size_, std::int64_t pcp_world_size_) const {
  const auto* cl = dynamic_cast<const ChunkedLocalAttentionSpec*>(&spec);
  if (cl == nullptr) {
    throw AssertionError("ChunkedLocalAttentionManager can only be used for chunked local attention groups");
  }
  if (drop_eagle_block) throw AssertionError("Hybrid KV cache is not supported for eagle + chunked local attention.");
  if (dcp_world_size_ != 1) throw AssertionError("DCP not support chunked local attn now.");
  if (pcp_world_size_ != 1) throw AssertionError("PCP not support chunked local attn now.");
  if (spec.block_size != alignment_tokens) {
    throw AssertionError(
        "KV cache groups with different block sizes are not compatible with chunked local attention now");
  }
  const BlockHashList block_hashes = resolve_block_hashes(block_hashes_in, block_pool_.hash_block_size,
                                                          spec.block_size, supports_fine_grained_hash_lookup(),
                                                          alignment_tokens);
  const std::int64_t max_num_blocks = floor_div(max_length, spec.block_size);
  std::int64_t local_attention_start_idx = 0;
  if (max_length > 0) {
    local_attention_start_idx = floor_div(max_length, cl->attention_chunk_size) * cl->attention_chunk_size;
  }
  const std::int64_t local_attention_start_block_idx = floor_div(local_attention_start_idx, spec.block_size);
  CacheHitBlocks computed_blocks(
      kv_cache_group_ids.size(),
      std::vector<KVCacheBlock*>(static_cast<std::size_t>(local_attention_start_block_idx), block_pool_.null_block));
  for (std::int64_t i = local_attention_start_block_idx; i < max_num_blocks; ++i) {
    auto cached_block = block_pool_.get_cached_block(block_hashes[i], kv_cache_group_ids);
    if (!cached_block) break;
    for (std::size_t g = 0; g < computed_blocks.size(); ++g) computed_blocks[g].push_back((*cached_block)[g]);
  }
  const std::int64_t hit_length = static_cast<std::int64_t>(computed_blocks[0].size()) * spec.block_size;
  return {std::move(computed_blocks), hit_length};
}

// single_type_kv_cache_manager.py@6e448d0e ChunkedLocalAttentionManager.get_num_skipped_tokens
std::int64_t ChunkedLocalAttentionManager::get_num_skipped_tokens(std::int64_t num_computed_tokens) const {
  return floor_div(num_computed_tokens, attention_chunk_size) * attention_chunk_size;
}

// single_type_kv_cache_manager.py@6e448d0e CrossAttentionManager.add_local_computed_blocks
void CrossAttentionManager::add_local_computed_blocks(const std::string&,
                                                      const std::vector<KVCacheBlock*>& new_computed_blocks,
                                                      std::int64_t, std::int64_t) {
  if (!new_computed_blocks.empty()) throw AssertionError("cross-attention blocks are never prefix-cached");
}

// single_type_kv_cache_manager.py@6e448d0e CrossAttentionManager.cache_blocks
void CrossAttentionManager::cache_blocks(const Request&, std::int64_t, std::optional<std::int64_t>) {
  throw ValueError("Should not be called as prefix caching is disabled.");
}

// single_type_kv_cache_manager.py@6e448d0e CrossAttentionManager.find_longest_cache_hit
std::pair<CacheHitBlocks, std::int64_t> CrossAttentionManager::find_longest_cache_hit(
    const BlockHashList&, std::int64_t, const std::vector<std::int64_t>&, BlockPool&, const KVCacheSpec& spec, bool,
    std::int64_t, std::int64_t, std::int64_t) const {
  if (!isinstance<CrossAttentionSpec>(spec)) {
    throw AssertionError("CrossAttentionManager can only be used for cross-attention groups");
  }
  throw NotImplementedError("CrossAttentionManager does not support caching");
}

// single_type_kv_cache_manager.py@6e448d0e SinkFullAttentionManager.__init__
SinkFullAttentionManager::SinkFullAttentionManager(KVCacheSpecPtr spec, BlockPool* pool, bool enable_caching_,
                                                   std::int64_t group_id, std::int64_t sched_block_size,
                                                   std::int64_t dcp, std::int64_t pcp)
    : FullAttentionManager(spec, pool, enable_caching_, group_id, sched_block_size, dcp, pcp) {
  const auto* sink = dynamic_cast<const SinkFullAttentionSpec*>(kv_cache_spec.get());
  if (sink == nullptr) throw AssertionError("SinkFullAttentionManager needs a SinkFullAttentionSpec");
  const auto sink_len = sink->sink_len;
  if (!sink_len.has_value() || *sink_len <= 0 || *sink_len % block_size != 0) {
    throw AssertionError("sink_len must be a positive multiple of the block size");
  }
  sink_blocks = block_pool->free_block_queue.popleft_n(*sink_len / block_size);
}

}  // namespace blis::vllm
