// SUB-11: changing any field of PoolPlan or StepShape changes some step price, or the field is on the
// not-yet-priced list (tests/cost/not_yet_priced.txt) with its reason. The list is a ratchet: a listed
// field that does change a price fails the test until it is struck off, and an unlisted field that
// changes none fails until it is priced or listed. Every field of the schemas is accounted for: the
// walk over a fully populated struct enumerates them, the fixtures under tests/cost/fixtures/step/ give
// the values that are perturbed. A perturbation that the pricer refuses (an unknown family or format)
// counts as a change: the field is read. The list is printed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cost/step.h"
#include "schema/field_walk.h"
#include "step_fixture.h"

namespace {

using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;

std::string normalize(const std::string& path) { return std::regex_replace(path, std::regex(R"(\[[0-9]+\])"), "[]"); }

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// A change a reader would notice: numbers doubled (1 more from 0), flags flipped, names and enum values
// replaced, a list item repeated.
template <class X>
bool perturb(X& x) {
  using T = std::remove_cvref_t<X>;
  if constexpr (schema::is_optional_v<T>) {
    return x.has_value() && perturb(*x);
  } else if constexpr (is_vector<T>::value) {
    if (x.empty()) return false;
    x.push_back(x.back());
    return true;
  } else if constexpr (std::is_same_v<T, std::string>) {
    x = x == "tokens" ? "requests" : x == "full_graph" ? "eager" : x == "decode_only" ? "prebuilt" : x + "x";
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    x = !x;
    return true;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    x = x == 0 ? 1 : 2 * x;
    return true;
  } else if constexpr (requires { T::name(); x.value(); }) {
    x = T(x.value() == 0 ? 1 : 2 * x.value());
    return true;
  } else {
    return false;
  }
}

struct Outcome {
  bool refused = false;
  double seconds = 0;
  bool operator==(const Outcome&) const = default;
};

Outcome outcome(const schema::PoolPlan& plan, const schema::StepShape& step) {
  try {
    const auto e = price_step(embedded_coefficients(), plan, step);
    double s = 0;
    for (const auto& st : e.stages) s += st.seconds.value();
    return {false, s};
  } catch (const std::exception&) {
    return {true, 0};
  }
}

template <class T>
std::set<std::string> every_field() {
  T full{};
  schema::fill_all(full);
  std::set<std::string> out;
  schema::walk_fields(full, [&](const std::string& path, const auto& member) {
    if constexpr (schema::is_leaf_field_v<std::remove_cvref_t<decltype(member)>>) out.insert(normalize(path));
  });
  return out;
}

template <class T>
std::vector<std::string> present_leaves(const T& v) {
  std::vector<std::string> out;
  schema::walk_fields(v, [&](const std::string& path, const auto& member) {
    using M = std::remove_cvref_t<decltype(member)>;
    if constexpr (schema::is_leaf_field_v<M>) {
      if constexpr (schema::is_optional_v<M>) {
        if (member.has_value()) out.push_back(path);
      } else {
        out.push_back(path);
      }
    }
  });
  return out;
}

// The list read: tests/cost/not_yet_priced.txt of the checkout, or DIR/not_yet_priced.txt when the
// program is given a directory holding one (the record's known-bad input), else DIR/tests/cost/.
std::string g_dir;

std::map<std::string, std::string> not_yet_priced() {
  std::string path = source_root() + "/tests/cost/not_yet_priced.txt";
  if (!g_dir.empty()) {
    path = g_dir + "/not_yet_priced.txt";
    if (!std::ifstream(path)) path = g_dir + "/tests/cost/not_yet_priced.txt";
  }
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path << ": cannot be read";
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << "not_yet_priced.txt: '" << line << "' has no tab before its reason";
    if (tab == std::string::npos) continue;
    EXPECT_GT(line.size(), tab + 1) << line << ": no reason";
    out.emplace(line.substr(0, tab), line.substr(tab + 1));
  }
  return out;
}

TEST(Perturbation, EveryPlanAndStepFieldChangesAPriceOrIsListed) {
  // Each plan fixture with the steps priced under it.
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"dense-plan.yaml", {"prefill.yaml", "mixed.yaml", "decode.yaml"}},
      {"moe-mla-plan.yaml", {"draft-mixed.yaml", "decode.yaml"}}};
  std::set<std::string> priced;
  for (const auto& [plan_file, step_files] : cases) {
    const auto plan = plan_fixture(plan_file);
    std::vector<schema::StepShape> steps;
    for (const auto& f : step_files) steps.push_back(step_fixture(f));
    for (const auto& step : steps) ASSERT_FALSE(outcome(plan, step).refused) << plan_file << " does not price";
    // Plan fields: perturbed under every step of the plan.
    for (const std::string& path : present_leaves(plan))
      for (const auto& step : steps) {
        auto copy = plan;
        bool changed = false;
        schema::walk_fields(copy, [&](const std::string& p, auto& m) {
          if (p == path) changed = perturb(m);
        });
        if (changed && !(outcome(copy, step) == outcome(plan, step))) priced.insert("plan." + normalize(path));
      }
    for (const auto& step : steps)
      for (const std::string& path : present_leaves(step)) {
        auto copy = step;
        bool changed = false;
        schema::walk_fields(copy, [&](const std::string& p, auto& m) {
          if (p == path) changed = perturb(m);
        });
        if (changed && !(outcome(plan, copy) == outcome(plan, step))) priced.insert("step." + normalize(path));
      }
  }
  std::set<std::string> all;
  for (const auto& f : every_field<schema::PoolPlan>()) all.insert("plan." + f);
  for (const auto& f : every_field<schema::StepShape>()) all.insert("step." + f);
  const auto listed = not_yet_priced();
  std::printf("not-yet-priced fields (%zu of %zu):\n", listed.size(), all.size());
  for (const auto& [field, reason] : listed) std::printf("  %-55s %s\n", field.c_str(), reason.c_str());
  for (const auto& f : all) {
    if (priced.contains(f)) {
      EXPECT_FALSE(listed.contains(f)) << f << " now changes a price: strike it off tests/cost/not_yet_priced.txt";
    } else {
      EXPECT_TRUE(listed.contains(f)) << f << " changes no step price and is not on tests/cost/not_yet_priced.txt";
    }
  }
  for (const auto& [field, reason] : listed) EXPECT_TRUE(all.contains(field)) << field << ": listed but not a field";
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 2) {
    std::fprintf(stderr, "usage: cost-perturbation-test [DIR]\n");
    return 2;
  }
  if (argc == 2) g_dir = argv[1];
  // Run from its invariant record, the environment meson gives tests is absent: the fixtures are the
  // checkout's, whose path the build records.
  if (std::getenv("BLIS_SOURCE_ROOT") == nullptr) setenv("BLIS_SOURCE_ROOT", BLIS_SOURCE_ROOT_BUILD, 0);
  return RUN_ALL_TESTS();
}
