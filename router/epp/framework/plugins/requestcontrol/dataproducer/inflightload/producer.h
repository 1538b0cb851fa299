// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099;
// single-threaded (plain counters where Go uses atomics and locks); the endpoint-notification data source is
// not ported, so RegisterDependencies is not either: the host calls Extract itself on endpoint add/update and
// delete (EndpointEvent below); the PluginState janitor (staleness reaping, Touch, BindLiveness) is not ported:
// the host must deliver ResponseBody with EndOfStream for every request PreRequest tracked (it is the only
// release); Prometheus metrics (metrics.go), logging and CrossReplicaState (one router here) are not ported;
// SyncCrossReplicaState is decoded and kept only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/requestcontrol/plugins.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.h"

namespace blis::router::inflightload {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducerType
inline constexpr std::string_view InFlightLoadProducerType = inflightloadconstants::InFlightLoadProducerType;
// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 profilePrefill
inline constexpr const char* profilePrefill = "prefill";
// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 maxDebugDumpEndpoints
inline constexpr int maxDebugDumpEndpoints = 100;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 Config
// (std::nullopt where Go's pointer field is nil).
struct Config {
  bool AddEstimatedOutputTokens = false;
  std::optional<double> OutputRatio;
  std::optional<std::int64_t> MaxEstimatedOutputTokens;
  std::string PrefixMatchInfoProducerName;
  std::optional<bool> SyncCrossReplicaState;
};

// pkg/epp/framework/interface/datalayer (EndpointEvent, EventType)@71f4f099: the endpoint lifecycle event the
// notification source delivers to Extract; declared here because that source is not ported.
enum class EventType { EventAddOrUpdate, EventDelete };
struct EndpointEvent {
  EventType Type = EventType::EventAddOrUpdate;
  fwksched::EndpointPtr Endpoint;  // nullptr is Go's nil
};

// A tracker counter instance; a request keeps the instance it incremented (see addedTokensEntry).
using counterPtr = std::shared_ptr<std::int64_t>;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker
// Per-endpoint counters by endpoint ID.
class concurrencyTracker {
 public:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.get
  std::int64_t get(const std::string& endpointID) const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.snapshot
  std::map<std::string, std::int64_t> snapshot() const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.inc
  counterPtr inc(const std::string& endpointID) { return add(endpointID, 1); }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.add
  // Applies delta (creating the counter if absent) and returns the instance mutated.
  counterPtr add(const std::string& endpointID, std::int64_t delta);
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.delete
  void delete_(const std::string& endpointID) { counts_.erase(endpointID); }

