// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the storage of pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099
// and shared_state.go@71f4f099 (StateKey, ErrNotFound, Read, Write, Delete, DeleteKey, ReadPluginStateKey);
// single-threaded; the staleness clock, its cleanup goroutine, Touch/BindLiveness/LastAccessTime and
// EvictableStateData are not ported (the caller deletes a request's state, as PreRequest does). Go's
// StateData interface (Clone) becomes std::any (a copy is the clone).
#pragma once

#include <any>
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace blis::router::fwkplugin {

// pkg/epp/framework/interface/plugin/shared_state.go@71f4f099 StateKey
using StateKey = std::string;

// pkg/epp/framework/interface/plugin/shared_state.go@71f4f099 ErrNotFound (its text)
inline constexpr const char* ErrNotFound = "not found";

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState
// Per-request plugin data, keyed by request ID then StateKey.
class PluginState {
 public:
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Read
  // nullptr where Go returns ErrNotFound.
  const std::any* Read(const std::string& requestID, const StateKey& key) const {
    auto r = storage_.find(requestID);
    if (r == storage_.end()) return nullptr;
    auto v = r->second.find(key);
    return v == r->second.end() ? nullptr : &v->second;
  }
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Write
  void Write(const std::string& requestID, const StateKey& key, std::any val) {
    storage_[requestID][key] = std::move(val);
  }
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.Delete
  void Delete(const std::string& requestID) { storage_.erase(requestID); }
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.DeleteKey
  void DeleteKey(const std::string& requestID, const StateKey& key) {
    auto r = storage_.find(requestID);
    if (r == storage_.end()) return;
    r->second.erase(key);
    if (r->second.empty()) storage_.erase(r);
  }
  // The number of requests holding state (no upstream counterpart; lets callers and tests check that
  // state does not leak).
  std::size_t Size() const { return storage_.size(); }

 private:
  std::map<std::string, std::map<StateKey, std::any>> storage_;
};

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 ReadPluginStateKey
// The value as a T; std::nullopt where Go returns an error (key not found, or not a T).
template <class T>
std::optional<T> ReadPluginStateKey(const PluginState& state, const std::string& requestID, const StateKey& key) {
  const std::any* raw = state.Read(requestID, key);
  if (raw == nullptr) return std::nullopt;
  if (const T* val = std::any_cast<T>(raw)) return *val;
  return std::nullopt;
}

}  // namespace blis::router::fwkplugin
