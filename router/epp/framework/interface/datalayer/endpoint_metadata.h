// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099; the
// Kubernetes types.NamespacedName becomes a plain struct of strings; Go nil receivers are not modelled.
#pragma once

#include <map>
#include <string>

namespace blis::router::fwkdl {

// k8s.io/apimachinery types.NamespacedName, which endpoint_metadata.go@71f4f099 aliases as ID.
struct NamespacedName {
  std::string Namespace;
  std::string Name;

  // types.NamespacedName.String: "<namespace>/<name>" (an empty namespace gives "/<name>").
  std::string String() const { return Namespace + "/" + Name; }

  bool operator==(const NamespacedName&) const = default;
};

// pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 ID
using ID = NamespacedName;

// pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 EndpointMetadata
// Describes an inference endpoint. Labels is an ordered map (Go's map is unordered; nothing here iterates
// it on a decision path).
struct EndpointMetadata {
  fwkdl::ID ID;
  std::string Name;
  std::string Address;
  std::string NodeAddress;
  std::string Port;
  std::string MetricsHost;
  std::map<std::string, std::string> Labels;
  int RankIndex = 0;

  // pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 EndpointMetadata.String
  // A readable rendering of every field (not byte-identical to Go's "%+v").
  std::string String() const;

  // pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 EndpointMetadata.Equal
  // (a value copy is the Go Clone; a nil and an empty Labels map are both the empty map here).
  bool Equal(const EndpointMetadata& other) const { return *this == other; }
  bool operator==(const EndpointMetadata&) const = default;

  // pkg/epp/framework/interface/datalayer/endpoint_metadata.go@71f4f099 the getters.
  int GetRankIndex() const { return RankIndex; }
  const fwkdl::ID& GetID() const { return ID; }
  const NamespacedName& GetNamespacedName() const { return ID; }
  const std::string& GetIPAddress() const { return Address; }
  const std::string& GetNodeAddress() const { return NodeAddress; }
  const std::string& GetPort() const { return Port; }
  const std::string& GetMetricsHost() const { return MetricsHost; }
};

}  // namespace blis::router::fwkdl
