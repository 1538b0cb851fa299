// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099; draws come
// from a caller's RandomStream.
#include "router/epp/framework/plugins/scheduling/picker/common.h"

#include <cstdint>
#include <utility>

namespace blis::router::picker {

// pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099 ShuffleScoredEndpoints
// (the loop of Go's math/rand/v2 Rand.Shuffle).
void ShuffleScoredEndpoints(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints, RandomStream& rand) {
  for (std::size_t i = scoredEndpoints.size(); i-- > 1;) {
    const auto j = static_cast<std::size_t>(rand.below(static_cast<std::uint64_t>(i) + 1));
    std::swap(scoredEndpoints[i], scoredEndpoints[j]);
  }
}

}  // namespace blis::router::picker
