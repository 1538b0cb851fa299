// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2.
// As in SGLang 0.5.17, the split keeps the parent.
int split();
