// The pricing forms on the embedded floor (the fitted sets left out: floor_coefficients), computed by hand (forms.md, registry/families.yaml): the
// max form, memory-only, link and host forms, windowed attention, the expert imbalance; the C++ family
// table against families.yaml; and the refusals, each naming field, value and cause.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "calls.h"
#include "cost_data.h"
#include "cost/primitive.h"
#include "schema/primitive-families.h"

namespace {

using namespace blis::cost;
using namespace blis::cost::testing;

class Forms : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = new blis::data::DataSet(load_data());
    coefficients_ = new Coefficients(blis::cost::testing::floor_coefficients(*data_));
  }
  static void TearDownTestSuite() {
    delete coefficients_;
    delete data_;
  }
  static PrimitivePrice p(const PrimitiveCall& c) { return price(*coefficients_, c); }
  static std::string refusal(const PrimitiveCall& c) {
    try {
      price(*coefficients_, c);
    } catch (const CostError& e) {
      return e.what();
    }
    return "(accepted)";
  }
  static blis::data::DataSet* data_;
  static Coefficients* coefficients_;
};
blis::data::DataSet* Forms::data_ = nullptr;
Coefficients* Forms::coefficients_ = nullptr;

constexpr double kH100Bw = 3.35e12, kH100Bf16 = 989e12, kH100Nvlink = 450e9, kH100Pcie = 64e9;

TEST_F(Forms, TheFamilyTableIsFamiliesYaml) {
  const auto file = data_->registry.find("families.yaml");
  ASSERT_TRUE(file);
  blis::doc::Diagnostics d{file->location()};
  const auto fams = blis::schema::load_primitive_families(file->bytes, file->path, d);
  ASSERT_TRUE(fams) << d.str();
  std::vector<std::string> yaml_names, cpp_names;
  for (const auto& [name, f] : fams->families) {
    if (f.kind == "footprint") continue;  // memory held, not a time: the memory breakdown reads it (memory.h)
    yaml_names.push_back(name);
    const auto it = std::find_if(family_forms().begin(), family_forms().end(), [&](const FamilyForm& ff) { return ff.name == name; });
    ASSERT_NE(it, family_forms().end()) << name << " of families.yaml has no pricing form";
    EXPECT_EQ(it->inputs, f.inputs) << name;
    EXPECT_EQ(it->kind, f.kind) << name;
    // The form reads exactly the coefficients the family declares.
    std::vector<std::string> declared;
    for (const auto& [c, _] : f.coefficients) declared.push_back(c);
    std::sort(declared.begin(), declared.end());
    std::vector<std::string> expected = it->form == "roofline_max" ? std::vector<std::string>{"compute_efficiency", "compute_rate", "latency", "memory_efficiency", "memory_rate"}
                                        : it->form == "memory_only" ? std::vector<std::string>{"memory_efficiency", "memory_rate"}
                                        : it->form == "link"        ? std::vector<std::string>{"latency", "link_efficiency", "link_rate"}
                                        : it->form == "host"        ? std::vector<std::string>{"time"}
                                                                    : std::vector<std::string>{"max_over_mean"};
    EXPECT_EQ(declared, expected) << name;
  }
  for (const auto& ff : family_forms()) cpp_names.push_back(ff.name);
  std::sort(yaml_names.begin(), yaml_names.end());
  std::sort(cpp_names.begin(), cpp_names.end());
  EXPECT_EQ(yaml_names, cpp_names);
}

TEST_F(Forms, GemmTakesTheLargerOfComputeAndMemoryTime) {
  PrimitiveCall c = representative_call("gemm", "H100-SXM", "bf16", std::nullopt);
  c.inputs = {{"m", 1}, {"n", 4096}, {"k", 4096}};
  const double b1 = 4096.0 * 2 + 4096.0 * 4096 * 2 + 4096.0 * 2;
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), b1 / kH100Bw);  // memory-bound
  c.inputs = {{"m", 8192}, {"n", 8192}, {"k", 8192}};
  const double f = 2.0 * 8192 * 8192 * 8192;
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), f / kH100Bf16);  // compute-bound
  EXPECT_DOUBLE_EQ(p(c).flops.value(), f);
  // fp8 weights compute at the fp8 peak and move one byte per weight element.
  c.formats = {"bf16", "fp8", "bf16", "bf16"};
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), f / 1978e12);
  EXPECT_DOUBLE_EQ(p(c).bytes, 8192.0 * 8192 * 2 + 8192.0 * 8192 * 1 + 8192.0 * 8192 * 2);
}

