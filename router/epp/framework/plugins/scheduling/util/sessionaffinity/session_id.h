// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099;
// all of it but logging, single-threaded (the mutex and sync.Map compare-and-swap guards have nothing to guard);
// no Go context. Timers and periodic work use the runtime: wall-clock reads (time.Now) read the simulated
// clock, handle.Context().now_us(), and the two goroutine tickers (the binding-eviction sweep, and the
// staleness janitor of the PluginState NewSessionIDHeader creates, pkg/epp/framework/interface/plugin/
// plugin_state.go@71f4f099) become lazy sweeps run at the next call at or past a tick (see catchUp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contracts/router/runtime.h"
#include "router/epp/framework/interface/plugin/handle.h"
#include "router/epp/framework/interface/plugin/plugin_state.h"
#include "router/epp/framework/interface/requestcontrol/types.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::sessionutil {

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 DefaultSessionIDHeader
// The header a SessionIDConfig reads when no sources are configured.
inline constexpr const char* DefaultSessionIDHeader = "x-session-id";

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 defaultEvictionTTLSeconds
inline constexpr double defaultEvictionTTLSeconds = 300;
// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 defaultEvictionSweepSeconds
inline constexpr double defaultEvictionSweepSeconds = 10;

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 defaultStalenessThreshold (5 minutes, in ns)
inline constexpr std::int64_t defaultStalenessThresholdNs = 5LL * 60 * 1000 * 1000 * 1000;
// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 defaultCleanupInterval (1 minute, in ns)
inline constexpr std::int64_t defaultCleanupIntervalNs = 60LL * 1000 * 1000 * 1000;

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDSource
// One place a session identifier can be read from: exactly one of Header or Attribute must be set.
struct SessionIDSource {
  std::string Header;     // a request header name
  std::string Attribute;  // a request-attribute key published by an upstream plugin

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDSource.validate
  // The Go error's text, std::nullopt for nil.
  std::optional<std::string> validate() const;
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDConfig
struct SessionIDConfig {
  // Resolve the session identifier in priority order; the first non-empty match wins.
  std::vector<SessionIDSource> Sources;
  // How long a session binding survives unused.
  double EvictionTTLSeconds = 0;
  // How often expired bindings are swept.
  double EvictionSweepSeconds = 0;

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDConfig.ApplyDefaults
  void ApplyDefaults();
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDConfig.Validate
  // The Go error's text, std::nullopt for nil.
  std::optional<std::string> Validate() const;
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 binding
// The pod a session is pinned to, and when (ns of simulated time) that pin was last used.
struct binding {
  std::string podName;
  std::int64_t lastSeenNs = 0;
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 boundPodPresence
// For one request: whether the session's bound pod was among the candidates Choose saw.
struct boundPodPresence {
  bool present = false;
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader
// Maps an opaque client-supplied session identifier to a pod via a TTL-evicted binding store. An unbound
// session, or one whose bound pod is absent from the candidates, yields no preference; a session whose bound
// pod is absent rebinds to the pod the request was routed to. The shared implementation behind the
// session-affinity filter and scorer: Choose resolves the target, PreRequest commits the binding,
// ResponseHeader is a no-op.
//
// Simulated time: a binding's lastSeen is the simulated time of the PreRequest that wrote it. The eviction
// ticker (every EvictionSweepSeconds from construction) and the PluginState janitor (every minute from
// construction, dropping presence records untouched for more than five minutes) run lazily: every public
// call first performs, for each of the two, the latest tick at or before now that has not run yet (a tick at
// the very instant of a call runs before it). No state changes between calls and both sweeps' conditions
// only grow with the tick time, so one sweep at the latest due tick removes exactly what upstream's sweeps at
// every tick in between would have removed: the decisions equal upstream's for the same request times.
class SessionIDHeader {
 public:
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 NewSessionIDHeader
  // pluginKey keys the Choose->PreRequest presence handoff. Reads handle.Context() for simulated time from
  // now on (the runtime must outlive this object). The configured header names are normalized once here
  // (NormalizeHeader), where upstream normalizes them on every request: same result, since config is fixed.
  // A TTL or sweep interval beyond the int64 nanoseconds of Go's time.Duration is refused
  // (std::invalid_argument); a non-positive sweep interval is too (time.NewTicker panics on it).
  SessionIDHeader(const SessionIDConfig& config, std::string profileName, fwkplugin::StateKey pluginKey,
                  fwkplugin::Handle& handle);

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.Choose
  // The endpoint the request is pinned to, nullptr where Go returns (nil, false): no candidates, no session
  // identifier, an unbound session, or a bound pod absent from endpoints. For a bound session it records for
  // PreRequest whether the bound pod was present. Does not change the bindings. With several candidates of
  // the bound pod's ID the last one is chosen, as upstream's loop does.
  fwksched::EndpointPtr Choose(const fwksched::InferenceRequest* request,
                               const std::vector<fwksched::EndpointPtr>& endpoints);

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.PreRequest
  // The only place bindings change: a first bind, a refresh of lastSeen when the same pod was picked, or a
  // migration when this request's own Choose found the bound pod absent.
  void PreRequest(const fwksched::InferenceRequest* request, const fwksched::SchedulingResult* schedulingResult);

  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.ResponseHeader
  // A no-op: under session_id the client owns its session identifier.
  void ResponseHeader(const fwksched::InferenceRequest* /*request*/, requestcontrol::Response* /*response*/,
                      const fwkdl::EndpointMetadata* /*targetPod*/) {}

