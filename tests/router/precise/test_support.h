// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: the fakes of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer_test.go@71f4f099
// (fakeKVCacheIndexer, fakeKVBlockIndex, fakeKVBlockScorer, testEndpoints, freshEndpoints,
// newProducerWithIndexer) and prerequest_test.go@71f4f099 (newProducerForPreRequest, primaryOnly), with a
// runtime whose clock the test sets.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/producer.h"

namespace precisetest {

namespace br = blis::router;
namespace pp = blis::router::preciseprefixcache;
namespace kb = blis::router::kvblock;
namespace fs = blis::router::fwksched;
namespace fdl = blis::router::fwkdl;
namespace ap = blis::router::attrprefix;

using KeyToPods = std::map<kb::BlockHash, std::vector<kb::PodEntry>>;

// A PodEntry literal (Go's kvblock.PodEntry{PodIdentifier: pod, DeviceTier: tier}).
inline kb::PodEntry pe(const std::string& pod, const std::string& tier = "") {
  kb::PodEntry e;
  e.PodIdentifier = pod;
  e.DeviceTier = tier;
  return e;
}

// A runtime whose clock the test moves; random streams refused.
class ClockRuntime final : public br::Runtime {
 public:
  std::int64_t now = 0;
  std::int64_t now_us() const override { return now; }
  br::RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

// producer_test.go fakeKVBlockIndex
class fakeKVBlockIndex final : public kb::Index {
 public:
  std::function<KeyToPods(const std::vector<kb::BlockHash>&, const std::set<std::string>&)> lookup;
  std::function<void(const std::vector<kb::BlockHash>*, const std::vector<kb::BlockHash>&, const std::vector<kb::PodEntry>&)> addFn;
  std::function<void(kb::BlockHash, kb::KeyType, const std::vector<kb::PodEntry>&)> evictFn;
  KeyToPods Lookup(const std::vector<kb::BlockHash>& keys, const std::set<std::string>& podSet) override {
    return lookup ? lookup(keys, podSet) : KeyToPods{};
  }
  void Add(const std::vector<kb::BlockHash>* prevKeys, const std::vector<kb::BlockHash>& keys,
           const std::vector<kb::PodEntry>& entries) override {
    if (addFn) addFn(prevKeys, keys, entries);
  }
  void Evict(kb::BlockHash key, kb::KeyType kt, const std::vector<kb::PodEntry>& entries) override {
    if (evictFn) evictFn(key, kt, entries);
  }
  kb::BlockHash GetRequestKey(kb::BlockHash) override { return kb::EmptyBlockHash; }
  void Clear(const std::string&) override {}
};

// producer_test.go fakeKVCacheIndexer
class fakeKVCacheIndexer final : public pp::kvCacheIndexer {
 public:
  std::function<std::vector<kb::BlockHash>(std::span<const std::uint32_t>, const std::string&, const kb::ExtraFeatures&)>
      computeFromTokens;
  std::shared_ptr<fakeKVBlockIndex> index = std::make_shared<fakeKVBlockIndex>();
  std::vector<kb::BlockHash> ComputeBlockKeysFromTokens(std::span<const std::uint32_t> tokens, const std::string& model,
                                                        const kb::ExtraFeatures& extra) override {
    return computeFromTokens ? computeFromTokens(tokens, model, extra) : std::vector<kb::BlockHash>{};
  }
  std::shared_ptr<kb::Index> KVBlockIndex() override { return index; }
};

// producer_test.go fakeKVBlockScorer
class fakeKVBlockScorer final : public blis::router::kvcache::KVBlockScorer {
 public:
  std::function<std::map<std::string, double>(const std::vector<kb::BlockHash>&, const KeyToPods&)> score;
  blis::router::kvcache::KVScoringStrategy Strategy() const override { return blis::router::kvcache::LongestPrefixMatch; }
  std::map<std::string, double> Score(const std::vector<kb::BlockHash>& keys, const KeyToPods& keyToPods) const override {
    return score ? score(keys, keyToPods) : std::map<std::string, double>{};
  }
};

inline fs::EndpointPtr endpoint(const std::string& name, const std::string& address, const std::string& port) {
  fdl::EndpointMetadata m;
  m.ID.Name = name;
  m.Address = address;
  m.Port = port;
  return fs::NewEndpoint(m, std::nullopt);
}

inline constexpr int testBlockSize = 16;

// producer_test.go freshEndpoints (and testEndpoints, which upstream shares across tests)
inline std::vector<fs::EndpointPtr> freshEndpoints() {
  return {endpoint("pod-a", "10.0.0.1", "8080"), endpoint("pod-b", "10.0.0.2", "8080")};
}

// producer_test.go newProducerWithIndexer
inline std::shared_ptr<pp::Producer> newProducerWithIndexer(std::shared_ptr<pp::kvCacheIndexer> idx,
                                                            std::shared_ptr<blis::router::kvcache::KVBlockScorer> scorer) {
  auto p = std::make_shared<pp::Producer>();
  p->typedName = blis::router::fwkplugin::TypedName{pp::PluginType, "test"};
  p->kvCacheIndexerInst = std::move(idx);
  p->kvBlockScorer = std::move(scorer);
  p->dk = ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("test");
  p->blockSizeTokens = testBlockSize;
  return p;
}

// The PrefixCacheMatchInfo an endpoint carries under the "test" producer's key (nullptr when absent).
inline std::shared_ptr<const ap::PrefixCacheMatchInfo> infoOf(const fs::EndpointPtr& ep, const std::string& producer = "test") {
  auto raw = ep->Get(ap::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(producer).String());
  return std::dynamic_pointer_cast<const ap::PrefixCacheMatchInfo>(raw);
}

inline fs::InferenceRequest tokenRequest(const std::string& id, std::vector<std::vector<std::uint32_t>> prompts,
                                         const std::string& salt = "") {
  fs::InferenceRequest req;
  req.RequestID = id;
  req.TargetModel = "test-model";
  req.Body = std::make_shared<blis::router::fwkrh::InferenceRequestBody>();
  blis::router::fwkrh::TokenizedPrompt tp;
  tp.PerPromptTokens = std::move(prompts);
  tp.CacheSalt = salt;
  req.Body->TokenizedPrompt = tp;
  return req;
}

}  // namespace precisetest
