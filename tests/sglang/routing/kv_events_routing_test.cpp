// SPDX-License-Identifier: Apache-2.0
// Original to BLIS: SGL-5's check routing-page-sizes, end to end with no stand-in between the engine and the pick.
// SGLang's radix cache (engines/sglang/srt/mem_cache/radix_cache.h, radix_cache.py@71de97b2) with KV events
// enabled and its real token allocator stores prompts and evicts them; the events it queues are encoded by the
// engine's codec (engines/sglang/srt/disaggregation/kv_events_codec.h: the three frames SGLang's
// ZmqEventPublisher sends, kv_events.py@71de97b2); those bytes go through llm-d's entry point for a subscriber's
// message (Producer::AddTask, the port of pkg/kvevents/zmq_subscriber.go@71f4f099 addTask) into the pool, the
// SGLang adapter (pkg/kvevents/engineadapter/sglang_adapter.go@71f4f099), the token processor and the in-memory
// KV-block index; the precise-prefix-cache-scorer
// (pkg/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.go@71f4f099) scores a new
// prompt and the max-score picker picks, under the single profile handler.
//
// usage: sglang-kv-events-routing-test [gtest flags] DEPLOYMENT.yaml
// The input (tests/sglang/routing/deployment.yaml) states, per case, the deployment settings the router needs to
// route on SGLang's events, as a deployment sets them:
//  - engine.page_size: SGLang's --page-size.
//  - engine.kv_events_topic: the topic of SGLang's --kv-events-config, with {address} and {model} standing for the
//    server's address and its served model name; llm-d's SGLang adapter takes the model name from the topic's
//    third '@'-separated part, and it keys the block hashes, so it must equal the requests' model.
//  - router: the precise-prefix-cache-scorer's parameters as llm-d's EndpointPickerConfig gives them (read with
//    llm-d's YAML-to-JSON conversion and decoded by the plugin's own factory). tokenProcessorConfig.blockSizeTokens
//    must equal the engine's page size: the pool recomputes the router's block keys from each BlockStored's tokens
//    in blocks of that size, and the query is hashed in the same blocks. kvEventsConfig.engineType = "sglang"
//    selects the SGLang adapter ("" or "vllm" parse vLLM's layout).
// Every test runs every case. A failure is printed by gtest and, at the end, as one line naming the case; the
// program exits 1 when a case fails, 2 when the input cannot be read.
//
// Expected counts are computed from the engine's page size and the prompt lengths: SGLang stores only whole pages
// (insert page-aligns the key), the router hashes only whole blocks of the query, so a prefix of n shared tokens
// gives floor(n / page) blocks.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "router/epp/config/loader/yamljson.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/preciseprefixcache/precise_prefix_cache.h"
#include "router/epp/scheduling/scheduler.h"
#include "router/epp/scheduling/scheduler_profile.h"
#include "router/epp/scheduling/weighted_scorer.h"
#include "srt/disaggregation/kv_events_codec.h"
#include "srt/mem_cache/allocator/paged.h"
#include "srt/mem_cache/allocator/token.h"
#include "srt/mem_cache/radix_cache.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace {

namespace sg = blis::sglang;
namespace br = blis::router;
namespace fs = blis::router::fwksched;
namespace fdl = blis::router::fwkdl;
namespace fp = blis::router::fwkplugin;
namespace sc = blis::router::preciseprefixcachescorer;
namespace ap = blis::router::attrprefix;

using Tokens = std::vector<std::int64_t>;

constexpr const char* kModel = "Qwen/Qwen3-8B";  // the requests' model and the servers' served model name
constexpr const char* kPlugin = "precise";

// One case of the input: the deployment settings routing on SGLang's KV events depends on.
struct Deployment {
  std::string label;      // how findings name the case: its name, or "page size P"
  std::int64_t page = 0;  // engine.page_size (SGLang's --page-size)
  std::string topic;      // engine.kv_events_topic, with {address} and {model} not yet filled in
  nlohmann::json router;  // the precise-prefix-cache-scorer's parameters
};
std::vector<Deployment> g_cases;  // read from the input in main
std::string g_case;               // the case the running test is at, for the one-line findings

