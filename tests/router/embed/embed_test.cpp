// The router port's entry point (router/embed/): llm-d's default configuration assembled and deciding, a
// configured router, the runner's flags, and the refusals (each beside the closest input it accepts, SIM-9).
#include "router/embed/embed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router {
namespace {

class TestRuntime final : public Runtime {
 public:
  explicit TestRuntime(std::uint64_t seed) : seed_(seed) {}
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    auto it = streams_.find(std::string(purpose));
    if (it == streams_.end()) it = streams_.emplace(std::string(purpose), testing::SplitMixStream(seed_ + streams_.size())).first;
    purposes.insert(std::string(purpose));
    return it->second;
  }
  std::set<std::string> purposes;

 private:
  std::uint64_t seed_;
  std::map<std::string, testing::SplitMixStream> streams_;
};

EndpointState endpoint(const std::string& name, std::int64_t waiting, double kv) {
  EndpointState e;
  e.name = name;
  e.has_metrics = true;
  e.waiting_queue_size = waiting;
  e.kv_cache_usage_percent = kv;
  e.cache_block_size = 16;
  e.cache_num_blocks = 1000;
  return e;
}

RouteRequest request(const std::string& id, std::int32_t first, std::size_t n) {
  RouteRequest r;
  r.id = id;
  for (std::size_t i = 0; i < n; ++i) r.prompt.push_back(first + static_cast<std::int32_t>(i));
  return r;
}

TEST(RouterEmbed, DefaultConfigurationRunsLlmdDefaultPlugins) {
  TestRuntime rt(1);
  auto router = embed::New(std::nullopt, {}, rt);
  const std::vector<std::string> want{"queue-scorer", "kv-cache-utilization-scorer", "prefix-cache-scorer",
                                      "single-profile-handler", "max-score-picker", "approx-prefix-cache-producer",
                                      "token-producer"};
  EXPECT_EQ(router->plugin_types(), want);
  // The max-score picker draws its tie-break shuffle from a named stream of the runtime.
  EXPECT_EQ(rt.purposes, std::set<std::string>{"picker/max-score-picker"});
}

TEST(RouterEmbed, PicksTheLeastLoadedEndpointWithoutPrefixHistory) {
  TestRuntime rt(2);
  auto router = embed::New(std::nullopt, {}, rt);
  // queue-scorer (2) and kv-cache-utilization-scorer (2) both favour b; no prompt has been routed yet.
  const std::vector<EndpointState> eps{endpoint("serve/0", 4, 0.6), endpoint("serve/1", 0, 0.1), endpoint("serve/2", 2, 0.3)};
  EXPECT_EQ(router->pick(request("r1", 1000, 256), eps), 1u);
}

TEST(RouterEmbed, ASharedPrefixFollowsTheFirstRequestWhenLoadsAreEqual) {
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    TestRuntime rt(seed);
    auto router = embed::New(std::nullopt, {}, rt);
    const std::vector<EndpointState> eps{endpoint("serve/0", 1, 0.2), endpoint("serve/1", 1, 0.2), endpoint("serve/2", 1, 0.2),
                                         endpoint("serve/3", 1, 0.2)};
    const std::size_t first = router->pick(request("a", 5000, 512), eps);
    // Same 512-token prefix, then a different tail: the approximate prefix index remembers where "a" went.
    RouteRequest b = request("b", 5000, 512);
    for (std::int32_t t = 0; t < 64; ++t) b.prompt.push_back(90000 + t);
    EXPECT_EQ(router->pick(b, eps), first) << "seed " << seed;
  }
}

TEST(RouterEmbed, TheTieBreakIsRandomAndReproducible) {
  // Equal loads and no shared prefix: max-score-picker shuffles the tied endpoints from its named stream.
  const std::vector<EndpointState> eps{endpoint("serve/0", 0, 0), endpoint("serve/1", 0, 0), endpoint("serve/2", 0, 0)};
  std::set<std::size_t> seen;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    std::vector<std::size_t> picks[2];
    for (int run = 0; run < 2; ++run) {
      TestRuntime rt(seed);
      auto router = embed::New(std::nullopt, {}, rt);
      for (int i = 0; i < 5; ++i) picks[run].push_back(router->pick(request("r" + std::to_string(i), 100000 * (i + 1), 64), eps));
    }
    EXPECT_EQ(picks[0], picks[1]) << "seed " << seed;
    seen.insert(picks[0].front());
  }
  EXPECT_GT(seen.size(), 1u);
}

