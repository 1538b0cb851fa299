// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.go@71f4f099 (complete).
#pragma once

#include <string_view>

namespace blis::router::inflightloadconstants {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.go@71f4f099 InFlightLoadProducerType
inline constexpr std::string_view InFlightLoadProducerType = "inflight-load-producer";

}  // namespace blis::router::inflightloadconstants
