// SUB-5: no price implies a compute rate above the chip's dense datasheet peak for its data type, or a
// memory bandwidth above the datasheet peak when the working set exceeds the chip's L2; at a fixed
// algorithm, span and bytes per rank, a collective never gets faster as its group grows. A fixed sweep
// over every catalog chip, data type and span, then RapidCheck properties over random shapes (fixed seed).
//
// Usage: cost-physics-test [DIR]: DIR's catalog/ and registry/ where present (the checkout, in the real
// run), and DIR/registry-overlay/ as an overlay (the known-bad run: efficiencies of 2.0). Exit 1 naming
// each violation, 2 when the data cannot be loaded.
#include <rapidcheck.h>
#include <stdlib.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "calls.h"
#include "cost_data.h"
#include "physics.h"

namespace {

using namespace blis::cost;
using namespace blis::cost::testing;

const std::vector<std::string> kCompute = {"gemm", "moe.grouped_gemm", "attention.prefill", "attention.decode",
                                           "attention.mla_prefill", "attention.mla_decode"};
const std::vector<std::string> kCollectives = {"collective.all_reduce", "collective.all_gather", "collective.reduce_scatter",
                                               "collective.all_to_all"};

std::vector<std::string> spans_of(const blis::schema::Chip& chip) {
  std::vector<std::string> s{"node"};
  if (chip.rack) s.push_back("rack");
  if (chip.nic) s.push_back("fabric");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: cost-physics-test [DIR]\n");
    return 2;
  }
  setenv("RC_PARAMS", "seed=5 max_success=300 verbose_progress=0", 0);
  std::optional<blis::data::DataSet> data;
  std::optional<Coefficients> coefficients;
  std::map<std::string, blis::schema::Chip> chip_map;
  try {
    data = load_data(argc == 2 ? options_for_dir(argv[1]) : blis::data::LoadOptions{});
    coefficients = blis::cost::testing::coefficients(*data);
    chip_map = chips(*data);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cost-physics-test: %s\n", e.what());
    return 2;
  }
  std::vector<const blis::schema::Chip*> chip_list;
  for (const auto& [n, c] : chip_map) chip_list.push_back(&c);
  const Coefficients& co = *coefficients;

  std::vector<std::string> found;
  int checked = 0;
  auto note = [&](const std::string& v) {
    ++checked;
    if (!v.empty()) found.push_back(v);
  };
  try {
    // The fixed sweep.
    for (const auto* chip : chip_list) {
      for (const auto& dtype : chip_dtypes(*chip)) {
        for (const auto& f : kCompute)
          for (double scale : {1.0, 16.0}) note(compute_above_peak(co, *chip, representative_call(f, chip->name, dtype, std::nullopt, scale), dtype));
        for (const auto& form : family_forms())
          if (form.form == "roofline_max" || form.form == "memory_only")
            note(memory_above_peak(co, *chip, representative_call(form.name, chip->name, dtype, std::nullopt, 64.0)));
      }
      for (const auto& span : spans_of(*chip))
        for (const auto& f : kCollectives)
          for (auto [n1, n2] : {std::pair{2, 4}, {4, 8}, {8, 16}, {8, 72}, {2, 64}})
            note(collective_faster_with_group(co, representative_call(f, chip->name, "bf16", span), n1, n2));
    }
  } catch (const std::exception& e) {
    std::printf("cost-physics-test: the sweep could not price: %s\n", e.what());
    return 1;
  }
  for (const auto& v : found) std::printf("%s\n", v.c_str());
  std::printf("cost-physics-test: fixed sweep: %d checks, %zu violations\n", checked, found.size());

  // RapidCheck: random chips, data types and shapes.
  bool ok = found.empty();
  ok &= rc::check("a gemm never beats the chip's dense peak, nor its memory bandwidth beyond L2", [&] {
    const auto* chip = chip_list[*rc::gen::inRange<std::size_t>(0, chip_list.size())];
    const auto dtypes = chip_dtypes(*chip);
    const std::string dtype = dtypes[*rc::gen::inRange<std::size_t>(0, dtypes.size())];
    PrimitiveCall call = representative_call("gemm", chip->name, dtype, std::nullopt);
    call.inputs = {{"m", static_cast<double>(*rc::gen::inRange(1, 1 << 16))},
                   {"n", static_cast<double>(*rc::gen::inRange(1, 1 << 15))},
                   {"k", static_cast<double>(*rc::gen::inRange(1, 1 << 15))}};
    const std::string a = compute_above_peak(co, *chip, call, dtype);
    if (!a.empty()) RC_FAIL(a);
    const std::string b = memory_above_peak(co, *chip, call);
    if (!b.empty()) RC_FAIL(b);
  });
  ok &= rc::check("attention never beats the chip's dense peak, nor its memory bandwidth beyond L2", [&] {
    const auto* chip = chip_list[*rc::gen::inRange<std::size_t>(0, chip_list.size())];
    const auto dtypes = chip_dtypes(*chip);
    const std::string dtype = dtypes[*rc::gen::inRange<std::size_t>(0, dtypes.size())];
    const bool prefill = *rc::gen::arbitrary<bool>();
    PrimitiveCall call = representative_call(prefill ? "attention.prefill" : "attention.decode", chip->name, dtype, std::nullopt);
    call.requests.clear();
    const int n = *rc::gen::inRange(1, 64);
    for (int r = 0; r < n; ++r)
      call.requests.push_back({*rc::gen::inRange<std::int64_t>(prefill ? 1 : 1, prefill ? 8192 : 8),
                               *rc::gen::inRange<std::int64_t>(0, 131072)});
    if (*rc::gen::arbitrary<bool>()) call.inputs["window"] = static_cast<double>(*rc::gen::inRange(1, 8192));
    const std::string a = compute_above_peak(co, *chip, call, dtype);
    if (!a.empty()) RC_FAIL(a);
    const std::string b = memory_above_peak(co, *chip, call);
    if (!b.empty()) RC_FAIL(b);
  });
  ok &= rc::check("a collective never gets faster as its group grows", [&] {
    const auto* chip = chip_list[*rc::gen::inRange<std::size_t>(0, chip_list.size())];
    const auto spans = spans_of(*chip);
    const std::string span = spans[*rc::gen::inRange<std::size_t>(0, spans.size())];
    const std::string f = kCollectives[*rc::gen::inRange<std::size_t>(0, kCollectives.size())];
    PrimitiveCall call = representative_call(f, chip->name, "bf16", span);
    call.inputs["bytes"] = static_cast<double>(*rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 32));
    const auto n1 = *rc::gen::inRange<std::int64_t>(1, 128);
    const auto n2 = *rc::gen::inRange<std::int64_t>(n1 + 1, 257);
    const std::string v = collective_faster_with_group(co, call, n1, n2);
    if (!v.empty()) RC_FAIL(v);
  });
  std::printf("cost-physics-test: %s\n", ok ? "every property holds" : "a property fails");
  return ok ? 0 : 1;
}