TEST(RouterEmbed, AnUnknownPluginTypeIsRefusedWithLlmdsTextAndAKnownOneRuns) {
  TestRuntime rt(3);
  const std::string head = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: ";
  EXPECT_NO_THROW(embed::New(head + "queue-scorer\n", {}, rt));
  try {
    embed::New(head + "queue-scorerx\n", {}, rt);
    FAIL() << "an unknown plugin type was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "router.config: failed to load the configuration - configuration validation failed: plugin type "
              "'queue-scorerx' is not registered");
  }
}

TEST(RouterEmbed, ARefusedPluginTypeIsRefusedByNameBeforeTheRun) {
  TestRuntime rt(5);
  const std::string head = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: ";
  EXPECT_NO_THROW(embed::New(head + "random-picker\n", {}, rt));
  try {
    embed::New(head + "fcfs-ordering-policy\n", {}, rt);
    FAIL() << "a flow-control policy was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("(type: 'fcfs-ordering-policy') is not modelled by this port: flow control"),
              std::string::npos) << e.what();
  }
}

// The P/D handler is ported and audited, but the simulator cannot yet run a disaggregated request, so a
// configuration holding it is refused by name; the same configuration on the data-parallel handler runs.
TEST(RouterEmbed, AConfigurationWithAPdHandlerIsRefusedTheDataParallelOneRuns) {
  TestRuntime rt(9);
  const std::string head =
      "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: prefix-based-pd-decider\n"
      "- type: max-score-picker\n- type: queue-scorer\n";
  const std::string profiles =
      "schedulingProfiles:\n- name: prefill\n  plugins:\n  - pluginRef: max-score-picker\n  - pluginRef: queue-scorer\n"
      "- name: decode\n  plugins:\n  - pluginRef: max-score-picker\n  - pluginRef: queue-scorer\n";
  try {
    embed::New(head + "- type: disagg-profile-handler\n  parameters:\n    deciders:\n      prefill: prefix-based-pd-decider\n" +
                   profiles, {}, rt);
    FAIL() << "a P/D configuration was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("(type: 'disagg-profile-handler'): the simulator does not yet run disaggregated"),
              std::string::npos) << e.what();
  }
  const std::string dp = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: max-score-picker\n"
                         "- type: queue-scorer\n- type: data-parallel-profile-handler\nschedulingProfiles:\n- name: default\n"
                         "  plugins:\n  - pluginRef: max-score-picker\n  - pluginRef: queue-scorer\n";
  EXPECT_NO_THROW(embed::New(dp, {}, rt));
}

// The precise prefix-cache scorer reads the engines' KV events, which the host hands to its producer
// (Router::kv_events, as the simulator delivers each engine's messages): after endpoint p/1 publishes that it stores
// the prompt's first two blocks, the scorer sends the request there; before, nothing tells the endpoints apart.
engine::KvEventMessage stored(const std::string& topic, std::uint64_t seq, std::int32_t first, std::size_t blocks,
                              std::uint64_t hash0) {
  engine::KvEventMessage m;
  m.topic = topic;
  m.sequence = seq;
  engine::KvBlockStored s;
  for (std::size_t b = 0; b < blocks; ++b) s.block_hashes.emplace_back(std::in_place_index<1>, hash0 + b);
  for (std::size_t i = 0; i < blocks * 16; ++i) s.token_ids.push_back(first + static_cast<std::int32_t>(i));
  s.block_size = 16;
  s.medium = "GPU";
  m.events.push_back(s);
  return m;
}

const std::string kPrecise =
    "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n- type: precise-prefix-cache-scorer\n"
    "- type: max-score-picker\nschedulingProfiles:\n- name: default\n  plugins:\n  - pluginRef: precise-prefix-cache-scorer\n"
    "  - pluginRef: max-score-picker\n";

