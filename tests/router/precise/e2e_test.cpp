// SPDX-License-Identifier: Apache-2.0
// Original to BLIS: end to end, engine KV events encoded by the vLLM port's codec
// (engines/vllm/distributed/kv_events_codec.h, the bytes vLLM's ZmqEventPublisher sends) fed through the host's
// entry point Producer::AddTask (the port of pkg/kvevents/zmq_subscriber.go@71f4f099 zmqSubscriber.addTask) make the
// precise-prefix-cache-scorer (pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099)
// prefer the BLIS endpoint ("<pool>/<instance>", no address) holding the request's blocks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "distributed/kv_events_codec.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "test_support.h"

using namespace precisetest;
namespace fp = blis::router::fwkplugin;
namespace sc = blis::router::preciseprefixcachescorer;
namespace vl = blis::vllm;

namespace {
// Engine block hashes are 64-bit values: a small one is a msgpack fixint, which upstream's getHashAsUint64 refuses
// ("unsupported hash type: int8"), faithfully ported.
constexpr std::uint64_t H = 0x9E3779B97F4A7C15ULL;
std::uint64_t beU64(const std::string& s) {
  std::uint64_t v = 0;
  for (unsigned char c : s) v = (v << 8) | c;
  return v;
}
fs::EndpointPtr blisEndpoint(const std::string& name) {
  fdl::EndpointMetadata m;
  m.ID.Namespace = "default";
  m.ID.Name = name;
  m.Name = name;
  return fs::NewEndpoint(m, fdl::Metrics{});
}
vl::BlockStored stored(std::vector<vl::ExternalBlockHash> hashes, std::optional<vl::ExternalBlockHash> parent,
                       std::vector<std::int32_t> tokens, const char* medium) {
  vl::BlockStored s;
  s.block_hashes = std::move(hashes);
  s.parent_block_hash = std::move(parent);
  s.token_ids = std::move(tokens);
  s.block_size = 16;
  s.medium = medium;
  return s;
}
// What the host does with one engine's ZMQ message: the three frames, and the endpoint's pod identifier.
void deliver(sc::Plugin& plugin, const std::array<std::string, 3>& frames, const std::string& podIdentifier) {
  plugin.Producer()->AddTask(frames[0], beU64(frames[1]), frames[2], podIdentifier);
}
double scoreOf(const fs::ScoreMap& scores, const fs::EndpointPtr& ep) {
  auto it = scores.find(ep);
  return it == scores.end() ? -1.0 : it->second;
}
}  // namespace

