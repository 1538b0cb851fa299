// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcriptions of pkg/epp/framework/interface/plugin/handle_test.go@71f4f099
// (the plugin-set tests; the context and pod list are not ported), registry_test.go@71f4f099 (one Registry
// object per test stands for the package registries each Go test snapshots and restores) and
// shared_state_test.go@71f4f099 (ErrNotFound, StateKey).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "contracts/router/runtime.h"
#include "base_plugin.h"
#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/registry.h"

namespace blis::router::fwkplugin {
namespace {

// A runtime that refuses random draws (no code under test draws; Go's tests pass context.Background()).
class NoDrawRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

using test_support::basePlugin;  // plugins_test.go@71f4f099 basePlugin (base_plugin.h)

// scorerInterface / scorerPlugin of handle_test.go: an interface with a method of its own.
class scorerInterface : public virtual Plugin {
 public:
  virtual double Score() const = 0;
};
class scorerPlugin final : public basePlugin, public scorerInterface {
 public:
  using basePlugin::basePlugin;
  fwkplugin::TypedName TypedName() const override { return basePlugin::TypedName(); }
  double Score() const override { return 0.5; }
};

// pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099 TestPlugin_TypedNameContract
TEST(PluginTest, TypedNameContract) {
  std::shared_ptr<Plugin> p = std::make_shared<basePlugin>(TypedName{"scorer", "kv-cache"});
  EXPECT_EQ("kv-cache/scorer", p->TypedName().String());
}

struct HandleFixture {
  NoDrawRuntime runtime;
  Handle h{runtime};
};

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestEppHandlePlugins_AddAndGet
TEST(HandleTest, PluginsAddAndGet) {
  HandleFixture f;
  auto p1 = std::make_shared<basePlugin>(TypedName{"filter", "f1"});
  auto p2 = std::make_shared<basePlugin>(TypedName{"scorer", "s1"});
  f.h.AddPlugin("f1", p1);
  f.h.AddPlugin("s1", p2);
  EXPECT_EQ(f.h.GetPlugin("f1").get(), p1.get());
  EXPECT_EQ(f.h.GetPlugin("s1").get(), p2.get());
  EXPECT_EQ(f.h.GetPlugin("missing"), nullptr);
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestEppHandlePlugins_AddOverwrites
TEST(HandleTest, PluginsAddOverwrites) {
  HandleFixture f;
  auto p1 = std::make_shared<basePlugin>(TypedName{"t", "n"});
  auto p2 = std::make_shared<basePlugin>(TypedName{"t", "n"});
  f.h.AddPlugin("shared", p1);
  f.h.AddPlugin("shared", p2);
  EXPECT_EQ(f.h.GetPlugin("shared").get(), p2.get());
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestEppHandlePlugins_GetAllPlugins
TEST(HandleTest, PluginsGetAllPlugins) {
  HandleFixture f;
  EXPECT_TRUE(f.h.GetAllPlugins().empty());
  std::shared_ptr<Plugin> p1 = std::make_shared<basePlugin>(TypedName{"a", "p1"});
  std::shared_ptr<Plugin> p2 = std::make_shared<basePlugin>(TypedName{"b", "p2"});
  f.h.AddPlugin("p1", p1);
  f.h.AddPlugin("p2", p2);
  const auto all = f.h.GetAllPlugins();
  EXPECT_EQ(all.size(), 2u);
  EXPECT_NE(std::find(all.begin(), all.end(), p1), all.end());
  EXPECT_NE(std::find(all.begin(), all.end(), p2), all.end());
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestEppHandlePlugins_GetAllPluginsWithNames
TEST(HandleTest, PluginsGetAllPluginsWithNames) {
  HandleFixture f;
  auto p = std::make_shared<basePlugin>(TypedName{"a", "p1"});
  f.h.AddPlugin("alias", p);
  const auto& named = f.h.GetAllPluginsWithNames();
  EXPECT_EQ(named.size(), 1u);
  ASSERT_EQ(named.count("alias"), 1u);
  EXPECT_EQ(named.at("alias").get(), p.get());
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestPluginByType_Success
TEST(HandleTest, PluginByTypeSuccess) {
  HandleFixture f;
  auto sp = std::make_shared<scorerPlugin>(TypedName{"scorer", "kv"});
  f.h.AddPlugin("kv", sp);
  auto got = PluginByType<scorerInterface>(f.h, "kv", "plugin.scorerInterface");
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(dynamic_cast<scorerPlugin*>(got.get()), sp.get());
  EXPECT_EQ(0.5, got->Score());
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestPluginByType_NotFound
TEST(HandleTest, PluginByTypeNotFound) {
  HandleFixture f;
  try {
    PluginByType<scorerInterface>(f.h, "absent", "plugin.scorerInterface");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("absent"), std::string::npos) << e.what();
  }
}

// pkg/epp/framework/interface/plugin/handle_test.go@71f4f099 TestPluginByType_WrongType
TEST(HandleTest, PluginByTypeWrongType) {
  HandleFixture f;
  // Register a plugin that does not satisfy scorerInterface.
  f.h.AddPlugin("bare", std::make_shared<basePlugin>(TypedName{"filter", "bare"}));
  try {
    PluginByType<scorerInterface>(f.h, "bare", "plugin.scorerInterface");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bare"), std::string::npos) << e.what();
  }
}

// dummyFactory of registry_test.go.
std::shared_ptr<Plugin> dummyFactory(const std::string& name, Parameters, Handle&) {
  return std::make_shared<basePlugin>(TypedName{"dummy", name});
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegister
TEST(RegistryTest, Register) {
  Registry r;
  HandleFixture f;
  r.Register("my-plugin-type", StabilityLevel::Stable, dummyFactory);
  ASSERT_EQ(r.Factories.count("my-plugin-type"), 1u);
  ASSERT_TRUE(static_cast<bool>(r.Factories.at("my-plugin-type")));
  EXPECT_EQ(StabilityLevel::Stable, r.GetPluginStability("my-plugin-type"));
  auto p = r.Factories.at("my-plugin-type")("instance-a", nullptr, f.h);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ("instance-a/dummy", p->TypedName().String());
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegisterWithStability
TEST(RegistryTest, RegisterWithStability) {
  Registry r;
  r.Register("alpha-plugin", StabilityLevel::Alpha, dummyFactory);
  r.Register("beta-plugin", StabilityLevel::Beta, dummyFactory);
  EXPECT_EQ(StabilityLevel::Alpha, r.GetPluginStability("alpha-plugin"));
  EXPECT_EQ(StabilityLevel::Beta, r.GetPluginStability("beta-plugin"));
  EXPECT_EQ(StabilityLevel::Stable, r.GetPluginStability("unregistered-plugin"));
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegister_Overwrites
TEST(RegistryTest, RegisterOverwrites) {
  Registry r;
  HandleFixture f;
  r.Register("dup-type", StabilityLevel::Stable, dummyFactory);
  std::shared_ptr<Plugin> sentinel = std::make_shared<basePlugin>(TypedName{"sentinel", "sentinel"});
  r.Register("dup-type", StabilityLevel::Stable,
             [sentinel](const std::string&, Parameters, Handle&) { return sentinel; });
  auto p = r.Factories.at("dup-type")("ignored", nullptr, f.h);
  EXPECT_EQ(p.get(), sentinel.get());
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegisterAsDefaultProducer
TEST(RegistryTest, RegisterAsDefaultProducer) {
  Registry r;
  const DataKey key = NewDataKey("metric.cache", "default-scraper");
  r.RegisterAsDefaultProducer("cache-scraper", StabilityLevel::Stable, dummyFactory, key.String());
  EXPECT_EQ(r.Factories.count("cache-scraper"), 1u) << "factory should be registered";
  EXPECT_EQ(StabilityLevel::Stable, r.GetPluginStability("cache-scraper"));
  ASSERT_EQ(r.DefaultProducers.count(key.String()), 1u) << "default producer should be recorded";
  EXPECT_EQ("cache-scraper", r.DefaultProducers.at(key.String()));
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegisterAsDefaultProducer_OverwritesDefault
TEST(RegistryTest, RegisterAsDefaultProducerOverwritesDefault) {
  Registry r;
  const DataKey key = NewDataKey("metric.queue", "scraper-v1");
  r.RegisterAsDefaultProducer("scraper-v1", StabilityLevel::Stable, dummyFactory, key.String());
  r.RegisterAsDefaultProducer("scraper-v2", StabilityLevel::Beta, dummyFactory, key.String());
  EXPECT_EQ("scraper-v2", r.DefaultProducers.at(key.String()));
  EXPECT_EQ(r.Factories.count("scraper-v1"), 1u) << "v1 factory should still be registered";
  EXPECT_EQ(r.Factories.count("scraper-v2"), 1u);
  EXPECT_EQ(StabilityLevel::Beta, r.GetPluginStability("scraper-v2"));
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegistry_IsolatedBetweenTests
// (each test's Registry object is fresh, as each Go test's snapshot-and-restore makes the package maps)
TEST(RegistryTest, IsolatedBetweenTests) {
  Registry r;
  const std::string key = "isolation-marker";
  EXPECT_EQ(r.Factories.count(key), 0u) << "previous test must not have leaked into Registry";
  r.Register(key, StabilityLevel::Stable, dummyFactory);
  EXPECT_EQ(r.Factories.count(key), 1u);
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestRegisterDeprecated
TEST(RegistryTest, RegisterDeprecated) {
  Registry r;
  r.RegisterDeprecated("old-plugin", StabilityLevel::Beta, dummyFactory, "v0.9.0", "v0.11.0", "new-plugin");
  ASSERT_EQ(r.Metadata.count("old-plugin"), 1u);
  const PluginMetadata& meta = r.Metadata.at("old-plugin");
  EXPECT_TRUE(meta.Deprecated);
  EXPECT_EQ("v0.9.0", meta.DeprecatedIn);
  EXPECT_EQ("v0.11.0", meta.ScheduledRemovalIn);
  EXPECT_EQ("new-plugin", meta.ReplacementType);
  EXPECT_EQ(StabilityLevel::Beta, meta.Stability);
}

// pkg/epp/framework/interface/plugin/registry_test.go@71f4f099 TestValidatePluginStability
TEST(RegistryTest, ValidatePluginStability) {
  Registry r;
  r.Register("alpha-plugin", StabilityLevel::Alpha, dummyFactory);
  r.Register("stable-plugin", StabilityLevel::Stable, dummyFactory);
  HandleFixture f;
  f.h.AddPlugin("alpha-1", std::make_shared<basePlugin>(TypedName{"alpha-plugin", "alpha-1"}));
  f.h.AddPlugin("stable-1", std::make_shared<basePlugin>(TypedName{"stable-plugin", "stable-1"}));
  try {
    ValidatePluginStability(r, f.h, false);
    FAIL() << "expected an error";
  } catch (const PluginError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "has Alpha stability level, but command line flag --allow-experimental-plugins is not set"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(ValidatePluginStability(r, f.h, true));
}

// pkg/epp/framework/interface/plugin/shared_state_test.go@71f4f099 TestErrNotFound
TEST(SharedStateTest, ErrNotFound) {
  ASSERT_NE(fwkplugin::ErrNotFound, nullptr);
  EXPECT_EQ(std::string("not found"), fwkplugin::ErrNotFound);
}

// pkg/epp/framework/interface/plugin/shared_state_test.go@71f4f099 TestStateKey
TEST(SharedStateTest, StateKey) {
  const StateKey k1 = "foo";
  const StateKey k2 = "foo";
  const StateKey k3 = "bar";
  EXPECT_EQ(k1, k2);
  EXPECT_NE(k1, k3);
  EXPECT_EQ("foo", std::string(k1));
}

}  // namespace
}  // namespace blis::router::fwkplugin
