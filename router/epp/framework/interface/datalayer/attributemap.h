// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099; single-
// threaded (a std::map instead of sync.Map, so Keys are in ascending order); Go's reflect.DeepEqual on a
// stored value becomes the Cloneable's DeepEqual.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace blis::router::fwkdl {

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Cloneable
// Go stores pointers to Cloneable values; here shared pointers (nullptr is Go's nil).
class Cloneable {
 public:
  virtual ~Cloneable() = default;
  virtual std::shared_ptr<Cloneable> Clone() const = 0;
  // reflect.DeepEqual of two stored values (EndpointComparer compares attributes with it): true when
  // other has this value's dynamic type and equal contents.
  virtual bool DeepEqual(const Cloneable& other) const = 0;
};

using CloneablePtr = std::shared_ptr<Cloneable>;

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 DynamicAttribute
// Wraps a getter so an attribute is resolved when read.
class DynamicAttribute final : public Cloneable {
 public:
  std::function<CloneablePtr()> Get;

  // pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 DynamicAttribute.Clone (copies the getter)
  CloneablePtr Clone() const override;
  // reflect.DeepEqual on Go funcs is true only when both are nil.
  bool DeepEqual(const Cloneable& other) const override;
};

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 AttributeMap
class AttributeMap {
 public:
  virtual ~AttributeMap() = default;
  virtual void Put(const std::string& key, CloneablePtr value) = 0;
  // nullptr where Go returns (nil, false).
  virtual CloneablePtr Get(const std::string& key) const = 0;
  virtual std::vector<std::string> Keys() const = 0;
  virtual std::shared_ptr<AttributeMap> Clone() const = 0;
};

using AttributeMapPtr = std::shared_ptr<AttributeMap>;

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes
class Attributes final : public AttributeMap {
 public:
  // pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Put (a nullptr value is ignored;
  // stored as given, not cloned, as upstream)
  void Put(const std::string& key, CloneablePtr value) override;
  // pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Get
  // A clone of the stored value (a DynamicAttribute is resolved, then cloned); nullptr when absent.
  CloneablePtr Get(const std::string& key) const override;
  // pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Keys (ascending order here)
  std::vector<std::string> Keys() const override;
  // pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 Attributes.Clone
  // A new map holding the same stored values (Go's Clone re-Puts the values without cloning them).
  std::shared_ptr<AttributeMap> Clone() const override;

 private:
  std::map<std::string, CloneablePtr> data_;
};

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 NewAttributes
AttributeMapPtr NewAttributes();

// pkg/epp/framework/interface/datalayer/attributemap.go@71f4f099 ReadAttribute
// The value at key as a T (a clone, as Get returns); nullptr where Go returns (zero, false).
template <class T>
std::shared_ptr<T> ReadAttribute(const AttributeMap& attributeMap, const std::string& key) {
  return std::dynamic_pointer_cast<T>(attributeMap.Get(key));
}

}  // namespace blis::router::fwkdl
