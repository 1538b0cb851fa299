// The router's entry point as the simulator sees it (X4: src/sim reaches only this and router/embed/).
// The simulator hands the router one request and the endpoints' last delivered metrics (DEV-4), and reads
// back the chosen endpoint; what the router does inside is llm-d's decision code (router/).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/kv_events.h"
#include "contracts/engine/scheduling.h"

namespace blis::router {

// One endpoint as the router knows it: its name and the metrics its scrapes delivered, if any yet.
struct EndpointState {
  std::string name;                      // "<pool>/<instance>", unique in the deployment
  bool has_metrics = false;              // false until the first scrape is delivered
  std::int64_t waiting_queue_size = 0;   // requests waiting
  std::int64_t running_requests_size = 0;
  double kv_cache_usage_percent = 0;     // fraction of KV blocks in use, 0..1, as llm-d reads it
  std::int64_t cache_block_size = 0;     // tokens per KV block (0: not published)
  std::int64_t cache_num_blocks = 0;     // KV blocks on the device (0: not published)
  // The engine's metrics endpoint as last delivered (its own metric names), which llm-d's metrics extractor
  // maps per engine type; empty for an engine that publishes none (the router then reads the fields above).
  std::vector<engine::MetricSample> samples;
  std::int64_t published_us = 0;  // the delivered publication's time
  std::uint64_t sequence = 0;     // and sequence (DEV-4: a cache of it is keyed on both)
  // The endpoint's labels as llm-d sees them on its pod (e.g. llm-d.ai/engine-type).
  std::map<std::string, std::string> labels;
};

// One request as the router sees it (INTERFACES.md "What a request carries").
struct RouteRequest {
  std::string id;
  std::vector<std::int32_t> prompt;        // token IDs
  std::optional<std::int64_t> max_tokens;  // the client's stated maximum output tokens
};

class Router {
 public:
  virtual ~Router() = default;
  // The index into `endpoints` of the endpoint that serves `request`. Throws std::runtime_error with
  // llm-d's error text when llm-d would refuse the request (e.g. no endpoint left after the filters).
  virtual std::size_t pick(const RouteRequest& request, const std::vector<EndpointState>& endpoints) = 0;
  // The plugin types this router runs, in configuration order (for the Result and the audit, RTR-4).
  virtual std::vector<std::string> plugin_types() const = 0;
  // The response to a request this router routed, as it streams back through the gateway: `start_of_stream`
  // on its first output, `end_of_stream` when it ends (finished, refused, aborted or dropped; both at once
  // when it ends before any output). Request-control plugins that track in-flight work release it here.
  virtual void response(const std::string& id, bool start_of_stream, bool end_of_stream) = 0;
  // An engine's KV-event message (design §6.4), as a subscriber to that engine's publisher receives it; `endpoint`
  // names the publishing endpoint as EndpointState::name does. In each engine's publication order.
  virtual void kv_events(const std::string& endpoint, const engine::KvEventMessage& message) = 0;
};

}  // namespace blis::router
