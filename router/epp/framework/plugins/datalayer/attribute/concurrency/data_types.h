// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099;
// all of it (Go's pointer Clone on a nil receiver is not modelled: values are held by shared_ptr).
#pragma once

#include <cstdint>
#include <memory>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/plugin/datakey.h"

namespace blis::router::concurrency {

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 InFlightLoadDataKey
// ("InFlightLoadDataKey" produced by inflightloadconstants.InFlightLoadProducerType): the per-endpoint
// in-flight load the in-flight load producer publishes and the load-aware scorers/filters read.
extern const fwkplugin::DataKey InFlightLoadDataKey;

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 UncachedRequestTokensDataKey
// The projected impact of the request being scheduled on an endpoint (written by Produce).
extern const fwkplugin::DataKey UncachedRequestTokensDataKey;

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 InFlightLoad
// The current real-time load of an endpoint as tracked by the EPP.
class InFlightLoad final : public fwkdl::Cloneable {
 public:
  InFlightLoad() = default;
  InFlightLoad(std::int64_t tokens, std::int64_t requests) : Tokens(tokens), Requests(requests) {}

  // pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 InFlightLoad.Clone
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<InFlightLoad>(*this); }
  bool DeepEqual(const fwkdl::Cloneable& other) const override {
    const auto* o = dynamic_cast<const InFlightLoad*>(&other);
    return o != nullptr && o->Tokens == Tokens && o->Requests == Requests;
  }

  // In-flight tokens this endpoint has committed to (updated by PreRequest and on stream end).
  std::int64_t Tokens = 0;
  // In-flight requests this endpoint has committed to (same lifecycle as Tokens).
  std::int64_t Requests = 0;
};

// pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 UncachedRequestTokens
// The work the request being scheduled would add to an endpoint if it landed there (uncached input plus,
// when configured, estimated output). Never committed to endpoint state.
class UncachedRequestTokens final : public fwkdl::Cloneable {
 public:
  UncachedRequestTokens() = default;
  explicit UncachedRequestTokens(std::int64_t tokens) : Tokens(tokens) {}

  // pkg/epp/framework/plugins/datalayer/attribute/concurrency/data_types.go@71f4f099 UncachedRequestTokens.Clone
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<UncachedRequestTokens>(*this); }
  bool DeepEqual(const fwkdl::Cloneable& other) const override {
    const auto* o = dynamic_cast<const UncachedRequestTokens*>(&other);
    return o != nullptr && o->Tokens == Tokens;
  }

  std::int64_t Tokens = 0;
};

}  // namespace blis::router::concurrency
