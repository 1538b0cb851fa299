// Original to BLIS: the reader of the pinned SGLang tree's selectable features for engines/sglang/surface.json
// (SGL-4, SGL-6, X9, §7.5). Each category is read from the place upstream defines what a user can select:
//
//   transfer_backend         members of TransferBackend (disaggregation/utils.py)
//   hicache_storage_backend  StorageBackendFactory.register_backend("name", ...) calls
//   tree_cache               classes deriving BasePrefixCache (mem_cache/base_prefix_cache.py), transitively
//   tree_core                register_tree_core_backend("name", ...) calls
//   allocator                classes deriving BaseTokenToKVPoolAllocator (mem_cache/allocator/base.py)
//   memory_pool              classes deriving KVCache (mem_cache/memory_pool.py)
//   speculative_algorithm    members of SpeculativeAlgorithm (speculative/spec_info.py)
//   schedule_policy          the choices of ServerArgs.schedule_policy (server_args.py)
//   eviction_policy          the choices of ServerArgs.radix_eviction_policy
//   retraction_policy        the choices of ServerArgs.retraction_policy
//   attention_backend        the choices of ServerArgs.attention_backend
//   metric_family            `name="sglang:..."` of every metric constructor call
//   kv_event                 classes deriving KVCacheEvent (disaggregation/kv_events.py)
//
// An enum member's name is its string value when it has one (the name users type), else the member's
// name. A class hierarchy is read over every .py file under python/sglang/srt; bases are matched by their
// last dotted name. A definition the reader cannot account for (an enum or base class missing, a metric
// name built at run time with an f-string) is an error: the list must not silently miss an item.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace blis::sglang::surface {

struct Item {
  std::string category;
  std::string name;
  std::string path;  // the upstream file (relative to the checkout), e.g. python/sglang/srt/mem_cache/radix_cache.py
  unsigned line = 0;
  std::string part;  // §7.1's part that owns most of its decisions
  bool framework = false;
};

struct Scan {
  std::vector<Item> items;  // sorted by category, then name; each (category, name) once
  std::vector<std::string> errors;
};

// Reads the checkout rooted at `checkout` (holding python/sglang/srt/).
Scan scan_upstream(const std::filesystem::path& checkout);

struct TestFunction {
  std::string name;  // `test_x`, or `Class.test_x` for a method of a module-level class
  unsigned line = 0;
};

// What unittest and pytest collect from one test file: module-level `def test*` and `def test*` methods
// of module-level classes, in file order. `error` is set when the file is missing or does not parse.
std::vector<TestFunction> test_functions(const std::filesystem::path& file, std::string& error);

}  // namespace blis::sglang::surface
