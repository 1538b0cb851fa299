// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/typedname.go@71f4f099; all of it.
#pragma once

#include <string>

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/typedname.go@71f4f099 separator
inline constexpr const char* separator = "/";

// pkg/epp/framework/interface/plugin/typedname.go@71f4f099 TypedName
// A utility struct providing a type and a name to plugins.
struct TypedName {
  std::string Type;
  std::string Name;

  // pkg/epp/framework/interface/plugin/typedname.go@71f4f099 TypedName.String
  // The type and name rendered as "<name>/<type>".
  std::string String() const { return Name + separator + Type; }

  bool operator==(const TypedName&) const = default;
};

}  // namespace blis::router::fwkplugin