TEST(RouterEmbed, APreciseScorerRoutesToTheEndpointWhoseKvEventsHoldThePrefix) {
  for (const std::string holder : {"p/0", "p/1", "p/2"}) {
    SCOPED_TRACE(holder);
    TestRuntime rt(12);
    auto r = embed::New(kPrecise, {}, rt);
    const std::vector<EndpointState> eps{endpoint("p/0", 0, 0), endpoint("p/1", 0, 0), endpoint("p/2", 0, 0)};
    r->kv_events(holder, stored("kv@" + holder + "@", 0, 5000, 2, std::uint64_t{1} << 40));
    // Another endpoint's unrelated blocks change nothing.
    r->kv_events(holder == "p/0" ? "p/2" : "p/0", stored("", 0, 9000, 2, std::uint64_t{1} << 41));
    const std::size_t want = static_cast<std::size_t>(holder.back() - '0');
    for (int k = 0; k < 4; ++k) EXPECT_EQ(r->pick(request("r" + std::to_string(k), 5000, 40), eps), want);
  }
}

// Both engine ports publish KV events: a producer decoding SGLang's (engineType sglang) is accepted beside
// vLLM's, and one of an engine type llm-d's adapter does not know is refused; a topic naming a model is refused
// at its first message, since the simulated requests name none and the blocks would be indexed under a model no
// request asks for.
TEST(RouterEmbed, APreciseProducerOfEitherEngineTypeIsAcceptedAModelTopicIsRefused) {
  TestRuntime rt(13);
  const std::string head = "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n"
                           "- type: precise-prefix-cache-scorer\n  parameters:\n    kvEventsConfig:\n      engineType: ";
  EXPECT_NO_THROW(embed::New(head + "sglang\n", {}, rt));
  EXPECT_NO_THROW(embed::New(head + "vllm\n", {}, rt));
  EXPECT_ANY_THROW(embed::New(head + "trtllm\n", {}, rt));
  auto r = embed::New(kPrecise, {}, rt);
  try {
    r->kv_events("p/0", stored("kv@p0@meta-llama/Llama-3.1-8B", 0, 1, 1, std::uint64_t{1} << 40));
    FAIL() << "a topic naming a model was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("names the model 'meta-llama/Llama-3.1-8B'"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(r->kv_events("p/0", stored("kv@p0@", 0, 1, 1, std::uint64_t{1} << 40)));
  // A router with no precise producer ignores KV events.
  auto plain = embed::New(std::nullopt, {}, rt);
  EXPECT_NO_THROW(plain->kv_events("p/0", stored("kv@p0@m", 0, 1, 1, std::uint64_t{1} << 40)));
}

TEST(RouterEmbed, AnUnknownFlagIsRefusedByNameAnObservationFlagWarns) {
  TestRuntime rt(4);
  auto r = embed::New(std::nullopt, {{"kv-cache-usage-percentage-metric", "x"}}, rt);
  ASSERT_EQ(embed::SettingsOf(*r).Warnings.size(), 1u);
  EXPECT_NE(embed::SettingsOf(*r).Warnings[0].find("router.flags.kv-cache-usage-percentage-metric"), std::string::npos);
  try {
    embed::New(std::nullopt, {{"kv-cache-usage-percentage-metricx", "x"}}, rt);
    FAIL() << "an unknown flag was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("router.flags.kv-cache-usage-percentage-metricx:"), std::string::npos) << e.what();
  }
}

TEST(RouterEmbed, MetricsFlagsAreParsedAsGoDurations) {
  TestRuntime rt(6);
  auto d = embed::New(std::nullopt, {}, rt);
  EXPECT_EQ(embed::SettingsOf(*d).RefreshMetricsIntervalNs, 50'000'000);
  EXPECT_EQ(embed::SettingsOf(*d).MetricsStalenessThresholdNs, 2'000'000'000);
  auto r = embed::New(std::nullopt, {{"refresh-metrics-interval", "1.5s"}, {"metrics-staleness-threshold", "1m30s"}}, rt);
  EXPECT_EQ(embed::SettingsOf(*r).RefreshMetricsIntervalNs, 1'500'000'000);
  EXPECT_EQ(embed::SettingsOf(*r).MetricsStalenessThresholdNs, 90'000'000'000);
  try {
    embed::New(std::nullopt, {{"refresh-metrics-interval", "1.5"}}, rt);
    FAIL() << "a duration without unit was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "router.flags.refresh-metrics-interval: invalid argument \"1.5\" for "
                                     "\"--refresh-metrics-interval\" flag: time: missing unit in duration \"1.5\"");
  }
}

TEST(RouterEmbed, TheAllowExperimentalPluginsFlagIsParsedAsAGoBool) {
  // cmd/epp/runner: --allow-experimental-plugins feeds registry.go@71f4f099 ValidatePluginStability (its refusal
  // is tested in tests/router/config, TestAllowExperimentalPluginsFlag); pflag parses it with strconv.ParseBool.
  TestRuntime rt(7);
  EXPECT_NO_THROW(embed::New(std::nullopt, {{"allow-experimental-plugins", "true"}}, rt));
  EXPECT_NO_THROW(embed::New(std::nullopt, {{"allow-experimental-plugins", "T"}}, rt));
  try {
    embed::New(std::nullopt, {{"allow-experimental-plugins", "yes"}}, rt);
    FAIL() << "a non-Go bool was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "router.flags.allow-experimental-plugins: invalid argument \"yes\" for "
                                     "\"--allow-experimental-plugins\" flag: strconv.ParseBool: parsing \"yes\": invalid syntax");
  }
}

// cmd/epp/runner/run_with_file_discovery_test.go@71f4f099 TestRunWithFileDiscovery_AlphaPluginBlockedByDefault
// Upstream registers a dummy Alpha plugin type and starts the runner's file-discovery path; here the runner's
// assembly is embed::New, whose registry holds the in-tree types only, so the Alpha type is the in-tree
// `session-affinity-scorer` (registered StabilityAlpha, cmd/epp/runner/runner.go@71f4f099), and the endpoints come
// from the simulator instead of the file-discovery plugin (refused by name: router/cmd/epp/runner/surface.cpp).
TEST(RouterEmbed, TestRunWithFileDiscovery_AlphaPluginBlockedByDefault) {
  TestRuntime rt(9);
  const std::string config =
      "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n"
      "  - name: alpha-instance\n    type: session-affinity-scorer\n"
      "dataLayer:\n  injectDefaults: false\n";
  try {
    embed::New(config, {{"allow-experimental-plugins", "false"}}, rt);
    FAIL() << "an Alpha plugin was accepted without --allow-experimental-plugins";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "has Alpha stability level, but command line flag --allow-experimental-plugins is not set"),
              std::string::npos)
        << e.what();
  }
  // The flag's default is false too (runserver.NewOptions): no flag given refuses the same configuration.
  EXPECT_THROW(embed::New(config, {}, rt), std::invalid_argument);
}

