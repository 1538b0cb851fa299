// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: test support for the C++ ports of llm-d's picker tests (pkg/epp/framework/plugins/
// scheduling/picker/*/picker_test.go@71f4f099), which draw from Go's process-wide generator; here a seeded
// RandomStream stands in for it so every run draws the same numbers.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "contracts/router/runtime.h"

namespace blis::router::testing {

// SplitMix64 (Steele, Lea, Flood 2014) behind the RandomStream interface: a deterministic generator for
// tests only.
class SplitMixStream final : public RandomStream {
 public:
  explicit SplitMixStream(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next_u64() override {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // (k + 0.5) / 2^53 for a 53-bit k: strictly inside (0, 1).
  double uniform01() override { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }

  // Rejection sampling: the draws below 2^64 mod n are rejected, so r % n is unbiased.
  std::uint64_t below(std::uint64_t n) override {
    if (n == 0) throw std::invalid_argument("below(0)");
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
      const std::uint64_t r = next_u64();
      if (r >= threshold) return r % n;
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace blis::router::testing
