// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/scheduling/types.go@71f4f099 and
// attributes.go@71f4f099; see types.h for what is not ported.
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::fwksched {
namespace {

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 endpoint
class endpoint final : public Endpoint {
 public:
  endpoint(const std::optional<fwkdl::EndpointMetadata>& meta, const std::optional<fwkdl::Metrics>& metrics,
           fwkdl::AttributeMapPtr attr)
      : meta_(meta), metrics_(metrics), attr_(std::move(attr)) {}

  // pkg/epp/framework/interface/scheduling/types.go@71f4f099 endpoint.GetMetadata
  const fwkdl::EndpointMetadata* GetMetadata() const override { return meta_ ? &*meta_ : nullptr; }
  // pkg/epp/framework/interface/scheduling/types.go@71f4f099 endpoint.GetMetrics
  const fwkdl::Metrics* GetMetrics() const override { return metrics_ ? &*metrics_ : nullptr; }
  // pkg/epp/framework/interface/scheduling/types.go@71f4f099 endpoint.String
  std::string String() const override {
    return "{EndpointMetadata:" + (meta_ ? meta_->String() : std::string(nilString)) +
           " Metrics:" + (metrics_ ? metrics_->String() : std::string(nilString)) + "}";
  }
  // The AttributeMap methods Go's endpoint promotes from its embedded fwkdl.AttributeMap.
  fwkdl::CloneablePtr Get(const std::string& key) const override { return attr_->Get(key); }
  void Put(const std::string& key, fwkdl::CloneablePtr value) override { attr_->Put(key, std::move(value)); }
  std::vector<std::string> Keys() const override { return attr_->Keys(); }
  // pkg/epp/framework/interface/scheduling/types.go@71f4f099 endpoint.Clone
  fwkdl::AttributeMapPtr Clone() const override { return attr_->Clone(); }

 private:
  std::optional<fwkdl::EndpointMetadata> meta_;
  std::optional<fwkdl::Metrics> metrics_;
  fwkdl::AttributeMapPtr attr_;
};

// Original to BLIS: reflect.DeepEqual on two optional fields (both nil, or both set and equal).
template <class T>
bool same(const T* a, const T* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return *a == *b;
}

}  // namespace

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 NewEndpoint
EndpointPtr NewEndpoint(const std::optional<fwkdl::EndpointMetadata>& meta,
                        const std::optional<fwkdl::Metrics>& metrics, const fwkdl::AttributeMapPtr& attr) {
  return std::make_shared<endpoint>(meta, metrics, attr ? attr->Clone() : fwkdl::NewAttributes());
}

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 EndpointComparer
bool EndpointComparer(const Endpoint& a, const Endpoint& b) {
  if (!same(a.GetMetadata(), b.GetMetadata()) || !same(a.GetMetrics(), b.GetMetrics())) return false;
  // Compare keys and values in AttributeMap for both endpoints.
  const std::vector<std::string> aKeys = a.Keys();
  const std::vector<std::string> bKeys = b.Keys();
  if (aKeys.size() != bKeys.size()) return false;
  for (const std::string& k : aKeys) {
    const fwkdl::CloneablePtr v1 = a.Get(k);
    const fwkdl::CloneablePtr v2 = b.Get(k);
    if (v1 == nullptr || v2 == nullptr || !v1->DeepEqual(*v2)) return false;
  }
  return true;
}

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpointComparer
bool ScoredEndpointComparer(const ScoredEndpoint& a, const ScoredEndpoint& b) {
  if (a.Score != b.Score) return false;
  if (a.Endpoint == nullptr || b.Endpoint == nullptr) return a.Endpoint == b.Endpoint;
  return EndpointComparer(*a.Endpoint, *b.Endpoint);
}

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (the Endpoint methods Go's
// ScoredEndpoint promotes from its embedded Endpoint: GetMetadata)
const fwkdl::EndpointMetadata* ScoredEndpoint::GetMetadata() const {
  return Endpoint ? Endpoint->GetMetadata() : nullptr;
}
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted GetMetrics)
const fwkdl::Metrics* ScoredEndpoint::GetMetrics() const { return Endpoint ? Endpoint->GetMetrics() : nullptr; }
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted Get)
fwkdl::CloneablePtr ScoredEndpoint::Get(const std::string& key) const {
  return Endpoint ? Endpoint->Get(key) : nullptr;
}
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted Put; on a nil embedded
// Endpoint a nil dereference upstream, a no-op here)
void ScoredEndpoint::Put(const std::string& key, fwkdl::CloneablePtr value) {
  if (Endpoint) Endpoint->Put(key, std::move(value));
}
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted Keys)
std::vector<std::string> ScoredEndpoint::Keys() const { return Endpoint ? Endpoint->Keys() : std::vector<std::string>{}; }
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted Clone)
fwkdl::AttributeMapPtr ScoredEndpoint::Clone() const { return Endpoint ? Endpoint->Clone() : fwkdl::NewAttributes(); }
// pkg/epp/framework/interface/scheduling/types.go@71f4f099 ScoredEndpoint (promoted String)
std::string ScoredEndpoint::String() const {
  return "{Endpoint:" + (Endpoint ? Endpoint->String() : std::string(nilString)) +
         " Score:" + std::to_string(Score) + "}";
}

// pkg/epp/framework/interface/scheduling/types.go@71f4f099 InferenceRequest.String
std::string InferenceRequest::String() const {
  std::string headers;
  for (const auto& [k, v] : Headers) {
    if (!headers.empty()) headers += " ";
    headers += k + ":" + v;
  }
  // Go prints the Body pointer with %v (&{...} of every field); this port renders a non-nil Body as its
  // token count only.
  const std::string body =
      Body == nullptr ? std::string(nilString)
                      : "&{TokenizedPrompt:" +
                            (Body->TokenizedPrompt ? std::to_string(Body->TokenizedPrompt->TokenCount()) + " tokens"
                                                   : std::string(nilString)) +
                            "}";
  return "RequestID: " + RequestID + ", TargetModel: " + TargetModel + ", Body: " + body + ", Headers: map[" +
         headers + "]";
}

// pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 InferenceRequest.GetAttribute
const std::any* InferenceRequest::GetAttribute(const std::string& key) const {
  auto it = attributes_.find(key);
  return it == attributes_.end() ? nullptr : &it->second;
}

// pkg/epp/framework/interface/scheduling/attributes.go@71f4f099 InferenceRequest.AttributeKeys
std::vector<std::string> InferenceRequest::AttributeKeys() const {
  std::vector<std::string> keys;
  keys.reserve(attributes_.size());
  for (const auto& [k, v] : attributes_) keys.push_back(k);
  return keys;
}

}  // namespace blis::router::fwksched