TEST(PrecisePrefixE2E, EngineEventsThroughAddTaskMakeTheScorerPreferTheHolder) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto params = nlohmann::json::parse(R"({"tokenProcessorConfig":{"blockSizeTokens":16}})");
  auto plugin = std::dynamic_pointer_cast<sc::Plugin>(sc::PluginFactory("precise", &params, handle));
  ASSERT_NE(plugin, nullptr);

  const std::string model = "meta-llama/Llama-3.1-8B";
  std::vector<std::int32_t> prompt;
  for (int i = 0; i < 64; ++i) prompt.push_back(1000 + i);  // four full blocks
  const std::vector<std::uint32_t> promptU(prompt.begin(), prompt.end());

  // instance-1 holds all four blocks (two batches chained by parent hash); instance-2 the first block only.
  vl::KVEventBatch a1, a2, b1;
  a1.events.push_back(stored({H + 11, H + 12}, std::nullopt, {prompt.begin(), prompt.begin() + 32}, vl::MEDIUM_GPU));
  a2.events.push_back(stored({H + 13, H + 14}, vl::ExternalBlockHash{H + 12}, {prompt.begin() + 32, prompt.end()}, vl::MEDIUM_GPU));
  b1.events.push_back(stored({H + 21}, std::nullopt, {prompt.begin(), prompt.begin() + 16}, vl::MEDIUM_GPU));
  deliver(*plugin, vl::publish_frames("kv@10.1.0.1:8000@" + model, 0, a1, 0), "pool/instance-1");
  deliver(*plugin, vl::publish_frames("kv@10.1.0.1:8000@" + model, 1, a2, 0), "pool/instance-1");
  deliver(*plugin, vl::publish_frames("kv@10.1.0.2:8000@" + model, 0, b1, 0), "pool/instance-2");

  std::vector<fs::EndpointPtr> eps = {blisEndpoint("pool/instance-0"), blisEndpoint("pool/instance-1"),
                                      blisEndpoint("pool/instance-2")};
  auto req = tokenRequest("r1", {promptU});
  req.TargetModel = model;
  ASSERT_FALSE(plugin->Produce(&req, eps).has_value());
  EXPECT_EQ(infoOf(eps[1], "precise")->MatchBlocks(), 4);
  EXPECT_EQ(infoOf(eps[2], "precise")->MatchBlocks(), 1);
  EXPECT_EQ(infoOf(eps[0], "precise")->MatchBlocks(), 0);
  auto scores = plugin->Score(&req, eps);
  EXPECT_DOUBLE_EQ(scoreOf(scores, eps[1]), 1.0);
  EXPECT_DOUBLE_EQ(scoreOf(scores, eps[2]), 0.25);
  EXPECT_DOUBLE_EQ(scoreOf(scores, eps[0]), 0.0);

  // Another model's request does not match (the topic's model name keys the hashes).
  auto other = tokenRequest("r2", {promptU});
  other.TargetModel = "other-model";
  auto eps2 = std::vector<fs::EndpointPtr>{blisEndpoint("pool/instance-1")};
  ASSERT_FALSE(plugin->Produce(&other, eps2).has_value());
  EXPECT_EQ(infoOf(eps2[0], "precise")->MatchBlocks(), 0);

  // instance-1 evicts its second block: its prefix now stops after one block, as instance-2's.
  vl::KVEventBatch rm;
  vl::BlockRemoved removed;
  removed.block_hashes = {H + 12};
  removed.medium = vl::MEDIUM_GPU;
  rm.events.push_back(removed);
  deliver(*plugin, vl::publish_frames("kv@10.1.0.1:8000@" + model, 2, rm, 0), "pool/instance-1");
  auto eps3 = std::vector<fs::EndpointPtr>{blisEndpoint("pool/instance-1"), blisEndpoint("pool/instance-2")};
  auto req3 = tokenRequest("r3", {promptU});
  req3.TargetModel = model;
  ASSERT_FALSE(plugin->Produce(&req3, eps3).has_value());
  auto scores3 = plugin->Score(&req3, eps3);
  EXPECT_DOUBLE_EQ(scoreOf(scores3, eps3[0]), 0.25);
  EXPECT_DOUBLE_EQ(scoreOf(scores3, eps3[1]), 0.25);
}

// The split configuration llm-d recommends: a precise-prefix-cache-producer plus a prefix-cache-scorer whose
// prefixMatchInfoProducerName names it, fed the same way.
TEST(PrecisePrefixE2E, ProducerPlusPrefixCacheScorer) {
  ClockRuntime rt;
  fp::Handle handle(rt);
  auto producer = std::dynamic_pointer_cast<pp::Producer>(pp::PluginFactory("pp", nullptr, handle));
  ASSERT_NE(producer, nullptr);
  auto scorer = blis::router::prefix::New("prefix-cache-scorer", "pp");
  std::vector<std::int32_t> prompt;
  for (int i = 0; i < 32; ++i) prompt.push_back(7 + i);
  const std::vector<std::uint32_t> promptU(prompt.begin(), prompt.end());
  vl::KVEventBatch b;
  b.events.push_back(stored({H + 5, H + 6}, std::nullopt, prompt, vl::MEDIUM_CPU));
  auto frames = vl::publish_frames("kv@x@m", 0, b, 0);
  producer->AddTask(frames[0], beU64(frames[1]), frames[2], "pool/instance-2");

  std::vector<fs::EndpointPtr> eps = {blisEndpoint("pool/instance-1"), blisEndpoint("pool/instance-2")};
  auto req = tokenRequest("r", {promptU});
  req.TargetModel = "m";
  ASSERT_FALSE(producer->Produce(&req, eps).has_value());
  auto info = infoOf(eps[1], "pp");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->MatchBlocks(), 1);  // int(2 blocks x cpu weight 0.8 = 1.6)
  EXPECT_EQ(info->CachedBlockCount(), 2);
  EXPECT_EQ(info->CachedBlocksByTier()->at("cpu"), 2);
  auto scores = scorer->Score(&req, eps);
  EXPECT_GT(scoreOf(scores, eps[1]), scoreOf(scores, eps[0]));
  EXPECT_DOUBLE_EQ(scoreOf(scores, eps[0]), 0.0);
}
