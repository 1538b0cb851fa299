// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/interface/plugin/handle.go@71f4f099 (Handle,
// HandlePlugins, PluginByType); the context becomes the router's Runtime (time and named random streams,
// design RTR-2), the pod list and metrics recorder are not ported (no plugin decision reads them here).
// Plugins are held in a std::map, so GetAllPlugins is in name order where Go's map order is random.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "contracts/router/runtime.h"

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/handle.go@71f4f099 Handle
// Plugins reach the runtime and each other through it.
class Handle {
 public:
  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 NewEppHandle
  explicit Handle(Runtime& runtime) : runtime_(&runtime) {}

  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 eppHandle.Context
  // (BLIS: the simulated runtime stands where Go passes a context.Context.)
  Runtime& Context() const { return *runtime_; }

  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 eppHandlePlugins.Plugin
  // nullptr where there is no plugin of that name.
  std::shared_ptr<Plugin> GetPlugin(const std::string& name) const {
    auto it = plugins_.find(name);
    return it == plugins_.end() ? nullptr : it->second;
  }
  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 eppHandlePlugins.AddPlugin
  void AddPlugin(const std::string& name, std::shared_ptr<Plugin> plugin) { plugins_[name] = std::move(plugin); }
  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 eppHandlePlugins.GetAllPlugins
  std::vector<std::shared_ptr<Plugin>> GetAllPlugins() const {
    std::vector<std::shared_ptr<Plugin>> out;
    out.reserve(plugins_.size());
    for (const auto& [name, p] : plugins_) out.push_back(p);
    return out;
  }
  // pkg/epp/framework/interface/plugin/handle.go@71f4f099 eppHandlePlugins.GetAllPluginsWithNames
  const std::map<std::string, std::shared_ptr<Plugin>>& GetAllPluginsWithNames() const { return plugins_; }

 private:
  Runtime* runtime_;
  std::map<std::string, std::shared_ptr<Plugin>> plugins_;
};

// pkg/epp/framework/interface/plugin/handle.go@71f4f099 PluginByType
// The plugin named `name` as a P; throws std::runtime_error with upstream's text where Go returns an error
// (goTypeName is what Go's %T prints for P, e.g. "*disagg.PrefixBasedPDDecider").
template <class P>
std::shared_ptr<P> PluginByType(const Handle& handle, const std::string& name, const std::string& goTypeName) {
  auto raw = handle.GetPlugin(name);
  if (!raw) throw std::runtime_error("there is no plugin with the name '" + name + "' defined");
  auto p = std::dynamic_pointer_cast<P>(raw);
  if (!p) throw std::runtime_error("the plugin with the name '" + name + "' is not an instance of " + goTypeName);
  return p;
}

}  // namespace blis::router::fwkplugin
