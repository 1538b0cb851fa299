#include "cli/score_cmd.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/data_cmd.h"
#include "cli/run_cmd.h"
#include "score/points.h"
#include "score/score.h"
#include "score/simulate.h"
#include "sim/api/run.h"

namespace blis::cli {
namespace {

constexpr std::string_view kScoreUsage =
    "usage: blis score [data flags] --points FILE [--backend vllm|sglang] [--limit N] [--filter SUBSTRING]\n"
    "                  [--replications N] [--json]\n"
    "  --points FILE       measured points in the column format of aiconfigurator's silicon_sample.csv\n"
    "  --backend NAME      score only the points of this backend (vllm or sglang; default both)\n"
    "  --limit N           score only the first N points (after --backend and --filter)\n"
    "  --filter SUBSTRING  score only the points whose id contains SUBSTRING\n"
    "  --replications N    replications per point (default 1: the workload's only random draws are the\n"
    "                      prompts' token IDs; give N >= 2 for a replication interval)\n"
    "  --json              the report as JSON instead of text\n"
    "Each vLLM or SGLang point becomes a scenario (design 11.2) run on the release of that engine this build ports;\n"
    "its simulated mean TTFT and TPOT are compared with the measured ones, and graded (11.3). Points it cannot\n"
    "simulate are listed with their reasons (11.4); points of other backends are counted, not read.\n";

}  // namespace

int score_main(std::span<const std::string_view> args) {
  data::LoadOptions flags;
  std::vector<std::string_view> rest;
  if (!data_flags(args, flags, rest)) return 2;
  std::optional<std::string> points_path;
  score::Options options;
  std::int64_t replications = 1;
  bool json = false;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string_view a = rest[i];
    const bool has_value = i + 1 < rest.size();
    if (a == "-h" || a == "--help") {
      std::fputs(kScoreUsage.data(), stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--points" || a == "--filter" || a == "--backend") {
      if (!has_value) {
        std::fprintf(stderr, "blis score: %.*s needs a value\n%s", static_cast<int>(a.size()), a.data(), kScoreUsage.data());
        return 2;
      }
      const std::string v(rest[++i]);
      if (a == "--backend" && score::backend_of(v) == nullptr) {
        std::fprintf(stderr, "blis score: --backend '%s': no port of that backend in this build (vllm, sglang)\n%s", v.c_str(),
                     kScoreUsage.data());
        return 2;
      }
      (a == "--points" ? points_path : a == "--filter" ? options.filter : options.backend) = v;
    } else if (a == "--limit" || a == "--replications") {
      const auto v = has_value ? positive(rest[i + 1]) : std::nullopt;
      if (!v) {
        std::fprintf(stderr, "blis score: %s\n%s", positive_refusal(a, has_value, has_value ? rest[i + 1] : "").c_str(),
                     kScoreUsage.data());
        return 2;
      }
      if (a == "--limit") options.limit = *v;
      else replications = *v;
      ++i;
    } else {
      std::fprintf(stderr, "blis score: unexpected '%.*s'\n%s", static_cast<int>(a.size()), a.data(), kScoreUsage.data());
      return 2;
    }
  }
  if (!points_path) {
    std::fprintf(stderr, "blis score: --points FILE is required\n%s", kScoreUsage.data());
    return 2;
  }
  try {
    const std::vector<score::Point> points = score::read_points_file(*points_path);
    const std::optional<data::DataSet> data = load(flags);
    if (!data) return 1;
    const sim::api::Runtime runtime = sim::api::production_runtime(*data, production_runtime().router);
    const bool terminal = isatty(STDERR_FILENO) != 0;
    const score::Report report = score::score(
        points, score::catalog_names(*data), score::api_runner(runtime, replications), options,
        [terminal](std::int64_t done, std::int64_t of, const score::PointRecord& r) {
          if (!terminal) return;
          std::fprintf(stderr, "\r%lld/%lld points (%s %s)\033[K", static_cast<long long>(done), static_cast<long long>(of),
                       r.id.c_str(), r.status.c_str());
          if (done == of) std::fputs("\n", stderr);
        });
    const std::string out = json ? score::report_json(report) : score::report_text(report);
    std::fputs(out.c_str(), stdout);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blis score: %s\n", e.what());
    return 1;
  }
}

}  // namespace blis::cli
