// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ transcription of pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099
// and scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/latency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin.h"
#include "router/epp/framework/plugins/scheduling/filter/utilization/filter.h"
#include "tests/router/load/load_test_support.h"

namespace blis::router {
namespace {

using loadtest::NewStub;

namespace util = utilization;

// filter_test.go condCap
util::condition condCap(const std::string& metric, double maxValue) { return util::condition{metric, maxValue}; }

// A parameters value with the given conditions (the other fields as given or Go's zero values).
util::parameters P(std::vector<util::condition> conds, bool fallbackOnEmpty = false) {
  util::parameters p;
  p.Conditions = std::move(conds);
  p.FallbackOnEmpty = fallbackOnEmpty;
  return p;
}

std::shared_ptr<loadtest::StubEndpoint> withLoad(const std::string& name, std::int64_t requests) {
  auto ep = NewStub(name, fwkdl::Metrics{});
  ep->Put(concurrency::InFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(0, requests));
  return ep;
}

std::shared_ptr<loadtest::StubEndpoint> withMetrics(const std::string& name, int running, int waiting, double kv) {
  fwkdl::Metrics m;
  m.RunningRequestsSize = running;
  m.WaitingQueueSize = waiting;
  m.KVCacheUsagePercent = kv;
  return NewStub(name, m);
}

std::vector<std::string> endpointNames(const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<std::string> names;
  for (const auto& ep : endpoints) names.push_back(ep->GetMetadata()->ID.Name);
  return names;
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099 TestUtilizationFilter_Filter
TEST(UtilizationFilter, Filter) {
  struct Case {
    std::string name;
    util::parameters params;
    std::vector<fwksched::EndpointPtr> endpoints;
    std::vector<std::string> want;
  };
  auto busy = NewStub("pod-b", fwkdl::Metrics{});
  busy->Put(concurrency::InFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(0, 11));
  auto full = withMetrics("pod-c", 0, 0, 0.9);
  std::vector<Case> cases = {
      {"active-requests keeps endpoints at or below maxValue",
       P({condCap(util::MetricActiveRequests, 2)}),
       {withLoad("pod-a", 1), withLoad("pod-b", 2), withLoad("pod-c", 3)},
       {"pod-a", "pod-b"}},
      {"active-requests endpoints without load attribute are kept",
       P({condCap(util::MetricActiveRequests, 1)}),
       {NewStub("pod-a", fwkdl::Metrics{}), withLoad("pod-b", 5)},
       {"pod-a"}},
      {"running-requests keeps endpoints at or below maxValue",
       P({condCap(util::MetricRunningRequests, 4)}),
       {withMetrics("pod-a", 4, 0, 0), withMetrics("pod-b", 5, 0, 0)},
       {"pod-a"}},
      {"waiting-queue keeps endpoints at or below maxValue",
       P({condCap(util::MetricWaitingQueue, 0)}),
       {withMetrics("pod-a", 0, 0, 0), withMetrics("pod-b", 0, 3, 0)},
       {"pod-a"}},
      {"kv-cache-utilization keeps endpoints at or below maxValue",
       P({condCap(util::MetricKVCacheUtilization, 0.8)}),
       {withMetrics("pod-a", 0, 0, 0.5), withMetrics("pod-b", 0, 0, 0.9)},
       {"pod-a"}},
      {"multiple conditions drop endpoints exceeding any cap",
       P({condCap(util::MetricRunningRequests, 40), condCap(util::MetricWaitingQueue, 0)}),
       {withMetrics("pod-a", 10, 0, 0), withMetrics("pod-b", 41, 0, 0), withMetrics("pod-c", 10, 1, 0)},
       {"pod-a"}},
      {"conditions mix EPP-tracked and model-server metrics",
       P({condCap(util::MetricActiveRequests, 10), condCap(util::MetricKVCacheUtilization, 0.8)}),
       {withLoad("pod-a", 5), busy, full},
       {"pod-a"}},
      {"all filtered out without fallback returns empty",
       P({condCap(util::MetricActiveRequests, 1)}),
       {withLoad("pod-a", 2), withLoad("pod-b", 3)},
       {}},
      {"all filtered out with fallback returns original candidates",
       P({condCap(util::MetricActiveRequests, 1)}, true),
       {withLoad("pod-a", 2), withLoad("pod-b", 3)},
       {"pod-a", "pod-b"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto filter = util::NewUtilizationFilter("", tc.params);
    EXPECT_EQ(endpointNames(filter->Filter(nullptr, tc.endpoints)), tc.want);
  }
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099 TestNewUtilizationFilter_InvalidParameters (with upstream's message texts)
TEST(UtilizationFilter, InvalidParameters) {
  struct Case {
    std::string name;
    util::parameters params;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"no conditions", P({}), "utilization filter requires at least one condition"},
      {"missing metric", P({util::condition{"", 1.0}}),
       "utilization filter condition metric must be one of \"active-requests\", \"running-requests\", "
       "\"waiting-queue\", \"kv-cache-utilization\", got \"\""},
      {"unknown metric", P({condCap("unknown", 1)}),
       "utilization filter condition metric must be one of \"active-requests\", \"running-requests\", "
       "\"waiting-queue\", \"kv-cache-utilization\", got \"unknown\""},
      {"missing maxValue", P({util::condition{util::MetricActiveRequests, std::nullopt}}),
       "utilization filter condition for \"active-requests\" requires maxValue"},
      {"negative maxValue", P({condCap(util::MetricActiveRequests, -1)}),
       "utilization filter condition for \"active-requests\" requires a non-negative maxValue, got -1"},
      {"kv-cache maxValue above 1", P({condCap(util::MetricKVCacheUtilization, 80)}),
       "utilization filter maxValue for \"kv-cache-utilization\" is a fraction and must be at most 1, got 80"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    try {
      util::NewUtilizationFilter("", tc.params);
      ADD_FAILURE() << "accepted";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), tc.want);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099 TestUtilizationFilter_Factory
TEST(UtilizationFilter, Factory) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const auto params = nlohmann::json::parse(
      R"({"conditions": [{"metric": "running-requests", "maxValue": 40}, {"metric": "waiting-queue", "maxValue": 0}]})");
  auto filter = std::dynamic_pointer_cast<util::UtilizationFilter>(util::Factory("test-filter", &params, handle));
  ASSERT_NE(filter, nullptr);
  EXPECT_EQ(filter->TypedName().Type, util::UtilizationFilterType);
  EXPECT_EQ(filter->TypedName().Name, "test-filter");
  ASSERT_EQ(filter->conditions.size(), 2u);
  EXPECT_EQ(filter->conditions[0].Metric, util::MetricRunningRequests);
  EXPECT_EQ(*filter->conditions[0].MaxValue, 40.0);
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099 TestUtilizationFilter_FactoryRejectsMissingParameters
TEST(UtilizationFilter, FactoryRejectsMissingParameters) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_THROW(util::Factory("test-filter", nullptr, handle), fwkplugin::PluginError);
}

// Original to BLIS: encoding/json's texts for a malformed condition, behind upstream's prefix.
TEST(UtilizationFilter, FactoryDecodeErrors) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  struct Case {
    const char* json;
    const char* want;
  };
  const Case cases[] = {
      {R"({"conditions": {"metric": "waiting-queue"}})",
       "json: cannot unmarshal object into Go struct field parameters.conditions of type []utilization.condition"},
      {R"({"conditions": [{"metric": "waiting-queue", "maxValue": "1"}]})",
       "json: cannot unmarshal string into Go struct field condition.conditions.maxValue of type float64"},
      {R"({"conditions": [{"metric": "waiting-queue", "maxValue": 1, "x": 2}]})", "json: unknown field \"x\""},
      {R"({"conditions": [{"metric": "waiting-queue", "maxValue": 1}], "y": 2})", "json: unknown field \"y\""},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.json);
    const auto params = nlohmann::json::parse(tc.json);
    try {
      util::Factory("f", &params, handle);
      ADD_FAILURE() << "accepted";
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("failed to parse the parameters of the 'utilization-filter' filter - ") + tc.want);
    }
  }
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter_test.go@71f4f099 TestUtilizationFilter_Consumes
TEST(UtilizationFilter, Consumes) {
  {
    SCOPED_TRACE("active-requests requires the in-flight load attribute");
    auto filter = util::NewUtilizationFilter(
        "", P({condCap(util::MetricWaitingQueue, 0), condCap(util::MetricActiveRequests, 1)}));
    const auto consumes = filter->Consumes().Required;
    ASSERT_EQ(consumes.size(), 1u);
    EXPECT_EQ(consumes.begin()->first, concurrency::InFlightLoadDataKey);
    EXPECT_EQ(consumes.begin()->second.type(), typeid(concurrency::InFlightLoad));
  }
  for (const char* metric : {util::MetricRunningRequests, util::MetricWaitingQueue, util::MetricKVCacheUtilization}) {
    SCOPED_TRACE(metric);
    const auto consumes = util::NewUtilizationFilter("", P({condCap(metric, 1)}))->Consumes();
    EXPECT_TRUE(consumes.Required.empty());
    EXPECT_TRUE(consumes.Optional.empty());
  }
}

// ---- prefixcacheaffinity ----

namespace pca = prefixcacheaffinity;

// plugin_test.go makeEndpoint: prefixMatch of 100 blocks, predicted TTFT, in-flight tokens (negative: absent).
fwksched::EndpointPtr makeEndpoint(const std::string& name, int prefixMatch, double ttft, std::int64_t tokens) {
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"default", name};
  auto ep = fwksched::NewEndpoint(meta, fwkdl::Metrics{}, fwkdl::NewAttributes());
  if (prefixMatch >= 0) {
    ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(prefixMatch, 100, 16));
  }
  if (ttft >= 0) {
    ep->Put(latency::LatencyPredictionInfoDataKey.String(), latency::NewLatencyPredictionInfo(true, true, 0, 0, ttft, 0, 0));
  }
  if (tokens >= 0) {
    ep->Put(concurrency::InFlightLoadDataKey.String(), std::make_shared<concurrency::InFlightLoad>(tokens, 0));
  }
  return ep;
}

// plugin_test.go newTestPlugin (Config literal fields; the rest Go zero values).
struct PcaFixture {
  loadtest::SeededStream stream{7};
  std::shared_ptr<pca::Plugin> make(double threshold, double exploration, double maxPenalty, const std::string& source,
                                    double peak) {
    pca::Config c;
    c.AffinityThreshold = threshold;
    c.ExplorationProbability = exploration;
    c.MaxTTFTPenaltyMs = maxPenalty;
    c.TTFTSource = source;
    c.PeakPrefillThroughput = peak;
    return std::make_shared<pca::Plugin>("test", c, stream);
  }
};

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_AffinityThresholdDisabled
TEST(PrefixCacheAffinityFilter, AffinityThresholdDisabled) {
  PcaFixture f;
  auto p = f.make(0, 0, 0, "", 0);
  EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 0, 10, 0), makeEndpoint("b", 90, 20, 0)}).size(), 2u);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_SingleEndpoint
