// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: the runner's command-line flags (pkg/epp/server/options.go@71f4f099 Options.AddFlags,
// pkg/common/observability/logging/options.go@71f4f099) classified for the simulator: the flags that change a
// decision are parsed (pflag's value syntax and error text), the serving/observation ones are accepted with a
// warning naming them, the rest refused by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace blis::router::runner {

// pkg/epp/server/options.go@71f4f099 Options (the fields the port reads) with NewOptions' defaults.
struct Flags {
  bool AllowExperimentalPlugins = false;
  std::int64_t RefreshMetricsIntervalNs = 50'000'000;        // 50ms
  std::int64_t MetricsStalenessThresholdNs = 2'000'000'000;  // 2s
  std::vector<std::string> Warnings;  // one per accepted flag that changes nothing in the simulator
};

// Throws std::invalid_argument("router.flags.<name>: ...") for a refused flag or a value pflag would refuse.
// Names are given without the leading "--".
Flags ParseFlags(const std::map<std::string, std::string>& flags);

}  // namespace blis::router::runner
