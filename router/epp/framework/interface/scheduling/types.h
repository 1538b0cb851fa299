// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/scheduling/types.go@71f4f099; the request
// Body is the subset of requesthandling's InferenceRequestBody in interface/requesthandling/types.h
// (Modality and MultiModalFeature are not ported); no Go context.
#pragma once

#include <any>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/datalayer/endpoint_metadata.h"
#include "router/epp/framework/interface/datalayer/metrics.h"
#include "router/epp/framework/interface/requesthandling/types.h"
#include "router/epp/framework/interface/scheduling/errors.h"

namespace blis::router::fwksched {

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 nilString
inline constexpr const char* nilString = "<nil>";

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 TokenizedPrompt (an alias of fwkrh's)
using TokenizedPrompt = fwkrh::TokenizedPrompt;

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 Endpoint
// A candidate endpoint as the scheduler sees it: metadata, a metrics snapshot and an attribute map that
// data producers write (Put) and scorers read (Get). GetMetadata/GetMetrics return nullptr where Go's
// fields are nil.
class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual const fwkdl::EndpointMetadata* GetMetadata() const = 0;
  virtual const fwkdl::Metrics* GetMetrics() const = 0;
  virtual std::string String() const = 0;
  // The fwkdl::AttributeMap methods (Go's endpoint embeds the map): Get returns a clone, nullptr when absent.
  virtual fwkdl::CloneablePtr Get(const std::string& key) const = 0;
  virtual void Put(const std::string& key, fwkdl::CloneablePtr value) = 0;
  virtual std::vector<std::string> Keys() const = 0;
  virtual fwkdl::AttributeMapPtr Clone() const = 0;
};

// Endpoints are compared by identity (the pointer), as Go's interface values of *endpoint are.
using EndpointPtr = std::shared_ptr<Endpoint>;

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 NewEndpoint
// A new endpoint holding copies of meta and metrics (std::nullopt where Go passes nil) and a clone of attr
// (a new empty map when attr is nullptr, as Go's nil).
EndpointPtr NewEndpoint(const std::optional<fwkdl::EndpointMetadata>& meta,
                        const std::optional<fwkdl::Metrics>& metrics, const fwkdl::AttributeMapPtr& attr = nullptr);

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 EndpointComparer
// Equal metadata, equal metrics (both absent, or both present and equal) and the same attribute keys with
// DeepEqual values.
bool EndpointComparer(const Endpoint& a, const Endpoint& b);

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint
// An endpoint with its weighted score; itself an Endpoint (Go embeds the Endpoint interface), delegating
// to the endpoint it wraps.
class ScoredEndpoint final : public fwksched::Endpoint {
 public:
  ScoredEndpoint() = default;
  ScoredEndpoint(std::shared_ptr<fwksched::Endpoint> endpoint, double score)
      : Endpoint(std::move(endpoint)), Score(score) {}

  const fwkdl::EndpointMetadata* GetMetadata() const override;
  const fwkdl::Metrics* GetMetrics() const override;
  std::string String() const override;
  fwkdl::CloneablePtr Get(const std::string& key) const override;
  void Put(const std::string& key, fwkdl::CloneablePtr value) override;
  std::vector<std::string> Keys() const override;
  fwkdl::AttributeMapPtr Clone() const override;

  std::shared_ptr<fwksched::Endpoint> Endpoint;
  double Score = 0;
};

using ScoredEndpointPtr = std::shared_ptr<ScoredEndpoint>;

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpointComparer
bool ScoredEndpointComparer(const ScoredEndpoint& a, const ScoredEndpoint& b);

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ProfileRunResult
struct ProfileRunResult {
  std::vector<EndpointPtr> TargetEndpoints;
  // The weighted score of every endpoint the profile scored, including those the picker did not select.
  // Ordering is unspecified upstream; this port keeps the order of the filtered candidates.
  std::vector<ScoredEndpoint> ScoredCandidates;
};

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 SchedulingResult
// ProfileResults is ordered by profile name (a Go map upstream); a failed profile's result is nullptr.
struct SchedulingResult {
  std::map<std::string, std::shared_ptr<ProfileRunResult>> ProfileResults;
  std::string PrimaryProfileName;
};

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 RequestObjectives
struct RequestObjectives {
  int Priority = 0;
};

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 InferenceRequest
// The fields of a request the scheduler and its data producers read.
struct InferenceRequest {
  std::string RequestID;
  std::string TargetModel;
  // The request-body fields parsed out as user input; nullptr where Go's Body is nil.
  std::shared_ptr<fwkrh::InferenceRequestBody> Body;
  std::map<std::string, std::string> Headers;
  RequestObjectives Objectives;
  std::string FairnessID;
  int RequestSizeBytes = 0;
  std::shared_ptr<fwksched::SchedulingResult> SchedulingResult;

  // pkg/epp/framework/interface/scheduling/types.go@71f4f099 InferenceRequest.String
  std::string String() const;

  // pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 InferenceRequest.PutAttribute
  void PutAttribute(const std::string& key, std::any value) { attributes_[key] = std::move(value); }
  // pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 InferenceRequest.GetAttribute
  // nullptr where Go returns (nil, false).
  const std::any* GetAttribute(const std::string& key) const;
  // pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 InferenceRequest.AttributeKeys
  // The keys in ascending order (unspecified upstream).
  std::vector<std::string> AttributeKeys() const;

 private:
  std::map<std::string, std::any> attributes_;
};

// pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 ReadRequestAttribute
// The value at key as a T; std::nullopt where Go returns (zero, false): key missing or not a T.
template <class T>
std::optional<T> ReadRequestAttribute(const InferenceRequest& r, const std::string& key) {
  const std::any* v = r.GetAttribute(key);
  if (v == nullptr) return std::nullopt;
  if (const T* t = std::any_cast<T>(v)) return *t;
  return std::nullopt;
}

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 SchedulerProfile
class SchedulerProfile {
 public:
  virtual ~SchedulerProfile() = default;
  virtual Outcome<ProfileRunResult> Run(InferenceRequest* request,
                                        const std::vector<EndpointPtr>& candidateEndpoints) = 0;
};

}  // namespace blis::router::fwksched
