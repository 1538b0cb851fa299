// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099; the
// process-wide clock-seeded PickerRand is replaced by a RandomStream the caller hands in.
#pragma once

#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::picker {

// pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099 DefaultMaxNumOfEndpoints
inline constexpr int DefaultMaxNumOfEndpoints = 1;

// pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099 PickerParameters
// The common picker parameters, as the configuration decodes them ("maxNumOfEndpoints").
struct PickerParameters {
  int MaxNumOfEndpoints = DefaultMaxNumOfEndpoints;
};

// pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099 ShuffleScoredEndpoints
// Randomizes the order of scoredEndpoints in place: Go's rand.Shuffle (Fisher-Yates from the last index
// down, j uniform on [0, i]) drawing from rand.
void ShuffleScoredEndpoints(std::vector<fwksched::ScoredEndpointPtr>& scoredEndpoints, RandomStream& rand);

}  // namespace blis::router::picker