// Reads the input. Throws std::runtime_error naming what is wrong.
std::vector<Deployment> load_cases(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = br::loader::YAMLToJSON(text.str());
  if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || doc["cases"].empty())
    throw std::runtime_error("needs a non-empty list 'cases'");
  for (const auto& [key, v] : doc.items())
    if (key != "cases") throw std::runtime_error("unknown key '" + key + "'");
  std::vector<Deployment> out;
  for (std::size_t i = 0; i < doc["cases"].size(); ++i) {
    const nlohmann::json& c = doc["cases"][i];
    const std::string at = "case " + std::to_string(i + 1);
    if (!c.is_object()) throw std::runtime_error(at + " is not a mapping");
    for (const auto& [key, v] : c.items())
      if (key != "name" && key != "engine" && key != "router") throw std::runtime_error(at + ": unknown key '" + key + "'");
    if (!c.contains("engine") || !c["engine"].is_object()) throw std::runtime_error(at + " needs a mapping 'engine'");
    if (!c.contains("router") || !c["router"].is_object()) throw std::runtime_error(at + " needs a mapping 'router'");
    const nlohmann::json& e = c["engine"];
    for (const auto& [key, v] : e.items())
      if (key != "page_size" && key != "kv_events_topic") throw std::runtime_error(at + ": unknown engine key '" + key + "'");
    if (!e.contains("page_size") || !e["page_size"].is_number_integer() || e["page_size"].get<std::int64_t>() < 1)
      throw std::runtime_error(at + ": engine.page_size must be a positive integer");
    if (!e.contains("kv_events_topic") || !e["kv_events_topic"].is_string())
      throw std::runtime_error(at + ": engine.kv_events_topic must be a string");
    Deployment d;
    d.page = e["page_size"].get<std::int64_t>();
    d.topic = e["kv_events_topic"].get<std::string>();
    d.router = c["router"];
    if (c.contains("name")) {
      if (!c["name"].is_string()) throw std::runtime_error(at + ": name must be a string");
      d.label = c["name"].get<std::string>();
    } else {
      d.label = "page size " + std::to_string(d.page);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}
std::string topic_for(const Deployment& d, const std::string& address) {
  return replace_all(replace_all(d.topic, "{address}", address), "{model}", kModel);
}

// What in a case's deployment settings does not fit the engine, for a finding: the router's block size against
// the engine's page size, the adapter the router parses with, and the model name the topic carries.
std::string diagnosis(const Deployment& d) {
  std::string out;
  const nlohmann::json* bs = nullptr;
  if (d.router.contains("tokenProcessorConfig") && d.router["tokenProcessorConfig"].is_object() &&
      d.router["tokenProcessorConfig"].contains("blockSizeTokens"))
    bs = &d.router["tokenProcessorConfig"]["blockSizeTokens"];
  if (bs == nullptr) {
    out += "router tokenProcessorConfig.blockSizeTokens is unset (llm-d's default applies) while the engine's page size is " +
           std::to_string(d.page) + ": ";
  } else if (!bs->is_number_integer() || bs->get<std::int64_t>() != d.page) {
    out += "router blockSizeTokens " + bs->dump() + " does not match the engine's page size " + std::to_string(d.page) + ": ";
  }
  std::string engine_type;
  if (d.router.contains("kvEventsConfig") && d.router["kvEventsConfig"].is_object() &&
      d.router["kvEventsConfig"].contains("engineType") && d.router["kvEventsConfig"]["engineType"].is_string())
    engine_type = d.router["kvEventsConfig"]["engineType"].get<std::string>();
  if (engine_type != "sglang") out += "router kvEventsConfig.engineType is '" + engine_type + "', not 'sglang': ";
  std::vector<std::string> parts;
  std::stringstream topic(topic_for(d, "10.0.0.1:30000"));
  for (std::string part; std::getline(topic, part, '@');) parts.push_back(part);
  if (parts.size() != 3 || parts[2] != kModel)
    out += "the kv-events topic '" + d.topic + "' does not carry the served model name as its third '@' part: ";
  return out;
}

// Distinct token ranges, so two prompts agree exactly where they were built to.
Tokens run(std::int64_t first, std::int64_t n) {
  Tokens t;
  for (std::int64_t i = 0; i < n; ++i) t.push_back(first + i);
  return t;
}
Tokens cat(Tokens a, const Tokens& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
Tokens head(const Tokens& t, std::int64_t n) { return Tokens(t.begin(), t.begin() + n); }

// The prompts every test uses (lengths in tokens):
//   S: the shared prefix, 56 tokens (3.5 pages of 16, 1.75 pages of 32).
//   P1 = S + X and P2 = S + Y (X, Y: 40 tokens each, differing from their first token): stored on pod A.
//   PB = S[:24] + W (W: 40 tokens): stored on pod B.
//   Q = S + X[:20] + Z (Z: 30 new tokens, 106 in all): the new request. It shares 76 tokens with P1, 56 with
//   P2 and 24 with PB.
constexpr std::int64_t kShared = 56, kTail = 40, kQueryX = 20, kQueryNew = 30, kSharedB = 24;
const Tokens S = run(1000, kShared);
const Tokens X = run(2000, kTail);
const Tokens Y = run(3000, kTail);
const Tokens W = run(5000, kTail);
const Tokens P1 = cat(S, X);
const Tokens P2 = cat(S, Y);
const Tokens PB = cat(head(S, kSharedB), W);
const Tokens Q = cat(cat(S, head(X, kQueryX)), run(4000, kQueryNew));

std::vector<std::uint32_t> u32(const Tokens& t) { return std::vector<std::uint32_t>(t.begin(), t.end()); }

// One SGLang server: its radix cache with KV events enabled, over the allocator SGLang builds for the page size
// (TokenToKVPoolAllocator at page size 1, PagedTokenToKVPoolAllocator above), publishing as ZmqEventPublisher
// does on the topic llm-d's SGLang guide configures.
struct SglangServer {
  std::int64_t page;
  std::string topic;
  std::unique_ptr<sg::BaseTokenToKVPoolAllocator> allocator;
  std::unique_ptr<sg::RadixCache> cache;
  std::uint64_t seq = 0;

  SglangServer(const Deployment& d, const std::string& address) : page(d.page), topic(topic_for(d, address)) {
    constexpr std::int64_t kPoolTokens = 4096;
    if (page == 1) {
      allocator = std::make_unique<sg::TokenToKVPoolAllocator>(kPoolTokens, false);
    } else {
      allocator = std::make_unique<sg::PagedTokenToKVPoolAllocator>(kPoolTokens, page, false);
    }
    cache = sg::RadixCache::create_simulated(false, allocator.get(), page, true);
  }

  // A finished request's prompt cached as cache_finished_req does: KV slots for its whole pages, inserted, and
  // the slots of the part already in the tree freed (the tree keeps its own).
  void store(const Tokens& prompt) {
    const std::int64_t aligned = static_cast<std::int64_t>(prompt.size()) / page * page;
    std::optional<sg::IndexVector> slots = allocator->alloc(aligned);
    ASSERT_TRUE(slots.has_value());
    sg::InsertParams p;
    p.key = sg::RadixKey(prompt);
    p.value = *slots;
    const sg::InsertResult r = cache->insert(p);
    if (r.prefix_len > 0) allocator->free(std::span<const std::int64_t>(slots->data(), static_cast<std::size_t>(r.prefix_len)));
  }

  std::vector<sg::KVCacheEvent> drain() { return cache->take_events(); }

  // The frames of one publication of `events`, as SGLang's publisher sends them.
  std::array<std::string, 3> publish(std::vector<sg::KVCacheEvent> events) {
    sg::KVEventBatch batch;
    batch.ts = 100.0 + static_cast<double>(seq);
    batch.events = std::move(events);
    return sg::publish_frames(topic, seq++, std::move(batch), 0);
  }
};

std::vector<sg::BlockStored> stored_of(const std::vector<sg::KVCacheEvent>& events) {
  std::vector<sg::BlockStored> out;
  for (const auto& e : events)
    if (const auto* s = std::get_if<sg::BlockStored>(&e)) out.push_back(*s);
  return out;
}
std::vector<sg::BlockRemoved> removed_of(const std::vector<sg::KVCacheEvent>& events) {
  std::vector<sg::BlockRemoved> out;
  for (const auto& e : events)
    if (const auto* r = std::get_if<sg::BlockRemoved>(&e)) out.push_back(*r);
  return out;
}

// llm-d's adapter (getHashAsUint64, faithfully ported) accepts only the int64/uint64 msgpack forms, and msgspec
// writes a hash in -2^31 <= h < 2^32 in a shorter form, which the adapter refuses ("unsupported hash type"),
// dropping the whole message. SGLang's hashes are the first 8 bytes of a SHA-256, so that happens with
// probability about 1.5 * 2^-32 per hash; the fixed prompts here avoid it, and this says so if it ever changes.
void expect_long_form(const std::vector<std::int64_t>& hashes) {
  for (std::int64_t h : hashes) {
    EXPECT_FALSE(h >= -2147483648LL && h < 4294967296LL)
        << "hash " << h << " is written as a short msgpack int, which llm-d's SGLang adapter refuses";
  }
}

std::uint64_t be_u64(const std::string& s) {
  std::uint64_t v = 0;
  for (unsigned char c : s) v = (v << 8) | c;
  return v;
}

// A runtime with a fixed clock (nothing here reads it but the producer's unused speculative TTL).
class FixedRuntime final : public br::Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  br::RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream: " + std::string(purpose));
  }
};

