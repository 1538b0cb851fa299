// pkg/epp/config/loader/configloader_test.go@71f4f099 TestInstantiateAndConfigure, transcribed case by case over
// the same configuration texts (testdata.h) and mocks (mocks.h); see configloader_test.cpp for the deviations.
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

struct Instantiated {
  EndpointPickerConfig raw;
  Config cfg;
};

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestInstantiateAndConfigure: the success cases.
TEST(ConfigLoader, TestInstantiateAndConfigure_Success) {
  fwkplugin::Registry reg;
  registerTestPlugins(reg);
  auto run = [&](const std::string& text, fwkplugin::Handle& handle) {
    Loader l = newLoader(reg);
    auto raw = l.LoadRawConfig(text);
    Config cfg = l.InstantiateAndConfigure(raw.Config, handle);
    return Instantiated{raw.Config, cfg};
  };
  {
    SCOPED_TRACE("Success - Default Scorer Weight");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successWithNoWeightText, h);
    ASSERT_EQ(r.raw.SchedulingProfiles.size(), 1u);
    ASSERT_EQ(r.raw.SchedulingProfiles[0].Plugins.size(), 2u) << "Expected Scorer + Default Picker";
    ASSERT_TRUE(r.raw.SchedulingProfiles[0].Plugins[0].Weight.has_value());
    EXPECT_EQ(*r.raw.SchedulingProfiles[0].Plugins[0].Weight, 1.0);
  }
  {
    SCOPED_TRACE("Success - Default Profile Handler Injection");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    run(successWithNoProfileHandlersText, h);
    EXPECT_TRUE(hasPluginType(h, "single-profile-handler"));
  }
  {
    SCOPED_TRACE("Success - Picker Before Scorer");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successPickerBeforeScorerText, h);
    ASSERT_EQ(r.raw.SchedulingProfiles.size(), 1u);
    const auto& prof = r.raw.SchedulingProfiles[0];
    EXPECT_EQ(prof.Plugins[0].PluginRef, "test-picker");
    EXPECT_EQ(prof.Plugins[1].PluginRef, "test-scorer");
    ASSERT_TRUE(prof.Plugins[1].Weight.has_value());
    EXPECT_EQ(*prof.Plugins[1].Weight, 1.0);
  }
  {
    SCOPED_TRACE("Ignored - Flow Control Config Present but FeatureGate Disabled");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successflowControlConfigDisabledText, h);
    EXPECT_TRUE(r.raw.FlowControl.has_value());  // the port builds no flow-control config at all (cfg has none)
  }
  {
    SCOPED_TRACE("Success - Parser Config");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successParserConfigText, h);
    ASSERT_EQ(r.cfg.Parsers.size(), 1u);
    EXPECT_EQ(r.cfg.Parsers[0], "openai-parser");
    EXPECT_EQ(h.GetPlugin(r.cfg.Parsers[0])->TypedName().Type, "openai-parser");
  }
  {
    SCOPED_TRACE("Success - Config without parser and default parsers are injected");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successWithNoParserConfigText, h);
    EXPECT_EQ(r.cfg.Parsers, (std::vector<std::string>{"openai-parser", "anthropic-parser", "vllmhttp-parser"}));
    EXPECT_EQ(h.GetPlugin("anthropic-parser")->TypedName().Type, "anthropic-parser");
    EXPECT_EQ(h.GetPlugin("vllmhttp-parser")->TypedName().Type, "vllmhttp-parser");
  }
  {
    SCOPED_TRACE("Success - Parser Config With Name");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successParserWithNameConfigText, h);
    ASSERT_EQ(r.cfg.Parsers.size(), 1u);
    EXPECT_EQ(r.cfg.Parsers[0], "openaiParser");
    EXPECT_EQ(h.GetPlugin("openaiParser")->TypedName().Type, "openai-parser");
  }
  {
    SCOPED_TRACE("Success - Multiple Parsers Config");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successMultipleParsersConfigText, h);
    EXPECT_EQ(r.cfg.Parsers, (std::vector<std::string>{"openai-parser", "secondParser"}));
  }
  {
    SCOPED_TRACE("Success - Deprecated Top-level Parser");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successDeprecatedTopLevelParserText, h);
    EXPECT_EQ(r.cfg.Parsers, (std::vector<std::string>{"openai-parser"}));
  }
  {
    SCOPED_TRACE("Success (DataLayer) - Enabled by default with no feature gates");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successDataLayerAutoDefaultText, h);
    ASSERT_TRUE(r.raw.DataLayer.has_value());
    ASSERT_EQ(r.raw.DataLayer->Sources.size(), 1u);
    EXPECT_EQ(r.raw.DataLayer->Sources[0].PluginRef, "metrics-data-source");
    ASSERT_EQ(r.raw.DataLayer->Sources[0].Extractors.size(), 1u);
    EXPECT_EQ(r.raw.DataLayer->Sources[0].Extractors[0].PluginRef, "core-metrics-extractor");
    EXPECT_NE(h.GetPlugin("metrics-data-source"), nullptr);
    EXPECT_NE(h.GetPlugin("core-metrics-extractor"), nullptr);
  }
  {
    SCOPED_TRACE("Success (DataLayer) - Empty dataLayer section injects defaults (additive)");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successDataLayerNoSourcesText, h);
    ASSERT_TRUE(r.raw.DataLayer.has_value());
    ASSERT_EQ(r.raw.DataLayer->Sources.size(), 1u);
    EXPECT_EQ(r.raw.DataLayer->Sources[0].PluginRef, "metrics-data-source");
    EXPECT_NE(h.GetPlugin("metrics-data-source"), nullptr);
    EXPECT_NE(h.GetPlugin("core-metrics-extractor"), nullptr);
    EXPECT_EQ(r.cfg.DataSources.size(), 1u);
  }
  {
    SCOPED_TRACE("Success (DataLayer) - injectDefaults: false suppresses injection");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successDataLayerOptOutText, h);
    ASSERT_TRUE(r.raw.DataLayer.has_value());
    EXPECT_TRUE(r.raw.DataLayer->Sources.empty());
    EXPECT_EQ(h.GetPlugin("metrics-data-source"), nullptr);
    EXPECT_EQ(h.GetPlugin("core-metrics-extractor"), nullptr);
    EXPECT_TRUE(r.cfg.DataSources.empty());
  }
  {
    SCOPED_TRACE("Success (DataLayer) - Explicit non-metrics source gets defaults injected too");
    TestRuntime rt;
    fwkplugin::Handle h(rt);
    auto r = run(successDataLayerExplicitConfigText, h);
    ASSERT_TRUE(r.raw.DataLayer.has_value());
    ASSERT_EQ(r.raw.DataLayer->Sources.size(), 2u);
    std::vector<std::string> refs{r.raw.DataLayer->Sources[0].PluginRef, r.raw.DataLayer->Sources[1].PluginRef};
    EXPECT_NE(std::find(refs.begin(), refs.end(), "testSource"), refs.end());
    EXPECT_NE(std::find(refs.begin(), refs.end(), "metrics-data-source"), refs.end());
  }
}

