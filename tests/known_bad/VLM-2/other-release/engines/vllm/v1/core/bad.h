// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e.
// Keeps the eviction order vLLM 0.26.0 used, code for another release.
#pragma once