// The router: the precise-prefix-cache-scorer (its own producer, KV-block index and pool) with the case's
// parameters, as a profile's only scorer before the max-score picker.
struct Router {
  FixedRuntime runtime;
  fp::Handle handle{runtime};
  br::testing::SplitMixStream rand{7};
  std::shared_ptr<sc::Plugin> plugin;
  std::shared_ptr<br::scheduling::Scheduler> scheduler;

  explicit Router(const nlohmann::json& parameters) {
    nlohmann::json params = parameters;
    plugin = std::dynamic_pointer_cast<sc::Plugin>(sc::PluginFactory(kPlugin, &params, handle));
    if (plugin == nullptr) throw std::logic_error("precise-prefix-cache-scorer did not build");
    auto profile = br::scheduling::NewSchedulerProfile();
    const auto err = profile->AddPlugins({br::scheduling::NewWeightedScorer(plugin, 1.0),
                                          br::maxscore::NewMaxScorePicker(br::picker::DefaultMaxNumOfEndpoints, rand)});
    if (err.has_value()) throw std::logic_error("profile refused its plugins");
    scheduler = std::make_shared<br::scheduling::Scheduler>(br::single::NewSingleProfileHandler(),
                                                            fs::ProfileMap{{"default", profile}});
  }

  // What the host does with one ZMQ message of an engine: hand its frames to the subscriber's addTask under the
  // pod identifier of the endpoint that engine serves.
  void deliver(const std::array<std::string, 3>& frames, const std::string& pod) {
    plugin->Producer()->AddTask(frames[0], be_u64(frames[1]), frames[2], pod);
  }