TEST(PrefixCacheAffinityFilter, SingleEndpoint) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 0, "", 0);
  EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 90, 10, 0)}).size(), 1u);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_NoStickyEndpoints
TEST(PrefixCacheAffinityFilter, NoStickyEndpoints) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 0, "", 0);
  EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 10, 10, 0), makeEndpoint("b", 20, 20, 0), makeEndpoint("c", 50, 30, 0)})
                .size(),
            3u);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_NarrowToSticky
TEST(PrefixCacheAffinityFilter, NarrowToSticky) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 5000, pca::TTFTSourceLatencyPredictor, 0);
  auto got = p->Filter(nullptr, {makeEndpoint("a", 90, 100, 0), makeEndpoint("b", 85, 120, 0), makeEndpoint("c", 10, 50, 0)});
  EXPECT_EQ(endpointNames(got), (std::vector<std::string>{"a", "b"}));
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_TTFTPenaltyBreaksStickiness
TEST(PrefixCacheAffinityFilter, TTFTPenaltyBreaksStickiness) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 100, pca::TTFTSourceLatencyPredictor, 0);
  EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 90, 500, 0), makeEndpoint("b", 10, 50, 0)}).size(), 2u);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_ThroughputTTFTBreaksStickiness
TEST(PrefixCacheAffinityFilter, ThroughputTTFTBreaksStickiness) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 100, pca::TTFTSourcePrefillThroughput, 1000);
  EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 90, 10, 500), makeEndpoint("b", 10, 10, 50)}).size(), 2u);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_ThroughputTTFTWithinThreshold
