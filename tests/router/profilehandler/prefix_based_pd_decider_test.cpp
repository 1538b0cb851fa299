// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099.
// Not applicable: the factory's "invalid
// json" case (a JSON syntax error is raised by the config loader before any factory sees parameters).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_mm_decider.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/pd_profile_handler.h"
#include "tests/router/profilehandler/disagg_test_support.h"

namespace blis::router::disagg {
namespace {

using namespace test;  // NOLINT: the shared helpers of the pinned tests

const std::string testEndpointAddr = "10.0.0.1";
const std::string testEndpointPort = "8000";
constexpr int testTotalTokens = 10;
constexpr int testBlockSize = 1;

// notPrefixCacheMatchInfo: a Cloneable that is not a PrefixCacheMatchInfo (the type-assertion failure).
class notPrefixCacheMatchInfo final : public fwkdl::Cloneable {
 public:
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<notPrefixCacheMatchInfo>(); }
  bool DeepEqual(const fwkdl::Cloneable& other) const override {
    return dynamic_cast<const notPrefixCacheMatchInfo*>(&other) != nullptr;
  }
};

fwksched::EndpointPtr makeTestEndpointBase() {
  return profiletest::createEndpoint({"default", "test-pod"}, testEndpointAddr, testEndpointPort);
}

fwksched::EndpointPtr makeTestEndpoint(int cachedTokens) {
  auto ep = makeTestEndpointBase();
  ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(),
          attrprefix::NewPrefixCacheMatchInfo(cachedTokens, testTotalTokens, testBlockSize));
  return ep;
}

std::shared_ptr<fwksched::InferenceRequest> makeRequestWithTokens(int tokens) {
  return completionsRequest(std::string(static_cast<std::size_t>(tokens * averageCharactersPerToken), 'x'));
}

std::shared_ptr<fwksched::InferenceRequest> completionsRequestWithPrompt(const fwkrh::Prompt& prompt) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req->Body->Completions = fwkrh::CompletionsRequest{prompt, ""};
  return req;
}

std::shared_ptr<fwksched::InferenceRequest> embeddingsRequestWithInput(const fwkrh::EmbeddingsInput& input) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req->Body->Embeddings = fwkrh::EmbeddingsRequest{input, ""};
  return req;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestGetUserInputLenInTokens
TEST(PrefixBasedPDDecider, TestGetUserInputLenInTokens) {
  struct Case {
    std::string name;
    std::shared_ptr<fwksched::InferenceRequest> req;
    int wantMin = 0;
    bool wantZero = false;
    int want = 0;
  };
  auto stringsPrompt = [] {
    auto req = completionsRequestWithPrompt(fwkrh::Prompt{"", {"hello world", "foo bar baz"}, {}});
    req->Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{std::vector<std::uint32_t>(5)}, ""};
    return req;
  };
  auto generate = [] {
    auto req = std::make_shared<fwksched::InferenceRequest>();
    req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
    req->Body->Generate = fwkrh::GenerateRequest{{1, 2, 3, 4, 5, 6, 7}, ""};
    req->Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{std::vector<std::uint32_t>(7)}, ""};
    return req;
  };
  const std::vector<Case> tests = {
      {"completions prompt", completionsRequest("hello world hello world"), 5},  // 23 chars -> 5 tokens
      {"chat completions", withTokens(textChatRequest(), 1), 1},
      {"completions string array prompt", stringsPrompt(), 0, false, 5},
      {"empty completions prompt", completionsRequest(""), 0, true},
      {"completions prompt array",
       withTokens(completionsRequestWithPrompt(fwkrh::Prompt{"", {"hello", "world"}, {}}), 2), 2},
      {"completions token ids uses exact hint",
       withTokens(completionsRequestWithPrompt(fwkrh::Prompt{"", {}, {1, 2, 3, 4}}), 4), 0, false, 4},
      {"embeddings input array",
       withTokens(embeddingsRequestWithInput(fwkrh::EmbeddingsInput{"", {"hello", "world"}, {}}), 2), 2},
      {"embeddings token ids uses exact hint",
       withTokens(embeddingsRequestWithInput(fwkrh::EmbeddingsInput{"", {}, {1, 2, 3}}), 3), 0, false, 3},
      {"generate request returns exact token count", generate(), 0, false, 7},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    const std::optional<int> tokens = getUserInputLenInTokens(tt.req.get());
    ASSERT_TRUE(tokens.has_value());
    if (tt.wantZero) {
      EXPECT_EQ(*tokens, 0);
    } else if (tt.want > 0) {
      EXPECT_EQ(*tokens, tt.want);
    } else {
      EXPECT_GE(*tokens, tt.wantMin);
    }
  }
  // Go's error path: a nil request or body.
  EXPECT_FALSE(getUserInputLenInTokens(nullptr).has_value());
  fwksched::InferenceRequest noBody;
  EXPECT_FALSE(getUserInputLenInTokens(&noBody).has_value());
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestPrefixBasedPDDeciderConfigValidation
TEST(PrefixBasedPDDecider, TestPrefixBasedPDDeciderConfigValidation) {
  struct Case {
    std::string name;
    PrefixBasedPDDeciderConfig config;
    bool expectErr;
  };
  const std::vector<Case> tests = {
      {"zero is valid", {0, 0}, false},
      {"positive is valid", {100, 0}, false},
      {"negative is invalid", {-1, 0}, true},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    if (tt.expectErr) {
      EXPECT_THROW(NewPrefixBasedPDDecider(tt.config), fwkplugin::PluginError);
    } else {
      EXPECT_NO_THROW(NewPrefixBasedPDDecider(tt.config));
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestPrefixBasedPDDeciderFactory
// (the "invalid json" case is not applicable: see the file header; the error texts are upstream's)
TEST(PrefixBasedPDDecider, TestPrefixBasedPDDeciderFactory) {
  struct Case {
    std::string name, pluginName, rawParams;
    bool expectErr;
    int expectNonCached;
    std::string expectPluginName;
    std::string wantErr;
  };
  const std::vector<Case> tests = {
      {"default parameters (nil)", "my-decider", "", false, 0, "my-decider", ""},
      {"custom nonCachedTokens", "custom-decider", R"({"nonCachedTokens": 50})", false, 50, "custom-decider", ""},
      {"negative nonCachedTokens", "bad-decider", R"({"nonCachedTokens": -5})", true, 0, "",
       "failed to create prefix-based-pd-decider plugin: nonCachedTokens parameter of prefix disaggregation "
       "decider cannot be negative"},
      {"unknown field (strict decoding)", "bad-field", R"({"nonCached": 5})", true, 0, "",
       "failed to parse prefix-based-pd-decider plugin config: json: unknown field \"nonCached\""},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    profiletest::TestHandle h;
    nlohmann::json raw;
    fwkplugin::Parameters params = nullptr;
    if (!tt.rawParams.empty()) {
      raw = nlohmann::json::parse(tt.rawParams);
      params = &raw;
    }
    if (tt.expectErr) {
      try {
        PrefixBasedPDDeciderPluginFactory(tt.pluginName, params, h.handle);
        FAIL() << "expected an error";
      } catch (const fwkplugin::PluginError& e) {
        EXPECT_EQ(std::string(e.what()), tt.wantErr);
      }
      continue;
    }
    auto p = PrefixBasedPDDeciderPluginFactory(tt.pluginName, params, h.handle);
    ASSERT_NE(p, nullptr);
    auto decider = std::dynamic_pointer_cast<PrefixBasedPDDecider>(p);
    ASSERT_NE(decider, nullptr);
    EXPECT_EQ(decider->TypedName().Name, tt.expectPluginName);
    EXPECT_EQ(decider->config().NonCachedTokens, tt.expectNonCached);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestDisaggregate
TEST(PrefixBasedPDDecider, TestDisaggregate) {
  struct Case {
    std::string name;
    int nonCachedTokens;
    int promptTokens;
    std::shared_ptr<fwksched::InferenceRequest> request;
    fwksched::EndpointPtr endpoint;
    bool expectDisaggregate;
    bool expectErr;
  };
  const std::vector<Case> tests = {
      {"threshold zero disables disaggregation", 0, 0, makeRequestWithTokens(10), makeTestEndpoint(5), false, false},
      {"threshold zero with nil endpoint disables disaggregation", 0, 0, makeRequestWithTokens(10), nullptr, false,
       false},
      {"nil endpoint returns false", 5, 0, makeRequestWithTokens(10), nullptr, false, false},
      {"input shorter than promptTokens threshold", 5, 20, makeRequestWithTokens(10), makeTestEndpoint(0), false,
       false},
      {"negative promptTokens is invalid", 5, -1, makeRequestWithTokens(10), makeTestEndpoint(0), false, true},
      {"input shorter than threshold", 20, 0, makeRequestWithTokens(10), makeTestEndpoint(0), false, false},
      {"input equals promptTokens threshold", 5, 10, makeRequestWithTokens(10), makeTestEndpoint(5), true, false},
      {"non-cached suffix below threshold", 5, 0, makeRequestWithTokens(10), makeTestEndpoint(8), false, false},
      {"non-cached suffix equals threshold", 5, 0, makeRequestWithTokens(10), makeTestEndpoint(5), true, false},
      {"non-cached suffix above threshold", 3, 0, makeRequestWithTokens(10), makeTestEndpoint(2), true, false},
      {"fully cached prompt", 1, 0, makeRequestWithTokens(10), makeTestEndpoint(10), false, false},
      {"no cache hit at all", 5, 0, makeRequestWithTokens(10), makeTestEndpoint(0), true, false},
  };
  for (const Case& tt : tests) {
    SCOPED_TRACE(tt.name);
    const PrefixBasedPDDeciderConfig config{tt.nonCachedTokens, tt.promptTokens};
    if (tt.expectErr) {
      EXPECT_THROW(NewPrefixBasedPDDecider(config), fwkplugin::PluginError);
      continue;
    }
    auto decider = NewPrefixBasedPDDecider(config);
    EXPECT_EQ(decider->disaggregate(tt.request.get(), tt.endpoint), tt.expectDisaggregate);
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestDisaggregate_UsesUnweightedCachedBlockCount
TEST(PrefixBasedPDDecider, TestDisaggregate_UsesUnweightedCachedBlockCount) {
  constexpr int blockSize = 16;
  constexpr int inputTokens = 4096;
  constexpr int totalBlocks = inputTokens / blockSize;  // 256
  constexpr int cachedBlocks = 240;                     // contiguous hit (3840 tokens)
  constexpr int ramWeightedScore = 192;                 // int(240 * 0.8) as stored in matchBlocks
  constexpr int nonCachedTokens = 512;
  auto newEndpoint = [](const std::shared_ptr<attrprefix::PrefixCacheMatchInfo>& info) {
    auto ep = makeTestEndpointBase();
    ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), info);
    return ep;
  };
  auto req = withTokens(completionsRequestWithPrompt(fwkrh::Prompt{}), inputTokens);
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{nonCachedTokens, 0});
  // cachedBlockCount carries the true 240 blocks: nonCached = 4096 - 240*16 = 256 < 512 -> decode-only.
  auto fixed = newEndpoint(
      attrprefix::NewPrefixCacheMatchInfo(ramWeightedScore, totalBlocks, blockSize)->WithCachedBlockCount(cachedBlocks));
  EXPECT_FALSE(decider->disaggregate(req.get(), fixed))
      << "RAM-cached prefix must stay decode-only when the unweighted cached-block count is used";
  // Only the tier-weighted score (192) as the block count: nonCached = 1024 >= 512 -> remote prefill.
  auto weightedOnly = newEndpoint(attrprefix::NewPrefixCacheMatchInfo(ramWeightedScore, totalBlocks, blockSize));
  EXPECT_TRUE(decider->disaggregate(req.get(), weightedOnly))
      << "sanity: the tier-weighted score alone undercounts cached blocks and misroutes";
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestDisaggregateNoPrefixInfo
TEST(PrefixBasedPDDecider, TestDisaggregateNoPrefixInfo) {
  auto ep = makeTestEndpointBase();
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{5, 0});
  EXPECT_FALSE(decider->disaggregate(makeRequestWithTokens(100).get(), ep));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestDisaggregateWrongPrefixInfoType
TEST(PrefixBasedPDDecider, TestDisaggregateWrongPrefixInfoType) {
  auto ep = makeTestEndpointBase();
  ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), std::make_shared<notPrefixCacheMatchInfo>());
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{5, 0});
  EXPECT_FALSE(decider->disaggregate(makeRequestWithTokens(100).get(), ep));
  // The same endpoint with the right type would disaggregate (100 uncached tokens >= 5): the false above is
  // the type check's.
  ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(), attrprefix::NewPrefixCacheMatchInfo(0, 100, 1));
  EXPECT_TRUE(decider->disaggregate(makeRequestWithTokens(100).get(), ep));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestConsumes
TEST(PrefixBasedPDDecider, TestConsumes) {
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{0, 0});
  PdProfileHandlerParameters params;
  params.PrefillProfile = "prefill";
  params.DecodeProfile = "decode";
  params.PrefixMatchInfoProducerName = "test";
  auto handler = NewPdProfileHandler("test-handler", params, decider);
  const auto consumed = handler->Consumes();
  EXPECT_TRUE(consumed.Required.count(attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName("test")));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider_test.go@71f4f099 TestWithName
TEST(PrefixBasedPDDecider, TestWithName) {
  auto decider = NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{0, 0});
  decider->WithName("my-decider");
  EXPECT_EQ(decider->TypedName().Name, "my-decider");
  decider->WithName("renamed");
  EXPECT_EQ(decider->TypedName().Name, "renamed");
  EXPECT_EQ(decider->TypedName().Type, PrefixBasedPDDeciderPluginType);
}

// always_disagg_pd_decider.go@71f4f099 / always_disagg_mm_decider.go@71f4f099 factories (no upstream test):
// the PD decider always disaggregates; the multimodal decider is refused by name.
TEST(Deciders, AlwaysDisaggFactories) {
  profiletest::TestHandle h;
  auto p = std::dynamic_pointer_cast<AlwaysDisaggPDDecider>(AlwaysDisaggPDDeciderPluginFactory("a", nullptr, h.handle));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->TypedName(), (fwkplugin::TypedName{AlwaysDisaggPDDeciderPluginType, "a"}));
  EXPECT_TRUE(p->disaggregate(nullptr, nullptr));
  try {
    AlwaysDisaggMulimodalDeciderPluginFactory("mm", nullptr, h.handle);
    FAIL() << "expected the multimodal decider to be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("always-disagg-multimodal-decider 'mm' is not modelled by this port"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace blis::router::disagg
