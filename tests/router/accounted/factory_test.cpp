// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: GoogleTest transcriptions of the factory tests of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099,
// vllm_http_test.go@71f4f099 and approximateprefix/plugin_test.go@71f4f099, run against the factories the
// port registers (router/cmd/epp/runner: tokenizer::PluginFactory, runner::ApproxPrefixCacheFactory).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "contracts/router/runtime.h"
#include "router/cmd/epp/runner/register.h"
#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router {
namespace {

// A runtime that refuses random draws (Go's tests pass a test context).
class NoDrawRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    throw std::logic_error("unexpected random stream request: " + std::string(purpose));
  }
};

struct TestHandle {
  NoDrawRuntime runtime;
  fwkplugin::Handle handle{runtime};
};

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer_test.go@71f4f099 TestPluginFactory_Validation
// The cases the port decodes. Not transcribed: "estimate image static mode parses" and "invalid estimate image
// mode" (the port refuses any estimate.image/estimate.video setting with std::invalid_argument: multimodal
// inputs are not modelled, so the image estimator is never configured), and "invalid JSON" (a factory here
// receives already-parsed JSON; the config loader reports unparsable text before any factory runs).
TEST(TokenProducerFactory, Validation) {
  TestHandle h;
  struct Case {
    std::string name;
    std::string params;  // "" = nil parameters
    bool expectErr;
    std::string errContain;
  };
  const std::vector<Case> tests = {
      {"empty object selects estimate", "{}", false, ""},
      {"nil parameters select estimate", "", false, ""},
      {"render backend requires modelName", R"({"vllm":{}})", true, "'modelName' must be specified"},
  };
  for (const auto& tt : tests) {
    SCOPED_TRACE(tt.name);
    nlohmann::json raw;
    fwkplugin::Parameters params = nullptr;
    if (!tt.params.empty()) {
      raw = nlohmann::json::parse(tt.params);
      params = &raw;
    }
    if (tt.expectErr) {
      try {
        tokenizer::PluginFactory("test-tokenizer", params, h.handle);
        ADD_FAILURE() << "expected an error";
      } catch (const fwkplugin::PluginError& e) {
        EXPECT_TRUE(contains(e.what(), tt.errContain)) << e.what();
      }
    } else {
      std::shared_ptr<fwkplugin::Plugin> p;
      ASSERT_NO_THROW(p = tokenizer::PluginFactory("test-tokenizer", params, h.handle));
      EXPECT_NE(p, nullptr);
    }
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/vllm_http_test.go@71f4f099 TestPluginFactory_RejectsBothBackends
TEST(TokenProducerFactory, RejectsBothBackends) {
  TestHandle h;
  const nlohmann::json params = nlohmann::json::parse(R"({
    "modelName": "m",
    "udsTokenizerConfig": {"socketFile": "/tmp/foo.sock"},
    "vllm": {"url": "http://localhost:8000"}
  })");
  try {
    tokenizer::PluginFactory("test", &params, h.handle);
    FAIL() << "expected an error";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "only one of")) << e.what();
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin_test.go@71f4f099 TestFactory_RejectsUnknownField
TEST(ApproxPrefixCacheFactory, RejectsUnknownField) {
  TestHandle h;
  const nlohmann::json params = nlohmann::json::parse(R"({"unknownField": "value"})");
  try {
    runner::ApproxPrefixCacheFactory("test", &params, h.handle);
    FAIL() << "factory must reject unknown config fields";
  } catch (const fwkplugin::PluginError& e) {
    EXPECT_TRUE(contains(e.what(), "unknownField")) << "error message should name the offending field: " << e.what();
  }
}

}  // namespace
}  // namespace blis::router