  struct Outcome {
    std::map<std::string, int> match_blocks;  // per endpoint: PrefixCacheMatchInfo.MatchBlocks
    int total_blocks = -1;
    std::map<std::string, double> scores;  // per endpoint: the scorer's score
    std::string picked;
  };

  // As the director does per request: Produce, then Schedule; the scores read from the scorer directly too.
  Outcome route(const Tokens& prompt) {
    std::vector<fs::EndpointPtr> eps = {endpoint("pool/a"), endpoint("pool/b")};
    fs::InferenceRequest req;
    req.RequestID = "q";
    req.TargetModel = kModel;
    req.Body = std::make_shared<br::fwkrh::InferenceRequestBody>();
    br::fwkrh::TokenizedPrompt tp;
    tp.PerPromptTokens = {u32(prompt)};
    req.Body->TokenizedPrompt = tp;
    Outcome out;
    EXPECT_FALSE(plugin->Produce(&req, eps).has_value());
    for (const auto& ep : eps) {
      const std::string name = ep->GetMetadata()->Name;
      auto info = std::dynamic_pointer_cast<const ap::PrefixCacheMatchInfo>(
          ep->Get(ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(kPlugin).String()));
      if (info == nullptr) {
        ADD_FAILURE() << "no PrefixCacheMatchInfo on " << name;
        continue;
      }
      out.match_blocks[name] = info->MatchBlocks();
      out.total_blocks = info->TotalBlocks();
    }
    for (const auto& [ep, score] : plugin->Score(&req, eps)) out.scores[ep->GetMetadata()->Name] = score;
    const auto result = scheduler->Schedule(&req, eps);
    EXPECT_FALSE(result.Err.has_value());
    if (result.Value != nullptr) {
      const auto& primary = result.Value->ProfileResults.at(result.Value->PrimaryProfileName);
      if (primary != nullptr && !primary->TargetEndpoints.empty())
        out.picked = primary->TargetEndpoints[0]->GetMetadata()->Name;
    }
    return out;
  }

