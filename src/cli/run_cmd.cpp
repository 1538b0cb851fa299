#include "cli/run_cmd.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/build_info.h"
#include "cli/data_cmd.h"
#include "sim/metrics/registry.h"
#include "sim/run/placement.h"
#include "sim/run/run.h"

namespace blis::cli {
namespace {

constexpr std::string_view kRunUsage =
    "usage: blis run [data flags] [--replications N] [--threads N] [--out DIR] [--trace-out FILE] [--summary] SCENARIO\n"
    "       blis replay [the same options] SCENARIO TRACE\n"
    "  SCENARIO           a scenario file: a Deployment and a Scenario (SCENARIO.md)\n"
    "  TRACE              replay: a trace a run exported, as the scenario's workload (workload.replay)\n"
    "  --replications N   run exactly N replications instead of the frame's rule\n"
    "  --threads N        run replications on N threads (the Result is the same bytes at any N)\n"
    "  --out DIR          write DIR/result.json and DIR/requests.csv instead of the Result on stdout\n"
    "  --trace-out FILE   write the run's trace of arrivals (header and CSV) for replay; one replication\n"
    "  --summary          print a table of the cluster's figures (with their intervals) instead of the Result\n";

schema::ResultInput input(std::string option, std::string_view value, std::string_view via = "flag") {
  schema::ResultInput in;
  in.option = std::move(option);
  in.via = std::string(via);
  in.value.kind = doc::Kind::Scalar;
  in.value.style = doc::Style::Quoted;  // as given: text, never read as a number
  in.value.scalar = std::string(value);
  return in;
}

// One line per measured or unmeasured request: its identity, fate and times (microseconds; empty when
// the event never happened), from the engine's token record.
std::string requests_csv(const std::vector<sim::ReplicationOutput>& reps) {
  std::string out = "replication,request,client,measured,pool,instance,prompt_tokens,output_tokens,fate,reason,"
                    "sent_us,dispatched_us,first_scheduled_us,first_token_us,ended_us,preemptions\n";
  auto t = [](const std::optional<sim::SimTime>& v) { return v ? std::to_string(v->us) : std::string(); };
  for (std::size_t i = 0; i < reps.size(); ++i) {
    for (const auto& r : reps[i].observations.records()) {
      out += std::to_string(i) + "," + r.id + "," + std::string(r.client) + "," + (r.measured ? "1" : "0") + "," + std::string(r.pool) + "," +
             (r.instance < 0 ? "" : std::to_string(r.instance)) + "," + std::to_string(r.prompt_tokens) + "," +
             std::to_string(r.output_tokens()) + "," + std::string(sim::fate_name(r.fate)) + "," + std::string(r.reason) + "," +
             t(r.sent) + "," + t(r.dispatched) + "," + t(r.first_scheduled) + "," + t(r.first_token()) + "," +
             t(r.ended) + "," + std::to_string(r.preemptions) + "\n";
    }
  }
  return out;
}

bool write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

// Every fate of the run's requests, so that the counts add up to those generated (DEV-9): "N requests: C
// completed, T timed out, U unfinished, D dropped, S never sent".
std::string fates_text(const decltype(schema::Result::fates)& f) {
  long long dropped = 0;
  for (const auto& d : f.dropped) dropped += static_cast<long long>(d.count.value());
  char line[256];
  std::snprintf(line, sizeof line, "%lld requests: %lld completed, %lld timed out, %lld unfinished, %lld dropped, %lld never sent",
                static_cast<long long>(f.generated.value()), static_cast<long long>(f.completed.value()),
                static_cast<long long>(f.timed_out.value()),
                static_cast<long long>(f.in_flight_at_horizon.value() + f.queued_at_horizon.value()), dropped,
                static_cast<long long>(f.not_started.value()));
  return line;
}

// The --summary table: the scenario, the fates, and every cluster-level figure with its interval.
std::string summary_text(const schema::Result& result) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%s (seed %lld)\n", result.scenario.name.c_str(),
                static_cast<long long>(result.scenario.seed));
  out += line;
  out += fates_text(result.fates) + "\n";
  std::snprintf(line, sizeof line, "%-44s %14s %14s %14s  %s\n", "metric", "value", "low", "high", "unit");
  out += line;
  for (const auto& m : result.metrics) {
    if (m.scope.level != "cluster") continue;
    if (!m.value) {
      std::snprintf(line, sizeof line, "%-44s %14s %14s %14s  %s (%s)\n", m.metric.c_str(), "withheld", "-", "-",
                    m.unit.c_str(), m.withheld.value_or("").c_str());
    } else if (m.interval) {
      std::snprintf(line, sizeof line, "%-44s %14.6g %14.6g %14.6g  %s\n", m.metric.c_str(), *m.value,
                    m.interval->low, m.interval->high, m.unit.c_str());
    } else {
      std::snprintf(line, sizeof line, "%-44s %14.6g %14s %14s  %s\n", m.metric.c_str(), *m.value, "-", "-", m.unit.c_str());
    }
    out += line;
  }
  out += "(the full Result: the same command without --summary)\n";
  return out;
}

}  // namespace

