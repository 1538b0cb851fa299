// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/base.py@71de97b2; indices are int64 vectors (no tensors, no dtype or device, no KV data).
#include "srt/mem_cache/allocator/base.h"

#include <algorithm>
#include <stdexcept>

namespace blis::sglang {

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.__init__.
BaseTokenToKVPoolAllocator::BaseTokenToKVPoolAllocator(std::int64_t size_, std::int64_t page_size_, bool need_sort_)
    : size(size_), page_size(page_size_), need_sort(need_sort_) {}

// allocator/swa.py@71de97b2 SWATokenToKVPoolAllocator.size_swa: absent from the base (AttributeError upstream).
std::int64_t BaseTokenToKVPoolAllocator::size_swa() const {
  throw std::logic_error("'BaseTokenToKVPoolAllocator' object has no attribute 'size_swa'");
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.available_size.
std::int64_t BaseTokenToKVPoolAllocator::available_size() const {
  return static_cast<std::int64_t>(free_pages.size() + release_pages.size()) * page_size;
}

// allocator/swa.py@71de97b2 SWATokenToKVPoolAllocator.full_available_size: absent from the base.
std::int64_t BaseTokenToKVPoolAllocator::full_available_size() const {
  throw std::logic_error("'BaseTokenToKVPoolAllocator' object has no attribute 'full_available_size'");
}

// allocator/swa.py@71de97b2 SWATokenToKVPoolAllocator.swa_available_size: absent from the base.
std::int64_t BaseTokenToKVPoolAllocator::swa_available_size() const {
  throw std::logic_error("'BaseTokenToKVPoolAllocator' object has no attribute 'swa_available_size'");
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.free_group_begin.
void BaseTokenToKVPoolAllocator::free_group_begin() {
  is_not_in_free_group = false;
  free_group.clear();
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.free_group_end.
void BaseTokenToKVPoolAllocator::free_group_end() {
  is_not_in_free_group = true;
  if (!free_group.empty()) {
    IndexVector all;
    for (const auto& g : free_group) all.insert(all.end(), g.begin(), g.end());
    free_group.clear();
    free(all);
  }
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.merge_and_sort_free.
void BaseTokenToKVPoolAllocator::merge_and_sort_free() {
  if (!release_pages.empty()) {
    free_pages.insert(free_pages.end(), release_pages.begin(), release_pages.end());
    std::sort(free_pages.begin(), free_pages.end());
    release_pages.clear();
  }
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.alloc_extend.
std::optional<IndexVector> BaseTokenToKVPoolAllocator::alloc_extend(const std::vector<std::int64_t>&,
                                                                    const std::vector<std::int64_t>&,
                                                                    const std::vector<std::int64_t>&, std::int64_t,
                                                                    std::optional<std::int64_t>) {
  throw std::logic_error("alloc_extend is only for paged allocator");
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.alloc_decode.
std::optional<IndexVector> BaseTokenToKVPoolAllocator::alloc_decode(const std::vector<std::int64_t>&,
                                                                    const std::vector<std::int64_t>&) {
  throw std::logic_error("alloc_decode is only for paged allocator");
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.resize.
void BaseTokenToKVPoolAllocator::resize(std::int64_t max_total_num_tokens) {
  size = max_total_num_tokens;
  if (page_size > 1) num_pages_ = max_total_num_tokens / page_size;
  clear();
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.free_segment.
void BaseTokenToKVPoolAllocator::free_segment(std::span<const std::int64_t> free_index, std::int64_t /*start_pos*/) {
  free(free_index);
}

// allocator/base.py@71de97b2 BaseTokenToKVPoolAllocator.free_segments.
void BaseTokenToKVPoolAllocator::free_segments(
    const std::vector<std::pair<std::span<const std::int64_t>, std::int64_t>>& segments) {
  const std::int64_t ps = page_size;
  std::optional<std::int64_t> prev_end;
  for (auto [free_index, start_pos] : segments) {
    const auto n = static_cast<std::int64_t>(free_index.size());
    if (n == 0) continue;
    const std::int64_t seg_end = start_pos + n;
    if (prev_end && start_pos / ps == (*prev_end - 1) / ps) {
      const std::int64_t boundary = (start_pos / ps + 1) * ps;
      const auto skip = static_cast<std::size_t>(std::min(boundary - start_pos, n));
      free_index = free_index.subspan(skip);
      start_pos = boundary;
    }
    prev_end = seg_end;
    free_segment(free_index, start_pos);
  }
}

}  // namespace blis::sglang