TEST_F(Forms, WindowedAttentionReadsAtMostTheWindow) {
  PrimitiveCall c = representative_call("attention.prefill", "H100-SXM", "bf16", std::nullopt);
  c.requests = {{5, 10}};
  c.inputs = {{"heads_q", 1}, {"heads_kv", 1}, {"head_dim", 1}};
  EXPECT_DOUBLE_EQ(p(c).flops.value(), 4.0 * 65);  // 11 + 12 + 13 + 14 + 15 keys
  EXPECT_DOUBLE_EQ(p(c).bytes, 2.0 * 2 * 5 + 2.0 * 2 * 15);
  c.inputs["window"] = 12;
  EXPECT_DOUBLE_EQ(p(c).flops.value(), 4.0 * 59);  // 11 + 12 + 12 + 12 + 12
  EXPECT_DOUBLE_EQ(p(c).bytes, 2.0 * 2 * 5 + 2.0 * 2 * 15);  // min(15, 12 + 5 - 1) keys read
  c.inputs["window"] = 4;
  EXPECT_DOUBLE_EQ(p(c).flops.value(), 4.0 * 20);
  EXPECT_DOUBLE_EQ(p(c).bytes, 2.0 * 2 * 5 + 2.0 * 2 * 8);  // 4 + 5 - 1 keys

  PrimitiveCall d = representative_call("attention.decode", "H100-SXM", "bf16", std::nullopt);
  d.requests = {{1, 1000}, {2, 100}};
  d.inputs = {{"heads_q", 32}, {"heads_kv", 8}, {"head_dim", 128}};
  const double full = 2.0 * 8 * 128 * 2 * 1100 + 2.0 * 32 * 128 * 2 * 3;
  EXPECT_DOUBLE_EQ(p(d).bytes, full);
  EXPECT_DOUBLE_EQ(p(d).flops.value(), 4.0 * 32 * 128 * (1 * 1000 + 2 * 100));
  EXPECT_DOUBLE_EQ(p(d).seconds.value(), full / kH100Bw);
  d.inputs["window"] = 256;
  EXPECT_DOUBLE_EQ(p(d).bytes, 2.0 * 8 * 128 * 2 * 356 + 2.0 * 32 * 128 * 2 * 3);
  EXPECT_DOUBLE_EQ(p(d).flops.value(), 4.0 * 32 * 128 * (1 * 256 + 2 * 100));
}

TEST_F(Forms, LinkFamiliesChargeLatencyPlusBusBytesOverTheLink) {
  const double s = 16.0 * 1024 * 1024;
  PrimitiveCall c = representative_call("collective.all_reduce", "H100-SXM", "bf16", std::string("node"));
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), 2.0 * 7 / 8 * s / kH100Nvlink);
  EXPECT_DOUBLE_EQ(p(c).flops.value(), 7.0 / 8 * s / 2);
  for (const char* f : {"collective.all_gather", "collective.reduce_scatter", "collective.all_to_all"}) {
    c = representative_call(f, "H100-SXM", "bf16", std::string("node"));
    EXPECT_DOUBLE_EQ(p(c).seconds.value(), 7.0 / 8 * s / kH100Nvlink) << f;
  }
  c = representative_call("p2p.send_recv", "H100-SXM", "bf16", std::string("node"));
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), 8.0 * 1024 * 1024 / kH100Nvlink);
  c = representative_call("copy.host_to_device", "H100-SXM", "bf16", std::nullopt);
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), 64.0 * 1024 * 1024 / kH100Pcie);
  // A group of one moves nothing.
  c = representative_call("collective.all_gather", "H100-SXM", "bf16", std::string("node"));
  c.inputs["group_size"] = 1;
  EXPECT_EQ(p(c).seconds.value(), 0.0);
  // A chip with no host link: the copy's link rate is not charged and the price says so.
  c = representative_call("copy.device_to_host", "GB200-NVL72", "bf16", std::nullopt);
  const PrimitivePrice g = p(c);
  EXPECT_EQ(g.seconds.value(), 0.0);
  ASSERT_EQ(g.provenance.not_charged.size(), 1u);
  EXPECT_NE(g.provenance.not_charged[0].find("copy.device_to_host.link_rate"), std::string::npos);
}

TEST_F(Forms, HostFamiliesMultiplyTheirTimeByTheirCount) {
  // The floor's host times are assumed 0 s; the count input still must be given and valid.
  PrimitiveCall c = representative_call("host.launch", "H100-SXM", "bf16", std::nullopt);
  const PrimitivePrice h = p(c);
  EXPECT_EQ(h.seconds.value(), 0.0);
  EXPECT_EQ(h.provenance.method, Method::assumed);
  c.inputs.erase("kernels");
  EXPECT_NE(refusal(c).find("inputs.kernels is missing"), std::string::npos) << refusal(c);
}