  static fs::EndpointPtr endpoint(const std::string& name) {
    fdl::EndpointMetadata m;
    m.ID.Namespace = "default";
    m.ID.Name = name;
    m.Name = name;  // no address: the pod identifier is the BLIS endpoint's name
    return fs::NewEndpoint(m, fdl::Metrics{});
  }
};

std::int64_t pages(std::int64_t tokens, std::int64_t page) { return tokens / page; }

// The expected scorer outcome for a prompt of `len` tokens when pod A holds `a` leading blocks of it and pod B `b`
// (nullopt: B not checked), at the engine's page size; `picked` is the expected pick (nullopt: not checked).
// Every difference goes into one finding: `what` was routed, what in the deployment does not fit, and each count,
// score or pick that differs (a score only where its count is right: a wrong count gives a wrong score).
void expect_match(const Router::Outcome& got, const Deployment& d, std::int64_t len, std::int64_t a,
                  std::optional<std::int64_t> b, const std::optional<std::string>& picked, const std::string& what) {
  const std::int64_t total = pages(len, d.page);
  std::vector<std::string> wrong;
  if (got.total_blocks != total)
    wrong.push_back("the router hashes the prompt into " + std::to_string(got.total_blocks) + " blocks, the engine into " +
                    std::to_string(total) + " pages");
  std::vector<std::tuple<const char*, const char*, std::int64_t>> pods = {{"A", "pool/a", a}};
  if (b.has_value()) pods.emplace_back("B", "pool/b", *b);
  for (const auto& [pod, ep, want] : pods) {
    const auto m = got.match_blocks.find(ep);
    if (m == got.match_blocks.end()) {
      wrong.push_back(std::string("pod ") + pod + " has no prefix match info");
      continue;
    }
    if (m->second != want) {
      wrong.push_back(std::string("pod ") + pod + " matched " + std::to_string(m->second) + " of " +
                      std::to_string(got.total_blocks) + " blocks, expected " + std::to_string(want) + " of " +
                      std::to_string(total));
      continue;
    }
    if (got.total_blocks != total) continue;
    const double want_score = static_cast<double>(want) / static_cast<double>(total);
    const auto sc = got.scores.find(ep);
    if (sc == got.scores.end()) {
      wrong.push_back(std::string("pod ") + pod + " has no score");
    } else if (!testing::internal::FloatingPoint<double>(sc->second)
                    .AlmostEquals(testing::internal::FloatingPoint<double>(want_score))) {
      std::ostringstream o;
      o << "pod " << pod << " scored " << sc->second << ", expected " << want_score;
      wrong.push_back(o.str());
    }
  }
  if (picked.has_value() && got.picked != *picked)
    wrong.push_back((got.picked.empty() ? std::string("no endpoint picked") : "picked " + got.picked) + ", expected " + *picked);
  if (wrong.empty()) return;
  std::string line = what + ": " + diagnosis(d);
  for (std::size_t i = 0; i < wrong.size(); ++i) line += (i ? "; " : "") + wrong[i];
  ADD_FAILURE() << line;
}

