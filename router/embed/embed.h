// Original to BLIS: the router port's one entry point (X4: src/sim reaches router/ only here). It assembles
// llm-d's endpoint picker as the pinned release's start-up does (pkg/epp/config/loader, cmd/epp/runner),
// without servers, Kubernetes reconcilers or leader election (RTR-2's start-up assembly), on the runtime the
// host hands in.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include "contracts/router/router.h"
#include "contracts/router/runtime.h"

namespace blis::router::embed {

// The router for an EndpointPickerConfig text (absent: llm-d's default configuration at the pin), loaded by
// the port of llm-d's configuration loader, and the router's command-line flags by name (without "--").
// Refuses (std::invalid_argument) a configuration llm-d refuses (llm-d's message), a plugin type or flag the
// port does not model (naming it); `runtime` must outlive the router.
std::unique_ptr<Router> New(const std::optional<std::string>& config, const std::map<std::string, std::string>& flags,
                            Runtime& runtime);

// The settings of a router New returned that the host applies (llm-d's runner applies them to its data layer),
// and its warnings: the start-up's (deprecations, ignored configuration sections, flags accepted without effect)
// and, as the run goes, each distinct error the metrics extractor met (llm-d logs those and carries on).
struct Settings {
  std::int64_t RefreshMetricsIntervalNs = 0;     // --refresh-metrics-interval (default 50ms)
  std::int64_t MetricsStalenessThresholdNs = 0;  // --metrics-staleness-threshold (default 2s)
  std::vector<std::string> Warnings;
};
// Throws std::invalid_argument when `router` was not made by New.
const Settings& SettingsOf(const Router& router);

}  // namespace blis::router::embed
