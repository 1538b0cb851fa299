// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/token.py@71de97b2; indices are int64 vectors, no KV cache is held.
#include "srt/mem_cache/allocator/token.h"

#include <numeric>

namespace blis::sglang {

// allocator/token.py@71de97b2 TokenToKVPoolAllocator.__init__.
TokenToKVPoolAllocator::TokenToKVPoolAllocator(std::int64_t size_, bool need_sort_)
    : BaseTokenToKVPoolAllocator(size_, 1, need_sort_) {
  clear();
}

// allocator/token.py@71de97b2 TokenToKVPoolAllocator.clear: slot 0 is the padded slot.
void TokenToKVPoolAllocator::clear() {
  free_pages.resize(static_cast<std::size_t>(size));
  std::iota(free_pages.begin(), free_pages.end(), 1);
  is_not_in_free_group = true;
  free_group.clear();
  release_pages.clear();
}

// allocator/token.py@71de97b2 TokenToKVPoolAllocator.available_size.
std::int64_t TokenToKVPoolAllocator::available_size() const {
  return static_cast<std::int64_t>(free_pages.size() + release_pages.size());
}

// allocator/token.py@71de97b2 TokenToKVPoolAllocator.alloc.
std::optional<IndexVector> TokenToKVPoolAllocator::alloc(std::int64_t need_size) {
  if (need_sort && need_size > static_cast<std::int64_t>(free_pages.size())) merge_and_sort_free();
  if (need_size > static_cast<std::int64_t>(free_pages.size())) return std::nullopt;
  IndexVector select_index(free_pages.begin(), free_pages.begin() + need_size);
  free_pages.erase(free_pages.begin(), free_pages.begin() + need_size);
  return select_index;
}

// allocator/token.py@71de97b2 TokenToKVPoolAllocator.free.
void TokenToKVPoolAllocator::free(std::span<const std::int64_t> free_index) {
  if (free_index.empty()) return;
  if (is_not_in_free_group) {
    if (need_sort) {
      release_pages.insert(release_pages.end(), free_index.begin(), free_index.end());
    } else {
      free_pages.insert(free_pages.end(), free_index.begin(), free_index.end());
    }
  } else {
    free_group.emplace_back(free_index.begin(), free_index.end());
  }
}

}  // namespace blis::sglang
