// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e; a well-formed file beside the bad one.
#pragma once