TEST(PrefixCacheAffinityFilter, ThroughputTTFTWithinThreshold) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 1000, pca::TTFTSourcePrefillThroughput, 1000);
  auto got = p->Filter(nullptr, {makeEndpoint("a", 90, 10, 500), makeEndpoint("b", 10, 10, 50)});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->GetMetadata()->ID.Name, "a");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_TTFTPenaltyDisabled
TEST(PrefixCacheAffinityFilter, TTFTPenaltyDisabled) {
  PcaFixture f;
  auto p = f.make(0.80, 0, 0, pca::TTFTSourcePrefillThroughput, 1000);
  auto got = p->Filter(nullptr, {makeEndpoint("a", 90, 10, 5000), makeEndpoint("b", 10, 10, 50)});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0]->GetMetadata()->ID.Name, "a");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFilter_ExplorationProbability
TEST(PrefixCacheAffinityFilter, ExplorationProbability) {
  PcaFixture f;
  auto p = f.make(0.80, 1.0, 0, "", 0);
  for (int i = 0; i < 20; ++i) {  // epsilon 1.0 skips the gate on every draw
    EXPECT_EQ(p->Filter(nullptr, {makeEndpoint("a", 90, 100, 0), makeEndpoint("b", 10, 50, 0)}).size(), 2u);
  }
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestConsumes_ConditionalAttributes
TEST(PrefixCacheAffinityFilter, ConsumesConditionalAttributes) {
  PcaFixture f;
  auto has = [](const fwkplugin::DataDependencies& deps, const fwkplugin::DataKey& k) {
    return deps.Required.count(k) > 0;
  };
  auto p = f.make(0, 0, 0, "", 0);
  EXPECT_FALSE(has(p->Consumes(), p->inFlightLoadDataKey));
  EXPECT_FALSE(has(p->Consumes(), p->latencyPredictionInfoDataKey));
  p = f.make(0, 0, 5000, pca::TTFTSourceLatencyPredictor, 0);
  EXPECT_TRUE(has(p->Consumes(), p->latencyPredictionInfoDataKey));
  EXPECT_FALSE(has(p->Consumes(), p->inFlightLoadDataKey));
  p = f.make(0, 0, 5000, pca::TTFTSourcePrefillThroughput, 1000);
  EXPECT_TRUE(has(p->Consumes(), p->inFlightLoadDataKey));
  EXPECT_FALSE(has(p->Consumes(), p->latencyPredictionInfoDataKey));
  EXPECT_TRUE(has(p->Consumes(), p->prefixMatchDataKey));
}

std::shared_ptr<pca::Plugin> pcaFactory(const char* json, fwkplugin::Handle& handle) {
  if (json == nullptr) return std::dynamic_pointer_cast<pca::Plugin>(pca::Factory("test", nullptr, handle));
  const auto params = nlohmann::json::parse(json);
  return std::dynamic_pointer_cast<pca::Plugin>(pca::Factory("test", &params, handle));
}

std::string pcaFactoryError(const char* json, fwkplugin::Handle& handle) {
  try {
    pcaFactory(json, handle);
  } catch (const fwkplugin::PluginError& e) {
    return e.what();
  }
  return "";
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_ValidConfig
TEST(PrefixCacheAffinityFactory, ValidConfig) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto p = pcaFactory(nullptr, handle);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypedName().Type, pca::PluginType);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_PartialConfigPreservesDefaults
TEST(PrefixCacheAffinityFactory, PartialConfigPreservesDefaults) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  const pca::Config d = pca::DefaultConfig();
  auto p = pcaFactory(R"({"affinityThreshold": 0.95})", handle);
  EXPECT_EQ(p->config.AffinityThreshold, 0.95);
  EXPECT_EQ(p->config.ExplorationProbability, d.ExplorationProbability);
  EXPECT_EQ(p->config.MaxTTFTPenaltyMs, d.MaxTTFTPenaltyMs);
  p = pcaFactory(R"({"explorationProbability": 0.05})", handle);
  EXPECT_EQ(p->config.AffinityThreshold, d.AffinityThreshold);
  EXPECT_EQ(p->config.ExplorationProbability, 0.05);
  EXPECT_EQ(p->config.MaxTTFTPenaltyMs, d.MaxTTFTPenaltyMs);
  p = pcaFactory(R"({"maxTTFTPenaltyMs": 10000})", handle);
  EXPECT_EQ(p->config.AffinityThreshold, d.AffinityThreshold);
  EXPECT_EQ(p->config.ExplorationProbability, d.ExplorationProbability);
  EXPECT_EQ(p->config.MaxTTFTPenaltyMs, 10000.0);
  EXPECT_EQ(p->config.TTFTSource, d.TTFTSource);
  EXPECT_EQ(p->config.PeakPrefillThroughput, d.PeakPrefillThroughput);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_InvalidAffinityThreshold
TEST(PrefixCacheAffinityFactory, InvalidAffinityThreshold) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"affinityThreshold": 1.5})", handle),
            "invalid config: affinityThreshold must be <= 1.0, got 1.500000");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_InvalidExplorationProbability
