// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/radix_cache.py@71de97b2.
int match_prefix();