  // Unexported upstream; public here because Go's tests are in-package.
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.resolveSessionID
  // The trimmed identifier of the first source that yields a non-empty one; "" for a nullptr request or none.
  std::string resolveSessionID(const fwksched::InferenceRequest* request) const;
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.boundPod
  // The pod bound to sessionID, "" when unbound (after the due sweeps; expiry is not checked on read).
  std::string boundPod(const std::string& sessionID);
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.expired
  // Whether a binding last used at lastSeenNs has outlived the TTL at nowNs (times in ns).
  bool expired(std::int64_t lastSeenNs, std::int64_t nowNs) const;

 private:
  friend struct SessionIDHeaderTestPeer;  // tests reach the store and TTL as Go's in-package tests do

  // A configured source with its header name normalized (isHeader false: an attribute key).
  struct source {
    bool isHeader = false;
    std::string name;
  };
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState storage and
  // requestToLastAccessTime, for the one StateKey this instance writes.
  struct presenceRecord {
    boundPodPresence value;
    std::int64_t lastAccessNs = 0;
  };

  std::int64_t nowNs() const;
  // Runs the eviction sweep and the PluginState cleanup for their latest due ticks.
  void catchUp(std::int64_t nowNs);
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.runEviction
  // One tick's sweep at tickNs.
  void evictAt(std::int64_t tickNs);
  // pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.cleanStaleRequests at tickNs.
  void cleanStaleRequestsAt(std::int64_t tickNs);
  // pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.pickedPodName
  std::string pickedPodName(const fwksched::SchedulingResult* schedulingResult) const;

  std::vector<source> sources_;
  std::string profileName_;
  fwkplugin::StateKey pluginKey_;
  Runtime* runtime_;
  std::int64_t ttlNs_ = 0;
  std::int64_t sweepIntervalNs_ = 0;
  std::int64_t nextSweepNs_ = 0;
  std::int64_t nextCleanupNs_ = 0;
  std::map<std::string, binding> bindings_;              // session identifier -> binding
  std::map<std::string, presenceRecord> pluginState_;    // request ID -> presence record
};

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 attributeString
// A request attribute as a string: any value of string kind is accepted, which in this port is a std::string,
// an attrsession::SessionID (the only named string type the ported producers publish) or a const char*;
// std::nullopt when absent or of another type.
std::optional<std::string> attributeString(const fwksched::InferenceRequest& request, const std::string& key);

}  // namespace blis::router::sessionutil
