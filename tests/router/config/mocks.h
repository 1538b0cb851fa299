// The mock plugins and test registry of pkg/epp/config/loader/configloader_test.go@71f4f099 (registerTestPlugins
// and its mock types), for the configuration loader's tests. The flow-control policy mocks are not transcribed:
// the cases that use them are refused by the port (flow control is not modelled).
#pragma once

#include <any>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/cmd/epp/runner/register.h"
#include "router/epp/config/loader/configloader.h"
#include "router/epp/config/loader/roles.h"
#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router::loader::testing {

inline constexpr const char* testPluginType = "test-plugin";
inline constexpr const char* testPickerType = "test-picker";
inline constexpr const char* testScorerType = "test-scorer";
inline constexpr const char* testProfileHandler = "test-profile-handler";
inline constexpr const char* testSourceType = "test-source";
inline constexpr const char* testExtractorType = "test-extractor";
inline constexpr const char* testWithDependencies = "test-with-dependencies";
inline constexpr const char* testWithNestedDependencies = "test-with-nested-dependencies";
inline constexpr const char* testFeatureGate = "test-feature-gate";

template <class Base>
class Mock : public Base {
 public:
  explicit Mock(fwkplugin::TypedName t) : t_(std::move(t)) {}
  fwkplugin::TypedName TypedName() const override { return t_; }

 private:
  fwkplugin::TypedName t_;
};

class MockScorer final : public Mock<fwksched::Scorer> {
 public:
  using Mock::Mock;
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  fwksched::ScoreMap Score(fwksched::InferenceRequest*, const std::vector<fwksched::EndpointPtr>&) override { return {}; }
};
class MockPicker final : public Mock<fwksched::Picker> {
 public:
  using Mock::Mock;
  std::shared_ptr<fwksched::ProfileRunResult> Pick(std::vector<fwksched::ScoredEndpointPtr>&) override { return nullptr; }
};
class MockHandler final : public Mock<fwksched::ProfileHandler> {
 public:
  using Mock::Mock;
  fwksched::ProfileMap Pick(fwksched::InferenceRequest*, const fwksched::ProfileMap&, const fwksched::ProfileResultMap&) override {
    return {};
  }
  fwksched::Outcome<fwksched::SchedulingResult> ProcessResults(fwksched::InferenceRequest*, const fwksched::ProfileResultMap&) override {
    return {nullptr, fwksched::PlainError("sentinel error for mock handler")};
  }
};

// mockWithDependenciesConfigParser / mockWithNestedDependenciesConfigParser: the pluginRef-tagged fields
// (dependency, pointedTo, nested.dependency, nestedPtr.dependency, extras) as findPluginDependencies finds them.
inline std::vector<std::string> dependenciesOf(fwkplugin::Parameters p) {
  std::vector<std::string> deps;
  if (p == nullptr || !p->is_object()) return deps;
  auto add = [&](const nlohmann::json& v) {
    if (v.is_string() && !v.get<std::string>().empty()) deps.push_back(v.get<std::string>());
  };
  for (const char* nestedKey : {"nested", "nestedPtr"}) {
    if (p->contains(nestedKey) && (*p)[nestedKey].is_object() && (*p)[nestedKey].contains("dependency")) {
      add((*p)[nestedKey]["dependency"]);
    }
  }
  if (p->contains("dependency")) add((*p)["dependency"]);
  if (p->contains("extras") && (*p)["extras"].is_array()) {
    for (const auto& e : (*p)["extras"]) add(e);
  }
  if (p->contains("pointedTo")) add((*p)["pointedTo"]);
  return deps;
}

