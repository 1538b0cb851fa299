// cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins as the port registers it: the plugin surface (every
// type runner.go registers, modelled or refused with a reason), the default producers, and the FactoryFunc
// adapters' parameter decoding with the plugins' own error texts.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "router/cmd/epp/runner/register.h"
#include "tests/router/config/mocks.h"

namespace blis::router::runner {
namespace {

using loader::testing::TestRuntime;

std::string factoryError(const fwkplugin::Registry& r, const std::string& type, const std::string& params) {
  TestRuntime rt;
  fwkplugin::Handle h(rt);
  nlohmann::json p = nlohmann::json::parse(params);
  try {
    r.Factories.at(type)(type, &p, h);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(RegisterInTreePlugins, TheSurfaceListsEveryRunnerTypeOnceWithAStatus) {
  fwkplugin::Registry r;
  RegisterInTreePlugins(r);
  auto surface = PluginSurface(r);
  EXPECT_EQ(surface.size(), 96u);  // runner.go@71f4f099: 98 Register calls, prefill-filter and decode-filter twice
  std::set<std::string> seen;
  int modelled = 0;
  for (const auto& e : surface) {
    EXPECT_TRUE(seen.insert(e.Type).second) << e.Type;
    EXPECT_TRUE(e.Status == "modelled" || e.Status == "refused") << e.Type;
    EXPECT_FALSE(e.Reason.empty()) << e.Type;
    EXPECT_EQ(e.Status == "modelled", r.Factories.count(e.Type) == 1) << e.Type;
    modelled += e.Status == "modelled";
  }
  // Every registered type is one runner.go registers.
  for (const auto& [type, f] : r.Factories) EXPECT_TRUE(seen.count(type)) << type;
  EXPECT_EQ(static_cast<std::size_t>(modelled), r.Factories.size());
}

TEST(RegisterInTreePlugins, ARefusedTypeIsRefusedByNameUntilItIsRegistered) {
  fwkplugin::Registry r;
  RegisterInTreePlugins(r);
  try {
    RefuseIfNotModelled(r, "f", "fcfs-ordering-policy");
    FAIL() << "refused type accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "plugin 'f' (type: 'fcfs-ordering-policy') is not modelled by this port: flow control is not modelled by "
              "this port");
  }
  EXPECT_NO_THROW(RefuseIfNotModelled(r, "q", "queue-scorer"));
  EXPECT_NO_THROW(RefuseIfNotModelled(r, "x", "not-a-runner-type"));  // left to the loader's own error
  // Porting a plugin is one Register line: the type then counts as modelled.
  r.Register("load-aware-scorer", fwkplugin::StabilityLevel::Beta, QueueScorerFactory);
  EXPECT_NO_THROW(RefuseIfNotModelled(r, "l", "load-aware-scorer"));
  for (const auto& e : PluginSurface(r)) {
    if (e.Type == "load-aware-scorer") {
      EXPECT_EQ(e.Status, "modelled");
    }
  }
}

TEST(RegisterInTreePlugins, StabilityDeprecationAndDefaultProducersAsRunnerGo) {
  fwkplugin::Registry r;
  RegisterInTreePlugins(r);
  EXPECT_EQ(r.GetPluginStability("max-score-picker"), fwkplugin::StabilityLevel::Beta);
  EXPECT_EQ(r.DefaultProducers.at("PrefixCacheMatchInfoDataKey/approx-prefix-cache-producer"), "approx-prefix-cache-producer");
  EXPECT_EQ(r.DefaultProducers.at("TokenizedPrompt/token-producer"), "token-producer");
  const auto& legacy = r.Metadata.at("tokenizer");
  EXPECT_TRUE(legacy.Deprecated);
  EXPECT_EQ(legacy.DeprecatedIn, "v0.9.0");
  EXPECT_EQ(legacy.ScheduledRemovalIn, "v0.11.0");
  EXPECT_EQ(legacy.ReplacementType, "token-producer");
}

TEST(RegisterInTreePlugins, FactoriesDecodeParametersStrictly) {
  fwkplugin::Registry r;
  RegisterInTreePlugins(r);
  EXPECT_EQ(factoryError(r, "weighted-random-picker", R"({"maxNumOfEndpoints": 2})"), "");
  EXPECT_EQ(factoryError(r, "weighted-random-picker", R"({"maxNumOfEndpoints": 2.5})"),
            "failed to parse the parameters of the 'weighted-random-picker' picker - json: cannot unmarshal number 2.5 "
            "into Go struct field PickerParameters.maxNumOfEndpoints of type int");
  EXPECT_EQ(factoryError(r, "approx-prefix-cache-producer", R"({"blockSizeTokens": 32, "autoTune": false})"), "");
  EXPECT_EQ(factoryError(r, "approx-prefix-cache-producer", R"({"blockSizeTokens": "32"})"),
            "failed to unmarshal prefix cache parameters: json: cannot unmarshal string into Go struct field "
            "config.blockSizeTokens of type int");
  EXPECT_EQ(factoryError(r, "approx-prefix-cache-producer", R"({"blocksize": 64, "hashSeed": 1})"),
            "failed to unmarshal prefix cache parameters: json: unknown field \"hashSeed\"");
  EXPECT_EQ(factoryError(r, "prefix-cache-scorer", R"({"matchLengthWeight": 0.5})"), "");
  EXPECT_EQ(factoryError(r, "prefix-cache-scorer", R"({"weight": 0.5})"),
            "failed to decode prefix cache scorer parameters: json: unknown field \"weight\"");
  EXPECT_EQ(factoryError(r, "token-producer", R"({"estimate": {}})"), "");
  EXPECT_EQ(factoryError(r, "token-producer", R"({"estimate": {}, "modelName": "m"})"),
            "invalid configuration for 'token-producer' plugin: only one of 'estimate', 'vllm', or 'udsTokenizerConfig' "
            "may be set");
  EXPECT_EQ(factoryError(r, "token-producer", R"({"vllm": {}})"),
            "invalid configuration for 'token-producer' plugin: 'modelName' must be specified");
  EXPECT_EQ(factoryError(r, "token-producer", R"({"estimat": {}})"),
            "failed to parse the parameters of the 'token-producer' plugin - json: unknown field \"estimat\"");
  // queue-scorer's factory ignores its parameters (upstream's `_ *json.Decoder`).
  EXPECT_EQ(factoryError(r, "queue-scorer", R"({"anything": 1})"), "");
  // Held without a decision: parameters are refused rather than ignored.
  EXPECT_EQ(factoryError(r, "metrics-data-source", R"({})"), "");
  EXPECT_NE(factoryError(r, "metrics-data-source", R"({"scheme": "https"})").find("are not modelled by this port"),
            std::string::npos);
}

}  // namespace
}  // namespace blis::router::runner
