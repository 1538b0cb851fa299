// SUB-7 / VAL-2: every primitive family prices on every catalog chip, for each data type the chip states
// and each span it has, finitely and positively (zero only where a coefficient is not charged, or where the
// family's host time is an assumed zero), and each price names its least trusted method. Prints the table
// family x chip -> least trusted method (worst over data types and spans).
//
// Usage: cost-completeness-test [DIR]. Without DIR: the embedded catalog and registry. With DIR: its
// catalog/ and registry/ where present, and registry-overlay/ as an overlay (the ci check's real run names
// the checkout; its known-bad run an overlay whose efficiency of 0 leaves a family unpriceable).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "calls.h"
#include "cost_data.h"
#include "cost/primitive.h"

namespace {

using namespace blis::cost;
using namespace blis::cost::testing;

std::string g_dir;

TEST(CostCompleteness, EveryFamilyPricesOnEveryChip) {
  const blis::data::DataSet data = load_data(g_dir.empty() ? blis::data::LoadOptions{} : options_for_dir(g_dir));
  const Coefficients coefficients = blis::cost::testing::coefficients(data);
  const auto chip_list = chips(data);
  ASSERT_FALSE(chip_list.empty());
  std::map<std::string, std::map<std::string, std::string>> table;  // family -> chip -> "method (rank)"
  int priced = 0, failures = 0;
  for (const auto& form : family_forms()) {
    if (form.form == "workload") continue;  // a multiplier, checked below through its readers
    for (const auto& [name, chip] : chip_list) {
      std::vector<std::string> dtypes = family_reads_dtype(form.name) ? chip_dtypes(chip) : std::vector<std::string>{"bf16"};
      std::vector<std::optional<std::string>> spans{std::nullopt};
      if (family_reads_span(form.name)) {
        spans = {std::string("node")};
        if (chip.rack) spans.push_back(std::string("rack"));
        if (chip.nic) spans.push_back(std::string("fabric"));
      }
      int worst = 0;
      std::string cell;
      for (const auto& dtype : dtypes) {
        for (const auto& span : spans) {
          PrimitiveCall call = representative_call(form.name, name, dtype, span);
          const std::string what = form.name + " on " + name + " (" + dtype + (span ? ", span " + *span : "") + ")";
          try {
            const PrimitivePrice p = price(coefficients, call);
            ++priced;
            const double t = p.seconds.value();
            const bool zero_ok = !p.provenance.not_charged.empty() || (form.form == "host" && p.provenance.method == Method::assumed);
            if (!std::isfinite(t) || t < 0.0 || (t == 0.0 && !zero_ok)) {
              ADD_FAILURE() << "cost-completeness: " << what << " does not price: " << t << " s";
              ++failures;
            }
            if (p.provenance.entry.empty()) ADD_FAILURE() << "cost-completeness: " << what << " names no least trusted entry";
            if (p.provenance.effective_rank > worst) {
              worst = p.provenance.effective_rank;
              cell = std::string(method_name(p.provenance.method)) + " (" + std::to_string(worst) + ")";
            }
          } catch (const CostError& e) {
            ADD_FAILURE() << "cost-completeness: " << what << " does not price: " << e.what();
            ++failures;
          }
        }
      }
      table[form.name][name] = cell;
    }
  }
  // The expert imbalance, read by moe.grouped_gemm and collective.all_to_all when a workload is named.
  for (const auto& [name, chip] : chip_list) {
    PrimitiveCall call = representative_call("moe.grouped_gemm", name, chip_dtypes(chip).front(), std::nullopt);
    call.workload = "chat-sharegpt";
    call.ep = 8;
    call.inputs["experts"] = 128;
    call.inputs["top_k"] = 8;
    try {
      const PrimitivePrice p = price(coefficients, call);
      bool read = false;
      for (const auto& u : p.provenance.used) read = read || u.find("moe.expert_imbalance.max_over_mean") != std::string::npos;
      EXPECT_TRUE(read) << "moe.grouped_gemm on " << name << " with a workload did not read the expert imbalance";
      table["moe.expert_imbalance"][name] = "(read through moe.grouped_gemm)";
    } catch (const CostError& e) {
      ADD_FAILURE() << "cost-completeness: moe.expert_imbalance on " << name << " does not price: " << e.what();
    }
  }
  std::printf("%d prices; least trusted method per family and chip (worst over data types and spans):\n", priced);
  std::printf("%-26s", "family");
  for (const auto& [name, chip] : chip_list) std::printf(" %-16s", name.c_str());
  std::printf("\n");
  for (const auto& form : family_forms()) {
    std::printf("%-26s", form.name.c_str());
    for (const auto& [name, chip] : chip_list) std::printf(" %-16s", table[form.name][name].c_str());
    std::printf("\n");
  }
  EXPECT_EQ(failures, 0);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 2) {
    std::fprintf(stderr, "usage: cost-completeness-test [DIR]\n");
    return 2;
  }
  if (argc == 2) g_dir = argv[1];
  return RUN_ALL_TESTS();
}
