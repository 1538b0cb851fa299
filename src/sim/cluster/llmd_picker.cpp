#include "sim/cluster/llmd_picker.h"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "router/embed/embed.h"

namespace blis::sim {

LlmdPicker::LlmdPicker(std::unique_ptr<SimRouterRuntime> runtime, std::unique_ptr<router::Router> router)
    : runtime_(std::move(runtime)), router_(std::move(router)) {
  const std::int64_t ns = router::embed::SettingsOf(*router_).RefreshMetricsIntervalNs;
  // Simulated time is whole microseconds: an interval that is not is refused rather than rounded.
  if (ns <= 0 || ns % 1000 != 0) {
    throw std::invalid_argument("router.flags.refresh-metrics-interval: " + std::to_string(ns) +
                                "ns is not a positive whole number of microseconds, which the simulated clock counts in");
  }
  scrape_interval_ = SimTime{ns / 1000};
}

std::vector<std::string> LlmdPicker::warnings() const { return router::embed::SettingsOf(*router_).Warnings; }

void LlmdPicker::response(SimTime now, const std::string& id, bool start_of_stream, bool end_of_stream) {
  runtime_->advance(now);
  router_->response(id, start_of_stream, end_of_stream);
}

void LlmdPicker::kv_events(SimTime now, const EndpointView& endpoint, const engine::KvEventMessage& message) {
  runtime_->advance(now);
  router_->kv_events(endpoint.pool + "/" + std::to_string(endpoint.instance), message);
}

std::size_t LlmdPicker::pick(SimTime now, const engine::Request& request, const std::vector<EndpointView>& endpoints) {
  runtime_->advance(now);
  router::RouteRequest r;
  r.id = request.id;
  r.prompt = request.prompt;
  r.max_tokens = request.max_tokens;
  std::vector<router::EndpointState> states;
  states.reserve(endpoints.size());
  for (const auto& e : endpoints) {
    router::EndpointState s;
    s.name = e.pool + "/" + std::to_string(e.instance);
    if (e.metrics) {
      s.has_metrics = true;
      s.waiting_queue_size = e.metrics->waiting;
      s.running_requests_size = e.metrics->running;
      s.kv_cache_usage_percent = e.metrics->kv_usage;
      s.cache_block_size = e.metrics->cache_block_size;
      s.cache_num_blocks = e.metrics->cache_num_blocks;
      s.samples = e.metrics->samples;
      s.published_us = e.published.us;
      s.sequence = e.sequence;
    }
    // The pod label llm-d's metrics extractor reads the engine type from (its engineLabelKey default): a BLIS
    // rule, as llm-d's guides label a pod with the engine it runs.
    if (!e.engine_kind.empty()) s.labels["llm-d.ai/engine-type"] = e.engine_kind;
    states.push_back(std::move(s));
  }
  return router_->pick(r, states);
}

std::unique_ptr<Picker> make_llmd_picker(const schema::DeploymentRouter& config, std::uint64_t seed) {
  if (config.manifests && !config.manifests->empty()) {
    throw std::invalid_argument(
        "router.manifests: the router port reads no Kubernetes objects yet (InferencePool, InferenceObjective); "
        "remove them to route with the pool the deployment describes");
  }
  std::map<std::string, std::string> flags;
  if (config.flags) {
    for (const auto& [name, value] : *config.flags) {
      if (!value.is_scalar()) throw std::invalid_argument("router.flags." + name + ": a flag's value is one scalar");
      flags[name] = value.scalar;
    }
  }
  auto runtime = std::make_unique<SimRouterRuntime>(seed);
  auto router = router::embed::New(config.config, flags, *runtime);
  return std::make_unique<LlmdPicker>(std::move(runtime), std::move(router));
}

}  // namespace blis::sim
