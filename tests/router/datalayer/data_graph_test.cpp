// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcriptions of pkg/epp/datalayer/data_graph_test.go@71f4f099 with its mock
// plugins as test-local classes. Go's package registry (fwkplugin.Register, fwkplugin.Registry) becomes one
// Registry object; context.Background() becomes a runtime that refuses draws; Go's nil `any` is an empty
// std::any and a pointer type is a std::shared_ptr. The flow-control fairness-policy consumer case of
// TestValidatePluginExecutionOrder is left out (see there).
#include <gtest/gtest.h>

#include <algorithm>
#include <any>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/config/loader/configloader.h"
#include "router/epp/datalayer/data_graph.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::datalayer {
namespace {

using fwkplugin::DataDependencies;
using fwkplugin::DataKey;
using fwkplugin::DataKeyTypes;
using fwkplugin::NewDataKey;

// Go's context.Background(): no code under test reads the clock or draws.
class NoDrawRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

const char* const mockProducedDataKey = "mockProducedData";

// mockProducedDataType of data_graph_test.go.
class mockProducedDataType final : public fwkdl::Cloneable {
 public:
  explicit mockProducedDataType(int v = 0) : value(v) {}
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<mockProducedDataType>(value); }
  bool DeepEqual(const fwkdl::Cloneable& other) const override {
    const auto* o = dynamic_cast<const mockProducedDataType*>(&other);
    return o != nullptr && o->value == value;
  }
  int value;
};

// mockDataProducerP of data_graph_test.go: a DataProducer that produces and (Required) consumes the given keys.
class mockDataProducerP final : public requestcontrol::DataProducer,
                                public fwkplugin::ProducerPlugin,
                                public fwkplugin::ConsumerPlugin {
 public:
  mockDataProducerP(std::string name, DataKeyTypes produces, DataKeyTypes consumes = {}, std::string pluginType = "")
      : name_(std::move(name)),
        pluginType_(std::move(pluginType)),
        produces_(std::move(produces)),
        consumes_(std::move(consumes)) {}
  fwkplugin::TypedName TypedName() const override { return {pluginType_.empty() ? "mock" : pluginType_, name_}; }
  DataKeyTypes Produces() const override { return produces_; }
  DataDependencies Consumes() const override { return {consumes_, {}}; }
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest*,
                                           const std::vector<fwksched::EndpointPtr>& endpoints) override {
    endpoints[0]->Put(mockProducedDataKey, std::make_shared<mockProducedDataType>(42));
    return std::nullopt;
  }

 private:
  std::string name_;
  std::string pluginType_;
  DataKeyTypes produces_;
  DataKeyTypes consumes_;
};

// typedMockPlugin of data_graph_test.go: a DataProducer whose TypedName.Type can be set explicitly.
class typedMockPlugin final : public requestcontrol::DataProducer, public fwkplugin::ProducerPlugin {
 public:
  typedMockPlugin(std::string typeName, DataKeyTypes produces)
      : typeName_(std::move(typeName)), produces_(std::move(produces)) {}
  fwkplugin::TypedName TypedName() const override { return {typeName_, typeName_}; }
  DataKeyTypes Produces() const override { return produces_; }
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest*, const std::vector<fwksched::EndpointPtr>&) override {
    return std::nullopt;
  }

 private:
  std::string typeName_;
  DataKeyTypes produces_;
};

// MockSchedulingPlugin of data_graph_test.go: a Scorer (Go embeds a nil fwksched.Scorer; its methods are never
// called) that consumes the given keys.
class MockSchedulingPlugin final : public fwksched::Scorer, public fwkplugin::ConsumerPlugin {
 public:
  explicit MockSchedulingPlugin(DataKeyTypes consumes) : consumes_(std::move(consumes)) {}
  fwkplugin::TypedName TypedName() const override { return {"mock", "MockSchedulingPlugin"}; }
  DataDependencies Consumes() const override { return {consumes_, {}}; }
  fwksched::ScorerCategory Category() const override { throw std::logic_error("not called"); }
  fwksched::ScoreMap Score(fwksched::InferenceRequest*, const std::vector<fwksched::EndpointPtr>&) override {
    throw std::logic_error("not called");
  }