// cmd/epp/runner/run_with_file_discovery_test.go@71f4f099 TestRunWithFileDiscovery_AlphaPluginAllowedWithFlag
// (the same replacements as above; upstream's check is that the run does not fail on stability: here the
// router assembles, and the Alpha plugin is one of its plugins).
TEST(RouterEmbed, TestRunWithFileDiscovery_AlphaPluginAllowedWithFlag) {
  TestRuntime rt(10);
  const std::string config =
      "apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n"
      "  - name: alpha-instance\n    type: session-affinity-scorer\n"
      "  - name: metrics-source\n    type: metrics-data-source\n"
      "  - name: metrics-extractor\n    type: core-metrics-extractor\n"
      "dataLayer:\n  injectDefaults: false\n  sources:\n    - pluginRef: metrics-source\n"
      "      extractors:\n        - pluginRef: metrics-extractor\n";
  std::unique_ptr<Router> r;
  ASSERT_NO_THROW(r = embed::New(config, {{"allow-experimental-plugins", "true"}}, rt));
  const std::vector<std::string> types = r->plugin_types();
  EXPECT_NE(std::find(types.begin(), types.end(), "session-affinity-scorer"), types.end());
}

TEST(RouterEmbed, AConfiguredRandomPickerDrawsFromItsOwnStream) {
  TestRuntime rt(8);
  auto r = embed::New(std::string("apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nplugins:\n"
                                  "- type: queue-scorer\n- name: rp\n  type: random-picker\n"),
                      {}, rt);
  const std::vector<std::string> want{"queue-scorer", "random-picker", "single-profile-handler"};
  EXPECT_EQ(r->plugin_types(), want);
  EXPECT_EQ(rt.purposes, std::set<std::string>{"picker/rp"});
  const std::vector<EndpointState> eps{endpoint("serve/0", 4, 0.6), endpoint("serve/1", 0, 0.1)};
  EXPECT_LT(r->pick(request("r1", 1000, 64), eps), 2u);
}

