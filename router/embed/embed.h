// Original to BLIS: the router port's one entry point (X4: src/sim reaches router/ only here). It assembles
// llm-d's endpoint picker as the pinned release's start-up does (pkg/epp/config/loader, cmd/epp/runner),
// without servers, Kubernetes reconcilers or leader election (RTR-2's start-up assembly), on the runtime the
// host hands in.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "contracts/router/router.h"
#include "contracts/router/runtime.h"

namespace blis::router::embed {

// The router for an EndpointPickerConfig text (absent: llm-d's default configuration at the pin) and the
// router's command-line flags by name. Refuses (std::invalid_argument) a configuration or flag the port does
// not read, naming it; `runtime` must outlive the router.
std::unique_ptr<Router> New(const std::optional<std::string>& config, const std::map<std::string, std::string>& flags,
                            Runtime& runtime);

}  // namespace blis::router::embed
