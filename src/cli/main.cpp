// The blis command.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/compare_cmd.h"
#include "cli/data_cmd.h"
#include "cli/fields_cmd.h"
#include "cli/invariants_cmd.h"
#include "cli/price_cmd.h"
#include "cli/run_cmd.h"
#include "cli/schema_cmd.h"
#include "cli/score_cmd.h"
#include "cli/version.h"

namespace {

constexpr std::string_view kUsage =
    "usage: blis <command> [options]\n"
    "commands:\n"
    "  invariants [--json] [--status S] [--family F] [ID]   print the invariant registry\n"
    "  invariants status                                    counts by family and status; non-zero if a\n"
    "                                                       record claims ci while a check is missing\n"
    "  schema [NAME | validate [--kind NAME] FILE...]       the document schemas; check documents\n"
    "  validate [--catalog DIR] [--registry DIR] [...]      run every validator and cross-check on the data\n"
    "  catalog list | resolve NAME [data flags]             the catalog in use, and what a name resolves to\n"
    "  price [data flags] [--workload W] PLAN STEP           a step's price with its provenance\n"
    "  price-diff --base DIR --registry DIR PLAN STEP...    step prices under two registries, side by side\n"
    "  run [data flags] [--replications N] [--threads N] [--out DIR] SCENARIO\n"
    "                                                       simulate a scenario; its Result as JSON\n"
    "  replay [options of run] SCENARIO TRACE               rerun a scenario on a trace a run exported\n"
    "  compare [options of run] BASELINE CANDIDATE          two scenarios on common random numbers, metric by\n"
    "                                                       metric: better, worse or not distinguished\n"
    "  metrics [--json]                                     the metric registry\n"
    "  score --points FILE [--limit N] [--filter S] [--json] measured vLLM points against their simulations\n"
    "  fields vllm [--json]                                 an engine's field list and statuses (VLM-3)\n"
    "  version                                              print the versions this build was made with\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    std::fputs(kUsage.data(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const std::string_view cmd = args[0];
  args.erase(args.begin());
  if (cmd == "invariants") return blis::cli::invariants_main(args);
  if (cmd == "schema") return blis::cli::schema_main(args);
  if (cmd == "validate") return blis::cli::validate_main(args);
  if (cmd == "catalog") return blis::cli::catalog_main(args);
  if (cmd == "price") return blis::cli::price_main(args);
  if (cmd == "price-diff") return blis::cli::price_diff_main(args);
  if (cmd == "run") return blis::cli::run_main(args, blis::cli::production_runtime());
  if (cmd == "replay") return blis::cli::run_main(args, blis::cli::production_runtime(), true);
  if (cmd == "compare") return blis::cli::compare_main(args, blis::cli::production_runtime());
  if (cmd == "metrics") return blis::cli::metrics_main(args);
  if (cmd == "score") return blis::cli::score_main(args);
  if (cmd == "fields") return blis::cli::fields_main(args);
  if (cmd == "version" || cmd == "--version") {
    std::fputs(blis::cli::version_text().c_str(), stdout);
    return 0;
  }
  std::fprintf(stderr, "blis: unknown command '%.*s'\n%s", static_cast<int>(cmd.size()), cmd.data(), kUsage.data());
  return 2;
}
