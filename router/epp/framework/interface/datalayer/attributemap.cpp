// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099; see
// attributemap.h.
#include "router/epp/framework/interface/datalayer/attributemap.h"

namespace blis::router::fwkdl {

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 DynamicAttribute.Clone
CloneablePtr DynamicAttribute::Clone() const {
  auto out = std::make_shared<DynamicAttribute>();
  out->Get = Get;
  return out;
}

// Original to BLIS: reflect.DeepEqual on a DynamicAttribute (Go funcs are equal only when both are nil).
bool DynamicAttribute::DeepEqual(const Cloneable& other) const {
  const auto* o = dynamic_cast<const DynamicAttribute*>(&other);
  return o != nullptr && !Get && !o->Get;
}

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Put
void Attributes::Put(const std::string& key, CloneablePtr value) {
  if (value != nullptr) data_[key] = std::move(value);
}

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Get
CloneablePtr Attributes::Get(const std::string& key) const {
  auto it = data_.find(key);
  if (it == data_.end()) return nullptr;
  if (const auto* dynamic = dynamic_cast<const DynamicAttribute*>(it->second.get())) {
    CloneablePtr realVal = dynamic->Get ? dynamic->Get() : nullptr;
    if (realVal == nullptr) return nullptr;
    return realVal->Clone();
  }
  return it->second->Clone();
}

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Keys
std::vector<std::string> Attributes::Keys() const {
  std::vector<std::string> keys;
  keys.reserve(data_.size());
  for (const auto& [k, v] : data_) keys.push_back(k);
  return keys;
}

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Clone
std::shared_ptr<AttributeMap> Attributes::Clone() const {
  auto clone = NewAttributes();
  for (const auto& [k, v] : data_) clone->Put(k, v);
  return clone;
}

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 NewAttributes
AttributeMapPtr NewAttributes() { return std::make_shared<Attributes>(); }

}  // namespace blis::router::fwkdl
