// The configuration loader's tests: pkg/epp/config/loader/configloader_test.go and defaults_test.go@71f4f099,
// transcribed test function by test function (TestInstantiateAndConfigure is in instantiate_test.cpp) over the same configuration texts (testdata.h) and mocks
// (mocks.h). Deviations, case by case, are commented where they occur: cases whose configuration enables the
// flowControl feature gate are refused by the port (flow control is not modelled), so they assert that refusal
// instead of the flow-control config upstream builds. flowcontrol_test.go@71f4f099 (TestBuildRegistryConfig,
// TestBuildFlowControlConfig, TestBuildFlowControlConfig_Errors, TestBuildPriorityBandPolicyDefaults) is not
// transcribed: every case builds a flow-control registry from policy plugins, none of which the port models.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "router/epp/config/loader/configloader.h"
#include "tests/router/config/mocks.h"
#include "tests/router/config/testdata.h"

namespace blis::router::loader {
namespace {

using namespace testdata;
using namespace loader::testing;
using v1alpha1::EndpointPickerConfig;

bool mentionsDeprecated(const Loader& l) {
  for (const auto& w : l.Warnings()) {
    if (w.find("deprecated") != std::string::npos) return true;
  }
  return false;
}

// The expected config of "Success - Full Configuration" / "using deprecated Groupname".
EndpointPickerConfig fullConfig(const std::string& apiVersion) {
  EndpointPickerConfig c;
  c.Kind = "EndpointPickerConfig";
  c.APIVersion = apiVersion;
  c.Plugins = {{"test1", testPluginType, nlohmann::json::parse(R"({"threshold":10})")},
               {"profileHandler", testProfileHandler, std::nullopt},
               {testScorerType, testScorerType, nlohmann::json::parse(R"({"blockSize":32})")},
               {"testPicker", testPickerType, std::nullopt}};
  c.SchedulingProfiles = {{"default", {{"test1", std::nullopt}, {testScorerType, 50.0}, {"testPicker", std::nullopt}}}};
  c.FeatureGates = std::vector<std::string>{testFeatureGate, FlowControlFeatureGate};
  v1alpha1::FlowControlConfig fc;
  fc.SaturationDetector = v1alpha1::SaturationDetectorConfig{"utilization-detector"};
  c.FlowControl = fc;
  return c;
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestLoadRawConfiguration
TEST(ConfigLoader, TestLoadRawConfiguration) {
  fwkplugin::Registry reg;
  struct Case {
    std::string name, configText;
    std::optional<EndpointPickerConfig> want;
    std::map<std::string, bool> wantFeatures;
    std::string wantErr;  // non-empty: the error expected (exact text)
    bool deprecated;
  };
  EndpointPickerConfig noProfiles;
  noProfiles.Kind = "EndpointPickerConfig";
  noProfiles.APIVersion = "llm-d.ai/v1alpha1";
  noProfiles.Plugins = {{"test1", testPluginType, nlohmann::json::parse(R"({"threshold":10})")}};
  noProfiles.FeatureGates = std::vector<std::string>{std::string(testFeatureGate) + "=false"};

  EndpointPickerConfig defaults;
  defaults.APIVersion = "llm-d.ai/v1alpha1";
  defaults.Kind = "EndpointPickerConfig";
  defaults.FeatureGates = std::vector<std::string>{};
  defaults.Plugins = {{"queue-scorer", "queue-scorer", std::nullopt},
                      {"kv-cache-utilization-scorer", "kv-cache-utilization-scorer", std::nullopt},
                      {"prefix-cache-scorer", "prefix-cache-scorer", std::nullopt},
                      {"metrics-data-source", "metrics-data-source", std::nullopt},
                      {"core-metrics-extractor", "core-metrics-extractor", std::nullopt}};
  defaults.SchedulingProfiles = {
      {"default", {{"queue-scorer", 2.0}, {"kv-cache-utilization-scorer", 2.0}, {"prefix-cache-scorer", 3.0}}}};
  v1alpha1::DataLayerConfig dl;
  dl.Sources = {{"metrics-data-source", {{"core-metrics-extractor"}}}};
  defaults.DataLayer = dl;

  EndpointPickerConfig topSD;
  topSD.Kind = "EndpointPickerConfig";
  topSD.APIVersion = "llm-d.ai/v1alpha1";
  topSD.Plugins = {{"maxScore", "max-score-picker", std::nullopt}};
  topSD.SchedulingProfiles = {{"default", {{"maxScore", std::nullopt}}}};
  topSD.FeatureGates = std::vector<std::string>{FlowControlFeatureGate};
  v1alpha1::FlowControlConfig fc;
  fc.SaturationDetector = v1alpha1::SaturationDetectorConfig{"utilization-detector"};
  topSD.FlowControl = fc;
  topSD.SaturationDetector = v1alpha1::SaturationDetectorConfig{"utilization-detector"};

  EndpointPickerConfig topParser;
  topParser.Kind = "EndpointPickerConfig";
  topParser.APIVersion = "llm-d.ai/v1alpha1";
  topParser.Plugins = {{"maxScore", "max-score-picker", std::nullopt}, {"openai-parser", "openai-parser", std::nullopt}};
  topParser.SchedulingProfiles = {{"default", {{"maxScore", std::nullopt}}}};
  topParser.FeatureGates = std::vector<std::string>{};
  topParser.RequestHandler = v1alpha1::RequestHandlerConfig{{{"openai-parser"}}};
  topParser.Parser = v1alpha1::ParserConfig{"openai-parser"};

  const std::vector<Case> tests = {
      {"Success - Full Configuration", successConfigText, fullConfig("llm-d.ai/v1alpha1"),
       {{testFeatureGate, true}, {FlowControlFeatureGate, true}}, "", false},
      {"Success - using deprecated Groupname", successDeprecatedText, fullConfig("inference.networking.x-k8s.io/v1alpha1"), {}, "", true},
      {"Success - No Profiles", successNoProfilesText, noProfiles, {{testFeatureGate, false}, {FlowControlFeatureGate, false}}, "", false},
      {"Success - Default configuration", "", defaults, {{testFeatureGate, true}, {FlowControlFeatureGate, false}}, "", false},
      {"Success - Deprecated Top-level SaturationDetector", successDeprecatedTopLevelSaturationDetectorText, topSD, {}, "", true},
      {"Success - Deprecated Top-level Parser", successDeprecatedTopLevelParserText, topParser, {}, "", true},
      {"Error - Invalid YAML", errorBadYamlText, std::nullopt, {},
       "failed to decode configuration JSON/YAML: json: cannot unmarshal string into Go struct field "
       "EndpointPickerConfig.plugins of type v1alpha1.PluginSpec", false},
      {"Error - Unknown Feature Gate", errorUnknownFeatureGateText, std::nullopt, {},
       "feature gate validation failed: feature gate 'unknown-gate' is unknown or unregistered", false},
      {"Error - Bad Feature Gate", errorBadFeatureGateText, std::nullopt, {},
       "feature gate validation failed: qwerty is not a valid value for the feature gate flowControl (error: "
       "strconv.ParseBool: parsing \"qwerty\": invalid syntax)", false},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    Loader l = newLoader(reg);
    if (!tc.wantErr.empty()) {
      try {
        l.LoadRawConfig(tc.configText);
        ADD_FAILURE() << "Expected LoadRawConfig to fail";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), tc.wantErr);
      }
      continue;
    }
    RawConfig got = l.LoadRawConfig(tc.configText);
    EXPECT_TRUE(got.Config == *tc.want) << "Config mismatch";
    if (!tc.wantFeatures.empty()) {
      EXPECT_EQ(got.FeatureGates, tc.wantFeatures);
    }
    EXPECT_EQ(mentionsDeprecated(l), tc.deprecated);
  }
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestPluginsWithDependencies
TEST(ConfigLoader, TestPluginsWithDependencies) {
  fwkplugin::Registry reg;
  registerTestPlugins(reg);
  struct Case {
    std::string name, configText;
    bool wantErr;
  };
  const std::vector<Case> tests = {{"pluginsInOrder", pluginsInOrderText, false},
                                   {"pluginsOutOfOrder", pluginsOutOfOrderText, false},
                                   {"pluginsRefedByPointer", pluginsRefedByPointerText, false},
                                   {"pluginsRefedInNesteding", pluginsRefedInNestedingText, false},
                                   {"errorPluginsRefedInLoop", errorPluginsRefedInLoopText, true}};
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    Loader l = newLoader(reg);
    auto raw = l.LoadRawConfig(tc.configText);
    TestRuntime rt;
    fwkplugin::Handle handle(rt);
    if (tc.wantErr) {
      try {
        l.instantiatePlugins(raw.Config.Plugins, handle);
        ADD_FAILURE() << "Expected instantiatePlugins to fail";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "failed to build plugin dependency graph: cycle detected: graph is not a DAG");
      }
      continue;
    }
    EXPECT_NO_THROW(l.instantiatePlugins(raw.Config.Plugins, handle));
  }
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestFlowControlConfigIgnoredWarning ("settings honored when the gate is on" is
// refused by the port: flow control is not modelled).
TEST(ConfigLoader, TestFlowControlConfigIgnoredWarning) {
  fwkplugin::Registry reg;
  registerTestPlugins(reg);
  struct Case {
    std::string name, configText;
    bool wantWarn;
  };
  const std::vector<Case> tests = {
      {"settings ignored under an explicit opt-out", successflowControlConfigDisabledText, true},
      {"settings ignored under the disabled default", successFlowControlConfigNoGatesText, true},
      {"opt-out with no flowControl section", successFlowControlDisabledNoSectionText, false},
      {"opt-out with only a saturation detector", successFlowControlDisabledSaturationDetectorText, false},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    Loader l = newLoader(reg);
    TestRuntime rt;
    fwkplugin::Handle handle(rt);
    auto raw = l.LoadRawConfig(tc.configText);
    ASSERT_NO_THROW(l.InstantiateAndConfigure(raw.Config, handle));
    bool warned = false;
    for (const auto& w : l.Warnings()) warned = warned || w.find("flowControl feature gate is disabled") != std::string::npos;
    EXPECT_EQ(warned, tc.wantWarn);
  }
  Loader l = newLoader(reg);
  TestRuntime rt;
  fwkplugin::Handle handle(rt);
  auto raw = l.LoadRawConfig(successFlowControlConfigText);
  EXPECT_THROW(l.InstantiateAndConfigure(raw.Config, handle), std::invalid_argument);
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestBuildDataLayerConfigEmptySourcesWarning
TEST(ConfigLoader, TestBuildDataLayerConfigEmptySourcesWarning) {
  TestRuntime rt;
  fwkplugin::Handle handle(rt);
  v1alpha1::DataLayerConfig dl;
  auto cfg = buildDataLayerConfig(dl, handle);
  EXPECT_TRUE(cfg.empty());
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestValidateSaturationDetector
TEST(ConfigLoader, TestValidateSaturationDetector) {
  struct Case {
    std::string name;
    EndpointPickerConfig cfg;
    bool wantErr;
  };
  auto withSD = [](std::vector<v1alpha1::PluginSpec> plugins, std::optional<std::string> ref) {
    EndpointPickerConfig c;
    c.Plugins = std::move(plugins);
    c.FlowControl = v1alpha1::FlowControlConfig{};
    if (ref) c.FlowControl->SaturationDetector = v1alpha1::SaturationDetectorConfig{*ref};
    return c;
  };
  const std::vector<Case> tests = {
      {"Nil config", EndpointPickerConfig{}, false},
      {"Nil SaturationDetector", withSD({}, std::nullopt), false},
      {"Empty PluginRef", withSD({}, ""), true},
      {"Valid PluginRef", withSD({{"valid-plugin", "valid-type", std::nullopt}}, "valid-plugin"), false},
      {"Invalid PluginRef", withSD({{"other-plugin", "valid-type", std::nullopt}}, "valid-plugin"), true},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    if (tc.wantErr) {
      EXPECT_THROW(validateSaturationDetector(tc.cfg), std::invalid_argument);
    } else {
      EXPECT_NO_THROW(validateSaturationDetector(tc.cfg));
    }
  }
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestEnsureSaturationDetector
TEST(ConfigLoader, TestEnsureSaturationDetector) {
  fwkplugin::Registry reg;
  {
    SCOPED_TRACE("Plugin in allPlugins");
    EndpointPickerConfig cfg;
    cfg.FlowControl = v1alpha1::FlowControlConfig{};
    cfg.FlowControl->SaturationDetector = v1alpha1::SaturationDetectorConfig{"existing-plugin"};
    TestRuntime rt;
    fwkplugin::Handle handle(rt);
    std::map<std::string, std::shared_ptr<fwkplugin::Plugin>> all{
        {"existing-plugin", std::make_shared<Mock<SaturationDetectorRole>>(fwkplugin::TypedName{})}};
    Loader l(reg);
    EXPECT_NO_THROW(l.ensureSaturationDetector(cfg, handle, all));
    EXPECT_EQ(cfg.FlowControl->SaturationDetector->PluginRef, "existing-plugin");
  }
  {
    SCOPED_TRACE("Empty PluginRef in allPlugins");
    EndpointPickerConfig cfg;
    cfg.FlowControl = v1alpha1::FlowControlConfig{};
    cfg.FlowControl->SaturationDetector = v1alpha1::SaturationDetectorConfig{""};
    TestRuntime rt;
    fwkplugin::Handle handle(rt);
    std::map<std::string, std::shared_ptr<fwkplugin::Plugin>> all{
        {"utilization-detector", std::make_shared<Mock<SaturationDetectorRole>>(fwkplugin::TypedName{})}};
    Loader l(reg);
    EXPECT_NO_THROW(l.ensureSaturationDetector(cfg, handle, all));
    EXPECT_EQ(cfg.FlowControl->SaturationDetector->PluginRef, "utilization-detector");
  }
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestFilterExecutionOrderFromYAML
TEST(ConfigLoader, TestFilterExecutionOrderFromYAML) {
  fwkplugin::Registry reg;
  Loader l = newLoader(reg);
  auto raw = l.LoadRawConfig(successFilterOrderConfigText);
  ASSERT_EQ(raw.Config.SchedulingProfiles.size(), 1u);
  std::vector<std::string> refs;
  for (const auto& p : raw.Config.SchedulingProfiles[0].Plugins) refs.push_back(p.PluginRef);
  EXPECT_EQ(refs, (std::vector<std::string>{"filter-A", "filter-B", "filter-C", "scorer-X", "scorer-Y", "maxScorePicker"}));
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestAllowExperimentalPluginsFlag
TEST(ConfigLoader, TestAllowExperimentalPluginsFlag) {
  fwkplugin::Registry reg;
  const std::string alphaPluginType = "test-alpha-plugin";
  reg.Register(alphaPluginType, fwkplugin::StabilityLevel::Alpha,
               [&](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
                 return std::make_shared<Mock<fwkplugin::Plugin>>(fwkplugin::TypedName{alphaPluginType, name});
               });
  reg.Register("single-profile-handler", fwkplugin::StabilityLevel::Stable, runner::SingleProfileHandlerFactory);
  reg.Register("utilization-detector", fwkplugin::StabilityLevel::Stable,
               [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
                 return std::make_shared<Mock<SaturationDetectorRole>>(fwkplugin::TypedName{"utilization-detector", name});
               });
  // The port's registry has no "max-score-picker" and parsers unless registered: Go's test process has them
  // from registerTestPlugins of earlier tests (a shared global registry); registered here for the same effect.
  reg.Register("max-score-picker", fwkplugin::StabilityLevel::Stable, runner::MaxScorePickerFactory);
  for (const char* parser : {"openai-parser", "anthropic-parser", "vllmhttp-parser"}) {
    reg.Register(parser, fwkplugin::StabilityLevel::Stable, runner::InertFactory(parser, "parser"));
  }
  reg.Register("metrics-data-source", fwkplugin::StabilityLevel::Stable, runner::InertFactory("metrics-data-source", "source"));
  reg.Register("core-metrics-extractor", fwkplugin::StabilityLevel::Stable, runner::InertFactory("core-metrics-extractor", "extractor"));
  TestRuntime rt;
  fwkplugin::Handle handle(rt);
  EndpointPickerConfig raw;
  raw.Plugins = {{"alpha-inst", alphaPluginType, std::nullopt},
                 {"ph", "single-profile-handler", std::nullopt},
                 {"sat", "utilization-detector", std::nullopt}};
  raw.SchedulingProfiles = {{"default", {{"ph", std::nullopt}}}};
  raw.FlowControl = v1alpha1::FlowControlConfig{};
  raw.FlowControl->SaturationDetector = v1alpha1::SaturationDetectorConfig{"sat"};
  Loader l(reg);
  ASSERT_NO_THROW(l.InstantiateAndConfigure(raw, handle));
  try {
    fwkplugin::ValidatePluginStability(reg, handle, false);
    ADD_FAILURE() << "an Alpha plugin was accepted without the flag";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "has Alpha stability level, but command line flag --allow-experimental-plugins is not set"),
              std::string::npos);
  }
  EXPECT_NO_THROW(fwkplugin::ValidatePluginStability(reg, handle, true));
}

// pkg/epp/config/loader/defaults_test.go@71f4f099 TestEnsureDataLayer
TEST(ConfigLoader, TestEnsureDataLayer) {
  fwkplugin::Registry reg;
  auto metricsPlugins = [] {
    return std::map<std::string, std::shared_ptr<fwkplugin::Plugin>>{
        {"metrics-data-source", std::make_shared<Mock<DataSourceRole>>(fwkplugin::TypedName{"metrics-data-source", "metrics-data-source"})},
        {"core-metrics-extractor", std::make_shared<Mock<ExtractorRole>>(fwkplugin::TypedName{"core-metrics-extractor", "core-metrics-extractor"})}};
  };
  Loader l(reg);
  {
    SCOPED_TRACE("nil DataLayer injects metrics defaults");
    EndpointPickerConfig cfg;
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    l.ensureDataLayer(cfg, h, metricsPlugins());
    ASSERT_TRUE(cfg.DataLayer.has_value());
    ASSERT_EQ(cfg.DataLayer->Sources.size(), 1u);
    EXPECT_EQ(cfg.DataLayer->Sources[0].PluginRef, "metrics-data-source");
    ASSERT_EQ(cfg.DataLayer->Sources[0].Extractors.size(), 1u);
    EXPECT_EQ(cfg.DataLayer->Sources[0].Extractors[0].PluginRef, "core-metrics-extractor");
  }
  {
    SCOPED_TRACE("empty DataLayer {} injects metrics defaults (regression: was no-op)");
    EndpointPickerConfig cfg;
    cfg.DataLayer = v1alpha1::DataLayerConfig{};
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    l.ensureDataLayer(cfg, h, metricsPlugins());
    ASSERT_EQ(cfg.DataLayer->Sources.size(), 1u);
    EXPECT_EQ(cfg.DataLayer->Sources[0].PluginRef, "metrics-data-source");
  }
  {
    SCOPED_TRACE("non-metrics source gets metrics injected too (additive)");
    EndpointPickerConfig cfg;
    cfg.DataLayer = v1alpha1::DataLayerConfig{};
    cfg.DataLayer->Sources = {{"k8s-notification-source", {}}};
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    l.ensureDataLayer(cfg, h, metricsPlugins());
    ASSERT_EQ(cfg.DataLayer->Sources.size(), 2u);
    EXPECT_EQ(cfg.DataLayer->Sources[0].PluginRef, "k8s-notification-source");
    EXPECT_EQ(cfg.DataLayer->Sources[1].PluginRef, "metrics-data-source");
  }
  {
    SCOPED_TRACE("existing metrics-data-source is not double-injected");
    EndpointPickerConfig cfg;
    cfg.DataLayer = v1alpha1::DataLayerConfig{};
    cfg.DataLayer->Sources = {{"metrics-data-source", {}}};
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    l.ensureDataLayer(cfg, h, metricsPlugins());
    EXPECT_EQ(cfg.DataLayer->Sources.size(), 1u);
  }
  {
    SCOPED_TRACE("injectDefaults false opts out");
    EndpointPickerConfig cfg;
    cfg.DataLayer = v1alpha1::DataLayerConfig{};
    cfg.DataLayer->InjectDefaults = false;
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    l.ensureDataLayer(cfg, h, metricsPlugins());
    EXPECT_TRUE(cfg.DataLayer->Sources.empty());
  }
}

}  // namespace
}  // namespace blis::router::loader
