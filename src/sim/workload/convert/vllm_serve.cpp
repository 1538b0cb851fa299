#include "sim/workload/convert/vllm_serve.h"

#include <cmath>
#include <limits>

#include "contracts/doc/scalars.h"
#include "sim/rng/distributions.h"

namespace blis::sim::convert {

std::string vllm_spelling(const std::string& key) {
  std::string k = key;
  for (auto& ch : k)
    if (ch == '_') ch = '-';
  return k;
}

ServeOptions read_serve_options(Options& o, const std::string& dataset_name) {
  ServeOptions so;
  so.request_rate = std::numeric_limits<double>::infinity();
  if (auto name = o.string("dataset-name"); name && *name != dataset_name) {
    o.refuse_value("dataset-name", "this converter reads the " + dataset_name + " dataset");
  }
  if (auto v = o.integer("num-prompts")) {
    if (*v < 1) o.refuse_value("num-prompts", "upstream sends no request (it asserts at least one)");
    so.num_prompts = *v;
  }
  if (auto v = o.number_or_inf("request-rate")) {
    if (!(*v > 0)) o.refuse_value("request-rate", "upstream asserts a positive request rate");
    so.request_rate = *v;
  }
  if (auto v = o.number_or_inf("burstiness")) {
    if (!(*v > 0)) o.refuse_value("burstiness", "upstream asserts a positive burstiness factor");
    so.burstiness = *v;
  }
  if (auto v = o.integer("max-concurrency")) {
    if (*v < 1) o.refuse_value("max-concurrency", "a semaphore of fewer than 1 slot never sends a request");
    if (std::isfinite(so.request_rate)) {
      o.refuse_value("max-concurrency",
                     "with request-rate " + doc::show_number(so.request_rate) +
                         " upstream's requests arrive at their times and wait for a free slot at the client, which a "
                         "trace row (sent at a time, or a delay after one request) cannot state; convert request-rate "
                         "inf with max-concurrency (a closed loop), or a rate without it");
    }
    so.max_concurrency = *v;
  }
  if (auto v = o.integer("seed")) so.seed = *v;
  if (auto v = o.boolean("ignore-eos")) so.ignore_eos = *v;
  return so;
}

Arrivals serve_arrivals(const ServeOptions& so, std::size_t n, const rng::Substreams& streams,
                        const std::string& component, std::vector<std::string>& warnings) {
  Arrivals a;
  warnings.push_back("seed " + std::to_string(so.seed) +
                     " is recorded, not reproduced: upstream draws with numpy and Python generators seeded by it; "
                     "BLIS draws the same distributions from the replication's named substreams");
  if (!so.ignore_eos) {
    warnings.push_back(
        "ignore-eos is not set: upstream's model may end a response before max_tokens; BLIS sends each "
        "request's max_tokens as its output length, since the model's own stopping is unknown");
  }
  if (so.max_concurrency) {
    a.users = *so.max_concurrency;
    warnings.push_back("max-concurrency " + std::to_string(a.users) +
                       " with request-rate inf: user u sends requests u, u + " + std::to_string(a.users) +
                       ", ... each as its previous ends; upstream gives the next request in "
                       "order to whichever slot frees first, so which request follows which differs");
    return a;
  }
  a.open_s.assign(n, 0.0);
  if (!std::isfinite(so.request_rate)) {
    if (so.burstiness != 1) warnings.push_back("burstiness has no effect with request-rate inf, as upstream");
    return a;
  }
  double cumulative = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double gap = 1.0 / so.request_rate;
    if (std::isfinite(so.burstiness)) {
      auto s = streams.stream(component, "arrival", i);
      gap = rng::gamma(s, so.burstiness, 1.0 / (so.request_rate * so.burstiness));
    }
    cumulative += gap;
    a.open_s[i] = cumulative;
  }
  // Upstream's scaling of the cumulative delays to num_requests / request_rate.
  if (n > 0 && a.open_s.back() != 0) {
    const double factor = (static_cast<double>(n) / so.request_rate) / a.open_s.back();
    for (auto& t : a.open_s) t *= factor;
  }
  return a;
}

}  // namespace blis::sim::convert
