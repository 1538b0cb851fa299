// The SGLang engine-core tests' EngineCore, built through the registry (both construction phases) on the
// production Environment; the environment, requests and the step driver are the ones every engine test shares
// (tests/sim/embedded_environment.h).
#pragma once

#include <algorithm>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"
#include "tests/sim/embedded_environment.h"
#include "srt/entrypoints/engine_core.h"

namespace blis::sglang::test {

using test_support::drain;
using test_support::environment;
using test_support::Record;
using test_support::request;

// The EngineCore a spec builds through the registry (both construction phases) on the production Environment.
inline std::unique_ptr<EngineCore> build_core(const engine::Spec& spec) {
  engine::EngineRegistry registry;
  register_sglang_engine(registry);
  std::unique_ptr<engine::Engine> built = engine::build_engine(registry, spec, environment());
  return std::unique_ptr<EngineCore>(static_cast<EngineCore*>(built.release()));
}

// An EngineCore for Llama-3.1-8B on one H100 with the given server arguments, and a 4096-token context-length
// unless they state one (model-path is added first).
inline std::unique_ptr<EngineCore> make_engine(std::vector<std::pair<std::string, std::string>> args = {},
                                               std::map<std::string, std::string> env_vars = {}) {
  const bool context_given =
      std::any_of(args.begin(), args.end(), [](const auto& a) { return a.first == "context-length"; });
  if (!context_given) args.insert(args.begin(), {"context-length", "4096"});
  args.insert(args.begin(), {"model-path", "meta-llama/Meta-Llama-3.1-8B"});
  return build_core(test_support::engine_spec("sglang", "0.5.18", args, env_vars));
}

// What `f` throws, or "" when it returns.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace blis::sglang::test
