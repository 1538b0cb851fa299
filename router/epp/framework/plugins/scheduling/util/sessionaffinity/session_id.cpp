// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099;
// see session_id.h.
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "router/epp/framework/plugins/datalayer/attribute/session/data_types.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/header.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/strings.h"

namespace blis::router::sessionutil {
namespace {

// Original to BLIS: Go's fmt "%v" of a float64 (strconv 'g' with the shortest digits; the %e form when the
// exponent is < -4 or >= 6, as fmt prints: -1, -0.5, -1e+06).
std::string goFloatV(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, sci.ptr);
  const int exp = std::stoi(s.substr(s.find('e') + 1));
  if (exp < -4 || exp >= 6) return s;
  auto fix = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, fix.ptr);
}

// Original to BLIS: Go's time.Duration(seconds * float64(time.Second)): the product truncated to int64 nanoseconds. A product
// outside int64 (an implementation-defined conversion in Go) is refused.
std::int64_t durationNs(double seconds, const char* field) {
  const double ns = seconds * 1e9;
  if (!(ns > -9223372036854775808.0 && ns < 9223372036854775808.0)) {
    throw std::invalid_argument(std::string(field) + " beyond the int64 nanoseconds of time.Duration is not "
                                "modelled by this port: Go's out-of-range float conversion is implementation-defined");
  }
  return static_cast<std::int64_t>(ns);
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDSource.validate
std::optional<std::string> SessionIDSource::validate() const {
  if (Header.empty() == Attribute.empty()) return std::string("exactly one of header or attribute must be set");
  return std::nullopt;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDConfig.ApplyDefaults
void SessionIDConfig::ApplyDefaults() {
  if (Sources.empty()) Sources = {SessionIDSource{DefaultSessionIDHeader, ""}};
  if (EvictionTTLSeconds == 0) EvictionTTLSeconds = defaultEvictionTTLSeconds;
  if (EvictionSweepSeconds == 0) EvictionSweepSeconds = defaultEvictionSweepSeconds;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDConfig.Validate
// (NaN passes Go's "<= 0" checks as it does here.)
std::optional<std::string> SessionIDConfig::Validate() const {
  for (std::size_t i = 0; i < Sources.size(); ++i) {
    if (auto err = Sources[i].validate()) return "sources[" + std::to_string(i) + "]: " + *err;
  }
  if (EvictionTTLSeconds <= 0) return "evictionTtlSeconds must be > 0, got " + goFloatV(EvictionTTLSeconds);
  if (EvictionSweepSeconds <= 0) return "evictionSweepSeconds must be > 0, got " + goFloatV(EvictionSweepSeconds);
  return std::nullopt;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 NewSessionIDHeader
SessionIDHeader::SessionIDHeader(const SessionIDConfig& config, std::string profileName,
                                 fwkplugin::StateKey pluginKey, fwkplugin::Handle& handle)
    : profileName_(std::move(profileName)), pluginKey_(std::move(pluginKey)), runtime_(&handle.Context()) {
  for (const auto& s : config.Sources) {
    if (!s.Header.empty()) {
      sources_.push_back(source{true, NormalizeHeader(s.Header)});
    } else {
      sources_.push_back(source{false, s.Attribute});
    }
  }
  ttlNs_ = durationNs(config.EvictionTTLSeconds, "evictionTtlSeconds");
  sweepIntervalNs_ = durationNs(config.EvictionSweepSeconds, "evictionSweepSeconds");
  if (sweepIntervalNs_ <= 0) {
    throw std::invalid_argument("a non-positive eviction sweep interval is not modelled by this port "
                                "(time.NewTicker panics on it)");
  }
  // go s.runEviction(...) and NewPluginState's cleanup goroutine: tickers started now.
  const std::int64_t start = nowNs();
  nextSweepNs_ = start + sweepIntervalNs_;
  nextCleanupNs_ = start + defaultCleanupIntervalNs;
}

// Original to BLIS: the simulated time.Now() in nanoseconds.
std::int64_t SessionIDHeader::nowNs() const { return runtime_->now_us() * 1000; }

// Original to BLIS: the lazy form of the two tickers (see the class comment).
void SessionIDHeader::catchUp(std::int64_t now) {
  if (now >= nextSweepNs_) {
    const std::int64_t tick = nextSweepNs_ + (now - nextSweepNs_) / sweepIntervalNs_ * sweepIntervalNs_;
    evictAt(tick);
    nextSweepNs_ = tick + sweepIntervalNs_;
  }
  if (now >= nextCleanupNs_) {
    const std::int64_t tick =
        nextCleanupNs_ + (now - nextCleanupNs_) / defaultCleanupIntervalNs * defaultCleanupIntervalNs;
    cleanStaleRequestsAt(tick);
    nextCleanupNs_ = tick + defaultCleanupIntervalNs;
  }
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.runEviction
// (one tick: drop the bindings unused for longer than the TTL; the sweep's re-check under the lock has no
// concurrent refresh to lose to here).
void SessionIDHeader::evictAt(std::int64_t tickNs) {
  for (auto it = bindings_.begin(); it != bindings_.end();) {
    if (expired(it->second.lastSeenNs, tickNs)) {
      it = bindings_.erase(it);
    } else {
      ++it;
    }
  }
}

// pkg/epp/framework/interface/plugin/plugin_state.go@71f4f099 PluginState.cleanStaleRequests
// (time.Since(lastAccessTime) > stalenessThreshold at the tick; BindLiveness is never called on this state).
void SessionIDHeader::cleanStaleRequestsAt(std::int64_t tickNs) {
  for (auto it = pluginState_.begin(); it != pluginState_.end();) {
    if (tickNs - it->second.lastAccessNs > defaultStalenessThresholdNs) {
      it = pluginState_.erase(it);
    } else {
      ++it;
    }
  }
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.expired
bool SessionIDHeader::expired(std::int64_t lastSeenNs, std::int64_t nowNs) const {
  return ttlNs_ > 0 && nowNs - lastSeenNs > ttlNs_;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.resolveSessionID
std::string SessionIDHeader::resolveSessionID(const fwksched::InferenceRequest* request) const {
  if (request == nullptr) return "";
  for (const auto& s : sources_) {
    if (s.isHeader) {
      auto it = request->Headers.find(s.name);
      if (it != request->Headers.end()) {
        std::string id = TrimSpace(it->second);
        if (!id.empty()) return id;
      }
      continue;
    }
    if (auto id = attributeString(*request, s.name)) {
      std::string trimmed = TrimSpace(*id);
      if (!trimmed.empty()) return trimmed;
    }
  }
  return "";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 attributeString
std::optional<std::string> attributeString(const fwksched::InferenceRequest& request, const std::string& key) {
  const std::any* v = request.GetAttribute(key);
  if (v == nullptr) return std::nullopt;
  if (const auto* s = std::any_cast<std::string>(v)) return *s;
  if (const auto* s = std::any_cast<attrsession::SessionID>(v)) return s->Value;
  if (const auto* s = std::any_cast<const char*>(v)) return *s == nullptr ? std::string() : std::string(*s);
  return std::nullopt;  // upstream logs "attribute is not a string, skipping source"
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.Choose
fwksched::EndpointPtr SessionIDHeader::Choose(const fwksched::InferenceRequest* request,
                                              const std::vector<fwksched::EndpointPtr>& endpoints) {
  const std::int64_t now = nowNs();
  catchUp(now);
  if (endpoints.empty()) return nullptr;
  const std::string sessionID = resolveSessionID(request);
  if (sessionID.empty()) return nullptr;

  const std::string podName = boundPod(sessionID);
  fwksched::EndpointPtr target;
  for (const auto& endpoint : endpoints) {
    if (podName.empty()) continue;
    const fwkdl::EndpointMetadata* md = endpoint == nullptr ? nullptr : endpoint->GetMetadata();
    if (md == nullptr) {
      throw std::invalid_argument("session affinity: a candidate without metadata is not modelled by this port "
                                  "(upstream dereferences it)");
    }
    if (md->ID.String() == podName) target = endpoint;
  }
  if (!podName.empty()) {
    // PluginState.Write: the record and its access time.
    pluginState_[request->RequestID] = presenceRecord{boundPodPresence{target != nullptr}, now};
  }
  return target;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.boundPod
std::string SessionIDHeader::boundPod(const std::string& sessionID) {
  catchUp(nowNs());
  if (sessionID.empty()) return "";
  auto it = bindings_.find(sessionID);
  return it == bindings_.end() ? std::string() : it->second.podName;
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.PreRequest
void SessionIDHeader::PreRequest(const fwksched::InferenceRequest* request,
                                 const fwksched::SchedulingResult* schedulingResult) {
  const std::int64_t now = nowNs();
  catchUp(now);
  const std::string sessionID = resolveSessionID(request);
  if (sessionID.empty()) return;
  const std::string podName = pickedPodName(schedulingResult);
  if (podName.empty()) return;

  const binding fresh{podName, now};
  auto it = bindings_.find(sessionID);
  if (it == bindings_.end()) {  // LoadOrStore stored: the first bind
    bindings_.emplace(sessionID, fresh);
    return;
  }
  if (it->second.podName == podName) {  // the same pod: refresh lastSeen
    it->second = fresh;
    return;
  }
  // Migrate only on a confirmed absence recorded by this request's own Choose; a missing record is not
  // absence. ReadPluginStateKey: a read of an existing request touches its access time.
  auto rec = pluginState_.find(request->RequestID);
  if (rec == pluginState_.end()) return;
  rec->second.lastAccessNs = now;
  if (rec->second.value.present) return;
  it->second = fresh;  // upstream logs "session migrated pod"
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.go@71f4f099 SessionIDHeader.pickedPodName
std::string SessionIDHeader::pickedPodName(const fwksched::SchedulingResult* schedulingResult) const {
  if (schedulingResult == nullptr) return "";
  const std::string& profileName = profileName_.empty() ? schedulingResult->PrimaryProfileName : profileName_;
  auto it = schedulingResult->ProfileResults.find(profileName);
  if (it == schedulingResult->ProfileResults.end() || it->second == nullptr ||
      it->second->TargetEndpoints.empty() || it->second->TargetEndpoints[0] == nullptr) {
    return "";
  }
  if (const fwkdl::EndpointMetadata* md = it->second->TargetEndpoints[0]->GetMetadata()) return md->ID.String();
  return "";
}

}  // namespace blis::router::sessionutil
