// Original to BLIS: X2's plan-price-differences-named. A scenario both engine ports support (Llama-3.1-8B, tp 1,
// one H100, 16-bit KV cache) is lowered by each, and the same step shapes are priced on both plans by the one
// cost model. Every price difference must be traced to a named difference in the plans: the two plans' lowered
// layers are paired in order by (graph layer, primitive family), and a pair priced differently must differ in
// a field of the lowered layer (kernel, shape, collective, launches); a layer only one plan has is named as such.
// A pair that prices differently with identical lowered layers would mean the cost model read something other
// than the plan (an engine name, an engine default), which X2 forbids.
//
//   plan-difference-trace-test [--gtest flags] STEPS.json   the steps to price, as {"steps": [{"requests": N,
//   "query": Q, "cached": C}, ...]}; an optional "engine_surcharge": {"engine": KIND, "family": F, "seconds": S}
//   adds S to every F term priced on that engine's plan -- a cost model that reads the engine's name, which the
//   check must catch (the known-bad input, tests/known_bad/X2/engine-named-price.json).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "contracts/engine/engine.h"
#include "schema/pool-plan.h"
#include "sim/engines.h"
#include "tests/sim/embedded_environment.h"

namespace blis {
namespace {

using test_support::environment;

const char* g_steps_path = nullptr;

struct Surcharge {
  std::string engine, family;
  double seconds = 0;
};

// The input: the steps to price and the optional surcharge by engine name.
struct Input {
  std::vector<std::vector<std::int64_t>> steps;  // (requests, query, cached)
  std::optional<Surcharge> surcharge;
};

Input read_input() {
  if (g_steps_path == nullptr) throw std::runtime_error("no steps file given");
  std::ifstream in(g_steps_path);
  if (!in) throw std::runtime_error(std::string(g_steps_path) + ": cannot read");
  const nlohmann::json j = nlohmann::json::parse(in);
  Input input;
  for (const auto& st : j.at("steps")) {
    input.steps.push_back({st.at("requests").get<std::int64_t>(), st.at("query").get<std::int64_t>(),
                           st.at("cached").get<std::int64_t>()});
  }
  if (j.contains("engine_surcharge")) {
    const auto& x = j.at("engine_surcharge");
    input.surcharge = Surcharge{x.at("engine"), x.at("family"), x.at("seconds")};
  }
  if (input.steps.empty()) throw std::runtime_error(std::string(g_steps_path) + ": no steps");
  return input;
}

std::unique_ptr<engine::Engine> build(const std::string& kind, const std::string& version,
                                      std::vector<std::pair<std::string, std::string>> args) {
  const engine::Spec spec = test_support::engine_spec(kind, version, args);
  engine::EngineRegistry registry;
  sim::register_engines(registry);
  return engine::build_engine(registry, spec, environment());
}

// A step of `n` requests, each `query` new tokens over `cached` cached ones, launched eagerly (the same launch
// on both plans, so the comparison is of the lowered layers alone).
engine::plan::StepShape step(std::int64_t n, std::int64_t query, std::int64_t cached) {
  engine::plan::StepShape s;
  s.mode = query == 1 ? "decode_only" : "extend_only";
  schema::StepShapeRankStep rank;
  rank.rank = 0;
  rank.requests.emplace();
  for (std::int64_t i = 0; i < n; ++i) {
    schema::StepShapeRequestStep r;
    r.new_tokens = units::Tokens{query};
    r.cached_tokens = units::Tokens{cached};
    r.query_tokens = units::Tokens{query};
    r.sampled_tokens = units::Tokens{1};
    rank.requests->push_back(r);
  }
  s.ranks = std::vector<schema::StepShapeRankStep>{rank};
  schema::StepShapePaddedShape pad;
  pad.rank = 0;
  pad.tokens = units::Tokens{n * query};
  pad.requests = units::Count{n};
  pad.launch = "eager";
  s.padded = std::vector<schema::StepShapePaddedShape>{pad};
  return s;
}

using Key = std::pair<std::int64_t, std::string>;  // (graph layer or -1, family)

// The lowered layers of a plan, grouped by key, in plan order within a key.
std::map<Key, std::vector<const schema::PoolPlanLoweredLayer*>> layers_by_key(const engine::plan::PoolPlan& p) {
  std::map<Key, std::vector<const schema::PoolPlanLoweredLayer*>> out;
  for (const auto& l : p.layers.value()) out[{l.layer.value_or(-1), std::string(l.primitive)}].push_back(&l);
  return out;
}

// The prices of a step, grouped the same way; `surcharge` (when given) is added to each term of its family.
std::map<Key, std::vector<double>> prices_by_key(const engine::StepEstimate& e, const Surcharge* surcharge = nullptr) {
  std::map<Key, std::vector<double>> out;
  for (const auto& p : e.primitives) {
    const double extra = surcharge != nullptr && surcharge->family == p.family ? surcharge->seconds : 0.0;
    out[{p.layer.value_or(-1), p.family}].push_back(p.seconds.value() + extra);
  }
  return out;
}

// The named differences between two lowered layers (empty: identical as the cost model reads them).
std::vector<std::string> differences(const schema::PoolPlanLoweredLayer& a, const schema::PoolPlanLoweredLayer& b) {
  std::vector<std::string> out;
  const auto cmp = [&](const char* field, const nlohmann::ordered_json& x, const nlohmann::ordered_json& y) {
    if (x != y) out.push_back(std::string(field) + ": " + x.dump() + " vs " + y.dump());
  };
  cmp("kernel", a.kernel ? schema::to_json(*a.kernel) : nullptr, b.kernel ? schema::to_json(*b.kernel) : nullptr);
  cmp("shape", a.shape ? schema::to_json(*a.shape) : nullptr, b.shape ? schema::to_json(*b.shape) : nullptr);
  cmp("collective", a.collective ? schema::to_json(*a.collective) : nullptr,
      b.collective ? schema::to_json(*b.collective) : nullptr);
  cmp("kernels", a.kernels ? nlohmann::ordered_json(a.kernels->value()) : nullptr,
      b.kernels ? nlohmann::ordered_json(b.kernels->value()) : nullptr);
  return out;
}

// The plan-level fields (everything but the lowered layers, the resident weights and the KV budget) that differ
// between two plans, by name: a price term that belongs to no lowered layer (host work, launches) can only
// follow from these.
std::vector<std::string> plan_level_differences(const engine::plan::PoolPlan& a, const engine::plan::PoolPlan& b) {
  nlohmann::ordered_json ja = schema::to_json(a), jb = schema::to_json(b);
  std::vector<std::string> out;
  for (const auto& [k, v] : ja.items()) {
    if (k == "layers" || k == "weights" || k == "kv_budget" || k == "model" || k == "chip") continue;
    if (!jb.contains(k) || jb[k] != v) out.push_back(k);
  }
  for (const auto& [k, v] : jb.items()) {
    if (!ja.contains(k) && k != "layers" && k != "weights" && k != "kv_budget") out.push_back(k);
  }
  return out;
}

TEST(PlanDifferenceTrace, EveryPriceDifferenceBetweenTheTwoEnginesPlansIsANamedPlanDifference) {
  const Input input = read_input();
  auto v = build("vllm", "0.27.1", {{"model", "meta-llama/Meta-Llama-3.1-8B"}, {"max-model-len", "4096"}});
  auto s = build("sglang", "0.5.18", {{"model-path", "meta-llama/Meta-Llama-3.1-8B"}, {"context-length", "4096"}});
  const auto lv = layers_by_key(v->plan());
  const auto ls = layers_by_key(s->plan());
  const Surcharge* on_v = input.surcharge && input.surcharge->engine == "vllm" ? &*input.surcharge : nullptr;
  const Surcharge* on_s = input.surcharge && input.surcharge->engine == "sglang" ? &*input.surcharge : nullptr;
  std::int64_t differing_prices = 0, named = 0, equal_pairs = 0, differing_layers = 0;
  for (const auto& st : input.steps) {
    const engine::plan::StepShape shape = step(st[0], st[1], st[2]);
    const auto pv = prices_by_key(environment().price(v->plan(), shape), on_v);
    const auto ps = prices_by_key(environment().price(s->plan(), shape), on_s);
    std::set<Key> keys;
    for (const auto& [k, _] : pv) keys.insert(k);
    for (const auto& [k, _] : ps) keys.insert(k);
    for (const Key& k : keys) {
      const auto iv = pv.find(k), is = ps.find(k);
      const std::size_t nv = iv == pv.end() ? 0 : iv->second.size();
      const std::size_t ns = is == ps.end() ? 0 : is->second.size();
      for (std::size_t i = 0; i < std::max(nv, ns); ++i) {
        if (i >= nv || i >= ns) {
          ++differing_prices;
          ++named;  // a lowered layer only one plan has: the plan difference is the layer itself
          continue;
        }
        const double a = iv->second[i], b = is->second[i];
        const auto fa = lv.find(k), fb = ls.find(k);
        const bool layer_a = fa != lv.end() && i < fa->second.size();
        const bool layer_b = fb != ls.end() && i < fb->second.size();
        std::vector<std::string> why;
        if (layer_a && layer_b) {
          why = differences(*fa->second.at(i), *fb->second.at(i));
        } else if (!layer_a && !layer_b) {
          why = plan_level_differences(v->plan(), s->plan());  // a term of no lowered layer: host work, launches
        } else {
          why = {"a lowered layer only one plan has"};
        }
        if (a != b) {
          ++differing_prices;
          EXPECT_FALSE(why.empty()) << "layer " << k.first << " family " << k.second << " (#" << i
                                    << ") prices differently on the two plans (" << a << " s vs " << b
                                    << " s) with identical lowered layers";
          if (!why.empty()) ++named;
        } else if (why.empty()) {
          ++equal_pairs;
        }
        if (layer_a && layer_b && !why.empty()) ++differing_layers;
      }
    }
  }
  // The comparison is not vacuous: the two plans share identical lowered layers priced alike, and differ in
  // others (kernels the two engines pick). At the pins, on these eager steps, those differences price alike too:
  // the cost model's entries for these families do not depend on the kernel variant, so differing_prices may be 0;
  // any price that does differ must be named.
  EXPECT_GT(equal_pairs, 0);
  EXPECT_GT(differing_layers, 0);
  EXPECT_EQ(named, differing_prices);
  RecordProperty("differing_prices", static_cast<int>(differing_prices));
  RecordProperty("differing_layers", static_cast<int>(differing_layers));
}

// The naming is not blind: a copy of a plan names no difference against itself, and a copy with one lowered
// layer's kernel variant changed names exactly that field.
TEST(PlanDifferenceTrace, DifferencesNameTheChangedField) {
  auto a = build("sglang", "0.5.18", {{"model-path", "meta-llama/Meta-Llama-3.1-8B"}, {"context-length", "4096"}});
  engine::plan::PoolPlan copy = a->plan();
  const auto& first = a->plan().layers.value().at(1);
  EXPECT_TRUE(differences(first, copy.layers->at(1)).empty());
  ASSERT_TRUE(copy.layers->at(1).kernel.has_value());
  copy.layers->at(1).kernel->variant = "another-variant";
  const std::vector<std::string> why = differences(first, copy.layers->at(1));
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("kernel: ", 0), 0u) << why[0];
}

}  // namespace
}  // namespace blis

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: plan-difference-trace-test [--gtest flags] STEPS.json\n");
    return 2;
  }
  blis::g_steps_path = argv[1];
  return RUN_ALL_TESTS();
}