 private:
  DataKeyTypes consumes_;
};

// mockMayConsumerPlugin of data_graph_test.go: only optionally consumes its keys.
class mockMayConsumerPlugin final : public fwkplugin::ConsumerPlugin {
 public:
  mockMayConsumerPlugin(std::string name, DataKeyTypes optionalConsumes)
      : name_(std::move(name)), optionalConsumes_(std::move(optionalConsumes)) {}
  fwkplugin::TypedName TypedName() const override { return {"mock", name_}; }
  DataDependencies Consumes() const override { return {{}, optionalConsumes_}; }

 private:
  std::string name_;
  DataKeyTypes optionalConsumes_;
};

// mockMixedConsumerPlugin of data_graph_test.go: Required and Optional keys (as the prefix cache scorer).
class mockMixedConsumerPlugin final : public fwkplugin::ConsumerPlugin {
 public:
  mockMixedConsumerPlugin(std::string name, DataKeyTypes consumes, DataKeyTypes optionalConsumes)
      : name_(std::move(name)), consumes_(std::move(consumes)), optionalConsumes_(std::move(optionalConsumes)) {}
  fwkplugin::TypedName TypedName() const override { return {"mock", name_}; }
  DataDependencies Consumes() const override { return {consumes_, optionalConsumes_}; }

 private:
  std::string name_;
  DataKeyTypes consumes_;
  DataKeyTypes optionalConsumes_;
};

using PluginPtr = std::shared_ptr<fwkplugin::Plugin>;

// assertTopologicalOrder of data_graph_test.go: every dependency comes before its dependent.
void assertTopologicalOrder(const std::map<std::string, std::vector<std::string>>& dag,
                            const std::vector<std::string>& ordered) {
  std::map<std::string, int> positions;
  for (int i = 0; i < static_cast<int>(ordered.size()); ++i) positions[ordered[i]] = i;
  for (const auto& [node, dependencies] : dag) {
    for (const auto& dep : dependencies) {
      EXPECT_LT(positions[dep], positions[node]) << "Dependency " << dep << " should come before " << node;
    }
  }
}