// The same for the new prompt Q, with both pods and the pick checked.
void expect_route(const Router::Outcome& got, const Deployment& d, std::int64_t a, std::int64_t b,
                  const std::string& picked, const std::string& what) {
  expect_match(got, d, static_cast<std::int64_t>(Q.size()), a, b, picked, what);
}

// Pod A stores P1 then P2, pod B stores PB; every event goes through the codec's bytes into the router.
// Returns the engine-side events of pod A's two stores (for the tests that look at them).
struct Cluster {
  std::int64_t page;
  SglangServer a, b;
  Router router;
  std::vector<sg::KVCacheEvent> a_store_p1, a_store_p2;

  explicit Cluster(const Deployment& d)
      : page(d.page), a(d, "10.0.0.1:30000"), b(d, "10.0.0.2:30000"), router(d.router) {
    a.store(P1);
    a_store_p1 = a.drain();
    router.deliver(a.publish(a_store_p1), "pool/a");
    a.store(P2);
    a_store_p2 = a.drain();
    router.deliver(a.publish(a_store_p2), "pool/a");
    b.store(PB);
    router.deliver(b.publish(b.drain()), "pool/b");
  }
};

// Every case of the input; tests/sglang/routing/deployment.yaml has page sizes 1 (SGLang's default), 16 and 32 (at
// or above the 16 llm-d's guides use), each with the router's block size set to it. At each, a new prompt
// that shares 76 tokens with what pod A stored and 24 with what pod B stored matches floor(76/page) blocks on A
// and floor(24/page) on B out of floor(106/page), scores match/total on each, and is routed to A. At page 16
// the shared prefix is not a multiple of the page (76 = 4 pages + 12; 24 = 1 page + 8): the partial pages are
// not stored by SGLang nor hashed by the router, so the counts round down (4 and 1 of 6).
TEST(SglangKvEventsRouting, RoutesToThePodHoldingTheLongestPrefixAtEachPageSize) {
  for (const Deployment& d : g_cases) {
    SCOPED_TRACE(d.label);
    g_case = d.label;
    const std::int64_t page = d.page;
    Cluster c(d);
    const auto got = c.router.route(Q);
    expect_route(got, d, pages(kShared + kQueryX, page), pages(kSharedB, page), "pool/a", "routing the new prompt");
    // The same, written out: 76/16 -> 4, 24/16 -> 1 of 106/16 -> 6.
    if (page == 16) expect_route(got, d, 4, 1, "pool/a", "routing the new prompt (counts written out)");
  }
}