TEST_F(Forms, AWorkloadReadsTheExpertImbalance) {
  PrimitiveCall c = representative_call("moe.grouped_gemm", "H100-SXM", "bf16", std::nullopt);
  const double t = p(c).seconds.value();
  c.workload = "chat-sharegpt";
  EXPECT_NE(refusal(c).find("inputs.experts is missing"), std::string::npos) << refusal(c);
  c.inputs["experts"] = 128;
  c.inputs["top_k"] = 8;
  EXPECT_NE(refusal(c).find("ep is not given"), std::string::npos) << refusal(c);
  c.ep = 8;
  const PrimitivePrice w = p(c);
  EXPECT_DOUBLE_EQ(w.seconds.value(), t * 1.0);  // the floor's balanced 1.0
  EXPECT_TRUE(std::any_of(w.provenance.used.begin(), w.provenance.used.end(),
                          [](const std::string& u) { return u.find("moe.expert_imbalance.max_over_mean") != std::string::npos; }))
      << ::testing::PrintToString(w.provenance.used);
}

TEST_F(Forms, RefusalsNameFieldValueAndCause) {
  PrimitiveCall c = representative_call("gemm", "H100-SXM", "bf16", std::nullopt);
  c.family = "gemv";
  EXPECT_NE(refusal(c).find("family = gemv: not a primitive family"), std::string::npos) << refusal(c);
  c.family = "moe.expert_imbalance";
  EXPECT_NE(refusal(c).find("a workload property, not a primitive"), std::string::npos) << refusal(c);
  c = representative_call("gemm", "H100-SXM", "bf16", std::nullopt);
  c.inputs["m"] = -1;
  EXPECT_NE(refusal(c).find("inputs.m = -1: an input is finite and zero or more"), std::string::npos) << refusal(c);
  c.inputs.erase("m");
  EXPECT_NE(refusal(c).find("inputs.m is missing"), std::string::npos) << refusal(c);
  c = representative_call("gemm", "H100-SXM", "bf16", std::nullopt);
  c.inputs["tokens"] = 3;
  EXPECT_NE(refusal(c).find("inputs.tokens = 3: not an input of gemm"), std::string::npos) << refusal(c);
  c = representative_call("gemm", "H100-SXM", "fp16", std::nullopt);  // H100's catalog entry states no fp16 peak
  EXPECT_NE(refusal(c).find("no registry entry answers the lookup of gemm.compute_rate for {chip: H100-SXM, dtype: fp16}"),
            std::string::npos)
      << refusal(c);
  c = representative_call("gemm", "H100-SXM", "bf16", std::nullopt);
  c.formats.weight = "fp6";
  EXPECT_NE(refusal(c).find("formats.weight: unknown data format 'fp6'"), std::string::npos) << refusal(c);
  c = representative_call("collective.all_reduce", "H100-SXM", "bf16", std::string("node"));
  c.inputs["group_size"] = 0;
  EXPECT_NE(refusal(c).find("inputs.group_size = 0: a group has a whole number of ranks"), std::string::npos) << refusal(c);
  c.inputs["group_size"] = 8;
  c.span.reset();
  EXPECT_NE(refusal(c).find("span is not given"), std::string::npos) << refusal(c);
  c = representative_call("attention.decode", "H100-SXM", "bf16", std::nullopt);
  c.inputs["context_tokens"] = 5;
  EXPECT_NE(refusal(c).find("inputs.context_tokens = 5: derived from the per-request tokens"), std::string::npos) << refusal(c);
  c.inputs.erase("context_tokens");
  c.requests[0].context = -3;
  EXPECT_NE(refusal(c).find("requests[0].context = -3"), std::string::npos) << refusal(c);
  c = representative_call("elementwise.activation", "H100-SXM", "bf16", std::nullopt);
  c.inputs["gated"] = 2;
  EXPECT_NE(refusal(c).find("inputs.gated = 2: a yes-or-no input is 0 or 1"), std::string::npos) << refusal(c);
  // Memory-only families price without a compute data type (fp32 logits).
  c = representative_call("sampling", "H100-SXM", "bf16", std::nullopt);
  c.formats.activation = "fp32";
  EXPECT_DOUBLE_EQ(p(c).seconds.value(), 64.0 * 128256 * 4 / kH100Bw);
}

// The fitted registry (measured and transferred sets): a collective's fixed time grows with its group
// (registry/scripts/fitfamily.py LatencyModel, a + b (n - 1)). nccl-tests measured a 512-byte all-reduce at
// 6.2 us on two H100s and 15.6 us on eight; one fixed time for every group size gave both 10.3 us.
TEST(FittedCollectives, LatencyGrowsWithTheGroup) {
  const blis::data::DataSet data = load_data();
  const Coefficients fitted = coefficients(data);
  PrimitiveCall c = representative_call("collective.all_reduce", "H100-SXM", "bf16", std::string("node"));
  c.inputs["bytes"] = 512;
  c.inputs["group_size"] = 2;
  const double two = price(fitted, c).seconds.value();
  c.inputs["group_size"] = 8;
  const double eight = price(fitted, c).seconds.value();
  EXPECT_NEAR(two, 6.2e-6, 0.2 * 6.2e-6);
  EXPECT_NEAR(eight, 15.6e-6, 0.2 * 15.6e-6);
}

}  // namespace
