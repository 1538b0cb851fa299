#include "pickers.h"

#include <stdexcept>
#include <utility>

namespace blis::conformance {

std::size_t LeastWaiting::pick(sim::SimTime, const engine::Request&, const std::vector<sim::EndpointView>& endpoints) {
  std::size_t best = 0;
  std::pair<std::int64_t, std::int64_t> best_load{-1, -1};
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    const auto& m = endpoints[i].metrics;
    const std::pair<std::int64_t, std::int64_t> load = m ? std::pair(m->waiting, m->running) : std::pair<std::int64_t, std::int64_t>(0, 0);
    if (best_load.first < 0 || load < best_load) {
      best = i;
      best_load = load;
    }
  }
  return best;
}

std::unique_ptr<sim::Picker> make_picker(const schema::DeploymentRouter& router, std::uint64_t) {
  if (router.config || router.manifests) {
    throw std::invalid_argument("router: the conformance runner reads no llm-d configuration; give only the flag conformance-picker");
  }
  std::string name = "round-robin";
  if (router.flags) {
    for (const auto& [key, value] : *router.flags) {
      if (key != "conformance-picker") throw std::invalid_argument("router.flags." + key + ": not a conformance runner flag");
      name = value.scalar;
    }
  }
  if (name == "round-robin") return std::make_unique<RoundRobin>();
  if (name == "least-waiting") return std::make_unique<LeastWaiting>();
  throw std::invalid_argument("router.flags.conformance-picker: '" + name + "' is not round-robin or least-waiting");
}

}  // namespace blis::conformance
