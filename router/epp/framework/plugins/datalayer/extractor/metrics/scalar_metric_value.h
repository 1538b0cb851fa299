// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/metrics/data_types.go@71f4f099
// (ScalarMetricValue, ReadScalarMetricValue), kept beside the extractor that writes it until the attribute
// package is ported (data_types_multicluster.go is not ported: the multicluster extractor is not).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "router/epp/framework/interface/datalayer/attributemap.h"

namespace blis::router::metrics {

// pkg/epp/framework/plugins/datalayer/attribute/metrics/data_types.go@71f4f099 ScalarMetricValue
// A float64 endpoint attribute (a custom metric's value).
class ScalarMetricValue final : public fwkdl::Cloneable {
 public:
  explicit ScalarMetricValue(double value) : Value(value) {}

  // pkg/epp/framework/plugins/datalayer/attribute/metrics/data_types.go@71f4f099 ScalarMetricValue.Clone
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<ScalarMetricValue>(Value); }
  // reflect.DeepEqual of two ScalarMetricValues (float64 ==).
  bool DeepEqual(const fwkdl::Cloneable& other) const override {
    const auto* o = dynamic_cast<const ScalarMetricValue*>(&other);
    return o != nullptr && o->Value == Value;
  }

  double Value;
};

// pkg/epp/framework/plugins/datalayer/attribute/metrics/data_types.go@71f4f099 ReadScalarMetricValue
// std::nullopt where Go returns (0, false).
inline std::optional<double> ReadScalarMetricValue(const fwkdl::AttributeMap& attrs, const std::string& key) {
  auto v = fwkdl::ReadAttribute<ScalarMetricValue>(attrs, key);
  if (v == nullptr) return std::nullopt;
  return v->Value;
}

}  // namespace blis::router::metrics
