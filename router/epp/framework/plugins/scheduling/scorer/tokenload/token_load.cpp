// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099;
// see token_load.h.
#include "router/epp/framework/plugins/scheduling/scorer/tokenload/token_load.h"

#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"

namespace blis::router::tokenload {

// Original to BLIS: the part of TokenLoadScorerFactory after decoding.
std::shared_ptr<TokenLoadScorer> NewTokenLoadScorer(const std::string& name, Config cfg) {
  if (cfg.QueueThresholdTokens <= 0) cfg.QueueThresholdTokens = tokenQueueThresholdDefault;
  auto s = std::make_shared<TokenLoadScorer>();
  s->typedName = fwkplugin::TypedName{TokenLoadScorerType, name};
  s->queueThresholdTokens = static_cast<double>(cfg.QueueThresholdTokens);
  s->inFlightLoadDataKey = concurrency::InFlightLoadDataKey.WithNonEmptyProducerName(cfg.InFlightLoadProducerName);
  s->uncachedRequestTokensDataKey =
      concurrency::UncachedRequestTokensDataKey.WithNonEmptyProducerName(cfg.InFlightLoadProducerName);
  return s;
}

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorerFactory
std::shared_ptr<fwkplugin::Plugin> TokenLoadScorerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                          fwkplugin::Handle& /*handle*/) {
  Config cfg;
  try {
    fwkplugin::StrictObject obj(parameters, "tokenload.Config");
    obj.Field("queueThresholdTokens", cfg.QueueThresholdTokens);
    obj.Field("inFlightLoadProducerName", cfg.InFlightLoadProducerName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to unmarshal token load scorer config: ") + e.what());
  }
  return NewTokenLoadScorer(name, cfg);
}

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.Score
fwksched::ScoreMap TokenLoadScorer::Score(fwksched::InferenceRequest* /*request*/,
                                          const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::ScoreMap scores;
  for (const auto& endpoint : endpoints) {
    if (endpoint->GetMetadata() == nullptr) {
      throw std::invalid_argument("token-load-scorer: an endpoint without metadata is not modelled by this port "
                                  "(upstream dereferences nil metadata)");
    }
    // The accumulated in-flight load plus the projected impact of the request being scored.
    std::int64_t tokens = 0;
    if (auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint->Get(inFlightLoadDataKey.String()))) {
      tokens += load->Tokens;
    }
    if (auto uncached = std::dynamic_pointer_cast<concurrency::UncachedRequestTokens>(
            endpoint->Get(uncachedRequestTokensDataKey.String()))) {
      tokens += uncached->Tokens;
    }
    double tokenLoad = static_cast<double>(tokens);
    double score = 0.0;
    if (tokenLoad <= 0) {
      score = 1.0;
    } else {
      if (tokenLoad > queueThresholdTokens) tokenLoad = queueThresholdTokens;
      score = 1.0 - (tokenLoad / queueThresholdTokens);
    }
    scores[endpoint] = score;
  }
  return scores;
}

// pkg/epp/framework/plugins/scheduling/scorer/tokenload/token_load.go@71f4f099 TokenLoadScorer.Consumes
fwkplugin::DataDependencies TokenLoadScorer::Consumes() const {
  return {{{inFlightLoadDataKey, concurrency::InFlightLoad{}},
           {uncachedRequestTokensDataKey, concurrency::UncachedRequestTokens{}}},
          {}};
}

}  // namespace blis::router::tokenload
