// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: the plugin surface of cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins: every type it
// registers (in its order, the duplicate prefill-filter/decode-filter lines once), with whether this port runs
// it. "modelled" types are registered by RegisterInTreePlugins; "refused" ones are refused by name at load.
#include <stdexcept>

#include "router/cmd/epp/runner/register.h"

namespace blis::router::runner {

namespace {
// Original to BLIS: the table behind PluginSurface (status when the registry does not say otherwise).
const std::vector<SurfaceEntry>& surfaceTable() {
  static const std::vector<SurfaceEntry> surface = {
      {"disaggregatedset-rollout-screener", "refused", "request-control screeners are not modelled"},
      {"label-selector-filter", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"by-label-selector", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"by-label", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"encode-filter", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"decode-filter", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"prefill-filter", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"session-affinity-filter", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"endpoint-attribute-filter", "refused", "reads endpoint attributes (labels) the simulator does not deliver"},
      {"topology-affinity-filter", "refused", "endpoint topology is not modelled"},
      {"utilization-filter", "refused", "not ported"},
      {"data-parallel-profile-handler", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"load-aware-scorer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"context-length-aware", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"session-affinity-scorer", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"header-label-affinity-scorer", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"models-data-source", "refused", "observation only: the data it collects is not delivered by the simulator"},
      {"models-data-extractor", "refused", "observation only: the data it collects is not delivered by the simulator"},
      {"topology-extractor", "refused", "observation only: the data it collects is not delivered by the simulator"},
      {"dcgm-data-source", "refused", "observation only: the data it collects is not delivered by the simulator"},
      {"dcgm-extractor", "refused", "observation only: the data it collects is not delivered by the simulator"},
      {"prefix-cache-scorer", "modelled", "decides routing in the port"},
      {"max-score-picker", "modelled", "decides routing in the port"},
      {"random-picker", "modelled", "decides routing in the port"},
      {"weighted-random-picker", "modelled", "decides routing in the port"},
      {"single-profile-handler", "modelled", "decides routing in the port"},
      {"disagg-headers-handler", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"prefill-header-handler", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"pd-profile-handler", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"disagg-profile-handler", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"always-disagg-pd-decider", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"prefix-based-pd-decider", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"always-disagg-multimodal-decider", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"kv-cache-utilization-scorer", "modelled", "decides routing in the port"},
      {"queue-scorer", "modelled", "decides routing in the port"},
      {"running-requests-size-scorer", "modelled", "decides routing in the port"},
      {"lora-affinity-scorer", "modelled", "decides routing in the port"},
      {"token-load-scorer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"no-hit-lru-scorer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"active-request-scorer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"precise-prefix-cache-scorer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"mm-embeddings-cache-scorer", "refused", "multimodal inputs are not modelled"},
      {"precise-prefix-cache-producer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"header-profile-handler", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"endpoint-attribute-scorer", "refused", "reads endpoint attributes (labels) the simulator does not deliver"},
      {"topology-affinity-scorer", "refused", "endpoint topology is not modelled"},
      {"burst-prefix-cache-producer", "refused", "not ported"},
      {"p2p-source-producer", "refused", "KV transfer between endpoints is not modelled"},
      {"multicluster-session-affinity-filter", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"multicluster-queue-scorer", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"multicluster-kv-cache-utilization-scorer", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"multicluster-prefix-cache-scorer", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"multicluster-approx-prefix-cache-producer", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"global-strict-fairness-policy", "refused", "flow control is not modelled by this port"},
      {"round-robin-fairness-policy", "refused", "flow control is not modelled by this port"},
      {"program-aware-fairness", "refused", "flow control is not modelled by this port"},
      {"fcfs-ordering-policy", "refused", "flow control is not modelled by this port"},
      {"edf-ordering-policy", "refused", "flow control is not modelled by this port"},
      {"slo-deadline-ordering-policy", "refused", "flow control is not modelled by this port"},
      {"static-usage-limit-policy", "refused", "flow control is not modelled by this port"},
      {"sheddable-eviction-filter", "refused", "flow control is not modelled by this port"},
      {"priority-then-time-eviction-order-policy", "refused", "flow control is not modelled by this port"},
      {"priority-holdback-policy", "refused", "flow control is not modelled by this port"},
      {"soft-reflective-ceiling-policy", "refused", "flow control is not modelled by this port"},
      {"approx-prefix-cache-producer", "modelled", "default producer of the prefix match info"},
      {"inflight-load-producer", "refused", "not ported yet (another helper is porting it; the lead registers it)"},
      {"predicted-latency-producer", "refused", "needs the latency predictor sidecar (trained online on served latencies), not modelled"},
      {"tokenizer", "modelled", "deprecated name of token-producer (estimate backend only)"},
      {"mm-embeddings-cache-producer", "refused", "multimodal inputs are not modelled"},
      {"token-producer", "modelled", "estimate backend only (the vllm and UDS tokenizer backends need a tokenizer service and are refused)"},
      {"session-id-producer", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"latency-slo-admitter", "refused", "needs the latency predictor sidecar (trained online on served latencies), not modelled"},
      {"probabilistic-admitter", "refused", "admission control (shedding) is not modelled"},
      {"prefix-cache-affinity-filter", "refused", "needs the latency predictor sidecar (trained online on served latencies), not modelled"},
      {"slo-headroom-tier-filter", "refused", "needs the latency predictor sidecar (trained online on served latencies), not modelled"},
      {"latency-scorer", "refused", "needs the latency predictor sidecar (trained online on served latencies), not modelled"},
      {"header-based-testing-filter", "refused", "reads request headers, which the simulator's requests do not carry"},
      {"destination-endpoint-served-verifier", "refused", "response-side conformance test plugin; responses are not modelled"},
      {"metrics-data-source", "modelled", "held, no decision: the simulator delivers each endpoint's metrics; parameters refused"},
      {"core-metrics-extractor", "modelled", "maps each endpoint's delivered metric samples to what the scorers read, per engine type (its engineConfigs); the simulator delivers the samples (DEV-4)"},
      {"multicluster-metrics-data-source", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"multicluster-metrics-extractor", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"k8s-notification-source", "refused", "Kubernetes/service discovery and notifications are not modelled (the simulator hands the endpoints in)"},
      {"endpoint-notification-source", "refused", "Kubernetes/service discovery and notifications are not modelled (the simulator hands the endpoints in)"},
      {"request-attribute-reporter", "refused", "observation only (reports request attributes in responses)"},
      {"openai-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"vllmgrpc-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"passthrough-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"anthropic-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"vllmhttp-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"vertexai-parser", "modelled", "held, no decision: the request reaches the router already parsed; parameters refused"},
      {"concurrency-detector", "modelled", "held, no decision: the legacy admission sheds only sheddable requests (priority < 0) and no request of the port is sheddable; parameters refused"},
      {"utilization-detector", "modelled", "held, no decision: the legacy admission sheds only sheddable requests (priority < 0) and no request of the port is sheddable; parameters refused"},
      {"file-discovery", "refused", "Kubernetes/service discovery and notifications are not modelled (the simulator hands the endpoints in)"},
      {"multicluster-file-discovery", "refused", "multi-cluster routing is not modelled (one pool)"},
      {"agent-identity", "refused", "reads request headers, which the simulator's requests do not carry"},
  };
  return surface;
}
}  // namespace

// Original to BLIS: see register.h.
std::vector<SurfaceEntry> PluginSurface(const fwkplugin::Registry& registry) {
  std::vector<SurfaceEntry> out = surfaceTable();
  for (auto& e : out) {
    const bool registered = registry.Factories.count(e.Type) > 0;
    if (registered && e.Status == "refused") e = {e.Type, "modelled", "registered by RegisterInTreePlugins"};
    if (!registered && e.Status == "modelled") e.Status = "refused";
  }
  return out;
}

// Original to BLIS: see register.h.
void RefuseIfNotModelled(const fwkplugin::Registry& registry, const std::string& pluginName, const std::string& pluginType) {
  if (registry.Factories.count(pluginType)) return;
  for (const auto& e : surfaceTable()) {
    if (e.Type == pluginType && e.Status == "refused") {
      throw std::invalid_argument("plugin '" + pluginName + "' (type: '" + pluginType +
                                  "') is not modelled by this port: " + e.Reason);
    }
  }
}

}  // namespace blis::router::runner