sim::RunOutput run_file(const sim::ScenarioFile& file, const Runtime& runtime, const data::LoadOptions& flags,
                        const sim::RunOptions& options, std::vector<schema::ResultInput> inputs) {
  engine::EngineRegistry engines;
  runtime.register_engines(engines);
  sim::RunContext context;
  context.build = build_record();
  context.inputs = std::move(inputs);
  const std::unique_ptr<engine::Environment> env = runtime.environment(file, flags, context.data);
  sim::Wiring wiring;
  wiring.engines = &engines;
  wiring.environment = env.get();
  wiring.router = runtime.router;
  return sim::run_scenario(file, wiring, options, context);
}

int run_main(std::span<const std::string_view> args, const Runtime& runtime, bool replay) {
  data::LoadOptions flags;
  std::vector<std::string_view> rest;
  if (!data_flags(args, flags, rest)) return 2;
  sim::RunOptions options;
  std::optional<std::string> out_dir;
  std::optional<std::string> scenario_path, trace_out, trace_in;
  std::vector<schema::ResultInput> inputs;
  bool summary = false;  // the output's format only: changes no byte of the Result (SIM-10)
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string_view a = rest[i];
    const bool has_value = i + 1 < rest.size();
    if (a == "-h" || a == "--help") {
      std::fputs(kRunUsage.data(), stdout);
      std::fputs(kDataFlags.data(), stdout);
      return 0;
    }
    if (a == "--replications" || a == "--threads") {
      const auto v = has_value ? positive(rest[i + 1]) : std::nullopt;
      if (!v) {
        std::fprintf(stderr, "blis run: %s\n%s", positive_refusal(a, has_value, has_value ? rest[i + 1] : "").c_str(),
                     kRunUsage.data());
        return 2;
      }
      if (a == "--replications") {
        options.replications = *v;
        inputs.push_back(input("replications", rest[i + 1]));
      } else {
        options.threads = static_cast<int>(*v);  // changes no byte of the Result: not recorded (SIM-10)
      }
      ++i;
    } else if (a == "--out") {
      if (!has_value) {
        std::fprintf(stderr, "blis run: --out needs a directory\n%s", kRunUsage.data());
        return 2;
      }
      out_dir = std::string(rest[++i]);
    } else if (a == "--trace-out") {
      if (!has_value) {
        std::fprintf(stderr, "blis run: --trace-out needs a file\n%s", kRunUsage.data());
        return 2;
      }
      trace_out = std::string(rest[++i]);
      options.trace = true;
      inputs.push_back(input("trace-out", *trace_out));
    } else if (a == "--summary") {
      summary = true;
    } else if (a.starts_with("-")) {
      std::fprintf(stderr, "blis run: unknown option '%.*s'\n%s", static_cast<int>(a.size()), a.data(), kRunUsage.data());
      return 2;
    } else if (!scenario_path) {
      scenario_path = std::string(a);
    } else if (replay && !trace_in) {
      trace_in = std::string(a);
    } else {
      std::fprintf(stderr, "blis %s: one %s at a time ('%.*s' is one too many)\n", replay ? "replay" : "run",
                   replay ? "scenario and trace" : "scenario", static_cast<int>(a.size()), a.data());
      return 2;
    }
  }
  if (!scenario_path || (replay && !trace_in)) {
    std::fputs(kRunUsage.data(), stderr);
    return 2;
  }
  // Data flags change bytes of the Result (through prices): each is recorded (SIM-10).
  if (flags.catalog_dir) inputs.push_back(input("catalog", *flags.catalog_dir));
  if (flags.registry_dir) inputs.push_back(input("registry", *flags.registry_dir));
  for (const auto& o : flags.catalog_overlays) inputs.push_back(input("catalog-overlay", o));
  for (const auto& o : flags.registry_overlays) inputs.push_back(input("registry-overlay", o));
  // So do the variables standing for --catalog and --registry, where no flag named the directory.
  const data::EnvLookup environment = data::process_environment();
  const std::pair<const std::optional<std::string>*, const char*> stand_ins[] = {
      {&flags.catalog_dir, "BLIS_CATALOG"}, {&flags.registry_dir, "BLIS_REGISTRY"}};
  for (const auto& [flag, variable] : stand_ins) {
    if (flag->has_value()) continue;
    if (const auto v = environment(variable)) inputs.push_back(input(variable, *v, "environment"));
  }

  try {
    sim::ScenarioFile file = sim::read_scenario_file(*scenario_path);
    if (replay) {
      // The trace is the workload (the scenario's workload.replay, as if written there).
      file.scenario.workload = schema::ScenarioWorkload{};
      file.scenario.workload.replay.emplace();
      file.scenario.workload.replay->trace = std::filesystem::absolute(*trace_in).string();
      inputs.push_back(input("trace", *trace_in));
    }
    // A progress bar on stderr when it is a terminal (never into a file or pipe).
    const bool terminal = isatty(STDERR_FILENO) != 0;
    if (terminal) {
      options.progress = [](std::int64_t done, std::int64_t most) {
        const int width = 30;
        const int filled = static_cast<int>(width * done / (most > 0 ? most : 1));
        std::fprintf(stderr, "\r[%s%s] %lld/%lld replications", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), static_cast<long long>(done),
                     static_cast<long long>(most));
      };
    }
    sim::RunOutput run = run_file(file, runtime, flags, options, inputs);
    if (terminal) std::fputs("\n", stderr);
    if (runtime.selected) run.result.data.selected = runtime.selected(run.entries_used);
    const std::string json = schema::to_json(run.result).dump(2) + "\n";
    if (out_dir) {
      std::filesystem::create_directories(*out_dir);
      if (!write_file(std::filesystem::path(*out_dir) / "result.json", json) ||
          !write_file(std::filesystem::path(*out_dir) / "requests.csv", requests_csv(run.replications))) {
        std::fprintf(stderr, "blis run: cannot write into %s\n", out_dir->c_str());
        return 1;
      }
    } else if (summary) {
      std::fputs(summary_text(run.result).c_str(), stdout);
    } else {
      std::fputs(json.c_str(), stdout);
    }
    if (trace_out && (!run.trace || !write_file(*trace_out, *run.trace))) {
      std::fprintf(stderr, "blis run: cannot write the trace to %s\n", trace_out->c_str());
      return 1;
    }
    std::fprintf(stderr, "blis run: %s: %lld replication(s); %s\n", file.scenario.name.c_str(),
                 static_cast<long long>(run.replications.size()), fates_text(run.result.fates).c_str());
    if (file.scenario.cluster.nodes.value() > 1 && !run.replications.empty()) {
      std::fprintf(stderr, "blis run: placement: %s\n", sim::describe_placement(run.replications[0].instances).c_str());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blis run: %s\n", e.what());
    return 1;
  }
}

int metrics_main(std::span<const std::string_view> args) {
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    std::fputs("usage: blis metrics [--json]\n  the metric registry (DEV-8): every metric a Result may report\n", stdout);
    return 0;
  }
  if (!args.empty() && args[0] == "--json") {
    std::fputs((schema::to_json(sim::metric_registry()).dump(2) + "\n").c_str(), stdout);
    return 0;
  }
  if (!args.empty()) {
    std::fputs("usage: blis metrics [--json]\n", stderr);
    return 2;
  }
  std::fputs(std::string(sim::metric_registry_text()).c_str(), stdout);
  return 0;
}

}  // namespace blis::cli