TEST(PrefixCacheAffinityFactory, InvalidExplorationProbability) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"explorationProbability": -0.1})", handle),
            "invalid config: explorationProbability must be in [0, 1], got -0.100000");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_InvalidPeakPrefillThroughput
TEST(PrefixCacheAffinityFactory, InvalidPeakPrefillThroughput) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"peakPrefillThroughput": -1})", handle),
            "invalid config: peakPrefillThroughput must be >= 0, got -1.000000");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_ThroughputModeRequiresPeakPrefillThroughput
TEST(PrefixCacheAffinityFactory, ThroughputModeRequiresPeakPrefillThroughput) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"ttftSource": "prefillThroughput", "peakPrefillThroughput": 0})", handle),
            "invalid config: peakPrefillThroughput must be > 0 when ttftSource is prefillThroughput");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_ThroughputModeValid
TEST(PrefixCacheAffinityFactory, ThroughputModeValid) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto p = pcaFactory(R"({"ttftSource": "prefillThroughput", "peakPrefillThroughput": 1000})", handle);
  EXPECT_EQ(p->config.TTFTSource, pca::TTFTSourcePrefillThroughput);
  EXPECT_EQ(p->config.PeakPrefillThroughput, 1000.0);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_InvalidTTFTSource
TEST(PrefixCacheAffinityFactory, InvalidTTFTSource) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"ttftSource": "bogus"})", handle),
            "invalid config: ttftSource must be \"latencyPredictor\" or \"prefillThroughput\", got \"bogus\"");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_EmptyTTFTSourceRejected