// The error text of f(), "" when it does not throw.
template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestValidatePluginExecutionOrder
// The case "FC depends on a request control plugin (invalid layer execution order)" is left out: its consumer
// is a flow-control FairnessPolicy (MockConsumerFairnessPolicy embeds fwkfcmocks.MockFairnessPolicy), and
// flow control (fwkfc.FairnessPolicy, hence FlowControlLayer) is not ported, so no plugin can stand for it.
TEST(DataGraph, ValidatePluginExecutionOrder) {
  const DataKey dkA = NewDataKey("keyA", "mock");
  // Request control plugin that produces data.
  auto pluginA = std::make_shared<mockDataProducerP>("A", DataKeyTypes{{dkA, std::any{}}});
  // Scheduling plugin.
  auto consumerSchedulingPlugin = std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{dkA, std::any{}}});
  ASSERT_NE(std::dynamic_pointer_cast<requestcontrol::DataProducer>(pluginA), nullptr)
      << "pluginA should implement DataProducer";

  struct Case {
    std::string name;
    std::vector<PluginPtr> plugins;
    std::string expectedErr;
  };
  const std::vector<Case> testCases = {
      {"Plugins with no dependencies", {pluginA}, ""},
      {"Scheduling plugin depends on a request control plugin", {pluginA, consumerSchedulingPlugin}, ""},
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    const std::string err = errorOf([&] { ValidateAndOrderDataDependencies(tc.plugins); });
    if (!tc.expectedErr.empty()) {
      EXPECT_NE(err.find(tc.expectedErr), std::string::npos) << err;
      continue;
    }
    EXPECT_EQ(err, "");
  }
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestDAGAndTopologicalOrder
TEST(DataGraph, DAGAndTopologicalOrder) {
  const DataKey dkA = NewDataKey("keyA", "mock");
  const DataKey dkB = NewDataKey("keyB", "mock");
  const DataKey dkX = NewDataKey("keyX", "mock");
  const DataKey dkY = NewDataKey("keyY", "mock");
  const DataKey dkZ = NewDataKey("keyZ", "mock");
  const DataKey dkP = NewDataKey("keyP", "mock");

  auto pluginA = std::make_shared<mockDataProducerP>("A", DataKeyTypes{{dkA, std::any{}}});
  auto pluginB = std::make_shared<mockDataProducerP>("B", DataKeyTypes{{dkB, std::any{}}}, DataKeyTypes{{dkA, std::any{}}});
  auto pluginC = std::make_shared<mockDataProducerP>("C", DataKeyTypes{}, DataKeyTypes{{dkB, std::any{}}});
  auto pluginD = std::make_shared<mockDataProducerP>("D", DataKeyTypes{}, DataKeyTypes{{dkA, std::any{}}});
  auto pluginE = std::make_shared<mockDataProducerP>("E", DataKeyTypes{});  // No dependencies

  // Cycle plugins
  auto pluginX = std::make_shared<mockDataProducerP>("X", DataKeyTypes{{dkX, std::any{}}}, DataKeyTypes{{dkY, std::any{}}});
  auto pluginY = std::make_shared<mockDataProducerP>("Y", DataKeyTypes{{dkY, std::any{}}}, DataKeyTypes{{dkX, std::any{}}});

  // Data type mismatch plugin.
  auto pluginZ1 = std::make_shared<mockDataProducerP>("Z1", DataKeyTypes{{dkZ, std::any(int(0))}});
  auto pluginZ2 = std::make_shared<mockDataProducerP>("Z2", DataKeyTypes{}, DataKeyTypes{{dkZ, std::any(std::string(""))}});

  // Same type different pointers.
  auto pluginP1 = std::make_shared<mockDataProducerP>(
      "P1", DataKeyTypes{{dkP, std::any(std::make_shared<mockProducedDataType>())}});
  auto pluginP2 = std::make_shared<mockDataProducerP>(
      "P2", DataKeyTypes{}, DataKeyTypes{{dkP, std::any(std::make_shared<mockProducedDataType>())}});

  using DAG = std::map<std::string, std::vector<std::string>>;
  struct Case {
    std::string name;
    std::vector<std::shared_ptr<requestcontrol::DataProducer>> plugins;
    DAG expectedDAG;
    std::string expectedErr;
  };
  const std::vector<Case> testCases = {
      {"No plugins", {}, {}, ""},
      {"Plugins with no dependencies", {pluginA, pluginE}, {{"A/mock", {}}, {"E/mock", {}}}, ""},
      {"Simple linear dependency (C -> B -> A)",
       {pluginA, pluginB, pluginC},
       {{"A/mock", {}}, {"B/mock", {"A/mock"}}, {"C/mock", {"B/mock"}}},
       ""},
      {"DAG with multiple dependencies (B -> A, D -> A, E independent)",
       {pluginA, pluginB, pluginD, pluginE},
       {{"A/mock", {}}, {"B/mock", {"A/mock"}}, {"D/mock", {"A/mock"}}, {"E/mock", {}}},
       ""},
      {"Graph with a cycle (X -> Y, Y -> X)", {pluginX, pluginY}, {}, "cycle detected"},
      {"Data type mismatch between produced and consumed data",
       {pluginZ1, pluginZ2},
       {},
       "data type mismatch between produced and consumed data"},
      {"Same type different pointers (should succeed)",
       {pluginP1, pluginP2},
       {{"P1/mock", {}}, {"P2/mock", {"P1/mock"}}},
       ""},
  };

  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    std::map<std::string, std::shared_ptr<fwkplugin::ProducerPlugin>> producers;
    std::map<std::string, std::shared_ptr<fwkplugin::ConsumerPlugin>> consumers;
    for (const auto& p : tc.plugins) {
      if (auto pp = std::dynamic_pointer_cast<fwkplugin::ProducerPlugin>(p)) producers[p->TypedName().String()] = pp;
      if (auto cp = std::dynamic_pointer_cast<fwkplugin::ConsumerPlugin>(p)) consumers[p->TypedName().String()] = cp;
    }
    DAG dag;
    std::string err = errorOf([&] { dag = buildDAG(producers, consumers); });
    if (!err.empty()) {
      if (!tc.expectedErr.empty()) {
        EXPECT_NE(err.find(tc.expectedErr), std::string::npos) << err;
        continue;
      }
      ADD_FAILURE() << "unexpected error: " << err;
    }
    std::vector<std::string> orderedPlugins;
    err = errorOf([&] { orderedPlugins = loader::TopologicalSort(dag); });
    if (!tc.expectedErr.empty()) {
      EXPECT_NE(err.find(tc.expectedErr), std::string::npos) << err;
      continue;
    }
    EXPECT_EQ(err, "");
    EXPECT_EQ(tc.expectedDAG, dag) << "dataProducerGraph() mismatch";
    assertTopologicalOrder(dag, orderedPlugins);
  }
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestCreateMissingDataProducers
TEST(DataGraph, CreateMissingDataProducers) {
  const std::string producerTypeA = "producer-a";
  const std::string producerTypeB = "producer-b";
  const std::string nonProducerType = "non-producer";
  const std::string failingType = "failing";

  const DataKey keyA = NewDataKey("keyA", producerTypeA);
  const DataKey keyB = NewDataKey("keyB", producerTypeB);
  const DataKey keyAFailing = NewDataKey("keyA", failingType);
  const DataKey keyANonProducer = NewDataKey("keyA", nonProducerType);

  // A DataProducer that produces keyA.
  const fwkplugin::FactoryFunc producerAFactory = [&](const std::string& name, fwkplugin::Parameters,
                                                      fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<mockDataProducerP>(name, DataKeyTypes{{keyA, std::any{}}});
  };
  // A DataProducer that produces keyB.
  const fwkplugin::FactoryFunc producerBFactory = [&](const std::string& name, fwkplugin::Parameters,
                                                      fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<mockDataProducerP>(name, DataKeyTypes{{keyB, std::any{}}});
  };
  // A non-ProducerPlugin registry entry (e.g. a scheduling scorer).
  const fwkplugin::FactoryFunc nonProducerFactory = [&](const std::string&, fwkplugin::Parameters,
                                                        fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyA, std::any{}}});
  };
  // A factory that always fails.
  const fwkplugin::FactoryFunc failingFactory = [](const std::string&, fwkplugin::Parameters,
                                                   fwkplugin::Handle&) -> PluginPtr {
    throw fwkplugin::PluginError("requires params");
  };

  struct Case {
    std::string name;
    std::vector<PluginPtr> existingPlugins;
    std::map<std::string, std::string> defaultProducerRegistry;
    std::map<std::string, fwkplugin::FactoryFunc> factoryRegistry;
    std::vector<std::string> wantTypes;  // TypedName.Type of expected auto-created producers
    bool wantErr = false;
  };
  const std::vector<Case> testCases = {
      {"creates producer for missing consumed key",
       {std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyA, std::any{}}})},
       {{keyA.String(), producerTypeA}},
       {{producerTypeA, producerAFactory}},
       {producerTypeA}},
      {"no missing keys - nothing created",
       {std::make_shared<mockDataProducerP>("existing-a", DataKeyTypes{{keyA, std::any{}}}),
        std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyA, std::any{}}})},
       {},
       {{producerTypeA, producerAFactory}},
       {}},
      {"producer already present by type - not duplicated",
       {// Simulate a plugin whose type matches the registry key.
        std::make_shared<typedMockPlugin>(producerTypeA, DataKeyTypes{{keyA, std::any{}}}),
        std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyA, std::any{}}})},
       {},
       {{producerTypeA, producerAFactory}},
       {}},
      {"failing factory returns error",
       {std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyAFailing, std::any{}}})},
       {{keyAFailing.String(), failingType}},
       {{failingType, failingFactory}},
       {},
       true},
      {"non-ProducerPlugin registry entry is invalid",
       {std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyANonProducer, std::any{}}})},
       {{keyANonProducer.String(), nonProducerType}},
       {{nonProducerType, nonProducerFactory}},
       {},
       true},
      {"only relevant producer is created among multiple registry entries",
       {std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyA, std::any{}}})},
       {{keyA.String(), producerTypeA}},
       {{producerTypeA, producerAFactory}, {producerTypeB, producerBFactory}},
       {producerTypeA}},
      {"no consumers - nothing created", {}, {}, {{producerTypeA, producerAFactory}}, {}},
  };

  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    NoDrawRuntime rt;
    fwkplugin::Handle handle(rt);
    for (const auto& p : tc.existingPlugins) handle.AddPlugin(p->TypedName().Name, p);

    const std::string err =
        errorOf([&] { CreateMissingDataProducers(tc.defaultProducerRegistry, tc.factoryRegistry, handle); });
    if (tc.wantErr) {
      EXPECT_NE(err, "");
      continue;
    }
    EXPECT_EQ(err, "");

    // The auto-created plugin is named after its registry type (the pluginType passed to the factory), so we
    // compare by name.
    std::vector<std::string> gotNames;
    for (const auto& p : handle.GetAllPlugins()) {
      const bool isExisting = std::any_of(tc.existingPlugins.begin(), tc.existingPlugins.end(),
                                          [&](const PluginPtr& ep) { return ep->TypedName() == p->TypedName(); });
      if (!isExisting) gotNames.push_back(p->TypedName().Name);
    }
    std::vector<std::string> want = tc.wantTypes;
    std::sort(want.begin(), want.end());
    std::sort(gotNames.begin(), gotNames.end());
    EXPECT_EQ(want, gotNames);
  }
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestCreateMissingDataProducers_Transitive
// A producer auto-created to satisfy one consumer, which itself declares a Required dependency, triggers
// creation of that second producer in the same call.
TEST(DataGraph, CreateMissingDataProducers_Transitive) {
  const std::string typeOuter = "producer-outer";
  const std::string typeInner = "producer-inner";
  const DataKey keyOuter = NewDataKey("keyOuter", typeOuter);
  const DataKey keyInner = NewDataKey("keyInner", typeInner);

  // producer-outer produces keyOuter and itself requires keyInner.
  const fwkplugin::FactoryFunc outerFactory = [&](const std::string& name, fwkplugin::Parameters,
                                                  fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<mockDataProducerP>(name, DataKeyTypes{{keyOuter, std::any{}}},
                                               DataKeyTypes{{keyInner, std::any{}}});
  };
  // producer-inner produces keyInner with no further dependencies.
  const fwkplugin::FactoryFunc innerFactory = [&](const std::string& name, fwkplugin::Parameters,
                                                  fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<mockDataProducerP>(name, DataKeyTypes{{keyInner, std::any{}}});
  };

  NoDrawRuntime rt;
  fwkplugin::Handle handle(rt);
  // Only a consumer of keyOuter is configured; neither producer is present.
  handle.AddPlugin("consumer", std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyOuter, std::any{}}}));

  const std::string err = errorOf([&] {
    CreateMissingDataProducers({{keyOuter.String(), typeOuter}, {keyInner.String(), typeInner}},
                               {{typeOuter, outerFactory}, {typeInner, innerFactory}}, handle);
  });
  EXPECT_EQ(err, "");

  EXPECT_NE(handle.GetPlugin(typeOuter), nullptr) << "directly-needed producer should be auto-created";
  EXPECT_NE(handle.GetPlugin(typeInner), nullptr) << "transitive dependency should be auto-created in the same call";
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestCreateMissingDataProducers_MayConsume
TEST(DataGraph, CreateMissingDataProducers_MayConsume) {
  const std::string producerTypeA = "producer-a";
  const DataKey keyA = NewDataKey("keyA", producerTypeA);

  const fwkplugin::FactoryFunc producerAFactory = [&](const std::string& name, fwkplugin::Parameters,
                                                      fwkplugin::Handle&) -> PluginPtr {
    return std::make_shared<mockDataProducerP>(name, DataKeyTypes{{keyA, std::any{}}});
  };

  struct Case {
    std::string name;
    std::vector<PluginPtr> existingPlugins;
    std::map<std::string, fwkplugin::FactoryFunc> factoryRegistry;
    bool wantErr = false;
  };
  const std::vector<Case> testCases = {
      {"OptionalConsumes key with no producer — warning only, no error",
       {std::make_shared<mockMayConsumerPlugin>("optional-consumer", DataKeyTypes{{keyA, std::any{}}})},
       {},
       false},  // must NOT error
      {"OptionalConsumes key with a producer present — no warning, no error",
       {std::make_shared<mockDataProducerP>("producer", DataKeyTypes{{keyA, std::any{}}}),
        std::make_shared<mockMayConsumerPlugin>("optional-consumer", DataKeyTypes{{keyA, std::any{}}})},
       {{producerTypeA, producerAFactory}},
       false},
      // Models the real prefix cache scorer — it requires prefix-match data (Consumes) but optionally uses
      // tokenized input (OptionalConsumes), falling back to raw text. The required key has a producer. The
      // optional key does not. Result: no error. Warning logged for the missing optional key.
      {"plugin with both Consumes and OptionalConsumes — required key has producer, optional does not",
       {std::make_shared<mockDataProducerP>("required-producer", DataKeyTypes{{keyA, std::any{}}}),
        std::make_shared<mockMixedConsumerPlugin>(
            "prefix-cache-scorer", DataKeyTypes{{keyA, std::any{}}},
            DataKeyTypes{{NewDataKey("tokenized-input", "tokenizer"), std::any{}}})},
       {},
       false},
  };

  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    NoDrawRuntime rt;
    fwkplugin::Handle handle(rt);
    for (const auto& p : tc.existingPlugins) handle.AddPlugin(p->TypedName().Name, p);

    const std::string err = errorOf([&] { CreateMissingDataProducers({}, tc.factoryRegistry, handle); });
    if (tc.wantErr) {
      EXPECT_NE(err, "");
      continue;
    }
    EXPECT_EQ(err, "");
  }
}

