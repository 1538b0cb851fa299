// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/scheduling/constants.go@71f4f099; the constants are kept for
// reference only: tracing is not ported, so nothing reads them.
#pragma once

namespace blis::router::scheduling {

// pkg/epp/scheduling/constants.go@71f4f099 TracerScope
inline constexpr const char* TracerScope = "llm-d-router/pkg/epp/scheduling";

// pkg/epp/scheduling/constants.go@71f4f099 maxTracedEndpointScores
inline constexpr int maxTracedEndpointScores = 5;

}  // namespace blis::router::scheduling
