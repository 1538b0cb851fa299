// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: see flags.h (pkg/epp/server/options.go@71f4f099 AddFlags, classified).
#include "router/cmd/epp/runner/flags.h"

#include <set>
#include <stdexcept>

#include "router/epp/config/loader/goparse.h"

namespace blis::router::runner {
namespace {

// Flags of pkg/epp/server/options.go@71f4f099 and logging/options.go that only change serving, Kubernetes
// wiring or observation (metrics, tracing, health, TLS, logging): nothing the simulator's decisions read.
const std::set<std::string>& observationFlags() {
  static const std::set<std::string> names = {
      "grpc-port", "ha-enable-leader-election", "drain-timeout", "grpc-max-recv-msg-size", "grpc-max-send-msg-size",
      "pool-group", "pool-namespace", "pool-name", "endpoint-selector", "endpoint-target-ports",
      "disable-endpoint-subset-filter", "emit-endpoint-scores", "refresh-prometheus-metrics-interval",
      "total-queued-requests-metric", "total-running-requests-metric", "kv-cache-usage-percentage-metric",
      "lora-info-metric", "cache-info-metric", "tracing", "health-checking", "metrics-port", "grpc-health-port",
      "enable-pprof", "cert-path", "enable-cert-reload", "enable-grpc-stream-metrics", "secure-serving",
      "tls-min-version", "tls-cipher-suites", "metrics-endpoint-auth", "metrics-client-ca-file", "metrics-cert-dir", "v"};
  return names;
}

// Original to BLIS: a refused flag, named as the host's configuration names it.
[[noreturn]] void refuse(const std::string& name, const std::string& why) {
  throw std::invalid_argument("router.flags." + name + ": " + why);
}

// Original to BLIS: pflag's error for a value its parser refuses.
[[noreturn]] void badValue(const std::string& name, const std::string& value, const std::string& err) {
  refuse(name, "invalid argument \"" + value + "\" for \"--" + name + "\" flag: " + err);
}

// Original to BLIS: a duration flag's value (pflag's durationValue.Set).
std::int64_t duration(const std::string& name, const std::string& value) {
  auto d = loader::ParseDuration(value);
  if (!d.Value) badValue(name, value, *d.Err);
  return *d.Value;
}

}  // namespace

// Original to BLIS: see flags.h.
Flags ParseFlags(const std::map<std::string, std::string>& flags) {
  Flags out;
  for (const auto& [name, value] : flags) {
    if (name == "allow-experimental-plugins") {
      // pflag's bool flag: an empty value (bare --flag) means true.
      if (value.empty()) {
        out.AllowExperimentalPlugins = true;
        continue;
      }
      auto b = loader::ParseBool(value);
      if (!b.Value) badValue(name, value, *b.Err);
      out.AllowExperimentalPlugins = *b.Value;
    } else if (name == "refresh-metrics-interval") {
      out.RefreshMetricsIntervalNs = duration(name, value);
    } else if (name == "metrics-staleness-threshold") {
      out.MetricsStalenessThresholdNs = duration(name, value);
    } else if (name == "config-file" || name == "config-text") {
      refuse(name, "give the EndpointPickerConfig as router.config instead");
    } else if (observationFlags().count(name)) {
      out.Warnings.push_back("router.flags." + name + ": accepted and ignored: it changes only serving or observation, "
                             "not a routing decision");
    } else {
      refuse(name, "not a flag of llm-d's endpoint picker at v0.10.0 that this port reads");
    }
  }
  return out;
}

}  // namespace blis::router::runner
