#include "sim/cluster/router_runtime.h"

#include <stdexcept>
#include <utility>

namespace blis::sim {

// One named substream behind the router's RandomStream interface.
class SimRouterRuntime::Stream final : public router::RandomStream {
 public:
  explicit Stream(rng::Stream s) : s_(std::move(s)) {}
  std::uint64_t next_u64() override { return s_.next_u64(); }
  double uniform01() override { return s_.uniform01(); }
  std::uint64_t below(std::uint64_t n) override { return s_.below(n); }
  std::uint64_t draws() const { return s_.draws(); }

 private:
  rng::Stream s_;
};

SimRouterRuntime::SimRouterRuntime(std::uint64_t seed) : factory_(seed) {}
SimRouterRuntime::~SimRouterRuntime() = default;

void SimRouterRuntime::advance(SimTime now) {
  if (now < now_) {
    throw std::logic_error("router runtime: time went back from " + to_string(now_) + " to " + to_string(now));
  }
  now_ = now;
}

router::RandomStream& SimRouterRuntime::stream(std::string_view purpose) {
  auto it = streams_.find(purpose);
  if (it == streams_.end()) {
    it = streams_.emplace(std::string(purpose), std::make_unique<Stream>(factory_.stream("router", purpose, 0))).first;
  }
  return *it->second;
}

std::map<std::string, std::uint64_t> SimRouterRuntime::draws() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto& [purpose, s] : streams_) out[purpose] = s->draws();
  return out;
}

}  // namespace blis::sim
