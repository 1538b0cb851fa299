// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099;
// all but logging; no Go context.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::tokenload {

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorerType
inline constexpr const char* TokenLoadScorerType = "token-load-scorer";
// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 tokenQueueThresholdDefault
inline constexpr std::int64_t tokenQueueThresholdDefault = 4194304;  // 128 requests @ 32K per request

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 Config
struct Config {
  std::int64_t QueueThresholdTokens = tokenQueueThresholdDefault;
  std::string InFlightLoadProducerName;
};

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer
// Scores by the endpoint's in-flight tokens plus the tokens the current request would add there
// (InFlightLoad.Tokens + UncachedRequestTokens.Tokens): 1.0 at no load, falling linearly to 0 at the
// threshold. An endpoint without metadata (a nil dereference upstream) is refused with std::invalid_argument.
class TokenLoadScorer final : public fwksched::Scorer, public fwkplugin::ConsumerPlugin {
 public:
  // pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName; }
  // pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

  // pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.Consumes
  // Required only (no Optional keys).
  fwkplugin::DataDependencies Consumes() const override;

  // Go's unexported fields.
  fwkplugin::TypedName typedName;
  double queueThresholdTokens = 0;
  fwkplugin::DataKey inFlightLoadDataKey;
  fwkplugin::DataKey uncachedRequestTokensDataKey;
};

// Original to BLIS: the construction TokenLoadScorerFactory does after decoding.
std::shared_ptr<TokenLoadScorer> NewTokenLoadScorer(const std::string& name, Config cfg);

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorerFactory
std::shared_ptr<fwkplugin::Plugin> TokenLoadScorerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                          fwkplugin::Handle& handle);

}  // namespace blis::router::tokenload