// A merged BlockStored is indexed as several blocks. SGLang queues one BlockStored per page and merges each page
// continuing the previous event's chain into it, so storing P1 (96 tokens) publishes one BlockStored carrying
// all floor(96/page) pages, parentless; storing P2 splits P1's node at the page-aligned common prefix
// (floor(56/page) pages) and publishes one BlockStored of P2's remaining pages whose parent is the hash of the
// last shared page. The router resolves that parent and indexes every page of both events: Q's first
// floor(76/page) blocks are held by A (more than the one block a router indexing only an event's first hash
// would give), and P2 itself is held by A in full.
TEST(SglangKvEventsRouting, MergedBlockStoredIsIndexedAsSeveralBlocks) {
  for (const Deployment& d : g_cases) {
    SCOPED_TRACE(d.label);
    g_case = d.label;
    const std::int64_t page = d.page;
    Cluster c(d);
    const std::int64_t p1_pages = pages(static_cast<std::int64_t>(P1.size()), page);
    const std::int64_t split_pages = pages(kShared, page);  // X[0] != Y[0]: the common prefix ends inside page split_pages

    // Engine side: the cache's start-up AllBlocksCleared, then one merged BlockStored for P1.
    ASSERT_EQ(c.a_store_p1.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<sg::AllBlocksCleared>(c.a_store_p1[0]));
    const auto s1 = stored_of(c.a_store_p1);
    ASSERT_EQ(s1.size(), 1u);
    EXPECT_EQ(static_cast<std::int64_t>(s1[0].block_hashes.size()), p1_pages);
    EXPECT_EQ(static_cast<std::int64_t>(s1[0].token_ids.size()), p1_pages * page);
    EXPECT_EQ(s1[0].block_size, page);
    EXPECT_EQ(s1[0].parent_block_hash, std::nullopt);
    expect_long_form(s1[0].block_hashes);

    ASSERT_EQ(c.a_store_p2.size(), 1u);
    const auto s2 = stored_of(c.a_store_p2);
    ASSERT_EQ(s2.size(), 1u);
    EXPECT_EQ(static_cast<std::int64_t>(s2[0].block_hashes.size()),
              pages(static_cast<std::int64_t>(P2.size()), page) - split_pages);
    ASSERT_TRUE(s2[0].parent_block_hash.has_value());
    EXPECT_EQ(*s2[0].parent_block_hash, s1[0].block_hashes.at(static_cast<std::size_t>(split_pages - 1)));
    expect_long_form(s2[0].block_hashes);
    expect_long_form({*s2[0].parent_block_hash});

    // Router side: Q's shared blocks, and P2 in full (its tail indexed under the resolved parent).
    const auto p2_len = static_cast<std::int64_t>(P2.size());
    expect_match(c.router.route(Q), d, static_cast<std::int64_t>(Q.size()), pages(kShared + kQueryX, page), std::nullopt,
                 std::nullopt, "routing the new prompt");
    expect_match(c.router.route(P2), d, p2_len, pages(p2_len, page), std::nullopt, "pool/a",
                 "routing P2, which pod A holds in full");
  }
}

