// Conversion of measured vLLM and SGLang points (src/score/convert.h) and their grades (grade.h): each G5 reason of
// design §11.4 this harness gives, from tests/score/fixtures/reasons.csv, beside its closest accepted twin;
// the scenario written for an accepted point; the tables checked against the repository's catalog and the
// ports' fields.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "score/convert.h"
#include "score/grade.h"
#include "score/points.h"

namespace blis::score {
namespace {

const std::string kRoot = BLIS_SOURCE_ROOT;

std::map<std::string, Point> fixture() {
  std::map<std::string, Point> by;
  for (auto& p : read_points_file(kRoot + "/tests/score/fixtures/reasons.csv")) by[p.id] = p;
  return by;
}

// A catalog of the names these tests need (the fixtures do not depend on the catalog's contents).
CatalogNames names() {
  CatalogNames c;
  c.models = {"MiniMaxAI/MiniMax-M2.5", "meta-llama/Meta-Llama-3.1-8B", "openai/gpt-oss-120b", "Qwen/Qwen3-32B",
              "Qwen/Qwen3-32B-FP8", "meta-llama/Meta-Llama-3.1-70B", "nvidia/Llama-3.1-70B-Instruct-FP8"};
  c.models_no_graph = {"moonshotai/Kimi-K2.5"};
  c.chips = {"H100-SXM", "H200-SXM", "B200", "B300", "GB200-NVL72"};
  return c;
}

// The point's first reason and its detail, or "" when it converts.
std::string first(const Conversion& c) {
  if (c.not_scored.empty()) return "";
  return std::string(reason_name(c.not_scored.front().reason)) + ": " + c.not_scored.front().detail;
}

struct Case {
  const char* point;
  const char* reason;   // the first reason and the start of its detail
  const char* twin;     // its closest accepted twin
};

TEST(Convert, EachReasonBesideItsAcceptedTwin) {
  const auto pts = fixture();
  const Case cases[] = {
      {"topology-disagg", "topology_unsupported: a prefill/decode split", "accepted-base"},
      {"topology-across-nodes", "topology_unsupported: tp_size x pp_size x attention_dp_size = 16 GPUs", "twin-across-nodes"},
      {"catalog-model", "not_in_catalog: model nvidia/Llama-3.1-8B-Instruct-FP8: no catalog entry", "twin-catalog-model"},
      {"catalog-chip", "not_in_catalog: system a100_sxm", "twin-catalog-chip"},
      {"catalog-no-graph", "not_in_catalog: model moonshotai/Kimi-K2.5: the catalog has its entry but no graph", "accepted-base"},
      {"quant-fp4", "field_not_modelled: quantization: the run ran MiniMaxAI/MiniMax-M2.5 at fp4", "twin-quant-fp4"},
      {"field-ep", "field_not_modelled: enable-expert-parallel (moe_ep_size=4)", "accepted-base"},
      {"field-dp", "field_not_modelled: data-parallel-size=2 (attention_dp_size)", "accepted-base"},
      {"field-pp", "field_not_modelled: pipeline-parallel-size=2 (pp_size)", "accepted-base"},
      {"field-moe-tp", "field_not_modelled: data-parallel-size: moe_tp_size=4 exceeds tp_size=2", "accepted-base"},
      {"conflict-concurrency", "value_conflict: client concurrency: silicon_data_source states silicon_concurrency=8 and batch_size is 16",
       "accepted-base"},
      {"not-recorded-concurrency", "value_not_recorded: client concurrency", "twin-not-recorded-concurrency"},
  };
  for (const auto& c : cases) {
    const Conversion bad = convert(pts.at(c.point), names());
    EXPECT_TRUE(first(bad).starts_with(c.reason)) << c.point << ": " << first(bad);
    EXPECT_TRUE(bad.scenario.empty()) << c.point;
    const Conversion twin = convert(pts.at(c.twin), names());
    EXPECT_EQ(first(twin), "") << c.twin;
    EXPECT_FALSE(twin.scenario.empty()) << c.twin;
  }
}

TEST(Convert, AcceptedPointsScenarioAndEstimates) {
  const auto pts = fixture();
  const Conversion c = convert(pts.at("accepted-base"), names());
  ASSERT_EQ(first(c), "");
  EXPECT_EQ(c.model, "MiniMaxAI/MiniMax-M2.5");
  EXPECT_EQ(c.chip, "H200-SXM");
  EXPECT_EQ(c.concurrency, 8);
  EXPECT_EQ(c.requests, 32);  // 4 per user
  EXPECT_EQ(c.tensor_parallel, 4);
  for (const char* s : {"kind: vllm", "version: \"0.27.1\"", "model: 'MiniMaxAI/MiniMax-M2.5'", "tensor-parallel-size: 4",
                        "chip: H200-SXM, nodes: 1, gpus_per_node: 8", "process: closed_loop, concurrency: 8",
                        "prompt_tokens: {family: constant, value: 1024", "output_tokens: {family: constant, value: 128",
                        "max_tokens: 128", "stop: {requests: 32}", "warmup: none", "metric: ttft.mean", "metric: tpot.mean"}) {
    EXPECT_NE(c.scenario.find(s), std::string::npos) << s << "\n" << c.scenario;
  }
  // Nothing the run did not record is stated: those are left for the engine to resolve.
  for (const char* s : {"max-model-len", "gpu-memory-utilization", "max-num-seqs", "quantization", "think_time"}) {
    EXPECT_EQ(c.scenario.find(std::string(s) + ":"), std::string::npos) << s;
  }
  std::string all;
  for (const auto& e : c.estimates) all += e + "\n";
  for (const char* s : {"client: not recorded", "warm-up: not recorded", "engine settings not recorded", "measured statistic"}) {
    EXPECT_NE(all.find(s), std::string::npos) << s;
  }
  EXPECT_EQ(c.lane.text(), "vllm 0.19.0 | H200-SXM | MiniMaxAI/MiniMax-M2.5 | tp4");
  // A small concurrency still sends at least kMinRequests.
  Point one = pts.at("accepted-base");
  one.source_fields["silicon_concurrency"] = "1";
  one.ints["batch_size"] = 1;
  EXPECT_EQ(convert(one, names()).requests, kMinRequests);
}

TEST(Convert, ConcurrencyFromBatchSizeIsNamed) {
  const Conversion c = convert(fixture().at("twin-not-recorded-concurrency"), names());
  ASSERT_EQ(first(c), "");
  EXPECT_EQ(c.concurrency, 16);
  EXPECT_NE(c.estimates.front().find("batch_size 16 read as the client's concurrency"), std::string::npos);
}

TEST(Convert, AliasAndVariantNamed) {
  const auto pts = fixture();
  const Conversion alias = convert(pts.at("twin-catalog-model"), names());
  EXPECT_EQ(alias.model, "meta-llama/Meta-Llama-3.1-8B");
  EXPECT_NE(alias.estimates.front().find("the same checkpoint"), std::string::npos);
  Point p = pts.at("twin-catalog-model");
  p.model_path = "meta-llama/Llama-3.1-70B";
  p.precision = "fp8";
  const Conversion variant = convert(p, names());
  EXPECT_EQ(variant.model, "nvidia/Llama-3.1-70B-Instruct-FP8");
  p.precision = "fp4";
  EXPECT_TRUE(first(convert(p, names())).starts_with("field_not_modelled: quantization")) << first(convert(p, names()));
  p.model_path = "Qwen/Qwen3-32B";
  p.precision = "fp8";
  EXPECT_EQ(convert(p, names()).model, "Qwen/Qwen3-32B-FP8");
  // gpt-oss's 4-bit label names another format than its checkpoint's: named, not silently read.
  const Conversion oss = convert(pts.at("twin-quant-fp4"), names());
  std::string all;
  for (const auto& e : oss.estimates) all += e;
  EXPECT_NE(all.find("gemm_quant_mode nvfp4 is recorded, but the recorded checkpoint openai/gpt-oss-120b ships mxfp4"),
            std::string::npos);
}

// An SGLang point runs on the SGLang release this build ports, with SGLang's own argument names.
TEST(Convert, SglangPointUsesItsEngine) {
  const Conversion c = convert(fixture().at("sglang-point"), names());
  ASSERT_EQ(first(c), "");
  for (const char* s : {"kind: sglang", "version: \"0.5.18\"", "model-path: 'MiniMaxAI/MiniMax-M2.5'", "tp-size: 4",
                        "chip: H200-SXM, nodes: 1, gpus_per_node: 8", "process: closed_loop, concurrency: 8"}) {
    EXPECT_NE(c.scenario.find(s), std::string::npos) << s << "\n" << c.scenario;
  }
  for (const char* s : {"kind: vllm", "tensor-parallel-size:", "\n        model:"}) {
    EXPECT_EQ(c.scenario.find(s), std::string::npos) << s << "\n" << c.scenario;
  }
  EXPECT_EQ(c.lane.text(), "sglang 0.5.6 | H200-SXM | MiniMaxAI/MiniMax-M2.5 | tp4");
  std::string all;
  for (const auto& e : c.estimates) all += e + "\n";
  EXPECT_NE(all.find("mem-fraction-static"), std::string::npos) << all;
  EXPECT_NE(all.find("so the ported SGLang release's defaults apply"), std::string::npos) << all;
  // Its G5 reasons name SGLang's arguments.
  Point p = fixture().at("sglang-point");
  p.ints["moe_ep_size"] = 4;
  p.ints["pp_size"] = 2;
  const Conversion refused = convert(p, names());
  ASSERT_EQ(refused.not_scored.size(), 2u);
  EXPECT_EQ(refused.not_scored[0].detail, "pp-size=2 (pp_size): not modelled, no estimation rule");
  EXPECT_EQ(refused.not_scored[1].detail, "ep-size (moe_ep_size=4): not modelled, no estimation rule");
}

TEST(Convert, BackendsWithoutAPortAreNotConverted) {
  EXPECT_THROW(convert(fixture().at("trtllm-point"), names()), std::invalid_argument);
  EXPECT_EQ(backend_of("trtllm"), nullptr);
  ASSERT_NE(backend_of("sglang"), nullptr);
}

// The releases the scenarios name are the ones versions.yaml pins for the ports (the engines refuse another).
TEST(Convert, BackendReleasesAreThePinnedOnes) {
  std::ifstream in(kRoot + "/versions.yaml");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& b : kBackends) {
    const std::string want = std::string("  ") + b.backend + ": {release: \"" + b.release + "\"";
    EXPECT_NE(text.str().find(want), std::string::npos) << want;
  }
}

TEST(Convert, SystemTable) {
  EXPECT_EQ(chip_of_system("h100_sxm"), "H100-SXM");
  EXPECT_EQ(chip_of_system("h200_sxm"), "H200-SXM");
  EXPECT_EQ(chip_of_system("b200_sxm"), "B200");
  EXPECT_EQ(chip_of_system("b300_sxm"), "B300");
  EXPECT_EQ(chip_of_system("gb200"), "GB200-NVL72");
  EXPECT_EQ(chip_of_system("a100_sxm"), std::nullopt);
}

// The tables name only what the repository's catalog holds: every chip of the system table, and the
// checkpoint each alias and variant leads to, resolve against catalog/ as it is in this tree.
TEST(Convert, TablesAgainstTheRepositoryCatalog) {
  namespace fs = std::filesystem;
  CatalogNames cat;
  for (const auto& d : fs::directory_iterator(kRoot + "/catalog/models")) {
    if (!d.is_directory() || !fs::exists(d.path() / "model.yaml")) continue;
    std::string id = d.path().filename().string();
    id.replace(id.find("--"), 2, "/");
    (fs::exists(d.path() / "graph.yaml") ? cat.models : cat.models_no_graph).insert(id);
  }
  for (const auto& f : fs::directory_iterator(kRoot + "/catalog/hardware")) {
    if (f.path().extension() == ".yaml") cat.chips.insert(f.path().stem().string());
  }
  for (const char* s : {"h100_sxm", "h200_sxm", "b200_sxm", "b300_sxm", "gb200"}) {
    EXPECT_TRUE(cat.chips.contains(*chip_of_system(s))) << s;
  }
  Point p = fixture().at("twin-catalog-model");
  const std::pair<std::pair<const char*, const char*>, const char*> want[] = {
      {{"meta-llama/Llama-3.1-70B", ""}, "meta-llama/Meta-Llama-3.1-70B"},
      {{"meta-llama/Llama-3.1-70B", "fp8"}, "nvidia/Llama-3.1-70B-Instruct-FP8"},
      {{"meta-llama/Llama-3.1-8B", ""}, "meta-llama/Meta-Llama-3.1-8B"},
      {{"Qwen/Qwen3-32B", "fp8"}, "Qwen/Qwen3-32B-FP8"},
      {{"Qwen/Qwen3-235B-A22B", "fp8"}, "Qwen/Qwen3-235B-A22B-FP8"},
      {{"Qwen/Qwen3-235B-A22B-FP8", "fp8"}, "Qwen/Qwen3-235B-A22B-FP8"},
      {{"MiniMaxAI/MiniMax-M2.5", "fp8"}, "MiniMaxAI/MiniMax-M2.5"},
      {{"openai/gpt-oss-120b", "fp4"}, "openai/gpt-oss-120b"},
  };
  for (const auto& [in, out] : want) {
    p.model_path = in.first;
    p.precision = in.second;
    const Conversion c = convert(p, cat);
    EXPECT_EQ(first(c), "") << in.first << " " << in.second;
    EXPECT_EQ(c.model, out) << in.first << " " << in.second;
  }
  // Where a catalog graph states its weights' format, the precision the table gives it agrees.
  const std::pair<const char*, const char*> formats[] = {{"MiniMaxAI--MiniMax-M2.5", "fp8_e4m3"},
                                                         {"Qwen--Qwen3-32B-FP8", "fp8_e4m3"},
                                                         {"Qwen--Qwen3-235B-A22B-FP8", "fp8_e4m3"},
                                                         {"openai--gpt-oss-120b", "mxfp4"}};
  for (const auto& [dir, format] : formats) {
    std::ifstream in(kRoot + "/catalog/models/" + dir + "/graph.yaml");
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_NE(s.str().find(std::string("quant: {format: ") + format), std::string::npos) << dir;
  }
}

// The fields a G5 here names are not modelled with no estimation rule in the port's fields.json, and the
// settings left unset have the estimation rule leave_unset there (§11.2: the rules are the engine's).
TEST(Convert, ReasonsAgreeWithTheFieldsList) {
  for (const auto& b : kBackends) {
    const std::string path = std::string("engines/") + b.backend + "/fields.json";
    std::ifstream in(kRoot + "/" + path);
    ASSERT_TRUE(in) << path;
    const auto j = nlohmann::json::parse(in);
    std::map<std::string, nlohmann::json> by;
    for (const auto& f : j.at("fields")) by[f.at("name").get<std::string>()] = f;
    // The parallel layouts and the quantization argument a G5 names.
    for (const char* f : {b.pp_arg, b.dp_arg, b.ep_arg, "quantization"}) {
      ASSERT_TRUE(by.contains(f)) << path << ": " << f;
      EXPECT_TRUE(by[f].at("status").contains("not_modelled")) << path << ": " << f;
      EXPECT_TRUE(by[f].at("estimation").contains("none")) << path << ": " << f;
    }
    // Every setting the estimate names as left unset, and the tensor-parallel size when a point lacks it.
    std::vector<std::string> unset = {b.tp_arg};
    for (std::string rest = b.unset_settings; !rest.empty();) {
      const auto comma = rest.find(", ");
      unset.push_back(rest.substr(0, comma));
      rest = comma == std::string::npos ? "" : rest.substr(comma + 2);
    }
    EXPECT_GE(unset.size(), 8u) << path;
    for (const auto& f : unset) {
      ASSERT_TRUE(by.contains(f)) << path << ": " << f;
      EXPECT_TRUE(by[f].at("estimation").contains("leave_unset")) << path << ": " << f;
    }
  }
}

TEST(Grade, ByRelease) {
  Point p = fixture().at("accepted-base");
  Grade g = grade(p);
  EXPECT_EQ(g.grade, "G4");
  EXPECT_EQ(g.release, "0.19.0");
  EXPECT_NE(g.detail.find("ported-function diff between 0.19.0 and 0.27.1 not computed"), std::string::npos);
  p.backend_version = "0.27.1";
  EXPECT_EQ(grade(p).grade, "G2");
  p.backend_version = "nightly-5b8c30d62b754b57";
  p.source_fields["image"] = "vllm/vllm-openai:nightly-5b8c30d62b754b575e043ce2fc0dcbf8a64f6306";
  g = grade(p);
  EXPECT_EQ(g.grade, "G4");
  EXPECT_FALSE(g.not_scored);
  EXPECT_NE(g.detail.find("nightly build"), std::string::npos);
  p.source_fields.clear();
  p.backend_version = "";
  g = grade(p);
  EXPECT_EQ(g.grade, "G4");
  EXPECT_EQ(g.release, "unrecorded");
  EXPECT_NE(g.detail.find("engine build not recorded"), std::string::npos);
  p.source_items = {"vllm/vllm-openai:v0.18.0-cu130"};
  EXPECT_EQ(grade(p).release, "0.18.0");  // the image records the release the column leaves empty
}

TEST(Grade, SglangReleasesFromItsColumnAndImage) {
  Point p = fixture().at("sglang-point");
  Grade g = grade(p);
  EXPECT_EQ(g.grade, "G4");
  EXPECT_EQ(g.release, "0.5.6");
  EXPECT_EQ(g.detail, "run on SGLang 0.5.6, simulated on 0.5.18: ported-function diff between 0.5.6 and 0.5.18 not computed");
  p.backend_version = "0.5.18";
  EXPECT_EQ(grade(p).grade, "G2");
  // The image names the release the column leaves empty; a vLLM image says nothing of an SGLang run.
  p.backend_version = "";
  p.source_items = {"vllm/vllm-openai:v0.18.0-cu130"};
  EXPECT_EQ(grade(p).release, "unrecorded");
  p.source_items = {"lmsysorg/sglang:v0.5.9-cu130-amd64"};
  EXPECT_EQ(grade(p).release, "0.5.9");
  // Two records of the release that disagree, beside the closest agreeing pair.
  p.backend_version = "0.5.8";
  g = grade(p);
  ASSERT_TRUE(g.not_scored);
  EXPECT_EQ(g.not_scored->reason, Reason::value_conflict);
  p.backend_version = "0.5.9";
  EXPECT_FALSE(grade(p).not_scored);
  // A nightly names its image.
  p.backend_version = "nightly-dev-20260216-d3bae71e";
  p.source_items = {"lmsysorg/sglang:nightly-dev-20260216-d3bae71e"};
  g = grade(p);
  EXPECT_FALSE(g.not_scored);
  EXPECT_EQ(g.detail, "nightly build lmsysorg/sglang:nightly-dev-20260216-d3bae71e: simulated on 0.5.18");
}

TEST(Grade, ReleaseConflictBesideItsTwin) {
  const auto pts = fixture();
  const Grade bad = grade(pts.at("conflict-release"));
  ASSERT_TRUE(bad.not_scored);
  EXPECT_EQ(bad.not_scored->reason, Reason::value_conflict);
  EXPECT_NE(bad.not_scored->detail.find("backend_version is 0.19.0 and silicon_data_source names the image "
                                        "vllm/vllm-openai:v0.18.0-cu130"),
            std::string::npos);
  const Grade twin = grade(pts.at("twin-conflict-release"));
  EXPECT_FALSE(twin.not_scored);
  EXPECT_EQ(twin.grade, "G4");
}

}  // namespace
}  // namespace blis::score