// configloader_test.go@71f4f099 registerTestPlugins (the real factories where Go registers real ones).
inline void registerTestPlugins(fwkplugin::Registry& r) {
  using fwkplugin::StabilityLevel;
  auto mock = [](const std::string& type) {
    return [type](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
      return std::make_shared<Mock<fwkplugin::Plugin>>(fwkplugin::TypedName{type, name});
    };
  };
  r.Register(testPluginType, StabilityLevel::Stable, mock(testPluginType));
  r.Register(testScorerType, StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters params, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               if (params != nullptr) {
                 int blockSize = 0;
                 fwkplugin::StrictObject obj(params, "loader.testScorerParameters");
                 obj.Field("blockSize", blockSize);
                 obj.Finish();
               }
               return std::make_shared<MockScorer>(fwkplugin::TypedName{testScorerType, name});
             });
  r.Register("utilization-detector", StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               return std::make_shared<Mock<SaturationDetectorRole>>(fwkplugin::TypedName{"utilization-detector", name});
             });
  r.Register(testPickerType, StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               return std::make_shared<MockPicker>(fwkplugin::TypedName{testPickerType, name});
             });
  r.Register(testProfileHandler, StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               return std::make_shared<MockHandler>(fwkplugin::TypedName{testProfileHandler, name});
             });
  for (const char* type : {testWithDependencies, testWithNestedDependencies}) {
    const std::string t = type;
    r.RegisterWithPluginDependencies(
        t, StabilityLevel::Stable,
        [t](const std::string& name, fwkplugin::Parameters params, fwkplugin::Handle& handle) -> std::shared_ptr<fwkplugin::Plugin> {
          for (const auto& dep : dependenciesOf(params)) {
            if (!handle.GetPlugin(dep)) throw fwkplugin::PluginError("failed to find dependency " + dep);
          }
          return std::make_shared<MockHandler>(fwkplugin::TypedName{t, name});
        },
        [](fwkplugin::Parameters params, fwkplugin::Handle&) -> std::any { return dependenciesOf(params); });
  }
  r.Register(testSourceType, StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               return std::make_shared<Mock<DataSourceRole>>(fwkplugin::TypedName{testSourceType, name});
             });
  r.Register(testExtractorType, StabilityLevel::Stable,
             [](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
               return std::make_shared<Mock<ExtractorRole>>(fwkplugin::TypedName{testExtractorType, name});
             });
  // Ensure system defaults are registered too (the port's real factories).
  r.Register("max-score-picker", StabilityLevel::Stable, runner::MaxScorePickerFactory);
  r.Register("single-profile-handler", StabilityLevel::Stable, runner::SingleProfileHandlerFactory);
  for (const char* parser : {"openai-parser", "vertexai-parser", "anthropic-parser", "vllmhttp-parser"}) {
    r.Register(parser, StabilityLevel::Stable, runner::InertFactory(parser, "parser"));
  }
  r.Register("prefix-cache-scorer", StabilityLevel::Stable, runner::PrefixCachePluginFactory);
  r.Register("approx-prefix-cache-producer", StabilityLevel::Stable, runner::ApproxPrefixCacheFactory);
  r.Register("metrics-data-source", StabilityLevel::Stable, runner::InertFactory("metrics-data-source", "source"));
  r.Register("core-metrics-extractor", StabilityLevel::Stable, runner::InertFactory("core-metrics-extractor", "extractor"));
}

// testutils.NewTestHandle: a handle over a runtime of seeded streams.
class TestRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    auto it = streams_.find(std::string(purpose));
    if (it == streams_.end()) it = streams_.emplace(std::string(purpose), blis::router::testing::SplitMixStream(streams_.size() + 1)).first;
    return it->second;
  }

 private:
  std::map<std::string, blis::router::testing::SplitMixStream> streams_;
};

// A loader with the feature gates the loader tests register (RegisterFeatureGate in each Go test).
inline Loader newLoader(const fwkplugin::Registry& r) {
  Loader l(r);
  l.RegisterFeatureGate(testFeatureGate, true);
  l.RegisterFeatureGate(FlowControlFeatureGate, false);
  return l;
}

// configloader_test.go@71f4f099 hasPluginType
inline bool hasPluginType(const fwkplugin::Handle& handle, const std::string& typeName) {
  for (const auto& p : handle.GetAllPlugins()) {
    if (p->TypedName().Type == typeName) return true;
  }
  return false;
}

}  // namespace blis::router::loader::testing