// Evictions lower the scores. Pod A first evicts its least recently used leaf, P1's tail (X's node): one
// BlockRemoved of that node's pages, and Q now matches A only up to the page-aligned split, floor(56/page)
// blocks (56, 3 and 1 at pages 1, 16 and 32), still more than B's floor(24/page) (24, 1 and 0), so A is still
// picked. Then A evicts the rest: P2's tail and, once it has no child left, the shared node; SGLang merges the
// two consecutive BlockRemoved into one event carrying both nodes' pages, and the router removes every one of
// them: A matches nothing, and Q goes to B (at page 32 B holds no whole block of Q either: a tie, not asserted).
TEST(SglangKvEventsRouting, EvictionsAndMergedBlockRemovedLowerTheScores) {
  for (const Deployment& d : g_cases) {
    SCOPED_TRACE(d.label);
    g_case = d.label;
    const std::int64_t page = d.page;
    Cluster c(d);
    const auto p1_hashes = stored_of(c.a_store_p1).at(0).block_hashes;
    const auto p2_tail_hashes = stored_of(c.a_store_p2).at(0).block_hashes;
    const auto split = static_cast<std::ptrdiff_t>(pages(kShared, page));
    const std::vector<std::int64_t> shared_hashes(p1_hashes.begin(), p1_hashes.begin() + split);
    const std::vector<std::int64_t> x_hashes(p1_hashes.begin() + split, p1_hashes.end());

    // One leaf: X's node.
    sg::EvictParams one;
    one.num_tokens = 1;
    c.a.cache->evict(one);
    const auto ev1 = c.a.drain();
    ASSERT_EQ(ev1.size(), 1u);
    ASSERT_EQ(removed_of(ev1).size(), 1u);
    EXPECT_EQ(removed_of(ev1)[0].block_hashes, x_hashes);
    c.router.deliver(c.a.publish(ev1), "pool/a");
    const auto after1 = c.router.route(Q);
    expect_route(after1, d, pages(kShared, page), pages(kSharedB, page), "pool/a", "routing the new prompt after one eviction");

    // Everything else: Y's node, then the shared node, in one merged BlockRemoved.
    sg::EvictParams all;
    all.num_tokens = 1 << 20;
    c.a.cache->evict(all);
    const auto ev2 = c.a.drain();
    ASSERT_EQ(ev2.size(), 1u);
    const auto r2 = removed_of(ev2);
    ASSERT_EQ(r2.size(), 1u);
    std::vector<std::int64_t> want = p2_tail_hashes;
    want.insert(want.end(), shared_hashes.begin(), shared_hashes.end());
    EXPECT_EQ(r2[0].block_hashes, want);
    c.router.deliver(c.a.publish(ev2), "pool/a");
    const auto after2 = c.router.route(Q);
    if (pages(kSharedB, page) > 0) {
      expect_route(after2, d, 0, pages(kSharedB, page), "pool/b", "routing the new prompt after evicting everything");
    } else {
      EXPECT_EQ(after2.match_blocks.at("pool/a"), 0);
      EXPECT_EQ(after2.match_blocks.at("pool/b"), 0);
    }
    // P2 is gone from A too (its tail and its shared pages were both in the merged event).
    expect_match(c.router.route(P2), d, static_cast<std::int64_t>(P2.size()), 0, std::nullopt, std::nullopt,
                 "routing P2 after pod A evicted everything");
  }
}

// Collects each failure as one line naming its case, printed after the tests.
class Findings : public testing::EmptyTestEventListener {
 public:
  std::vector<std::string> lines;
  std::set<std::string> cases;

  void OnTestStart(const testing::TestInfo& info) override {
    g_case.clear();
    test_ = info.name();  // (UnitTest::current_test_info would wait on the lock AddTestPartResult holds)
  }
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::string msg = r.message();
    if (const auto cut = msg.find("\nGoogle Test trace:"); cut != std::string::npos) msg.resize(cut);
    const bool ours = msg.rfind("Failed\n", 0) == 0;  // ADD_FAILURE's one-line finding
    if (ours) msg.erase(0, 7);
    std::string line;
    bool gap = false;
    for (char ch : msg) {
      if (ch == '\n' || ch == ' ' || ch == '\t') {
        gap = !line.empty();
      } else {
        if (gap) line += ' ';
        gap = false;
        line += ch;
      }
    }
    if (!ours && r.file_name() != nullptr) {
      std::string file = r.file_name();
      file = file.substr(file.find_last_of('/') + 1);
      line += " (" + file + ":" + std::to_string(r.line_number()) + ")";
    }
    lines.push_back((g_case.empty() ? test_ : g_case) + ": " + line);
    cases.insert(g_case);
  }

 private:
  std::string test_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: sglang-kv-events-routing-test [gtest flags] DEPLOYMENT.yaml\n");
    return 2;
  }
  try {
    g_cases = load_cases(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 2;
  }
  auto* findings = new Findings;  // the listener list owns it
  testing::UnitTest::GetInstance()->listeners().Append(findings);
  const int rc = RUN_ALL_TESTS();
  for (const auto& line : findings->lines) std::printf("sglang-kv-events-routing: %s [SGL-5]\n", line.c_str());
  if (rc != 0 || !findings->lines.empty()) {
    std::printf("sglang-kv-events-routing: %zu finding(s) in %zu of %zu case(s)\n", findings->lines.size(),
                findings->cases.size(), g_cases.size());
    return 1;
  }
  std::printf("sglang-kv-events-routing: %zu case(s) route correctly\n", g_cases.size());
  return 0;
}
