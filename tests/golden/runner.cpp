// blis-conformance-run [replay | compare]: `blis run` (or `blis replay`, `blis compare`) with the conformance runtime, for the byte gate (SIM-4) and the
// simulator's record checks. The same command code as `blis run` (src/cli/run_cmd.cpp); only the plugged-in
// parts differ: the reference engine and the known-bad engines (tests/conformance/), the conformance
// pickers, and the conformance Environment, which prices every step at
//   2 ms + 20 us per scheduled token + 100 us per scheduled request,
// and reads no catalog or registry (the data flags are refused).
#include <cstdio>
#include <string_view>
#include <vector>

#include "cli/compare_cmd.h"
#include "cli/run_cmd.h"
#include "contracts/sha256.h"
#include "doubles.h"
#include "environment.h"
#include "faulty_engines.h"
#include "pickers.h"
#include "reference_engine.h"

namespace {

blis::cli::Runtime conformance_runtime() {
  blis::cli::Runtime r;
  r.register_engines = [](blis::engine::EngineRegistry& registry) {
    blis::conformance::register_reference_engine(registry);
    blis::conformance::register_faulty_engines(registry);
  };
  r.router = blis::conformance::make_picker;
  r.environment = [](const blis::sim::ScenarioFile&, const blis::data::LoadOptions& flags,
                     blis::schema::ResultData& record) -> std::unique_ptr<blis::engine::Environment> {
    if (flags.catalog_dir || flags.registry_dir || !flags.catalog_overlays.empty() || !flags.registry_overlays.empty()) {
      throw std::invalid_argument("the conformance runner reads no data: data flags are refused");
    }
    blis::schema::ResultDataSource s;
    s.source = "path";
    s.path = "conformance";
    s.content_hash = blis::contracts::sha256_hex(blis::conformance::kSimValuesText);
    s.combined_hash = s.content_hash;
    record.catalog = s;
    record.registry = s;
    record.released = false;
    record.experimental_because = {"unreleased_build"};
    return std::make_unique<blis::conformance::Environment>(blis::conformance::sim_values());
  };
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "compare") {
    args.erase(args.begin());
    return blis::cli::compare_main(args, conformance_runtime());
  }
  if (!args.empty() && args[0] == "replay") {
    args.erase(args.begin());
    return blis::cli::run_main(args, conformance_runtime(), true);
  }
  return blis::cli::run_main(args, conformance_runtime());
}
