// Original to BLIS: the reading half of the surface-list generator (VLM-4, X9, §7.5). It reads a pinned
// vLLM checkout's own registration tables with the project's tree-sitter Python reader and returns every
// item they register; it copies no upstream code. A build tool, never linked into the engine.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace blis::vllm::surface {

// One feature the release registers, before its status is merged in.
struct Item {
  std::string category;               // kv_connector, kv_cache_spec, metric_family, ...
  std::string name;                   // the upstream's own registered name
  std::vector<std::string> aliases;   // other registered names of the same entry
  std::string maps_to;                // the item whose class the registration maps this name to ("" none)
  std::string path;                   // where it is registered, relative to the checkout
  unsigned line = 0;                  // ... and on which line
  std::string part;                   // scheduling, kv_cache_management, ... ("" when none applies)
  std::vector<std::string> touches;   // other parts its code reaches
  bool framework = false;             // a shared framework other items are built on (FID-5)
};

// What the scan found, and what it could not account for (a registration table the generator does not
// know, a metric constructor whose name it cannot resolve, an expected table that is missing). A
// non-empty `errors` means the list would be incomplete: the generator refuses to write it.
struct Scan {
  std::vector<Item> items;  // sorted by category, then name
  std::vector<std::string> errors;
};

// Reads the checkout rooted at `checkout` (the directory holding vllm/).
Scan scan_upstream(const std::filesystem::path& checkout);

// One top-level test function of an upstream test file.
struct TestFunction {
  std::string name;
  unsigned line = 0;
};

// The module-level `def test_*` functions of one Python file, in source order. Fills `error` when the
// file is missing or does not parse.
std::vector<TestFunction> top_level_tests(const std::filesystem::path& file, std::string& error);

}  // namespace blis::vllm::surface
