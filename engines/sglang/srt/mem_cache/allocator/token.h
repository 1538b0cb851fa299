// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/token.py@71de97b2; indices are int64 vectors, no KV cache is held (get_cpu_copy/load_cpu_copy not ported).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang {

// allocator/token.py@71de97b2 TokenToKVPoolAllocator (page size 1).
class TokenToKVPoolAllocator : public BaseTokenToKVPoolAllocator {
 public:
  // TokenToKVPoolAllocator.__init__ (dtype, device, kvcache dropped).
  TokenToKVPoolAllocator(std::int64_t size, bool need_sort);

  // TokenToKVPoolAllocator.clear / available_size / alloc / free.
  void clear() override;
  std::int64_t available_size() const override;
  std::optional<IndexVector> alloc(std::int64_t need_size) override;
  void free(std::span<const std::int64_t> free_index) override;
};

}  // namespace blis::sglang
