// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/paged.py@71de97b2; indices are int64 vectors; alloc_extend and alloc_decode compute on the CPU what upstream's Triton kernels compute, following alloc_extend_naive.
#include "srt/mem_cache/allocator/paged.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace blis::sglang {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::int64_t at(const std::vector<std::int64_t>& v, std::int64_t i) {
  if (i < 0 || i >= static_cast<std::int64_t>(v.size())) throw std::out_of_range("free_pages index out of range");
  return v[static_cast<std::size_t>(i)];
}

}  // namespace

// utils/common.py@71de97b2 get_num_new_pages.
std::int64_t get_num_new_pages(const std::vector<std::int64_t>& seq_lens, std::int64_t page_size,
                               const std::optional<std::vector<std::int64_t>>& prefix_lens, bool decode) {
  if (!prefix_lens || decode) {
    // Decode: the prefix is seq_len - 1.
    if (!decode) throw std::invalid_argument("get_num_new_pages: prefix_lens is required unless decode");
    return std::count_if(seq_lens.begin(), seq_lens.end(), [page_size](std::int64_t s) { return s % page_size == 1; });
  }
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < seq_lens.size(); ++i)
    sum += ceil_div(seq_lens[i], page_size) - ceil_div((*prefix_lens)[i], page_size);
  return sum;
}