// pkg/epp/config/loader/configloader_test.go@71f4f099 TestInstantiateAndConfigure: the error cases, and the success cases whose
// configuration enables the flowControl feature gate, which the port refuses (flow control is not modelled):
// "Success - Complex Scheduler", "Success - Flow Control Config", "Success - Complex Flow Control Config" and
// "Success - Deprecated Top-level SaturationDetector". "Error (FlowControl) - Missing Policy Plugin" and
// "Wrong Plugin Type" fail in the port at the same stage for that reason, not for the missing policy.
TEST(ConfigLoader, TestInstantiateAndConfigure_Errors) {
  fwkplugin::Registry reg;
  registerTestPlugins(reg);
  const std::string flowControlRefused =
      "failed to load flow control config: the flowControl feature gate is enabled, but flow control is not modelled";
  struct Case {
    std::string name, configText, wantErr;  // wantErr: a prefix of the error text
  };
  const std::vector<Case> tests = {
      {"Error (Instantiation) - Missing Type Field", errorBadPluginReferenceText,
       "configuration validation failed: plugin '' is missing a type"},
      {"Error (Instantiation) - Unknown Plugin Type", errorBadPluginReferencePluginText,
       "configuration validation failed: plugin type 'unknown-plugin-type' is not registered"},
      {"Error (Instantiation) - Invalid JSON Parameters", errorBadPluginJSONText,
       "plugin instantiation failed: failed to create plugin 'testScorer' (type: test-scorer): json: cannot unmarshal "
       "string into Go struct field testScorerParameters.blockSize of type int"},
      {"Error (Instantiation) - Duplicate Plugin Name", errorDuplicatePluginText,
       "configuration validation failed: duplicate plugin name 'test1'"},
      {"Error (Deep Validation) - Missing Profile Name", errorNoProfileNameText,
       "configuration validation failed: scheduling profile validation failed: schedulingProfiles[0] is missing a name"},
      {"Error (Deep Validation) - Missing PluginRef in Profile", errorBadProfilePluginText,
       "configuration validation failed: scheduling profile validation failed: schedulingProfiles[default].plugins[0] "
       "is missing a 'pluginRef'"},
      {"Error (Deep Validation) - Profile References Undefined Plugin", errorBadProfilePluginRefText,
       "configuration validation failed: scheduling profile validation failed: schedulingProfiles[default] references "
       "undefined plugin 'non-existent-plugin'"},
      {"Error (Deep Validation) - Duplicate Profile Name", errorDuplicateProfileText,
       "configuration validation failed: scheduling profile validation failed: schedulingProfiles[1] has duplicate name "
       "'default'"},
      {"Error (Scheduling) - Two Pickers in One Profile", errorTwoPickersText,
       "scheduler config build failed: failed to add plugin 'random' to profile 'default': "},
      {"Error (Scheduling) - Multiple Profile Handlers", errorTwoProfileHandlersText,
       "scheduler config build failed: multiple profile handlers found ("},
      {"Error (Scheduling) - Missing Profile Handler", errorNoProfileHandlersText,
       "scheduler config build failed: no profile handler configured"},
      {"Error (Scheduling) - Multi-Profile with Single Handler", errorMultiProfilesUseSingleProfileHandlerText,
       "scheduler config build failed: SingleProfileHandler cannot support multiple scheduling profiles"},
      {"Error (DataLayer) - Bad Source Reference", errorBadSourceReferenceText,
       "configuration validation failed: plugin type 'test-one' is not registered"},
      {"Error (DataLayer) - Bad Extractor Reference", errorBadExtractorReferenceText,
       "failed to decode configuration JSON/YAML: json: cannot unmarshal string into Go struct field "
       "DataLayerSource.dataLayer.sources.extractors of type v1alpha1.DataLayerExtractor"},
      {"Error (FlowControl) - Missing Policy Plugin", errorFlowControlMissingPluginText, flowControlRefused},
      {"Error (FlowControl) - Wrong Plugin Type", errorFlowControlWrongPluginTypeText, flowControlRefused},
      {"Error (Parser) - Wrong Plugin Type", errorParserWrongPluginTypeText,
       "parser registry build failed: the plugin \"maxScore\" is not a parser plugin"},
      {"Error (Parser) - Wrong Parser Name", errorParserWrongPluginNameText,
       "system default application failed: failed to apply parser defaults: plugin type 'wrongParser' not found in "
       "registry"},
      {"Success - Complex Scheduler (refused: flowControl gate)", successSchedulerConfigText, flowControlRefused},
      {"Success - Flow Control Config (refused)", successFlowControlConfigText, flowControlRefused},
      // Names flow-control policy types, which this test registry lacks (upstream registers mocks of them).
      {"Success - Complex Flow Control Config (refused)", successComplexFlowControlConfigText,
       "configuration validation failed: plugin type 'fcfs-ordering-policy' is not registered"},
      {"Success - Deprecated Top-level SaturationDetector (refused)", successDeprecatedTopLevelSaturationDetectorText,
       flowControlRefused},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    Loader l = newLoader(reg);
    TestRuntime rt;
    fwkplugin::Handle handle(rt);
    try {
      auto raw = l.LoadRawConfig(tc.configText);
      l.InstantiateAndConfigure(raw.Config, handle);
      ADD_FAILURE() << "Expected InstantiateAndConfigure to fail";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, tc.wantErr.size()), tc.wantErr) << e.what();
    }
  }
}

}  // namespace
}  // namespace blis::router::loader
