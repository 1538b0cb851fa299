// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: GoogleTest transcription of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 against the C++ port.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "router/epp/framework/plugins/datalayer/attribute/session/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer.h"
#include "tests/router/session/test_support.h"

namespace blis::router::sessionid {
namespace {

// mustFactory: the factory's plugin as a *Producer.
std::shared_ptr<Producer> mustFactory(const std::string& params) {
  sessiontest::TestHandle h;
  const nlohmann::json j = nlohmann::json::parse(params);
  auto plg = Factory("session-id-producer", &j, h.handle);
  auto p = std::dynamic_pointer_cast<Producer>(plg);
  if (p == nullptr) throw std::logic_error("factory must return *Producer");
  return p;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestFactory_Validation
// (the "invalid json" case is not applicable: the parameters reach a factory here as parsed JSON, so text
// that is not JSON fails in the config loader before any factory runs.)
TEST(SessionIDProducer, FactoryValidation) {
  const std::string validationErr = "requires exactly one of headerName or cookieName";
  struct Case {
    std::string name;
    std::optional<std::string> params;  // std::nullopt: nil / zero-length raw message
    bool wantErr;
    std::string errSubstr;
  };
  const std::vector<Case> tests = {
      {"header only", R"({"headerName":"x-session-id"})", false, ""},
      {"cookie only", R"({"cookieName":"llm-d-session"})", false, ""},
      {"header normalized", R"({"headerName":" X-Session-ID "})", false, ""},
      {"empty object", "{}", true, validationErr},
      {"both set", R"({"headerName":"x","cookieName":"y"})", true, validationErr},
      {"empty strings", R"({"headerName":"","cookieName":""})", true, validationErr},
      {"unknown field", R"({"headerName":"x","other":"y"})", true, "failed to parse"},
      {"nil raw message", std::nullopt, true, validationErr},
      {"zero-length raw message", std::nullopt, true, validationErr},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    sessiontest::TestHandle h;
    nlohmann::json j;
    if (tc.params) j = nlohmann::json::parse(*tc.params);
    try {
      auto p = Factory("p", tc.params ? &j : nullptr, h.handle);
      EXPECT_FALSE(tc.wantErr) << "expected an error";
      EXPECT_NE(p, nullptr);
    } catch (const fwkplugin::PluginError& e) {
      EXPECT_TRUE(tc.wantErr) << e.what();
      EXPECT_NE(std::string(e.what()).find(tc.errSubstr), std::string::npos) << e.what();
    }
  }
}

// Original to BLIS: the factory's full error texts (upstream's test checks substrings).
TEST(SessionIDProducer, FactoryErrorTexts) {
  sessiontest::TestHandle h;
  auto errorOf = [&](const std::string& params) -> std::string {
    const nlohmann::json j = nlohmann::json::parse(params);
    try {
      Factory("p", &j, h.handle);
    } catch (const fwkplugin::PluginError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(errorOf("{}"), "'session-id-producer' requires exactly one of headerName or cookieName to be set");
  EXPECT_EQ(errorOf(R"({"headerName":"x","cookieName":"y"})"),
            "'session-id-producer' requires exactly one of headerName or cookieName to be set, not both");
  EXPECT_EQ(errorOf(R"({"headerName":"x","other":"y"})"),
            "failed to parse the parameters of the 'session-id-producer' producer: json: unknown field \"other\"");
  EXPECT_EQ(errorOf(R"({"headerName":5})"),
            "failed to parse the parameters of the 'session-id-producer' producer: json: cannot unmarshal number "
            "into Go struct field Parameters.headerName of type string");
  // " X-Session-ID " is trimmed and lower-cased: the header "x-session-id" is read.
  auto p = mustFactory(R"({"headerName":" X-Session-ID "})");
  fwksched::InferenceRequest req;
  req.Headers["x-session-id"] = "abc";
  p->Produce(&req, {});
  ASSERT_TRUE(attrsession::ReadSessionID(req).has_value());
  EXPECT_EQ(attrsession::ReadSessionID(req)->Value, "abc");
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestProduce_HeaderMode
// ("headers nil" is the empty map here.)
TEST(SessionIDProducer, ProduceHeaderMode) {
  auto producer = mustFactory(R"({"headerName":"x-session-id"})");
  struct Case {
    std::string name;
    std::map<std::string, std::string> headers;
    std::string want;
  };
  const std::vector<Case> tests = {
      {"value present", {{"x-session-id", "user-42"}}, "user-42"},
      {"value trimmed", {{"x-session-id", "  user-42  "}}, "user-42"},
      {"header absent", {{"other", "irrelevant"}}, ""},
      {"value empty", {{"x-session-id", ""}}, ""},
      {"headers nil", {}, ""},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    fwksched::InferenceRequest req;
    req.Headers = tc.headers;
    EXPECT_FALSE(producer->Produce(&req, {}).has_value());
    auto got = attrsession::ReadSessionID(req);
    if (tc.want.empty()) {
      EXPECT_FALSE(got.has_value()) << "no session id should be published";
      continue;
    }
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->Value, tc.want);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestProduce_CookieMode
TEST(SessionIDProducer, ProduceCookieMode) {
  auto producer = mustFactory(R"({"cookieName":"llm-d-session"})");
  struct Case {
    std::string name;
    std::string cookie;
    std::string want;
  };
  const std::vector<Case> tests = {
      {"single cookie", "llm-d-session=abc123", "abc123"},
      {"named cookie among others", "csrf=xyz; llm-d-session=abc123; theme=dark", "abc123"},
      {"name not present", "csrf=xyz; theme=dark", ""},
      {"header empty", "", ""},
      {"malformed pair", "no-equals; llm-d-session=abc", "abc"},
      {"value empty", "llm-d-session=", ""},
      {"value trimmed", "llm-d-session= abc123 ; other=v", "abc123"},
  };
  for (const auto& tc : tests) {
    SCOPED_TRACE(tc.name);
    fwksched::InferenceRequest req;
    req.Headers["cookie"] = tc.cookie;
    EXPECT_FALSE(producer->Produce(&req, {}).has_value());
    auto got = attrsession::ReadSessionID(req);
    if (tc.want.empty()) {
      EXPECT_FALSE(got.has_value());
      continue;
    }
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->Value, tc.want);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestProduce_NilRequest
TEST(SessionIDProducer, ProduceNilRequest) {
  auto producer = mustFactory(R"({"headerName":"x-session-id"})");
  EXPECT_FALSE(producer->Produce(nullptr, {}).has_value());
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestProduce_NoSessionDoesNotAllocateStore
TEST(SessionIDProducer, ProduceNoSessionDoesNotAllocateStore) {
  auto producer = mustFactory(R"({"headerName":"x-session-id"})");
  fwksched::InferenceRequest req;
  EXPECT_FALSE(producer->Produce(&req, {}).has_value());
  EXPECT_TRUE(req.AttributeKeys().empty()) << "no extraction should leave the store unallocated";
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/sessionid/producer_test.go@71f4f099 TestProduces_DeclaresKey
TEST(SessionIDProducer, ProducesDeclaresKey) {
  auto producer = mustFactory(R"({"headerName":"x"})");
  const auto produces = producer->Produces();
  const auto expectedKey = attrsession::SessionIDDataKey.WithNonEmptyProducerName("session-id-producer");
  bool ok = false;
  for (const auto& [k, v] : produces) ok = ok || k == expectedKey;
  EXPECT_TRUE(ok) << "Produces() must declare " << expectedKey.String();
}

// Original to BLIS: the key is the producer's instance name, so a producer named otherwise publishes where
// ReadSessionID (the default producer's key) does not look, as upstream.
TEST(SessionIDProducer, InstanceNameKeysTheAttribute) {
  sessiontest::TestHandle h;
  const nlohmann::json j = nlohmann::json::parse(R"({"headerName":"x-session-id"})");
  auto p = std::dynamic_pointer_cast<Producer>(Factory("other-name", &j, h.handle));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypedName().Type, "session-id-producer");
  EXPECT_EQ(p->TypedName().Name, "other-name");
  fwksched::InferenceRequest req;
  req.Headers["x-session-id"] = "s";
  p->Produce(&req, {});
  EXPECT_FALSE(attrsession::ReadSessionID(req).has_value());
  ASSERT_EQ(req.AttributeKeys(), std::vector<std::string>{"SessionIDDataKey/other-name"});
}

}  // namespace
}  // namespace blis::router::sessionid
