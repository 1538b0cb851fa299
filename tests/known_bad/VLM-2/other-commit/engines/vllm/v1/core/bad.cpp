// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e.
// block_pool.py@0123abcd BlockPool.get_new_blocks: a function ported from another commit.
int get_new_blocks();