// pkg/epp/datalayer/data_graph_test.go@71f4f099 TestCreateMissingDataProducers_AlphaStabilityBlocked
TEST(DataGraph, CreateMissingDataProducers_AlphaStabilityBlocked) {
  const std::string alphaProducerType = "alpha-producer-type";
  fwkplugin::Registry registry;
  registry.Register(alphaProducerType, fwkplugin::StabilityLevel::Alpha,
                    [&](const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) -> PluginPtr {
                      return std::make_shared<mockDataProducerP>(
                          name, DataKeyTypes{{NewDataKey("alphaKey", alphaProducerType), std::any{}}}, DataKeyTypes{},
                          alphaProducerType);
                    });

  const DataKey keyAlpha = NewDataKey("alphaKey", alphaProducerType);
  NoDrawRuntime rt;
  fwkplugin::Handle handle(rt);
  handle.AddPlugin("consumer", std::make_shared<MockSchedulingPlugin>(DataKeyTypes{{keyAlpha, std::any{}}}));

  std::string err = errorOf(
      [&] { CreateMissingDataProducers({{keyAlpha.String(), alphaProducerType}}, registry.Factories, handle); });
  EXPECT_EQ(err, "");

  // 1. Without allowExperimentalPlugins -> should fail validation
  err = errorOf([&] { fwkplugin::ValidatePluginStability(registry, handle, false); });
  EXPECT_NE(err.find("has Alpha stability level, but command line flag --allow-experimental-plugins is not set"),
            std::string::npos)
      << err;

  // 2. With allowExperimentalPlugins -> should succeed
  err = errorOf([&] { fwkplugin::ValidatePluginStability(registry, handle, true); });
  EXPECT_EQ(err, "");
}

}  // namespace
}  // namespace blis::router::datalayer
