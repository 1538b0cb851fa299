// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099;
// Estimate/EstimateInput take the request (upstream's signature, with its nil checks) or the plain values
// they read from it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::inflightload {

// The token IDs of each prompt: request.Body.TokenizedPrompt.PerPromptTokens. A request with no body or
// no TokenizedPrompt (upstream's nil checks, done by the request-taking overloads) passes {}.
using PerPromptTokens = std::vector<std::vector<std::uint32_t>>;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 TokenEstimator
class TokenEstimator {
 public:
  virtual ~TokenEstimator() = default;
  // Total estimated token count (input + output). maxOutputTokens = request.Body.MaxOutputTokens
  // (std::nullopt for Go's nil, including when the request or its Body is nil).
  virtual std::int64_t Estimate(const PerPromptTokens& perPromptTokens,
                                std::optional<std::int64_t> maxOutputTokens) const = 0;
  // Only the estimated input token count.
  virtual std::int64_t EstimateInput(const PerPromptTokens& perPromptTokens) const = 0;
  // The estimated output token count given the input token count, bounded by the client cap
  // (maxOutputTokens, std::nullopt if unset) and the estimator's operator cap.
  virtual std::int64_t EstimateOutput(std::int64_t inputTokens, std::optional<std::int64_t> maxOutputTokens) const = 0;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 TokenEstimator.Estimate
  // (upstream's signature): the plain-value Estimate on request.Body.TokenizedPrompt's tokens ({} when the
  // request, its Body or its TokenizedPrompt is nil) and request.Body.MaxOutputTokens (std::nullopt when
  // the request or its Body is nil).
  std::int64_t Estimate(const fwksched::InferenceRequest* request) const;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 TokenEstimator.EstimateInput
  // (upstream's signature): 0 when the request, its Body or its TokenizedPrompt is nil.
  std::int64_t EstimateInput(const fwksched::InferenceRequest* request) const;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 DefaultOutputRatio
inline constexpr double DefaultOutputRatio = 1.5;

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator
class SimpleTokenEstimator final : public TokenEstimator {
 public:
  SimpleTokenEstimator() = default;
  SimpleTokenEstimator(double outputRatio, std::optional<std::int64_t> maxEstimatedOutputTokens)
      : OutputRatio(outputRatio), MaxEstimatedOutputTokens(maxEstimatedOutputTokens) {}

  // The request-taking overloads of the base class.
  using TokenEstimator::Estimate;
  using TokenEstimator::EstimateInput;

  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.Estimate
  std::int64_t Estimate(const PerPromptTokens& perPromptTokens,
                        std::optional<std::int64_t> maxOutputTokens) const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.EstimateInput
  std::int64_t EstimateInput(const PerPromptTokens& perPromptTokens) const override;
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.EstimateOutput
  std::int64_t EstimateOutput(std::int64_t inputTokens, std::optional<std::int64_t> maxOutputTokens) const override;

  double OutputRatio = 0.0;  // Go zero value, as &SimpleTokenEstimator{} upstream
  // Optional operator cap on the estimated output tokens; std::nullopt means no cap.
  std::optional<std::int64_t> MaxEstimatedOutputTokens;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimator
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimator();
// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimatorWithRatio
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimatorWithRatio(double ratio);
// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimatorWithConfig
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimatorWithConfig(double ratio, std::optional<std::int64_t> maxOutput);

}  // namespace blis::router::inflightload
