// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: basePlugin of pkg/epp/framework/interface/plugin/plugins_test.go@71f4f099, the named plugin
// the interface tests (plugin_test.cpp, handle_registry_test.cpp) build their test plugins on.
#pragma once

#include <utility>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/typedname.h"

namespace blis::router::fwkplugin::test_support {

// plugins_test.go@71f4f099 basePlugin: a plugin that only has its name.
class basePlugin : public virtual Plugin {
 public:
  explicit basePlugin(fwkplugin::TypedName name) : name_(std::move(name)) {}
  fwkplugin::TypedName TypedName() const override { return name_; }

 private:
  fwkplugin::TypedName name_;
};

}  // namespace blis::router::fwkplugin::test_support