TEST(RouterEmbed, ANegativeTokenIdIsRefused) {
  TestRuntime rt(5);
  auto router = embed::New(std::nullopt, {}, rt);
  const std::vector<EndpointState> eps{endpoint("serve/0", 0, 0)};
  RouteRequest ok = request("ok", 0, 4);
  EXPECT_EQ(router->pick(ok, eps), 0u);
  RouteRequest bad = request("bad", -1, 4);
  EXPECT_THROW(router->pick(bad, eps), std::invalid_argument);
}

}  // namespace
}  // namespace blis::router

namespace blis::router {
namespace {

// An endpoint whose engine publishes its metrics endpoint's samples (the contract's typed fields left at zero,
// so only the samples can steer the pick), labelled with its engine type.
EndpointState sampled(const std::string& name, const std::string& kind, const std::string& waitingName, double waiting,
                      std::uint64_t sequence) {
  EndpointState e;
  e.name = name;
  e.has_metrics = true;
  e.labels["llm-d.ai/engine-type"] = kind;
  e.published_us = 1000;
  e.sequence = sequence;
  const std::string prefix = kind == "sglang" ? "sglang:" : "vllm:";
  e.samples.push_back({waitingName, {{"engine", "0"}}, waiting, false});
  e.samples.push_back({prefix + (kind == "sglang" ? "num_running_reqs" : "num_requests_running"), {}, 0, false});
  e.samples.push_back({prefix + (kind == "sglang" ? "token_usage" : "kv_cache_usage_perc"), {}, 0.1, false});
  if (kind == "sglang") {
    e.samples.push_back({"sglang:cache_config_info", {{"page_size", "16"}, {"num_pages", "1000"}}, 1, false});
  } else {
    e.samples.push_back({"vllm:cache_config_info", {{"block_size", "16"}, {"num_gpu_blocks", "1000"}}, 1, false});
  }
  return e;
}

// DEV-4: the router reads an engine's samples through llm-d's core metrics extractor, mapped by the endpoint's
// engine type label: a vLLM and an SGLang endpoint each report their queue under their own metric name and the
// queue scorer sees both. An SGLang endpoint publishing vLLM's name lacks the family its mapping reads: as
// llm-d's data layer does (runtime.go logs "endpoint extractor failed"), the error is reported once as a
// warning, the families it could read are updated, and the queue keeps its last value, never read as zero.
TEST(RouterEmbed, MetricsAreExtractedFromSamplesPerEngineType) {
  TestRuntime rt(11);
  auto router = embed::New(std::nullopt, {}, rt);
  std::vector<EndpointState> eps{sampled("serve/0", "vllm", "vllm:num_requests_waiting", 9, 1),
                                 sampled("serve/1", "sglang", "sglang:num_queue_reqs", 0, 1)};
  EXPECT_EQ(router->pick(request("r1", 1000, 64), eps), 1u);
  eps = {sampled("serve/0", "vllm", "vllm:num_requests_waiting", 0, 2),
         sampled("serve/1", "sglang", "sglang:num_queue_reqs", 9, 2)};
  EXPECT_EQ(router->pick(request("r2", 5000, 64), eps), 0u);
  EXPECT_TRUE(embed::SettingsOf(*router).Warnings.empty());
  eps[1] = sampled("serve/1", "sglang", "vllm:num_requests_waiting", 0, 3);
  EXPECT_EQ(router->pick(request("r3", 9000, 64), eps), 0u);  // serve/1 still has 9 queued
  const std::vector<std::string>& w = embed::SettingsOf(*router).Warnings;
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("metric family \"sglang:num_queue_reqs\" not found"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("first on serve/1"), std::string::npos) << w[0];
  // The same error again is not warned twice.
  eps[1] = sampled("serve/1", "sglang", "vllm:num_requests_waiting", 0, 4);
  router->pick(request("r4", 9000, 64), eps);
  EXPECT_EQ(embed::SettingsOf(*router).Warnings.size(), 1u);
}

}  // namespace
}  // namespace blis::router
