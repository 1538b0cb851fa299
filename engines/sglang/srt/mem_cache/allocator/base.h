// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/base.py@71de97b2; indices are int64 vectors (no tensors, no dtype or device, no KV data), free_pages/release_pages are vectors, and the SWA allocator's full_available_size/swa_available_size/size_swa are declared here as virtuals so a caller can use one interface. Not ported: get_kvcache, get_cpu_copy/load_cpu_copy, translate_kv_indices_for_transfer, debug_print.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace blis::sglang {

using IndexVector = std::vector<std::int64_t>;

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.
class BaseTokenToKVPoolAllocator {
 public:
  // BaseTokenToKVPoolAllocator.__init__ (dtype, device and kvcache dropped).
  BaseTokenToKVPoolAllocator(std::int64_t size, std::int64_t page_size, bool need_sort);
  virtual ~BaseTokenToKVPoolAllocator() = default;

  std::int64_t size;
  std::int64_t page_size;
  bool need_sort;
  IndexVector free_pages;
  IndexVector release_pages;
  bool is_not_in_free_group = true;
  std::vector<IndexVector> free_group;

  // BaseTokenToKVPoolAllocator.size_full.
  virtual std::int64_t size_full() const { return size; }
  // Not on upstream's base: SWATokenToKVPoolAllocator.size_swa (allocator/swa.py@71de97b2). The base throws
  // std::logic_error, as upstream raises AttributeError on an allocator without it.
  virtual std::int64_t size_swa() const;
  // BaseTokenToKVPoolAllocator.available_size.
  virtual std::int64_t available_size() const;
  // Not on upstream's base: SWATokenToKVPoolAllocator.full_available_size / swa_available_size
  // (allocator/swa.py@71de97b2). The base throws std::logic_error (upstream's AttributeError).
  virtual std::int64_t full_available_size() const;
  virtual std::int64_t swa_available_size() const;

  // BaseTokenToKVPoolAllocator.free_group_begin / free_group_end.
  virtual void free_group_begin();
  virtual void free_group_end();
  // BaseTokenToKVPoolAllocator.merge_and_sort_free.
  virtual void merge_and_sort_free();
  // BaseTokenToKVPoolAllocator.alloc_extend / alloc_decode: only the paged allocator has them; the base
  // throws std::logic_error (upstream's NotImplementedError). Arguments are the CPU copies of upstream's
  // tensors.
  virtual std::optional<IndexVector> alloc_extend(const std::vector<std::int64_t>& prefix_lens,
                                                  const std::vector<std::int64_t>& seq_lens,
                                                  const std::vector<std::int64_t>& last_loc,
                                                  std::int64_t extend_num_tokens,
                                                  std::optional<std::int64_t> num_new_pages = std::nullopt);
  virtual std::optional<IndexVector> alloc_decode(const std::vector<std::int64_t>& seq_lens,
                                                  const std::vector<std::int64_t>& last_loc);
  // BaseTokenToKVPoolAllocator.resize (config.max_total_num_tokens passed as a value).
  virtual void resize(std::int64_t max_total_num_tokens);
  // BaseTokenToKVPoolAllocator.clear / alloc / free (abstract). alloc returns nullopt (upstream's None)
  // when the pool is short.
  virtual void clear() = 0;
  virtual std::optional<IndexVector> alloc(std::int64_t need_size) = 0;
  virtual void free(std::span<const std::int64_t> free_index) = 0;
  // BaseTokenToKVPoolAllocator.free_segment.
  virtual void free_segment(std::span<const std::int64_t> free_index, std::int64_t start_pos);
  // BaseTokenToKVPoolAllocator.free_segments: disjoint ascending (free_index, start_pos) segments.
  void free_segments(const std::vector<std::pair<std::span<const std::int64_t>, std::int64_t>>& segments);

 protected:
  std::int64_t num_pages_ = 0;  // PagedTokenToKVPoolAllocator.num_pages (resize sets it for page_size > 1)
};

}  // namespace blis::sglang
