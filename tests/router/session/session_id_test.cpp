// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 against the C++ port, and
// tests of the lazy sweeps that replace its tickers (timers and periodic work use the runtime).
#include <gtest/gtest.h>

#include "router/epp/framework/plugins/datalayer/attribute/session/data_types.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/header.h"
#include "router/epp/framework/plugins/scheduling/util/sessionaffinity/session_id.h"
#include "tests/router/session/test_support.h"

namespace blis::router::sessionutil {

// Go's in-package tests reach the binding store and the TTL directly.
struct SessionIDHeaderTestPeer {
  static std::map<std::string, binding>& bindings(SessionIDHeader& s) { return s.bindings_; }
  static void setTTL(SessionIDHeader& s, std::int64_t ns) { s.ttlNs_ = ns; }
};

namespace {

using sessiontest::newTestEndpoint;
using sessiontest::podKey;
using sessiontest::schedulingResultFor;

constexpr std::int64_t kSecond = 1000LL * 1000 * 1000;  // ns
constexpr std::int64_t kMillisecond = 1000LL * 1000;    // ns

// testPluginKey: any stable string works since it only keys per-instance state.
const fwkplugin::StateKey testPluginKey = "session-affinity-test";

// testOptions / newTestSessionIDHeader: header source DefaultHeader, TTL 300s (overridable), sweep 10s.
struct testOptions {
  std::string profileName;
  double evictionTTLSeconds = 300;
  double evictionSweepSeconds = 10;
};

struct Fixture {
  sessiontest::TestHandle h;
  std::unique_ptr<SessionIDHeader> s;
  explicit Fixture(testOptions opts = {}) {
    SessionIDConfig config;
    config.Sources = {SessionIDSource{DefaultHeader, ""}};
    config.EvictionTTLSeconds = opts.evictionTTLSeconds;
    config.EvictionSweepSeconds = opts.evictionSweepSeconds;
    s = std::make_unique<SessionIDHeader>(config, opts.profileName, testPluginKey, h.handle);
  }
};

fwksched::InferenceRequest requestWithSession(const std::string& sessionID) {
  return sessiontest::requestWithSession(sessionID, DefaultHeader);
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_Choose_BoundSessionPresent
TEST(SessionIDHeader, ChooseBoundSessionPresent) {
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = requestWithSession("s1");
  auto result = schedulingResultFor(endpointB);
  f.s->PreRequest(&req, &result);
  auto again = requestWithSession("s1");
  EXPECT_EQ(f.s->Choose(&again, {endpointA, endpointB}), endpointB);
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_Choose_UnboundAbstains
TEST(SessionIDHeader, ChooseUnboundAbstains) {
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = requestWithSession("s1");
  auto result = schedulingResultFor(endpointA);
  f.s->PreRequest(&req, &result);
  auto s2 = requestWithSession("s2");
  EXPECT_EQ(f.s->Choose(&s2, {endpointA, endpointB}), nullptr);
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_Choose_NoEndpoints
TEST(SessionIDHeader, ChooseNoEndpoints) {
  Fixture f;
  auto req = requestWithSession("s1");
  EXPECT_EQ(f.s->Choose(&req, {}), nullptr);
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_Choose_NoSessionAbstains
TEST(SessionIDHeader, ChooseNoSessionAbstains) {
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req = requestWithSession("s1");
  auto result = schedulingResultFor(endpointA);
  f.s->PreRequest(&req, &result);
  fwksched::InferenceRequest noSession;
  noSession.RequestID = "req-no-session";
  EXPECT_EQ(f.s->Choose(&noSession, {endpointA, endpointB}), nullptr);
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_PreRequest_FirstBind
TEST(SessionIDHeader, PreRequestFirstBind) {
  Fixture f;
  auto req = requestWithSession("s1");
  auto result = schedulingResultFor(newTestEndpoint("pod-a"));
  f.s->PreRequest(&req, &result);
  EXPECT_EQ(f.s->boundPod("s1"), podKey("pod-a"));
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_PreRequest_MigratesOnGenuineAbsence
TEST(SessionIDHeader, PreRequestMigratesOnGenuineAbsence) {
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto first = requestWithSession("s1");
  auto resultA = schedulingResultFor(endpointA);
  f.s->PreRequest(&first, &resultA);
  // Choose with only pod-b as a candidate records pod-a as genuinely absent.
  auto req = requestWithSession("s1");
  f.s->Choose(&req, {endpointB});
  auto resultB = schedulingResultFor(endpointB);
  f.s->PreRequest(&req, &resultB);
  EXPECT_EQ(f.s->boundPod("s1"), podKey("pod-b")) << "after migration";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_PreRequest_HoldsPinWhenPresentButOutvoted
TEST(SessionIDHeader, PreRequestHoldsPinWhenPresentButOutvoted) {
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto first = requestWithSession("s1");
  auto resultA = schedulingResultFor(endpointA);
  f.s->PreRequest(&first, &resultA);
  auto req = requestWithSession("s1");
  f.s->Choose(&req, {endpointA, endpointB});
  auto resultB = schedulingResultFor(endpointB);  // another scorer outvoted affinity
  f.s->PreRequest(&req, &resultB);
  EXPECT_EQ(f.s->boundPod("s1"), podKey("pod-a")) << "pin should hold";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_PreRequest_FirstBindRaceKeepsSingleBinding
// Single-threaded: the goroutine race becomes both orders of the two first-bind PreRequests (neither with a
// presence record); whichever runs first binds and the other must not migrate it. Then the pinned ordering.
TEST(SessionIDHeader, PreRequestFirstBindRaceKeepsSingleBinding) {
  for (bool aFirst : {true, false}) {
    SCOPED_TRACE(aFirst ? "pod-a first" : "pod-b first");
    Fixture f;
    auto endpointA = newTestEndpoint("pod-a");
    auto endpointB = newTestEndpoint("pod-b");
    auto req1 = requestWithSession("new-session");
    fwksched::InferenceRequest req2;
    req2.RequestID = "req-new-session-2";
    req2.Headers = req1.Headers;
    auto resultA = schedulingResultFor(endpointA);
    auto resultB = schedulingResultFor(endpointB);
    if (aFirst) {
      f.s->PreRequest(&req1, &resultA);
      f.s->PreRequest(&req2, &resultB);
    } else {
      f.s->PreRequest(&req2, &resultB);
      f.s->PreRequest(&req1, &resultA);
    }
    EXPECT_EQ(f.s->boundPod("new-session"), podKey(aFirst ? "pod-a" : "pod-b"))
        << "the pod of whichever request won the first bind";
  }
  Fixture f;
  auto endpointA = newTestEndpoint("pod-a");
  auto endpointB = newTestEndpoint("pod-b");
  auto req1 = requestWithSession("pinned-session");
  fwksched::InferenceRequest req2;
  req2.RequestID = "req-pinned-session-2";
  req2.Headers = req1.Headers;
  auto resultA = schedulingResultFor(endpointA);
  auto resultB = schedulingResultFor(endpointB);
  f.s->PreRequest(&req1, &resultA);
  f.s->PreRequest(&req2, &resultB);
  EXPECT_EQ(f.s->boundPod("pinned-session"), podKey("pod-a"))
      << "a missing presence record must not force a migration";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_ProfileName_BindsProfilePod
TEST(SessionIDHeader, ProfileNameBindsProfilePod) {
  Fixture f(testOptions{"prefill"});
  fwksched::SchedulingResult schedResult;
  schedResult.PrimaryProfileName = "decode";
  auto pr = std::make_shared<fwksched::ProfileRunResult>();
  pr->TargetEndpoints = {newTestEndpoint("prefill-pod")};
  schedResult.ProfileResults["prefill"] = pr;
  auto req = requestWithSession("s1");
  f.s->PreRequest(&req, &schedResult);
  EXPECT_EQ(f.s->boundPod("s1"), podKey("prefill-pod"));
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_ProfileName_DecodeOnlyDoesNotBind
TEST(SessionIDHeader, ProfileNameDecodeOnlyDoesNotBind) {
  Fixture f(testOptions{"prefill"});
  fwksched::SchedulingResult schedResult;  // decode-only: no "prefill" entry
  schedResult.PrimaryProfileName = "decode";
  auto req = requestWithSession("s1");
  f.s->PreRequest(&req, &schedResult);
  EXPECT_EQ(f.s->boundPod("s1"), "") << "want unbound";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_Expired
TEST(SessionIDHeader, Expired) {
  testOptions o;
  o.evictionTTLSeconds = 60;
  Fixture f(o);
  const std::int64_t now = 3600 * kSecond;
  EXPECT_FALSE(f.s->expired(now, now)) << "a binding just seen should not be expired";
  EXPECT_TRUE(f.s->expired(now - 120 * kSecond, now)) << "a binding unused past the TTL should be expired";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_RunEvictionDropsExpiredBinding
// (ttl 10ms, sweep every 5ms, a binding last seen an hour ago: gone once the sweep has ticked; here the
// ticks are simulated time.)
TEST(SessionIDHeader, RunEvictionDropsExpiredBinding) {
  testOptions o;
  o.evictionSweepSeconds = 0.005;
  Fixture f(o);
  SessionIDHeaderTestPeer::setTTL(*f.s, 10 * kMillisecond);
  SessionIDHeaderTestPeer::bindings(*f.s)["s1"] = binding{podKey("pod-a"), -3600 * kSecond};
  EXPECT_EQ(f.s->boundPod("s1"), podKey("pod-a")) << "no tick yet: expiry is not checked on read";
  f.h.runtime.now = 5000;  // 5 ms: the first tick
  EXPECT_EQ(f.s->boundPod("s1"), "") << "binding was not evicted by the sweep";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_RunEvictionSparesRefreshedBinding
// Single-threaded form: upstream holds the lock so the refresh lands between the sweep's snapshot and its
// delete; here the refresh (PreRequest's same-pod path) lands before the sweep runs, and the sweep must see
// the refreshed binding and spare it.
TEST(SessionIDHeader, RunEvictionSparesRefreshedBinding) {
  testOptions o;
  o.evictionSweepSeconds = 0.001;
  Fixture f(o);
  SessionIDHeaderTestPeer::setTTL(*f.s, 10 * kSecond);
  SessionIDHeaderTestPeer::bindings(*f.s)["s1"] = binding{podKey("pod-a"), -3600 * kSecond};  // stale
  // The concurrent legitimate refresh, as PreRequest performs it (before the first tick at 1 ms).
  f.h.runtime.now = 500;
  auto req = requestWithSession("s1");
  auto result = schedulingResultFor(newTestEndpoint("pod-a"));
  f.s->PreRequest(&req, &result);
  f.h.runtime.now = 30000;  // 30 ms: many ticks later
  EXPECT_EQ(f.s->boundPod("s1"), podKey("pod-a")) << "a refreshed binding must not be evicted";
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDHeader_ResponseHeader_IsNoOp
TEST(SessionIDHeader, ResponseHeaderIsNoOp) {
  Fixture f;
  f.s->ResponseHeader(nullptr, nullptr, nullptr);
  requestcontrol::Response resp;
  fwkdl::EndpointMetadata md;
  md.ID = {"default", "pod1"};
  f.s->ResponseHeader(nullptr, &resp, &md);
  EXPECT_TRUE(resp.Headers.empty());
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestResolveSessionID
// (namedSessionID, a test-local named string type upstream, is attrsession::SessionID here: the port accepts
// the named string types it knows, see attributeString.)
TEST(SessionIDHeader, ResolveSessionID) {
  const std::string attr = "agent-identity";
  auto withHeader = [](const std::string& name, const std::string& value) {
    fwksched::InferenceRequest r;
    r.Headers[name] = value;
    return r;
  };
  auto withAttrValue = [&](std::any value) {
    fwksched::InferenceRequest r;
    r.PutAttribute(attr, std::move(value));
    return r;
  };
  struct Case {
    std::string name;
    std::vector<SessionIDSource> sources;
    std::optional<fwksched::InferenceRequest> request;  // std::nullopt: nil
    std::string want;
  };
  fwksched::InferenceRequest headerAndAttr = withHeader("x-session-id", "from-header");
  headerAndAttr.PutAttribute(attr, std::string("from-attr"));
  const std::vector<Case> tests = {
      {"header source resolves", {{"x-session-id", ""}}, withHeader("x-session-id", "sess-1"), "sess-1"},
      {"attribute source resolves", {{"", attr}}, withAttrValue(std::string("agent-42")), "agent-42"},
      {"attribute stored as a named string type resolves", {{"", attr}},
       withAttrValue(attrsession::SessionID{"agent-99"}), "agent-99"},
      {"attribute stored as a non-string value is skipped", {{"", attr}}, withAttrValue(42), ""},
      {"header wins over attribute in priority order", {{"x-session-id", ""}, {"", attr}}, headerAndAttr,
       "from-header"},
      {"falls through to attribute when header empty", {{"x-session-id", ""}, {"", attr}},
       withAttrValue(std::string("from-attr")), "from-attr"},
      {"none match yields empty", {{"x-session-id", ""}, {"", attr}}, fwksched::InferenceRequest{}, ""},
      {"whitespace-only value is treated as empty", {{"x-session-id", ""}}, withHeader("x-session-id", "   "), ""},
      {"nil request yields empty", {{"x-session-id", ""}}, std::nullopt, ""},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    sessiontest::TestHandle h;
    SessionIDConfig config;
    config.Sources = test.sources;
    config.EvictionTTLSeconds = 300;
    config.EvictionSweepSeconds = 10;
    SessionIDHeader s(config, "", testPluginKey, h.handle);
    EXPECT_EQ(s.resolveSessionID(test.request ? &*test.request : nullptr), test.want);
  }
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDConfig_ApplyDefaults
TEST(SessionIDConfig, ApplyDefaults) {
  {
    SCOPED_TRACE("empty config gets default source and eviction schedule");
    SessionIDConfig c;
    c.ApplyDefaults();
    ASSERT_EQ(c.Sources.size(), 1u);
    EXPECT_EQ(c.Sources[0].Header, DefaultSessionIDHeader);
    EXPECT_EQ(c.EvictionTTLSeconds, defaultEvictionTTLSeconds);
    EXPECT_EQ(c.EvictionSweepSeconds, defaultEvictionSweepSeconds);
  }
  {
    SCOPED_TRACE("configured sources are left untouched");
    SessionIDConfig c;
    c.Sources = {SessionIDSource{"", "agent-identity"}};
    c.ApplyDefaults();
    ASSERT_EQ(c.Sources.size(), 1u);
    EXPECT_EQ(c.Sources[0].Attribute, "agent-identity");
    EXPECT_EQ(c.Sources[0].Header, "");
  }
}

// pkg/epp/framework/plugins/scheduling/util/sessionaffinity/session_id_test.go@71f4f099 TestSessionIDConfig_Validate
// (with the error texts, which upstream's test does not check).
TEST(SessionIDConfig, Validate) {
  struct Case {
    std::string name;
    SessionIDConfig config;
    std::optional<std::string> wantErr;
  };
  const std::vector<Case> tests = {
      {"single header source is valid", {{{DefaultSessionIDHeader, ""}}, 300, 10}, std::nullopt},
      {"source with both header and attribute rejected", {{{"h", "a"}}, 300, 10},
       "sources[0]: exactly one of header or attribute must be set"},
      {"source with neither header nor attribute rejected", {{{"", ""}}, 300, 10},
       "sources[0]: exactly one of header or attribute must be set"},
      {"zero ttl rejected", {{{"x-session-id", ""}}, 0, 10}, "evictionTtlSeconds must be > 0, got 0"},
      {"negative sweep rejected", {{{"x-session-id", ""}}, 300, -1}, "evictionSweepSeconds must be > 0, got -1"},
  };
  for (const auto& test : tests) {
    SCOPED_TRACE(test.name);
    EXPECT_EQ(test.config.Validate(), test.wantErr);
  }
}

// ---- Original to BLIS: the lazy sweeps against upstream's ticker schedule (simulated seconds). ----

void bindAt(Fixture& f, double seconds, const std::string& session, const std::string& pod) {
  f.h.setSeconds(seconds);
  auto req = requestWithSession(session);
  auto result = schedulingResultFor(newTestEndpoint(pod));
  f.s->PreRequest(&req, &result);
}

std::string boundAt(Fixture& f, double seconds, const std::string& session) {
  f.h.setSeconds(seconds);
  return f.s->boundPod(session);
}

// TTL 300s, sweep every 10s from t=0: a binding last seen at 0 is past the TTL only after 300s, is still
// served until the next tick (310s), and is gone from then on.
TEST(SessionIDHeaderLazySweep, ExpiryWaitsForTheTick) {
  Fixture f;
  bindAt(f, 0, "s1", "pod-a");
  EXPECT_EQ(boundAt(f, 300, "s1"), podKey("pod-a")) << "300s unused is not > TTL";
  EXPECT_EQ(boundAt(f, 309.999, "s1"), podKey("pod-a")) << "expired but no tick since 300s";
  EXPECT_EQ(boundAt(f, 310, "s1"), "") << "the tick at 310s evicts";
}

// A call long after the last one runs the missed ticks as one sweep at the latest of them.
TEST(SessionIDHeaderLazySweep, MissedTicksCatchUp) {
  Fixture f;
  bindAt(f, 0, "s1", "pod-a");
  bindAt(f, 295, "s2", "pod-b");
  // Latest tick at or before 600.5s is 600s: s1 (600 > 300) goes, s2 (305 > 300) goes too.
  EXPECT_EQ(boundAt(f, 600.5, "s1"), "");
  EXPECT_EQ(f.s->boundPod("s2"), "");
  Fixture g;
  bindAt(g, 0, "s1", "pod-a");
  bindAt(g, 295, "s2", "pod-b");
  // Latest tick at or before 599s is 590s: s1 goes, s2 (295 unused) stays.
  EXPECT_EQ(boundAt(g, 599, "s1"), "");
  EXPECT_EQ(g.s->boundPod("s2"), podKey("pod-b"));
}

// Routing the session to its pod again refreshes lastSeen and pushes expiry back.
TEST(SessionIDHeaderLazySweep, RefreshPushesExpiryBack) {
  Fixture f;
  bindAt(f, 0, "s1", "pod-a");
  bindAt(f, 200, "s1", "pod-a");  // same pod: refresh
  EXPECT_EQ(boundAt(f, 500, "s1"), podKey("pod-a")) << "300s since the refresh is not > TTL";
  EXPECT_EQ(boundAt(f, 510, "s1"), "");
}

// The PluginState janitor (every 60s, staleness 5 min): a presence record written at 0 and not touched since
// survives the ticks up to 300s (300s is not > 5 min) and goes at the 360s tick; without it PreRequest does
// not migrate.
TEST(SessionIDHeaderLazySweep, PresenceRecordGoesStaleAtTheJanitorTick) {
  for (double preRequestAt : {359.0, 360.0}) {
    SCOPED_TRACE(preRequestAt);
    testOptions o;
    o.evictionTTLSeconds = 3600;  // keep the binding itself
    Fixture f(o);
    bindAt(f, 0, "s1", "pod-a");
    auto req = requestWithSession("s1");
    req.RequestID = "r";
    f.s->Choose(&req, {newTestEndpoint("pod-b")});  // records pod-a absent at t=0
    f.h.setSeconds(preRequestAt);
    auto result = schedulingResultFor(newTestEndpoint("pod-b"));
    f.s->PreRequest(&req, &result);
    EXPECT_EQ(f.s->boundPod("s1"), podKey(preRequestAt < 360 ? "pod-b" : "pod-a"));
  }
}

// Ticks are counted from construction, not from time 0.
TEST(SessionIDHeaderLazySweep, TicksStartAtConstruction) {
  sessiontest::TestHandle h;
  h.setSeconds(5);
  SessionIDConfig config;
  config.ApplyDefaults();  // header x-session-id, TTL 300s, sweep 10s
  SessionIDHeader s(config, "", testPluginKey, h.handle);
  auto req = sessiontest::requestWithSession("s1", DefaultSessionIDHeader);
  auto result = schedulingResultFor(newTestEndpoint("pod-a"));
  s.PreRequest(&req, &result);  // lastSeen 5s; ticks at 15s, 25s, ..., 305s, 315s
  h.setSeconds(314);
  EXPECT_EQ(s.boundPod("s1"), podKey("pod-a")) << "the 305s tick sees 300s unused, not > TTL";
  h.setSeconds(315);
  EXPECT_EQ(s.boundPod("s1"), "");
}

// A TTL or sweep that does not fit time.Duration, and a non-positive sweep, are refused.
TEST(SessionIDHeader, UnmodelledScheduleRefused) {
  sessiontest::TestHandle h;
  SessionIDConfig config;
  config.ApplyDefaults();
  config.EvictionTTLSeconds = 1e10;  // 1e19 ns > int64
  EXPECT_THROW(SessionIDHeader(config, "", testPluginKey, h.handle), std::invalid_argument);
  config.EvictionTTLSeconds = 300;
  config.EvictionSweepSeconds = 1e-10;  // truncates to 0 ns
  EXPECT_THROW(SessionIDHeader(config, "", testPluginKey, h.handle), std::invalid_argument);
}

// ---- Original to BLIS: header.go's token helpers and Go's base64 / strings semantics. ----

TEST(SessionHeader, Base64AsGo) {
  EXPECT_EQ(EncodeStdBase64("/pod-b"), "L3BvZC1i");
  EXPECT_EQ(EncodeStdBase64("default/pod1"), "ZGVmYXVsdC9wb2Qx");
  EXPECT_EQ(EncodeStdBase64("default/prefill-pod"), "ZGVmYXVsdC9wcmVmaWxsLXBvZA==");
  EXPECT_EQ(EncodeStdBase64("ab"), "YWI=");
  EXPECT_EQ(DecodeStdBase64("ZGVmYXVsdC9wcmVmaWxsLXBvZA=="), "default/prefill-pod");
  EXPECT_EQ(DecodeStdBase64("YWI="), "ab");
  EXPECT_EQ(DecodeStdBase64("YW\r\nI="), "ab") << "newlines are skipped";
  EXPECT_EQ(DecodeStdBase64("YWJ="), "ab") << "non-zero trailing bits accepted (not Strict)";
  EXPECT_EQ(DecodeStdBase64("YWI"), std::nullopt) << "missing padding";
  EXPECT_EQ(DecodeStdBase64("Y==="), std::nullopt);
  EXPECT_EQ(DecodeStdBase64("YW=I"), std::nullopt);
  EXPECT_EQ(DecodeStdBase64("YWI=YWI="), std::nullopt) << "padding only at the end";
  EXPECT_EQ(DecodeStdBase64("garbage-token"), std::nullopt);
  EXPECT_EQ(DecodePodName("garbage-token"), "");
  EXPECT_EQ(DecodePodName(""), "");
  EXPECT_EQ(DecodePodName("L3BvZC1i"), "/pod-b");
}

TEST(SessionHeader, NormalizeHeader) {
  EXPECT_EQ(NormalizeHeader(""), "x-session-token");
  EXPECT_EQ(NormalizeHeader("  \t"), "x-session-token");
  EXPECT_EQ(NormalizeHeader(" X-Custom-Session "), "x-custom-session");
  EXPECT_EQ(NormalizeHeader("\xC2\xA0X\xE3\x80\x80"), "x") << "Unicode white space trimmed";
  EXPECT_THROW(NormalizeHeader("X-S\xC3\xA9"), std::invalid_argument);
}

}  // namespace
}  // namespace blis::router::sessionutil
