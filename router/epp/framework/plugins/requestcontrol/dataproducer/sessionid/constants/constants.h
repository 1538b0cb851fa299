// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/constants/constants.go@71f4f099 (complete).
#pragma once

namespace blis::router::sessionidconstants {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/constants/constants.go@71f4f099 SessionIDProducerType
// The default producer type for SessionIDDataKey.
inline constexpr const char* SessionIDProducerType = "session-id-producer";

}  // namespace blis::router::sessionidconstants
