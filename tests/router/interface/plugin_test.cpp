// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcriptions of pkg/epp/framework/interface/plugin/datakey_test.go@71f4f099,
// typedname_test.go@71f4f099, plugin_state_test.go@71f4f099 (the tests of the ported storage only) and
// plugins_test.go@71f4f099 (the ConsumerPlugin/ProducerPlugin contracts; Go's nil map is an empty map).
#include <gtest/gtest.h>

#include <any>
#include <memory>
#include <string>
#include <vector>

#include "base_plugin.h"
#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/typedname.h"

namespace blis::router::fwkplugin {
namespace {

// pkg/epp/framework/interface/plugin/datakey_test.go@71f4f099 TestDataKey_String
TEST(DataKeyTest, String) {
  struct Case {
    std::string name;
    DataKey key;
    std::string expected;
  };
  const std::vector<Case> tests = {
      {"Unscoped uses DefaultProducerType", NewDataKey("KeyA", "ProdTypeA"), "KeyA/ProdTypeA"},
      {"Scoped uses ProducerName", NewDataKey("KeyA", "ProdTypeA").WithNonEmptyProducerName("ProdNameA"),
       "KeyA/ProdNameA"},
      {"Scoped with empty name does not override", NewDataKey("KeyA", "ProdTypeA").WithNonEmptyProducerName(""),
       "KeyA/ProdTypeA"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(tt.expected, tt.key.String());
  }
}

// pkg/epp/framework/interface/plugin/typedname_test.go@71f4f099 TestTypedName_String
TEST(TypedNameTest, String) {
  struct Case {
    std::string name;
    TypedName tn;
    std::string expected;
  };
  const std::vector<Case> tests = {
      {"type and name both set", TypedName{"scorer", "kv-cache"}, "kv-cache/scorer"},
      {"empty name", TypedName{"scorer", ""}, "/scorer"},
      {"empty type", TypedName{"", "instance-1"}, "instance-1/"},
      {"both empty", TypedName{}, "/"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    EXPECT_EQ(tt.expected, tt.tn.String());
  }
}

// pluginTestData of plugin_state_test.go: Go stores a pointer, so the test stores a shared pointer (a copy of
// the std::any read before a Delete stays valid, as the Go pointer does).
struct pluginTestData {
  std::string value;
};
using pluginTestDataPtr = std::shared_ptr<pluginTestData>;

// pkg/epp/framework/interface/plugin/plugin_state_test.go@71f4f099 TestPluginState_ReadWrite
TEST(PluginStateTest, ReadWrite) {
  PluginState state;
  const std::string req1 = "req1";
  const StateKey key = "key";
  const std::string data1 = "bar1";
  const std::string req2 = "req2";
  const std::string data2 = "bar2";

  state.Write(req1, key, std::make_shared<pluginTestData>(pluginTestData{data1}));
  state.Write(req2, key, std::make_shared<pluginTestData>(pluginTestData{data2}));

  // Read back the req1 data and verify its content.
  const std::any* readData = state.Read(req1, key);
  ASSERT_NE(readData, nullptr);
  const auto* td = std::any_cast<pluginTestDataPtr>(readData);
  ASSERT_NE(td, nullptr) << "should be able to cast to pluginTestData";
  EXPECT_EQ(data1, (*td)->value);

  // Delete the req2 data and verify content that was read before is still valid.
  readData = state.Read(req2, key);
  ASSERT_NE(readData, nullptr);
  const std::any kept = *readData;  // Go holds the interface value; a copy of the std::any here
  state.Delete(req2);
  td = std::any_cast<pluginTestDataPtr>(&kept);
  ASSERT_NE(td, nullptr) << "should be able to cast to pluginTestData";
  EXPECT_EQ(data2, (*td)->value);
  // Try to read again after deletion: ErrNotFound (nullptr here).
  EXPECT_EQ(state.Read(req2, key), nullptr) << "expected no data after delete";

  // Read back the req1 data after req2 was deleted.
  readData = state.Read(req1, key);
  ASSERT_NE(readData, nullptr);
  td = std::any_cast<pluginTestDataPtr>(readData);
  ASSERT_NE(td, nullptr);
  EXPECT_EQ(data1, (*td)->value);
}

// pkg/epp/framework/interface/plugin/plugin_state_test.go@71f4f099 TestReadPluginStateKey
TEST(PluginStateTest, ReadPluginStateKey) {
  PluginState state;
  const std::string requestID = "req-1";
  const StateKey key = "foo";
  state.Write(requestID, key, std::make_shared<pluginTestData>(pluginTestData{"bar"}));

  const auto val = ReadPluginStateKey<pluginTestDataPtr>(state, requestID, key);
  ASSERT_TRUE(val.has_value());
  EXPECT_EQ("bar", (*val)->value);

  // Not found.
  EXPECT_FALSE(ReadPluginStateKey<pluginTestDataPtr>(state, "not-exist", key).has_value());
}

// pkg/epp/framework/interface/plugin/plugin_state_test.go@71f4f099 TestPluginState_DeleteKey
TEST(PluginStateTest, DeleteKey) {
  PluginState state;
  const std::string requestID = "req-1";
  const StateKey key1 = "key1";
  const StateKey key2 = "key2";
  state.Write(requestID, key1, std::make_shared<pluginTestData>(pluginTestData{"val1"}));
  state.Write(requestID, key2, std::make_shared<pluginTestData>(pluginTestData{"val2"}));

  state.DeleteKey(requestID, key1);

  EXPECT_EQ(state.Read(requestID, key1), nullptr);
  const std::any* val2 = state.Read(requestID, key2);
  ASSERT_NE(val2, nullptr);
  EXPECT_EQ("val2", std::any_cast<pluginTestDataPtr>(*val2)->value);
}

// consumerImpl and producerImpl of plugins_test.go@71f4f099, on its basePlugin (base_plugin.h).
using test_support::basePlugin;
class consumerImpl final : public basePlugin, public ConsumerPlugin {
 public:
  consumerImpl(fwkplugin::TypedName name, DataKeyTypes consumes)
      : basePlugin(std::move(name)), consumes_(std::move(consumes)) {}
  DataDependencies Consumes() const override { return {consumes_, {}}; }

 private:
  DataKeyTypes consumes_;
};
class producerImpl final : public basePlugin, public ProducerPlugin {
 public:
  producerImpl(fwkplugin::TypedName name, DataKeyTypes produces)
      : basePlugin(std::move(name)), produces_(std::move(produces)) {}
  DataKeyTypes Produces() const override { return produces_; }

 private:
  DataKeyTypes produces_;
};

// pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099 TestConsumerPlugin_Contract
TEST(PluginsTest, ConsumerPlugin_Contract) {
  const DataKey key = NewDataKey("metric.queue", "scraper");
  auto c = std::make_shared<consumerImpl>(fwkplugin::TypedName{"filter", "queue-filter"}, DataKeyTypes{{key, 0}});

  std::shared_ptr<Plugin> p = c;
  std::shared_ptr<ConsumerPlugin> cp = c;
  ASSERT_NE(p, nullptr);

  const auto got = cp->Consumes();
  EXPECT_EQ(got.Required.size(), 1u);
  EXPECT_TRUE(got.Required.count(key));
  EXPECT_EQ("queue-filter/filter", cp->TypedName().String());
}

// pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099 TestProducerPlugin_Contract
TEST(PluginsTest, ProducerPlugin_Contract) {
  const DataKey key = NewDataKey("metric.cache", "scraper");
  auto pr = std::make_shared<producerImpl>(fwkplugin::TypedName{"scraper", "cache-scraper"}, DataKeyTypes{{key, 0.0}});

  std::shared_ptr<Plugin> p = pr;
  std::shared_ptr<ProducerPlugin> pp = pr;
  ASSERT_NE(p, nullptr);

  const auto got = pp->Produces();
  EXPECT_EQ(got.size(), 1u);
  EXPECT_TRUE(got.count(key));
  EXPECT_EQ("cache-scraper/scraper", pp->TypedName().String());
}

// pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099 TestConsumerPlugin_EmptyConsumes
TEST(PluginsTest, ConsumerPlugin_EmptyConsumes) {
  consumerImpl c(fwkplugin::TypedName{"filter", "noop"}, DataKeyTypes{});
  EXPECT_TRUE(c.Consumes().Required.empty());  // Go: a nil map
}

// pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099 TestProducerPlugin_EmptyProduces
TEST(PluginsTest, ProducerPlugin_EmptyProduces) {
  producerImpl p(fwkplugin::TypedName{"scraper", "noop"}, DataKeyTypes{});
  EXPECT_TRUE(p.Produces().empty());
}

}  // namespace
}  // namespace blis::router::fwkplugin
