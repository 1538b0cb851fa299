// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099;
// see token_estimator.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.h"

#include <cmath>

namespace blis::router::inflightload {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimator
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimator() { return NewSimpleTokenEstimatorWithRatio(DefaultOutputRatio); }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimatorWithRatio
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimatorWithRatio(double ratio) {
  return NewSimpleTokenEstimatorWithConfig(ratio, std::nullopt);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 NewSimpleTokenEstimatorWithConfig
std::unique_ptr<TokenEstimator> NewSimpleTokenEstimatorWithConfig(double ratio, std::optional<std::int64_t> maxOutput) {
  return std::make_unique<SimpleTokenEstimator>(ratio, maxOutput);
}

namespace {

// Original to BLIS: the tokens upstream's nil checks let through: none unless the request, its Body and its TokenizedPrompt
// are all set.
const PerPromptTokens& tokensOf(const fwksched::InferenceRequest* request) {
  static const PerPromptTokens none;
  if (request == nullptr || request->Body == nullptr || !request->Body->TokenizedPrompt.has_value()) return none;
  return request->Body->TokenizedPrompt->PerPromptTokens;
}

}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.Estimate
// (the request-taking form, on the interface so every estimator has it)
std::int64_t TokenEstimator::Estimate(const fwksched::InferenceRequest* request) const {
  std::optional<std::int64_t> maxOutputTokens;
  if (request != nullptr && request->Body != nullptr) maxOutputTokens = request->Body->MaxOutputTokens;
  return Estimate(tokensOf(request), maxOutputTokens);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.EstimateInput
// (the request-taking form)
std::int64_t TokenEstimator::EstimateInput(const fwksched::InferenceRequest* request) const {
  return EstimateInput(tokensOf(request));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.Estimate
std::int64_t SimpleTokenEstimator::Estimate(const PerPromptTokens& perPromptTokens,
                                            std::optional<std::int64_t> maxOutputTokens) const {
  const std::int64_t inputTokens = EstimateInput(perPromptTokens);
  if (inputTokens == 0) return 0;
  return inputTokens + EstimateOutput(inputTokens, maxOutputTokens);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.EstimateInput
// TokenizedPrompt.TokenCount(): the token IDs over all prompts.
std::int64_t SimpleTokenEstimator::EstimateInput(const PerPromptTokens& perPromptTokens) const {
  std::int64_t n = 0;
  for (const auto& pp : perPromptTokens) n += static_cast<std::int64_t>(pp.size());
  return n;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/token_estimator.go@71f4f099 SimpleTokenEstimator.EstimateOutput
std::int64_t SimpleTokenEstimator::EstimateOutput(std::int64_t inputTokens,
                                                  std::optional<std::int64_t> maxOutputTokens) const {
  if (inputTokens <= 0) return 0;
  // math.Round rounds half away from zero, as std::round.
  const double product = static_cast<double>(inputTokens) * OutputRatio;
  std::int64_t est = static_cast<std::int64_t>(std::round(product));
  if (maxOutputTokens.has_value() && *maxOutputTokens >= 0 && *maxOutputTokens < est) est = *maxOutputTokens;
  if (MaxEstimatedOutputTokens.has_value() && *MaxEstimatedOutputTokens >= 0 && *MaxEstimatedOutputTokens < est) {
    est = *MaxEstimatedOutputTokens;
  }
  return est;
}

}  // namespace blis::router::inflightload
