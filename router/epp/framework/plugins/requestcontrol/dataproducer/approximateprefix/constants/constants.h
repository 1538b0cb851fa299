// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.go@71f4f099 (complete).
#pragma once

#include <string_view>

namespace blis::router::approxprefixconstants {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/constants/constants.go@71f4f099 ApproxPrefixCachePluginType
inline constexpr std::string_view ApproxPrefixCachePluginType = "approx-prefix-cache-producer";

}  // namespace blis::router::approxprefixconstants