// allocator/paged.py@71de97b2 alloc_extend_naive.
void alloc_extend_naive(const std::vector<std::int64_t>& prefix_lens, const std::vector<std::int64_t>& seq_lens,
                        const std::vector<std::int64_t>& last_loc, const std::vector<std::int64_t>& free_pages,
                        std::vector<std::int64_t>& out_indices, std::int64_t page_size) {
  const std::size_t bs = prefix_lens.size();
  std::int64_t end_pos = 0;
  std::int64_t end_new_pages = 0;
  for (std::size_t i = 0; i < bs; ++i) {
    const std::int64_t extend_len = seq_lens[i] - prefix_lens[i];
    end_pos += extend_len;
    const std::int64_t start_pos = end_pos - extend_len;
    const std::int64_t num_new_pages = ceil_div(seq_lens[i], page_size) - ceil_div(prefix_lens[i], page_size);
    const std::int64_t num_full_new_pages = seq_lens[i] / page_size - ceil_div(prefix_lens[i], page_size);
    const std::int64_t need_page = num_new_pages - num_full_new_pages;
    end_new_pages += num_new_pages;
    const std::int64_t start_new_pages = end_new_pages - num_new_pages;

    const std::int64_t num1 = std::min(seq_lens[i], ceil_div(prefix_lens[i], page_size) * page_size) - prefix_lens[i];
    for (std::int64_t k = 0; k < num1; ++k)
      out_indices.at(static_cast<std::size_t>(start_pos + k)) = last_loc[i] + 1 + k;
    if (prefix_lens[i] + num1 == seq_lens[i]) continue;

    const std::int64_t num2 = (seq_lens[i] / page_size - ceil_div(prefix_lens[i], page_size)) * page_size;
    if (num2) {
      std::int64_t w = start_pos + num1;
      for (std::int64_t p = start_new_pages; p < end_new_pages - need_page; ++p) {
        for (std::int64_t k = 0; k < page_size; ++k)
          out_indices.at(static_cast<std::size_t>(w++)) = at(free_pages, p) * page_size + k;
      }
    }
    if (prefix_lens[i] + num1 + num2 == seq_lens[i]) continue;

    const std::int64_t num3 = seq_lens[i] - seq_lens[i] / page_size * page_size;
    for (std::int64_t k = 0; k < num3; ++k) {
      out_indices.at(static_cast<std::size_t>(end_pos - num3 + k)) = at(free_pages, end_new_pages - 1) * page_size + k;
    }
  }
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.__init__.
PagedTokenToKVPoolAllocator::PagedTokenToKVPoolAllocator(std::int64_t size_, std::int64_t page_size_, bool need_sort_)
    : BaseTokenToKVPoolAllocator(size_, page_size_, need_sort_) {
  num_pages_ = size_ / page_size_;
  clear();
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.alloc.
std::optional<IndexVector> PagedTokenToKVPoolAllocator::alloc(std::int64_t need_size) {
  const std::int64_t num_pages = need_size / page_size;
  if (need_sort && num_pages > static_cast<std::int64_t>(free_pages.size())) merge_and_sort_free();
  if (num_pages > static_cast<std::int64_t>(free_pages.size())) return std::nullopt;
  IndexVector out_indices;
  out_indices.reserve(static_cast<std::size_t>(num_pages * page_size));
  for (std::int64_t p = 0; p < num_pages; ++p) {
    for (std::int64_t k = 0; k < page_size; ++k)
      out_indices.push_back(free_pages[static_cast<std::size_t>(p)] * page_size + k);
  }
  free_pages.erase(free_pages.begin(), free_pages.begin() + num_pages);
  return out_indices;
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.alloc_extend. Upstream runs the kernel before the
// page check and discards its output on failure; here the check comes first.
std::optional<IndexVector> PagedTokenToKVPoolAllocator::alloc_extend(const std::vector<std::int64_t>& prefix_lens,
                                                                     const std::vector<std::int64_t>& seq_lens,
                                                                     const std::vector<std::int64_t>& last_loc,
                                                                     std::int64_t extend_num_tokens,
                                                                     std::optional<std::int64_t> num_new_pages) {
  const auto bs = static_cast<std::int64_t>(prefix_lens.size());
  if (need_sort && extend_num_tokens / page_size + bs + 1 > static_cast<std::int64_t>(free_pages.size())) {
    merge_and_sort_free();
  }
  if (!num_new_pages) num_new_pages = get_num_new_pages(seq_lens, page_size, prefix_lens);
  if (*num_new_pages > static_cast<std::int64_t>(free_pages.size())) return std::nullopt;
  IndexVector out_indices(static_cast<std::size_t>(extend_num_tokens), 0);
  alloc_extend_naive(prefix_lens, seq_lens, last_loc, free_pages, out_indices, page_size);
  free_pages.erase(free_pages.begin(), free_pages.begin() + *num_new_pages);
  return out_indices;
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.alloc_decode, with alloc_decode_kernel
// (kernels/ops/memory/allocator.py@71de97b2): a request whose new token starts a page takes the next free
// page in batch order, the others continue after last_loc.
std::optional<IndexVector> PagedTokenToKVPoolAllocator::alloc_decode(const std::vector<std::int64_t>& seq_lens,
                                                                     const std::vector<std::int64_t>& last_loc) {
  const auto bs = static_cast<std::int64_t>(seq_lens.size());
  if (need_sort && bs > static_cast<std::int64_t>(free_pages.size())) merge_and_sort_free();
  const std::int64_t num_new_pages = get_num_new_pages(seq_lens, page_size, std::nullopt, true);
  if (num_new_pages > static_cast<std::int64_t>(free_pages.size())) return std::nullopt;
  IndexVector out_indices(seq_lens.size(), 0);
  std::int64_t sum_new_pages = 0;
  for (std::size_t i = 0; i < seq_lens.size(); ++i) {
    const std::int64_t seq_len = seq_lens[i];
    const std::int64_t self_new = ceil_div(seq_len, page_size) - ceil_div(seq_len - 1, page_size);
    sum_new_pages += self_new;
    if (self_new == 0) {
      out_indices[i] = last_loc[i] + 1;
    } else {
      out_indices[i] = at(free_pages, sum_new_pages - self_new) * page_size;
    }
  }
  free_pages.erase(free_pages.begin(), free_pages.begin() + num_new_pages);
  return out_indices;
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.free: the sorted unique page ids.
void PagedTokenToKVPoolAllocator::free(std::span<const std::int64_t> free_index) {
  if (free_index.empty()) return;
  if (is_not_in_free_group) {
    std::vector<std::int64_t> pages;
    pages.reserve(free_index.size());
    for (std::int64_t i : free_index) pages.push_back(i / page_size);
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    release_page_ids(pages);
  } else {
    free_group.emplace_back(free_index.begin(), free_index.end());
  }
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.free_segment: page representatives are stride
// slices (the first index, then every page_size-th from the next page start).
void PagedTokenToKVPoolAllocator::free_segment(std::span<const std::int64_t> free_index, std::int64_t start_pos) {
  if (free_index.empty()) return;
  const std::int64_t ps = page_size;
  const std::int64_t offset = start_pos % ps;
  std::vector<std::int64_t> reps;
  auto stride_from = [&](std::int64_t from) {
    for (std::int64_t i = from; i < static_cast<std::int64_t>(free_index.size()); i += ps) {
      reps.push_back(free_index[static_cast<std::size_t>(i)]);
    }
  };
  if (offset == 0) {
    stride_from(0);
  } else {
    reps.push_back(free_index[0]);
    stride_from(ps - offset);
  }
  if (is_not_in_free_group) {
    std::vector<std::int64_t> pages;
    pages.reserve(reps.size());
    for (std::int64_t r : reps) pages.push_back(r / ps);
    release_page_ids(pages);
  } else {
    free_page_reps_group.push_back(std::move(reps));
  }
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator._release_page_ids: prepended.
void PagedTokenToKVPoolAllocator::release_page_ids(const std::vector<std::int64_t>& page_ids) {
  IndexVector& target = need_sort ? release_pages : free_pages;
  target.insert(target.begin(), page_ids.begin(), page_ids.end());
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.free_group_begin.
void PagedTokenToKVPoolAllocator::free_group_begin() {
  BaseTokenToKVPoolAllocator::free_group_begin();
  free_page_reps_group.clear();
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.free_group_end.
void PagedTokenToKVPoolAllocator::free_group_end() {
  BaseTokenToKVPoolAllocator::free_group_end();
  if (!free_page_reps_group.empty()) {
    std::vector<std::int64_t> pages;
    for (const auto& g : free_page_reps_group) {
      for (std::int64_t r : g) pages.push_back(r / page_size);
    }
    release_page_ids(pages);
    free_page_reps_group.clear();
  }
}

// allocator/paged.py@71de97b2 PagedTokenToKVPoolAllocator.clear: page 0 is the padded page.
void PagedTokenToKVPoolAllocator::clear() {
  free_pages.resize(static_cast<std::size_t>(num_pages_));
  std::iota(free_pages.begin(), free_pages.end(), 1);
  is_not_in_free_group = true;
  free_group.clear();
  free_page_reps_group.clear();
  release_pages.clear();
}

}  // namespace blis::sglang
