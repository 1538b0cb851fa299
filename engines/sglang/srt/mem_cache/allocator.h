// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/allocator/__init__.py@71de97b2; the package's exports as one header.
#pragma once

// allocator/__init__.py@71de97b2 __all__: BaseTokenToKVPoolAllocator, PagedTokenToKVPoolAllocator,
// TokenToKVPoolAllocator, alloc_extend_naive.
#include "srt/mem_cache/allocator/base.h"
#include "srt/mem_cache/allocator/paged.h"
#include "srt/mem_cache/allocator/token.h"
