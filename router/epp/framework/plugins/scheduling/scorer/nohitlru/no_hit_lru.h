// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099;
// single-threaded (the LRU is approximateprefix/lru.h, golang-lru's semantics without locks); logging is not
// ported; PreRequest is a method (the requestcontrol.PreRequest
// interface is not ported); no Go context.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/lru.h"

namespace blis::router::nohitlru {

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRUType
inline constexpr const char* NoHitLRUType = "no-hit-lru-scorer";
// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 defaultLRUSize
inline constexpr int defaultLRUSize = 1024;
// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 defaultPrefillProfile
inline constexpr const char* defaultPrefillProfile = "prefill";
// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 maxDebugDumpEndpoints
inline constexpr int maxDebugDumpEndpoints = 100;

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 Parameters
struct Parameters {
  std::string PrefixPluginType;  // deprecated upstream: never used
  std::string PrefixPluginName;  // deprecated upstream: never used
  int LRUSize = 0;               // the maximum number of endpoints tracked (<= 0: defaultLRUSize)
  std::string PrefixMatchInfoProducerName;  // the producer of PrefixCacheMatchInfo ("" for the default)
};

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 coldRequestState
struct coldRequestState {
  bool isCold = false;
};

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU
// Favours, for cold requests (no endpoint reports a prefix-cache hit), the endpoints least recently picked
// for a cold request; neutral (0.5) scores otherwise. PreRequest records the picked endpoint(s).
class NoHitLRU final : public fwksched::Scorer, public fwkplugin::ConsumerPlugin {
 public:
  // Go's zero value &NoHitLRU{} (no LRU cache), which upstream's DumpState test uses.
  NoHitLRU() = default;
  NoHitLRU(const std::string& name, int lruSize, const std::string& producerName);

  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Category (Distribution)
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Score
  // Writes the request's cold state for PreRequest. A nullptr request or an endpoint without metadata (nil
  // dereferences upstream) is refused with std::invalid_argument.
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.PreRequest
  // (upstream's error result is always nil). For a cold request, moves the first target endpoint of the
  // primary profile, then of the "prefill" profile, to the most-recent end of the LRU; then drops the
  // request's state. schedulingResult may be nullptr (Go's nil); a nullptr request with a non-empty result
  // (a nil dereference upstream) is refused with std::invalid_argument.
  void PreRequest(const fwksched::InferenceRequest* request, const fwksched::SchedulingResult* schedulingResult);
  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.DumpState
  // The JSON bytes Go's json.Marshal(noHitLRUState) writes (its error result is always nil).
  std::string DumpState() const;

  // The per-request state (Go's unexported pluginState), for tests that check it does not leak.
  const fwkplugin::PluginState& pluginState() const { return pluginState_; }

  // pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NoHitLRU.Consumes
  // Required: the prefix match info key it reads.
  fwkplugin::DataDependencies Consumes() const override;

 private:
  using Cache = approximateprefix::LRU<std::string, bool>;
  bool isColdRequest(const std::vector<fwksched::EndpointPtr>& endpoints) const;
  fwksched::ScoreMap scoreNeutral(const std::vector<fwksched::EndpointPtr>& endpoints) const;
  fwksched::ScoreMap scoreColdRequestByLRU(const std::vector<fwksched::EndpointPtr>& endpoints) const;
  void moveTargetPodToFront(const fwksched::ProfileRunResult& targetProfile);

  fwkplugin::TypedName typedName_;
  std::optional<Cache> lruCache_;  // endpoint ID string -> dummy (only the order matters); nullopt: Go's nil
  fwkplugin::PluginState pluginState_;
  fwkplugin::DataKey dk_;
};

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 NewNoHitLRU
// params may be nullptr (Go's nil: the defaults).
std::shared_ptr<NoHitLRU> NewNoHitLRU(const std::string& name, const Parameters* params);

// pkg/epp/framework/plugins/scheduling/scorer/nohitlru/no_hit_lru.go@71f4f099 Factory
// Throws fwkplugin::PluginError with upstream's text when the parameters do not decode.
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

}  // namespace blis::router::nohitlru
