// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: test support for the C++ ports of llm-d's load tests (the stub endpoints of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer_test.go@71f4f099,
// scheduling/scorer/activerequest/active_request_test.go@71f4f099 and
// scheduling/filter/utilization/filter_test.go@71f4f099, and test/utils' NewTestHandle with a seeded runtime).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::loadtest {

// A stub endpoint whose metadata and metrics may be absent (Go's stub endpoints with nil fields).
class StubEndpoint final : public fwksched::Endpoint {
 public:
  std::optional<fwkdl::EndpointMetadata> metadata;
  std::optional<fwkdl::Metrics> metrics;
  fwkdl::AttributeMapPtr attr = fwkdl::NewAttributes();

  const fwkdl::EndpointMetadata* GetMetadata() const override { return metadata ? &*metadata : nullptr; }
  const fwkdl::Metrics* GetMetrics() const override { return metrics ? &*metrics : nullptr; }
  std::string String() const override { return metadata ? metadata->ID.String() : ""; }
  fwkdl::CloneablePtr Get(const std::string& key) const override { return attr->Get(key); }
  void Put(const std::string& key, fwkdl::CloneablePtr value) override { attr->Put(key, std::move(value)); }
  std::vector<std::string> Keys() const override { return attr->Keys(); }
  fwkdl::AttributeMapPtr Clone() const override { return attr->Clone(); }
};

// newStubSchedulingEndpoint / newStubEndpoint: metadata {Name: name, Namespace: "default"}; metrics as given
// (std::nullopt is Go's nil).
inline std::shared_ptr<StubEndpoint> NewStub(const std::string& name,
                                             std::optional<fwkdl::Metrics> metrics = std::nullopt) {
  auto ep = std::make_shared<StubEndpoint>();
  fwkdl::EndpointMetadata meta;
  meta.ID = fwkdl::NamespacedName{"default", name};
  ep->metadata = meta;
  ep->metrics = metrics;
  return ep;
}

// fullEndpointName: "default/<name>".
inline std::string FullEndpointName(const std::string& name) { return "default/" + name; }

// A seeded generator (SplitMix64) behind RandomStream, and a Runtime handing it out: stands in for Go's
// process-wide math/rand and the test handle's context.
class SeededStream final : public RandomStream {
 public:
  explicit SeededStream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64() override {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform01() override { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }
  std::uint64_t below(std::uint64_t n) override { return next_u64() % n; }  // tests never draw below()

 private:
  std::uint64_t state_;
};

class TestRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    auto it = streams_.find(std::string(purpose));
    if (it == streams_.end()) it = streams_.emplace(std::string(purpose), SeededStream(streams_.size() + 1)).first;
    return it->second;
  }

 private:
  std::map<std::string, SeededStream> streams_;
};

}  // namespace blis::router::loadtest
