// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: tests transcribed from pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099
// against the plain-value port (request.Body.TokenizedPrompt.PerPromptTokens and Body.MaxOutputTokens
// passed as values). The request-level nil cases wait for the request-taking overload.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/constants/constants.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.h"

namespace {

using namespace blis::router::inflightload;

// token_estimator_test.go tokenizedRequest: a tokenized prompt of n tokens (one prompt).
PerPromptTokens tokenizedRequest(int n) { return {std::vector<std::uint32_t>(static_cast<std::size_t>(n))}; }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_Estimate
// Cases "Empty tokenized prompt" (TokenizedPrompt{}: nil PerPromptTokens), "Single token", "Ten tokens".
// "Nil request", "Empty request", "Body nil", "Body without tokenized prompt" are request-level nil checks.
TEST(TokenEstimator, Estimate) {
  const auto estimator = NewSimpleTokenEstimator();
  struct Case {
    std::string name;
    PerPromptTokens request;
    std::int64_t expected;
  };
  const std::vector<Case> testCases = {
      {"Empty tokenized prompt", {}, 0},
      {"Single token", tokenizedRequest(1), 3},  // 1 input + round(1*1.5)=2 output
      {"Ten tokens", tokenizedRequest(10), 25},  // 10 input + round(10*1.5)=15 output
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(estimator->Estimate(tc.request, std::nullopt), tc.expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_EstimateInput
// Cases "Empty token IDs" and "Several tokens"; "Nil request", "Nil body", "Nil tokenized prompt" are
// request-level nil checks.
TEST(TokenEstimator, EstimateInput) {
  const auto estimator = NewSimpleTokenEstimator();
  struct Case {
    std::string name;
    PerPromptTokens request;
    std::int64_t expected;
  };
  const std::vector<Case> testCases = {
      {"Empty token IDs", tokenizedRequest(0), 0},
      {"Several tokens", tokenizedRequest(7), 7},
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(estimator->EstimateInput(tc.request), tc.expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_EstimateOutput
TEST(TokenEstimator, EstimateOutput) {
  struct Case {
    std::string name;
    double ratio;
    std::optional<std::int64_t> operatorCap;
    std::int64_t inputTokens;
    std::optional<std::int64_t> clientCap;
    std::int64_t expected;
  };
  const std::optional<std::int64_t> none;
  const std::vector<Case> testCases = {
      {"Zero input", 2.0, none, 0, none, 0},
      {"Negative input", 2.0, none, -5, none, 0},
      {"Positive input, no caps", 2.0, none, 8, none, 16},
      {"Zero ratio", 0.0, none, 100, none, 0},
      {"Client cap binds", 1.5, none, 100, 50, 50},
      {"Client cap looser than estimate", 1.5, none, 100, 500, 150},
      {"Client cap zero binds", 1.5, none, 100, 0, 0},
      {"Negative client cap ignored", 1.5, none, 100, -10, 150},
      {"Operator cap binds", 1.5, 40, 100, none, 40},
      {"Both caps, client tighter", 1.5, 80, 100, 30, 30},
      {"Both caps, operator tighter", 1.5, 30, 100, 80, 30},
      {"Both caps, estimate tightest", 1.5, 500, 100, 500, 150},
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    SimpleTokenEstimator estimator;
    estimator.OutputRatio = tc.ratio;
    estimator.MaxEstimatedOutputTokens = tc.operatorCap;
    EXPECT_EQ(estimator.EstimateOutput(tc.inputTokens, tc.clientCap), tc.expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_Estimate_HonorsClientCap
TEST(TokenEstimator, EstimateHonorsClientCap) {
  const auto estimator = NewSimpleTokenEstimator();  // ratio 1.5, no operator cap
  // 10 input tokens, client caps output at 3 -> 10 + min(15, 3) = 13.
  EXPECT_EQ(estimator->Estimate(tokenizedRequest(10), std::int64_t{3}), 13);
  // Without a client cap, the full ratio applies -> 10 + 15 = 25.
  EXPECT_EQ(estimator->Estimate(tokenizedRequest(10), std::nullopt), 25);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_Estimate_CustomConfig
TEST(TokenEstimator, EstimateCustomConfig) {
  SimpleTokenEstimator estimator;
  estimator.OutputRatio = 2.0;
  struct Case {
    std::string name;
    PerPromptTokens request;
    std::int64_t expected;
  };
  const std::vector<Case> testCases = {
      {"Empty tokenized prompt with custom config", tokenizedRequest(0), 0},
      {"Four tokens with custom config", tokenizedRequest(4), 12},  // 4 input + 4*2.0=8 output
      {"Ten tokens with custom config", tokenizedRequest(10), 30},  // 10 input + 10*2.0=20 output
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(estimator.Estimate(tc.request, std::nullopt), tc.expected);
  }
}

// BLIS: input counts every prompt (TokenCount sums PerPromptTokens); round half away from zero as
// math.Round (3 * 1.5 = 4.5 -> 5); the configured constructors and constants.
TEST(TokenEstimator, MultiPromptRoundingAndConstructors) {
  const auto estimator = NewSimpleTokenEstimator();
  const PerPromptTokens multi = {std::vector<std::uint32_t>(2), {}, std::vector<std::uint32_t>(1)};
  EXPECT_EQ(estimator->EstimateInput(multi), 3);
  EXPECT_EQ(estimator->Estimate(multi, std::nullopt), 3 + 5);
  EXPECT_EQ(NewSimpleTokenEstimatorWithRatio(0.5)->EstimateOutput(5, std::nullopt), 3);  // 2.5 -> 3
  EXPECT_EQ(NewSimpleTokenEstimatorWithConfig(1.5, 7)->Estimate(tokenizedRequest(10), std::nullopt), 17);
  EXPECT_EQ(DefaultOutputRatio, 1.5);
  EXPECT_EQ(blis::router::inflightloadconstants::InFlightLoadProducerType, "inflight-load-producer");
}

// The request-taking forms (upstream's signatures) over every upstream case, including the nil checks.
namespace fwksched = blis::router::fwksched;
namespace fwkrh = blis::router::fwkrh;

// token_estimator_test.go tokenizedRequest, as upstream: a request whose body carries n tokens.
std::shared_ptr<fwksched::InferenceRequest> tokenizedInferenceRequest(int n) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req->Body->TokenizedPrompt = fwkrh::TokenizedPrompt{{std::vector<std::uint32_t>(static_cast<std::size_t>(n))}, ""};
  return req;
}

std::shared_ptr<fwksched::InferenceRequest> bodyRequest(std::optional<fwkrh::TokenizedPrompt> tp) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req->Body->TokenizedPrompt = std::move(tp);
  return req;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_Estimate
TEST(TokenEstimator, EstimateRequest) {
  const auto estimator = NewSimpleTokenEstimator();
  struct Case {
    std::string name;
    std::shared_ptr<fwksched::InferenceRequest> request;  // nullptr: Go's nil request
    std::int64_t expected;
  };
  const std::vector<Case> testCases = {
      {"Nil request", nullptr, 0},
      {"Empty request", std::make_shared<fwksched::InferenceRequest>(), 0},
      {"Body nil", std::make_shared<fwksched::InferenceRequest>(), 0},
      {"Body without tokenized prompt", bodyRequest(std::nullopt), 0},
      {"Empty tokenized prompt", bodyRequest(fwkrh::TokenizedPrompt{}), 0},
      {"Single token", tokenizedInferenceRequest(1), 3},  // 1 input + round(1*1.5)=2 output
      {"Ten tokens", tokenizedInferenceRequest(10), 25},  // 10 input + round(10*1.5)=15 output
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(estimator->Estimate(tc.request.get()), tc.expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_EstimateInput
TEST(TokenEstimator, EstimateInputRequest) {
  const auto estimator = NewSimpleTokenEstimator();
  struct Case {
    std::string name;
    std::shared_ptr<fwksched::InferenceRequest> request;
    std::int64_t expected;
  };
  const std::vector<Case> testCases = {
      {"Nil request", nullptr, 0},
      {"Nil body", std::make_shared<fwksched::InferenceRequest>(), 0},
      {"Nil tokenized prompt", bodyRequest(std::nullopt), 0},
      {"Empty token IDs", tokenizedInferenceRequest(0), 0},
      {"Several tokens", tokenizedInferenceRequest(7), 7},
  };
  for (const auto& tc : testCases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(estimator->EstimateInput(tc.request.get()), tc.expected);
  }
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator_test.go@71f4f099 TestSimpleTokenEstimator_Estimate_HonorsClientCap
// (the request form: the client cap is read from request.Body.MaxOutputTokens)
TEST(TokenEstimator, EstimateRequestHonorsClientCap) {
  const auto estimator = NewSimpleTokenEstimator();  // ratio 1.5, no operator cap
  // 10 input tokens, client caps output at 3 -> 10 + min(15, 3) = 13.
  auto req = tokenizedInferenceRequest(10);
  req->Body->MaxOutputTokens = 3;
  EXPECT_EQ(estimator->Estimate(req.get()), 13);
  // Without a client cap, the full ratio applies -> 10 + 15 = 25.
  EXPECT_EQ(estimator->Estimate(tokenizedInferenceRequest(10).get()), 25);
}

}  // namespace