TEST(PrefixCacheAffinityFactory, EmptyTTFTSourceRejected) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_NE(pcaFactoryError(R"({"ttftSource": ""})", handle).find("ttftSource must be"), std::string::npos);
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_ZeroPeakPrefillThroughputAllowedWhenUnused
TEST(PrefixCacheAffinityFactory, ZeroPeakPrefillThroughputAllowedWhenUnused) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pcaFactoryError(R"({"maxTTFTPenaltyMs": 0, "ttftSource": "prefillThroughput", "peakPrefillThroughput": 0})", handle),
            "");
  EXPECT_EQ(pcaFactoryError(R"({"ttftSource": "latencyPredictor", "peakPrefillThroughput": 0})", handle), "");
}

// pkg/epp/framework/plugins/scheduling/filter/prefixcacheaffinity/plugin_test.go@71f4f099 TestFactory_DefaultsToPrefillThroughput
TEST(PrefixCacheAffinityFactory, DefaultsToPrefillThroughput) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  EXPECT_EQ(pca::DefaultConfig().TTFTSource, pca::TTFTSourcePrefillThroughput);
  EXPECT_EQ(pcaFactory(nullptr, handle)->config.TTFTSource, pca::TTFTSourcePrefillThroughput);
  EXPECT_NE(pcaFactoryError(R"({"peakPrefillThroughput": 0})", handle).find("peakPrefillThroughput must be > 0"),
            std::string::npos);
}

// Original to BLIS: with exploration probability 0.5 the filter returns either all endpoints (explored) or the
// sticky one, drawing from the stream the factory takes from the handle; both outcomes occur.
TEST(PrefixCacheAffinityFilter, ExplorationDrawsEitherOutcome) {
  loadtest::TestRuntime runtime;
  fwkplugin::Handle handle(runtime);
  auto p = pcaFactory(R"({"explorationProbability": 0.5, "maxTTFTPenaltyMs": 0})", handle);
  int all = 0, sticky = 0;
  for (int i = 0; i < 200; ++i) {
    auto got = p->Filter(nullptr, {makeEndpoint("a", 90, 10, 0), makeEndpoint("b", 10, 10, 0)});
    if (got.size() == 2) {
      ++all;
    } else {
      ASSERT_EQ(endpointNames(got), std::vector<std::string>{"a"});
      ++sticky;
    }
  }
  EXPECT_GT(all, 0);
  EXPECT_GT(sticky, 0);
}

}  // namespace
}  // namespace blis::router