 private:
  std::map<std::string, counterPtr> counts_;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 decrementClamped
// counter -= delta with a floor at zero (a counter already <= 0 is left alone).
void decrementClamped(std::int64_t& counter, std::int64_t delta);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 addedTokensEntry
// A request's contribution to one endpoint's counters; OnEvicted rolls it back exactly once. The metric
// label fields are not ported (no metrics).
struct addedTokensEntry {
  std::int64_t tokens = 0;
  counterPtr tokenCounter;
  counterPtr requestCounter;
  std::int32_t requests = 0;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 addedTokensEntry.Clone
  // A distinct entry sharing the counter instances.
  std::shared_ptr<addedTokensEntry> Clone() const { return std::make_shared<addedTokensEntry>(*this); }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 addedTokensEntry.OnEvicted
  void OnEvicted();
};

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState, with its EvictableStateData
// semantics (Delete and DeleteKey call OnEvicted on each entry removed; Write over an existing key does not),
// which router/epp/framework/interface/plugin/plugin_state.h does not model. Holds this producer's entries.
class evictingPluginState {
 public:
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Read (nullptr for ErrNotFound)
  std::shared_ptr<addedTokensEntry> Read(const std::string& requestID, const fwkplugin::StateKey& key) const;
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Write
  void Write(const std::string& requestID, const fwkplugin::StateKey& key, std::shared_ptr<addedTokensEntry> val) {
    storage_[requestID][key] = std::move(val);
  }
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Delete (OnEvicted on every entry,
  // in key order)
  void Delete(const std::string& requestID);
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.DeleteKey (OnEvicted on the entry)
  void DeleteKey(const std::string& requestID, const fwkplugin::StateKey& key);
  // The number of requests holding state (no upstream counterpart; lets tests check for leaks).
  std::size_t Size() const { return storage_.size(); }

 private:
  std::map<std::string, std::map<fwkplugin::StateKey, std::shared_ptr<addedTokensEntry>>> storage_;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 endpointInFlightLoadState
struct endpointInFlightLoadState {
  std::string Endpoint;
  std::int64_t Requests = 0;
  std::int64_t Tokens = 0;
  bool operator==(const endpointInFlightLoadState&) const = default;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 inFlightLoadState
struct inFlightLoadState {
  std::vector<endpointInFlightLoadState> Endpoints;
  int TotalEndpoints = 0;
  int MaxEndpoints = 0;
  bool Truncated = false;
  bool operator==(const inFlightLoadState&) const = default;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer
// Tracks per-endpoint in-flight requests and tokens: PreRequest adds the request (and its estimated uncached
// tokens) to the chosen endpoint of every profile; ResponseBody releases it (tokens at the first chunk when
// output tokens are not estimated, the prefill profile's entry at the first chunk, everything at
// EndOfStream). Extract publishes the live counts on each endpoint as a DynamicAttribute under
// InFlightLoadDataKey; Produce writes the current request's UncachedRequestTokens on each candidate.
class InFlightLoadProducer final : public requestcontrol::PreRequestPlugin,
                                   public requestcontrol::ResponseBodyProcessor,
                                   public requestcontrol::DataProducer,
                                   public fwkplugin::ProducerPlugin,
                                   public fwkplugin::ConsumerPlugin,
                                   public std::enable_shared_from_this<InFlightLoadProducer> {
 public:
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Extract
  // Never fails (Go's error result is always nil).
  void Extract(const EndpointEvent& event);
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Produce
  std::optional<fwksched::GoError> Produce(fwksched::InferenceRequest* request,
                                           const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.PreRequest
  // Profiles are visited in name order (Go's map order is random; the counters do not depend on it).
  std::optional<fwksched::GoError> PreRequest(fwksched::InferenceRequest* request,
                                              fwksched::SchedulingResult* result) override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.ResponseBody
  void ResponseBody(fwksched::InferenceRequest* request, requestcontrol::Response* resp,
                    const fwkdl::EndpointMetadata* targetEndpoint) override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Produces
  fwkplugin::DataKeyTypes Produces() const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Consumes
  // TokenizedPrompt is Required; the prefix producer's PrefixCacheMatchInfo is Optional.
  fwkplugin::DataDependencies Consumes() const override;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.DumpState
  // The JSON of snapshotState (field names as Go's json tags).
  std::string DumpState() const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.snapshotState
  inFlightLoadState snapshotState() const;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.DeleteEndpoint
  void DeleteEndpoint(const std::string& endpointID);
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.GetTokens
  std::int64_t GetTokens(const std::string& eid) const { return tokenTracker.get(eid); }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.GetRequests
  std::int64_t GetRequests(const std::string& eid) const { return requestTracker.get(eid); }

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.estimateRequestTokens
  std::int64_t estimateRequestTokens(const fwksched::Endpoint* endpoint, const fwksched::InferenceRequest* request,
                                     std::int64_t inputTokens) const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.release
  void release(const fwksched::EndpointPtr& endpoint, const fwksched::InferenceRequest* request,
               const std::string& profileName);
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.releaseTokensEarly
  void releaseTokensEarly(const fwksched::EndpointPtr& endpoint, const fwksched::InferenceRequest* request,
                          const std::string& profileName);

  // Go's unexported fields, which upstream's in-package tests read and set.
  fwkplugin::TypedName typedName;
  concurrencyTracker requestTracker;
  concurrencyTracker tokenTracker;
  std::unique_ptr<TokenEstimator> tokenEstimator;
  bool addEstimatedOutputTokens = false;
  evictingPluginState PluginState;
  fwkplugin::DataKey dk;
  fwkplugin::DataKey prefixMatchInfoDK;
  fwkplugin::DataKey uncachedRequestTokensDk;
  bool syncCrossReplicaState = true;
  // Registered endpoint objects by ID (Go's sync.Map of datalayer.Endpoint), compared by identity.
  std::map<std::string, fwksched::EndpointPtr> registeredEndpoints;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 addedTokensKey
inline std::string addedTokensKey(const std::string& endpointID, const std::string& profileName) {
  return endpointID + "|" + profileName + "|added";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 uncachedInputTokens
// The prompt tokens the endpoint must compute, discounting the prefix cached on it per the
// PrefixCacheMatchInfo under prefixMatchInfoKey (the estimated inputTokens when absent).
std::int64_t uncachedInputTokens(const fwksched::Endpoint* endpoint, std::int64_t inputTokens,
                                 const std::string& prefixMatchInfoKey);

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 defaultConfig
inline Config defaultConfig() { return Config{}; }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducerFactory
// Throws fwkplugin::PluginError with upstream's texts. (Go's "handle is nil" cannot occur: the handle is a
// reference.)
std::shared_ptr<fwkplugin::Plugin> InFlightLoadProducerFactory(const std::string& name,
                                                               fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& handle);

// Original to BLIS: the factory's construction from a decoded Config (the part after Decode), so C++ callers
// and tests can build a producer from a Config as upstream's tests marshal one.
std::shared_ptr<InFlightLoadProducer> NewInFlightLoadProducer(const std::string& name, const Config& cfg);

}  // namespace blis::router::inflightload
