// Original to BLIS: test stand-ins for the mem_cache tests: a recording allocator that stands in for upstream's
// unittest.mock.Mock() allocator, and helpers for the index vectors upstream builds with torch.tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "srt/mem_cache/allocator/base.h"

namespace blis::sglang::testing_fakes {

// Stands in for unittest.mock.Mock() passed as mock_allocator: every call is recorded and does nothing else.
class RecordingAllocator : public BaseTokenToKVPoolAllocator {
 public:
  RecordingAllocator() : BaseTokenToKVPoolAllocator(0, 1, false) {}
  std::vector<std::pair<IndexVector, std::int64_t>> free_segment_calls;
  std::vector<IndexVector> free_calls;

  void clear() override {}
  std::optional<IndexVector> alloc(std::int64_t) override { return std::nullopt; }
  void free(std::span<const std::int64_t> free_index) override {
    free_calls.emplace_back(free_index.begin(), free_index.end());
  }
  void free_segment(std::span<const std::int64_t> free_index, std::int64_t start_pos) override {
    free_segment_calls.emplace_back(IndexVector(free_index.begin(), free_index.end()), start_pos);
  }
};

}  // namespace blis::sglang::testing_fakes
