// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/datakey.go@71f4f099; all of it.
#pragma once

#include <compare>
#include <string>

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/datakey.go@71f4f099 DataKey
// Names a piece of data by its type and the plugin that produces it.
class DataKey {
 public:
  DataKey() = default;

  // pkg/epp/framework/interface/plugin/datakey.go@71f4f099 DataKey.WithNonEmptyProducerName
  // A copy with the producer name replaced when name is non-empty.
  DataKey WithNonEmptyProducerName(const std::string& name) const {
    DataKey dk = *this;
    if (!name.empty()) dk.producerName_ = name;
    return dk;
  }

  // pkg/epp/framework/interface/plugin/datakey.go@71f4f099 DataKey.String: "<dataType>/<producerName>".
  std::string String() const { return dataType_ + "/" + producerName_; }

  bool operator==(const DataKey&) const = default;
  // Original to BLIS: an order, so DataKey can key a std::map (Go's map keys need only equality).
  auto operator<=>(const DataKey&) const = default;

 private:
  friend DataKey NewDataKey(const std::string& dataType, const std::string& defaultProducerName);
  std::string dataType_;
  std::string producerName_;
};

// pkg/epp/framework/interface/plugin/datakey.go@71f4f099 NewDataKey
inline DataKey NewDataKey(const std::string& dataType, const std::string& defaultProducerName) {
  DataKey dk;
  dk.dataType_ = dataType;
  dk.producerName_ = defaultProducerName;
  return dk;
}

}  // namespace blis::router::fwkplugin
