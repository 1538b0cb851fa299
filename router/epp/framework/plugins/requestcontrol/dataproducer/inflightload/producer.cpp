// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099;
// the producer's hooks, trackers and state (the factory is in factory.cpp); see producer.h for what is not
// ported.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router::inflightload {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.get
std::int64_t concurrencyTracker::get(const std::string& endpointID) const {
  auto it = counts_.find(endpointID);
  return it == counts_.end() ? 0 : *it->second;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.snapshot
std::map<std::string, std::int64_t> concurrencyTracker::snapshot() const {
  std::map<std::string, std::int64_t> result;
  for (const auto& [endpointID, counter] : counts_) result[endpointID] = *counter;
  return result;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 concurrencyTracker.add
counterPtr concurrencyTracker::add(const std::string& endpointID, std::int64_t delta) {
  auto it = counts_.find(endpointID);
  if (it != counts_.end()) {
    *it->second += delta;
    return it->second;
  }
  auto counter = std::make_shared<std::int64_t>(delta);
  counts_[endpointID] = counter;
  return counter;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 decrementClamped
void decrementClamped(std::int64_t& counter, std::int64_t delta) {
  if (counter <= 0) return;
  counter = std::max<std::int64_t>(counter - delta, 0);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 addedTokensEntry.OnEvicted
void addedTokensEntry::OnEvicted() {
  const std::int64_t t = tokens;
  tokens = 0;
  if (t != 0 && tokenCounter) decrementClamped(*tokenCounter, t);
  const std::int32_t r = requests;
  requests = 0;
  if (r != 0 && requestCounter) decrementClamped(*requestCounter, 1);
}

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Read
std::shared_ptr<addedTokensEntry> evictingPluginState::Read(const std::string& requestID,
                                                            const fwkplugin::StateKey& key) const {
  auto r = storage_.find(requestID);
  if (r == storage_.end()) return nullptr;
  auto v = r->second.find(key);
  return v == r->second.end() ? nullptr : v->second;
}

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Delete
void evictingPluginState::Delete(const std::string& requestID) {
  auto r = storage_.find(requestID);
  if (r == storage_.end()) return;
  auto entries = std::move(r->second);
  storage_.erase(r);
  for (auto& [key, entry] : entries) {
    if (entry) entry->OnEvicted();
  }
}

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.DeleteKey
void evictingPluginState::DeleteKey(const std::string& requestID, const fwkplugin::StateKey& key) {
  auto r = storage_.find(requestID);
  if (r == storage_.end()) return;
  auto v = r->second.find(key);
  if (v == r->second.end()) return;
  auto entry = std::move(v->second);
  r->second.erase(v);
  if (r->second.empty()) storage_.erase(r);
  if (entry) entry->OnEvicted();
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.snapshotState
inFlightLoadState InFlightLoadProducer::snapshotState() const {
  const auto requestCounts = requestTracker.snapshot();
  const auto tokenCounts = tokenTracker.snapshot();
  std::set<std::string> endpointSet;
  for (const auto& [id, v] : requestCounts) endpointSet.insert(id);
  for (const auto& [id, v] : tokenCounts) endpointSet.insert(id);

  inFlightLoadState state;
  state.TotalEndpoints = static_cast<int>(endpointSet.size());
  state.MaxEndpoints = maxDebugDumpEndpoints;
  for (const auto& id : endpointSet) {  // sorted, as sort.Strings upstream
    auto r = requestCounts.find(id);
    auto t = tokenCounts.find(id);
    state.Endpoints.push_back({id, r == requestCounts.end() ? 0 : r->second, t == tokenCounts.end() ? 0 : t->second});
  }
  std::stable_sort(state.Endpoints.begin(), state.Endpoints.end(),
                   [](const endpointInFlightLoadState& a, const endpointInFlightLoadState& b) {
                     const std::int64_t aLoad = a.Requests + a.Tokens;
                     const std::int64_t bLoad = b.Requests + b.Tokens;
                     if (aLoad != bLoad) return aLoad > bLoad;
                     return a.Endpoint < b.Endpoint;
                   });
  if (state.Endpoints.size() > static_cast<std::size_t>(maxDebugDumpEndpoints)) {
    state.Endpoints.resize(maxDebugDumpEndpoints);
    state.Truncated = true;
  }
  return state;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.DumpState
std::string InFlightLoadProducer::DumpState() const {
  const inFlightLoadState state = snapshotState();
  nlohmann::ordered_json endpoints = nlohmann::ordered_json::array();
  for (const auto& e : state.Endpoints) {
    nlohmann::ordered_json o;
    o["endpoint"] = e.Endpoint;
    o["requests"] = e.Requests;
    o["tokens"] = e.Tokens;
    endpoints.push_back(std::move(o));
  }
  nlohmann::ordered_json out;
  out["endpoints"] = std::move(endpoints);
  out["totalEndpoints"] = state.TotalEndpoints;
  out["maxEndpoints"] = state.MaxEndpoints;
  out["truncated"] = state.Truncated;
  return out.dump();
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Extract
void InFlightLoadProducer::Extract(const EndpointEvent& event) {
  if (event.Endpoint == nullptr || event.Endpoint->GetMetadata() == nullptr) return;
  const std::string id = event.Endpoint->GetMetadata()->ID.String();
  switch (event.Type) {
    case EventType::EventDelete: {
      // A delete carrying another object than the registered one is stale (the endpoint was replaced).
      auto registered = registeredEndpoints.find(id);
      if (registered != registeredEndpoints.end() && registered->second != event.Endpoint) break;
      registeredEndpoints.erase(id);
      DeleteEndpoint(id);
      break;
    }
    case EventType::EventAddOrUpdate: {
      registeredEndpoints[id] = event.Endpoint;
      auto dynamic = std::make_shared<fwkdl::DynamicAttribute>();
      std::weak_ptr<InFlightLoadProducer> self = weak_from_this();
      dynamic->Get = [self, id]() -> fwkdl::CloneablePtr {
        auto p = self.lock();
        if (!p) return nullptr;  // the producer is gone (Go's GC would keep it alive)
        return std::make_shared<concurrency::InFlightLoad>(p->GetTokens(id), p->GetRequests(id));
      };
      event.Endpoint->Put(dk.String(), dynamic);
      break;
    }
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Produce
std::optional<fwksched::GoError> InFlightLoadProducer::Produce(fwksched::InferenceRequest* request,
                                                               const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::int64_t inputTokens = 0;
  if (request != nullptr) inputTokens = tokenEstimator->EstimateInput(request);
  for (const auto& e : endpoints) {
    if (e == nullptr || e->GetMetadata() == nullptr) continue;
    if (request != nullptr) {
      const std::int64_t tokens = estimateRequestTokens(e.get(), request, inputTokens);
      e->Put(uncachedRequestTokensDk.String(), std::make_shared<concurrency::UncachedRequestTokens>(tokens));
    }
  }
  return std::nullopt;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.PreRequest
std::optional<fwksched::GoError> InFlightLoadProducer::PreRequest(fwksched::InferenceRequest* request,
                                                                  fwksched::SchedulingResult* result) {
  if (result == nullptr || result->ProfileResults.empty()) return std::nullopt;
  if (request == nullptr || request->RequestID.empty()) return std::nullopt;

  const std::int64_t inputTokens = tokenEstimator->EstimateInput(request);
  for (const auto& [profileName, profileResult] : result->ProfileResults) {
    if (profileResult == nullptr || profileResult->TargetEndpoints.empty()) continue;
    // Only the first endpoint (the primary target) is tracked.
    const auto& endpoint = profileResult->TargetEndpoints[0];
    if (endpoint == nullptr || endpoint->GetMetadata() == nullptr) continue;
    const std::string eid = endpoint->GetMetadata()->ID.String();

    counterPtr requestCounter = requestTracker.inc(eid);
    // The uncached prompt portion this endpoint must compute (plus estimated output when configured).
    const std::int64_t tokens = estimateRequestTokens(endpoint.get(), request, inputTokens);
    counterPtr tokenCounter = tokenTracker.add(eid, tokens);

    auto entry = std::make_shared<addedTokensEntry>();
    entry->tokenCounter = std::move(tokenCounter);
    entry->requestCounter = std::move(requestCounter);
    entry->tokens = tokens;
    entry->requests = 1;
    PluginState.Write(request->RequestID, addedTokensKey(eid, profileName), std::move(entry));
  }
  // (BindLiveness, the janitor's liveness binding, is not ported.)
  return std::nullopt;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.estimateRequestTokens
std::int64_t InFlightLoadProducer::estimateRequestTokens(const fwksched::Endpoint* endpoint,
                                                         const fwksched::InferenceRequest* request,
                                                         std::int64_t inputTokens) const {
  std::int64_t tokens = uncachedInputTokens(endpoint, inputTokens, prefixMatchInfoDK.String());
  if (addEstimatedOutputTokens) {
    std::optional<std::int64_t> maxOutputTokens;
    if (request != nullptr && request->Body != nullptr) maxOutputTokens = request->Body->MaxOutputTokens;
    // Output tokens are based on the full input, not the cached portion.
    tokens += tokenEstimator->EstimateOutput(inputTokens, maxOutputTokens);
  }
  return tokens;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.ResponseBody
void InFlightLoadProducer::ResponseBody(fwksched::InferenceRequest* request, requestcontrol::Response* resp,
                                        const fwkdl::EndpointMetadata* /*targetEndpoint*/) {
  if (request == nullptr || resp == nullptr || request->RequestID.empty()) return;
  const auto result = request->SchedulingResult;
  if (result == nullptr) return;

  // Output excluded: the estimate is the prompt cost, consumed by prefill, done at the first chunk. The
  // prefill profile's entry is released in full; other profiles keep their request counter until EndOfStream.
  if (!addEstimatedOutputTokens && resp->StartOfStream) {
    for (const auto& [profileName, profileResult] : result->ProfileResults) {
      if (profileResult == nullptr || profileResult->TargetEndpoints.empty()) continue;
      const auto& endpoint = profileResult->TargetEndpoints[0];
      if (endpoint == nullptr || endpoint->GetMetadata() == nullptr) continue;
      if (profileName == profilePrefill) {
        release(endpoint, request, profileName);
      } else {
        releaseTokensEarly(endpoint, request, profileName);
      }
    }
  }

  // Early prefill release at the first chunk; other profiles' entries remain until EndOfStream.
  if (addEstimatedOutputTokens && resp->StartOfStream) {
    auto prefill = result->ProfileResults.find(profilePrefill);
    if (prefill != result->ProfileResults.end() && prefill->second != nullptr &&
        !prefill->second->TargetEndpoints.empty()) {
      const auto& endpoint = prefill->second->TargetEndpoints[0];
      if (endpoint != nullptr && endpoint->GetMetadata() != nullptr) release(endpoint, request, profilePrefill);
    }
  }

  // Full cleanup on completion (an intermediate chunk's Touch is not ported: no janitor).
  if (resp->EndOfStream) PluginState.Delete(request->RequestID);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.release
void InFlightLoadProducer::release(const fwksched::EndpointPtr& endpoint, const fwksched::InferenceRequest* request,
                                   const std::string& profileName) {
  if (endpoint == nullptr || request == nullptr || request->RequestID.empty()) return;
  const fwkdl::EndpointMetadata* meta = endpoint->GetMetadata();
  if (meta == nullptr) return;
  PluginState.DeleteKey(request->RequestID, addedTokensKey(meta->ID.String(), profileName));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.releaseTokensEarly
void InFlightLoadProducer::releaseTokensEarly(const fwksched::EndpointPtr& endpoint,
                                              const fwksched::InferenceRequest* request,
                                              const std::string& profileName) {
  if (endpoint == nullptr || request == nullptr || request->RequestID.empty()) return;
  const fwkdl::EndpointMetadata* meta = endpoint->GetMetadata();
  if (meta == nullptr) return;
  auto entry = PluginState.Read(request->RequestID, addedTokensKey(meta->ID.String(), profileName));
  if (entry == nullptr) return;
  const std::int64_t t = entry->tokens;
  entry->tokens = 0;
  if (t != 0 && entry->tokenCounter) decrementClamped(*entry->tokenCounter, t);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 uncachedInputTokens (and nonNeg)
std::int64_t uncachedInputTokens(const fwksched::Endpoint* endpoint, std::int64_t inputTokens,
                                 const std::string& prefixMatchInfoKey) {
  const std::int64_t nonNegInput = inputTokens < 0 ? 0 : inputTokens;
  if (endpoint == nullptr) return nonNegInput;
  auto info = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(endpoint->Get(prefixMatchInfoKey));
  if (info == nullptr || info->BlockSizeTokens() <= 0) return nonNegInput;

  const std::int64_t blockSize = info->BlockSizeTokens();
  const std::int64_t matched = static_cast<std::int64_t>(info->MatchBlocks()) * blockSize;
  const std::int64_t indexed = static_cast<std::int64_t>(info->TotalBlocks()) * blockSize;
  std::int64_t uncachedIndexed = indexed - matched;
  if (uncachedIndexed < 0) uncachedIndexed = 0;
  // The tail beyond the indexed portion (e.g. when MaxPrefixTokensToMatch caps the total).
  std::int64_t tail = inputTokens - indexed;
  if (tail < 0) tail = 0;
  return uncachedIndexed + tail;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.DeleteEndpoint
void InFlightLoadProducer::DeleteEndpoint(const std::string& endpointID) {
  requestTracker.delete_(endpointID);
  tokenTracker.delete_(endpointID);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Produces
fwkplugin::DataKeyTypes InFlightLoadProducer::Produces() const {
  return {{dk, concurrency::InFlightLoad{}}, {uncachedRequestTokensDk, concurrency::UncachedRequestTokens{}}};
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducer.Consumes
fwkplugin::DataDependencies InFlightLoadProducer::Consumes() const {
  return {{{tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}},
          {{prefixMatchInfoDK, attrprefix::PrefixCacheMatchInfo(0, 0, 0)}}};
}

}  // namespace blis::router::inflightload
