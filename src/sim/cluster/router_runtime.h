// The simulated runtime of the router port (design "seams", RTR-2, RTR-7, DEV-6): the router reads simulated
// time and draws from named substreams of the scenario seed (component "router", the purpose the router
// names, entity 0); nothing else of the router's reaches the simulator.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "contracts/router/runtime.h"
#include "sim/devs/time.h"
#include "sim/rng/substreams.h"

namespace blis::sim {

class SimRouterRuntime final : public router::Runtime {
 public:
  explicit SimRouterRuntime(std::uint64_t seed);
  ~SimRouterRuntime() override;

  // The simulated time of the router activity about to run; time never goes back (std::logic_error).
  void advance(SimTime now);

  std::int64_t now_us() const override { return now_.us; }
  router::RandomStream& stream(std::string_view purpose) override;

  // Every stream handed out and how many words each has drawn, by purpose (for the Result and tests).
  std::map<std::string, std::uint64_t> draws() const;

 private:
  class Stream;
  rng::Substreams factory_;
  SimTime now_{};
  std::map<std::string, std::unique_ptr<Stream>, std::less<>> streams_;
};

}  // namespace blis::sim
