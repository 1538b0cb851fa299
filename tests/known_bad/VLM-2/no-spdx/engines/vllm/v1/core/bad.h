// Changed for BLIS: a C++ port of vllm/v1/core/block_pool.py@6e448d0e, but without the licence header.
#pragma once
