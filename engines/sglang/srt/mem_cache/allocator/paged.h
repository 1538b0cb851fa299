// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/paged.py@71de97b2; indices are int64 vectors; alloc_extend and alloc_decode compute on the CPU what upstream's Triton kernels (kernels/ops/memory/allocator.py@71de97b2) compute, following alloc_extend_naive; get_num_new_pages is ported from utils/common.py@71de97b2. The SGLANG_DEBUG_MEMORY_POOL checks, the ROCm warm-up and get_cpu_copy/load_cpu_copy are not ported.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang {

// utils/common.py@71de97b2 get_num_new_pages. `prefix_lens` nullopt means decode (prefix = seq_len - 1).
std::int64_t get_num_new_pages(const std::vector<std::int64_t>& seq_lens, std::int64_t page_size,
                               const std::optional<std::vector<std::int64_t>>& prefix_lens = std::nullopt,
                               bool decode = false);

// allocator/paged.py@71de97b2 alloc_extend_naive: writes the KV indices of every request's extension into
// out_indices (sized to the sum of seq_lens - prefix_lens).
void alloc_extend_naive(const std::vector<std::int64_t>& prefix_lens, const std::vector<std::int64_t>& seq_lens,
                        const std::vector<std::int64_t>& last_loc, const std::vector<std::int64_t>& free_pages,
                        std::vector<std::int64_t>& out_indices, std::int64_t page_size);

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.
class PagedTokenToKVPoolAllocator : public BaseTokenToKVPoolAllocator {
 public:
  // PagedTokenToKVPoolAllocator.__init__ (dtype, device, kvcache dropped).
  PagedTokenToKVPoolAllocator(std::int64_t size, std::int64_t page_size, bool need_sort);

  std::int64_t num_pages() const { return num_pages_; }
  std::vector<std::vector<std::int64_t>> free_page_reps_group;

  // PagedTokenToKVPoolAllocator.alloc / alloc_extend / alloc_decode / free / free_segment /
  // free_group_begin / free_group_end / clear.
  std::optional<IndexVector> alloc(std::int64_t need_size) override;
  std::optional<IndexVector> alloc_extend(const std::vector<std::int64_t>& prefix_lens,
                                          const std::vector<std::int64_t>& seq_lens,
                                          const std::vector<std::int64_t>& last_loc, std::int64_t extend_num_tokens,
                                          std::optional<std::int64_t> num_new_pages = std::nullopt) override;
  std::optional<IndexVector> alloc_decode(const std::vector<std::int64_t>& seq_lens,
                                          const std::vector<std::int64_t>& last_loc) override;
  void free(std::span<const std::int64_t> free_index) override;
  void free_segment(std::span<const std::int64_t> free_index, std::int64_t start_pos) override;
  void free_group_begin() override;
  void free_group_end() override;
  void clear() override;

 private:
  // PagedTokenToKVPoolAllocator._release_page_ids: the pieces, concatenated in order, go in front.
  void release_page_ids(const std::vector<std::int64_t>& page_ids);
};

}  // namespace blis::sglang
