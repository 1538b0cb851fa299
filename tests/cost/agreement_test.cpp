// The cost model and the fitting scripts price alike: each point of
// registry/scripts/test/fixtures/agreement.json (written by registry/scripts/agreement_points.py from the
// committed registry through forms.py) priced by src/cost from the embedded registry, relative 1e-9.
// Attention points state totals over equal requests; they are split back into equal requests here.
// Collectives are priced on one node (the fitted tables' groups), and their activation format, which
// counts only FLOPs, is bf16.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cost/primitive.h"
#include "cost_data.h"

namespace {

using namespace blis;
using namespace blis::cost;
using namespace blis::cost::testing;
using json = nlohmann::json;

TEST(Agreement, CostModelMatchesTheFittingScripts) {
  std::ifstream in(source_root() + "/registry/scripts/test/fixtures/agreement.json");
  ASSERT_TRUE(in.good());
  const json doc = json::parse(in);
  const data::DataSet data = load_data();
  const Coefficients c = blis::cost::testing::coefficients(data);
  int n = 0;
  for (const json& p : doc.at("points")) {
    PrimitiveCall call;
    call.family = p.at("family").get<std::string>();
    call.chip = p.at("chip").get<std::string>();
    if (p.contains("kernel") && !p.at("kernel").is_null())
      call.kernel = KernelImpl{p["kernel"].at("library"), p["kernel"].at("variant"), p["kernel"].value("code_hash", "")};
    const json& f = p.at("formats");
    call.formats.activation = f.value("act", "");
    call.formats.weight = f.value("w", "");
    call.formats.kv = f.value("kv", "");
    call.formats.output = f.value("out", "");
    const json& x = p.at("inputs");
    const bool attention = call.family.starts_with("attention.");
    if (attention) {
      const bool pre = call.family.ends_with("prefill");
      const auto req = x.at("requests").get<std::int64_t>();
      const auto tok = x.at(pre ? "new_tokens" : "query_tokens").get<std::int64_t>();
      const auto ctx = x.at(pre ? "cached_tokens" : "context_tokens").get<std::int64_t>();
      ASSERT_EQ(tok % req, 0) << p.dump();
      ASSERT_EQ(ctx % req, 0) << p.dump();
      for (std::int64_t r = 0; r < req; ++r) call.requests.push_back({tok / req, ctx / req});
      call.inputs["window"] = 0;
    }
    for (const auto& [k, v] : x.items()) {
      if (attention && (k == "requests" || k.ends_with("_tokens"))) continue;
      call.inputs[k] = v.get<double>();
    }
    if (call.family.starts_with("collective.")) {
      call.span = "node";
      if (call.formats.activation.empty()) call.formats.activation = "bf16";
    }
    const double want = p.at("seconds").get<double>();
    const PrimitivePrice got = price(c, call);
    EXPECT_NEAR(got.seconds.value(), want, 1e-9 * want) << p.dump();
    ++n;
  }
  EXPECT_GE(n, 30);
}

}  // namespace
