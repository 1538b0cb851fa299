// The vLLM engine-core tests' EngineCore, built through the registry (both construction phases) on the
// production Environment; the environment, requests and the step driver that runs its batch queue are the ones
// every engine test shares (tests/sim/embedded_environment.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"
#include "tests/sim/embedded_environment.h"
#include "v1/engine/core.h"

namespace blis::vllm::test {

using test_support::drain;
using test_support::environment;
using test_support::Record;
using test_support::request;

// An EngineCore for Llama-3.1-8B on one H100 with the given `vllm serve` arguments (model and a 4096-token
// max-model-len are added).
inline std::unique_ptr<EngineCore> make_engine(std::vector<std::pair<std::string, std::string>> args,
                                               std::map<std::string, std::string> env_vars = {}) {
  args.insert(args.begin(), {"max-model-len", "4096"});
  args.insert(args.begin(), {"model", "meta-llama/Meta-Llama-3.1-8B"});
  const engine::Spec spec = test_support::engine_spec("vllm", "0.27.1", args, env_vars);
  engine::EngineRegistry registry;
  register_vllm_engine(registry);
  std::unique_ptr<engine::Engine> built = engine::build_engine(registry, spec, environment());
  return std::unique_ptr<EngineCore>(static_cast<EngineCore*>(built.release()));
}

}  // namespace blis::vllm::test
