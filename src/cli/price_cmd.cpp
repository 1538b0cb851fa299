#include "cli/price_cmd.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/data_cmd.h"
#include "contracts/units.h"
#include "cost/step.h"
#include "schema/pool-plan.h"
#include "schema/step-shape.h"
#include "sim/wiring/cost_data.h"

namespace blis::cli {
namespace {

constexpr std::string_view kPriceUsage =
    "usage: blis price [data flags] [--workload NAME] PLAN STEP\n"
    "  PLAN  a pool-plan document (schemas/plan/pool-plan.yaml); STEP a step-shape document\n"
    "  prints the step's time per stage, each primitive's price and the coefficients it used, the least\n"
    "  trusted method (VAL-3) and the entries the lookups displaced (VAL-4)\n";

constexpr std::string_view kDiffUsage =
    "usage: blis price-diff --base DIR --registry DIR [--workload NAME] PLAN STEP [PLAN STEP ...]\n"
    "  prices each (plan, step) pair under the base registry and under the other, side by side, with\n"
    "  the relative change and the least trusted method under each\n";

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "blis: %s: cannot be read\n", path.c_str());
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class T, class Load>
std::optional<T> read_doc(const std::string& path, Load load) {
  auto text = read_file(path);
  if (!text) return std::nullopt;
  doc::Diagnostics d{path};
  auto v = load(*text, path, d);
  if (!v) std::fprintf(stderr, "%sblis: %s was refused\n", d.str().c_str(), path.c_str());
  return v;
}

std::string trust_text(const engine::Trust& t) {
  if (t.effective_rank == 0) return "none";
  std::string s = "rank " + std::to_string(t.effective_rank) + " (" + std::string(engine::method_name(t.method));
  if (t.extrapolated) s += ", extrapolated";
  if (t.unidentified) s += ", unidentified";
  return s + ")";
}

std::optional<engine::StepEstimate> price_pair(const cost::Coefficients& c, const std::string& plan_path,
                                               const std::string& step_path, const cost::StepContext& ctx) {
  auto plan = read_doc<schema::PoolPlan>(plan_path, schema::load_pool_plan);
  auto step = read_doc<schema::StepShape>(step_path, schema::load_step_shape);
  if (!plan || !step) return std::nullopt;
  try {
    return cost::price_step(c, *plan, *step, ctx);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "blis: %s, %s: %s\n", plan_path.c_str(), step_path.c_str(), e.what());
    return std::nullopt;
  }
}

double total(const engine::StepEstimate& e) {
  double s = 0;
  for (const auto& st : e.stages) s += st.seconds.value();
  return s;
}

bool take_workload(std::vector<std::string_view>& rest, cost::StepContext& ctx) {
  for (std::size_t i = 0; i < rest.size(); ++i)
    if (rest[i] == "--workload") {
      if (i + 1 >= rest.size()) {
        std::fputs("blis: --workload needs a name\n", stderr);
        return false;
      }
      ctx.workload = std::string(rest[i + 1]);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i), rest.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      return true;
    }
  return true;
}

}  // namespace

int price_main(std::span<const std::string_view> args) {
  data::LoadOptions o;
  std::vector<std::string_view> rest;
  if (!data_flags(args, o, rest)) return 2;
  cost::StepContext ctx;
  if (!take_workload(rest, ctx)) return 2;
  if (rest.size() != 2) {
    std::fprintf(stderr, "%.*s%.*s", static_cast<int>(kPriceUsage.size()), kPriceUsage.data(),
                 static_cast<int>(kDataFlags.size()), kDataFlags.data());
    return 2;
  }
  auto ds = load(o);
  if (!ds) return 1;
  const cost::Coefficients c = sim::coefficients(*ds);
  auto e = price_pair(c, std::string(rest[0]), std::string(rest[1]), ctx);
  if (!e) return 1;
  for (const auto& st : e->stages)
    std::printf("stage %lld: %s\n", static_cast<long long>(st.stage), units::to_string(st.seconds).c_str());
  std::printf("least trusted: %s\n", trust_text(e->least_trusted).c_str());
  std::puts("primitives:");
  for (const auto& p : e->primitives) {
    std::printf("  %-26s layer %-4s %-22s %s\n", p.family.c_str(), p.layer ? std::to_string(*p.layer).c_str() : "-",
                units::to_string(p.seconds).c_str(), trust_text(p.trust).c_str());
  }
  std::printf("entries used (%zu):\n", e->entries_used.size());
  for (const auto& id : e->entries_used) std::printf("  %s\n", id.c_str());
  std::printf("entries displaced (%zu):\n", e->entries_displaced.size());
  for (const auto& id : e->entries_displaced) std::printf("  %s\n", id.c_str());
  return 0;
}

int price_diff_main(std::span<const std::string_view> args) {
  std::vector<std::string_view> rest;
  std::optional<std::string> base;
  data::LoadOptions other;
  std::vector<std::string_view> pass;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--base" && i + 1 < args.size()) {
      base = std::string(args[++i]);
      continue;
    }
    pass.push_back(args[i]);
  }
  if (!data_flags(pass, other, rest)) return 2;
  cost::StepContext ctx;
  if (!take_workload(rest, ctx)) return 2;
  if (!base || !other.registry_dir || rest.empty() || rest.size() % 2 != 0) {
    std::fputs(kDiffUsage.data(), stderr);
    return 2;
  }
  data::LoadOptions b = other;
  b.registry_dir = *base;
  b.registry_overlays.clear();
  auto ds_a = load(b);
  auto ds_b = load(other);
  if (!ds_a || !ds_b) return 1;
  const cost::Coefficients ca = sim::coefficients(*ds_a), cb = sim::coefficients(*ds_b);
  std::printf("%-40s %-40s %14s %14s %9s  %s -> %s\n", "plan", "step", "base s", "other s", "change", "base trust",
              "other trust");
  int rc = 0;
  for (std::size_t i = 0; i < rest.size(); i += 2) {
    const std::string plan(rest[i]), step(rest[i + 1]);
    auto ea = price_pair(ca, plan, step, ctx);
    auto eb = price_pair(cb, plan, step, ctx);
    if (!ea || !eb) {
      rc = 1;
      continue;
    }
    const double ta = total(*ea), tb = total(*eb);
    const std::string change = ta > 0 ? std::to_string((tb - ta) / ta * 100.0) + "%" : "n/a";
    std::printf("%-40s %-40s %14.6e %14.6e %9s  %s -> %s\n", plan.c_str(), step.c_str(), ta, tb, change.c_str(),
                trust_text(ea->least_trusted).c_str(), trust_text(eb->least_trusted).c_str());
  }
  return rc;
}

}  // namespace blis::cli
