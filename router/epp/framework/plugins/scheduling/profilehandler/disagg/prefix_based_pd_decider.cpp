// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099; logging
// is not ported (the decider's log lines only explain a false answer), no Go context.
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.h"

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderConfig.validate
std::optional<std::string> PrefixBasedPDDeciderConfig::validate() const {
  if (NonCachedTokens < 0) return "nonCachedTokens parameter of prefix disaggregation decider cannot be negative";
  if (PromptTokens < 0) return "promptTokens parameter of prefix disaggregation decider cannot be negative";
  return std::nullopt;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDeciderPluginFactory
std::shared_ptr<fwkplugin::Plugin> PrefixBasedPDDeciderPluginFactory(const std::string& name,
                                                                     fwkplugin::Parameters parameters,
                                                                     fwkplugin::Handle&) {
  PrefixBasedPDDeciderConfig config;
  try {
    fwkplugin::StrictObject obj(parameters, "disagg.PrefixBasedPDDeciderConfig");
    obj.Field("nonCachedTokens", config.NonCachedTokens);
    obj.Field("promptTokens", config.PromptTokens);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse ") + PrefixBasedPDDeciderPluginType +
                                 " plugin config: " + e.what());
  }
  if (auto err = config.validate()) {
    throw fwkplugin::PluginError(std::string("failed to create ") + PrefixBasedPDDeciderPluginType +
                                 " plugin: " + *err);
  }
  return NewPrefixBasedPDDecider(config)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 NewPrefixBasedPDDecider
std::shared_ptr<PrefixBasedPDDecider> NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig config) {
  if (auto err = config.validate()) throw fwkplugin::PluginError(*err);
  return std::make_shared<PrefixBasedPDDecider>(config);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 PrefixBasedPDDecider.disaggregate
bool PrefixBasedPDDecider::disaggregate(fwksched::InferenceRequest* request, const fwksched::EndpointPtr& endpoint) {
  // NonCachedTokens is the minimum number of non-cached tokens that triggers disaggregated PD; 0 disables it.
  if (config_.NonCachedTokens == 0) return false;
  if (endpoint == nullptr) return false;  // upstream logs "prefix decider: endpoint is nil"
  const std::optional<int> inputTokens = getUserInputLenInTokens(request);
  if (!inputTokens) return false;  // upstream logs the error
  if (config_.PromptTokens > 0 && *inputTokens < config_.PromptTokens) return false;
  if (*inputTokens < config_.NonCachedTokens) return false;
  // Inspect the decode endpoint: if the non-cached part is short enough, no disaggregation.
  const fwkdl::CloneablePtr prefixInfoRaw = endpoint->Get(attrprefix::PrefixCacheMatchInfoDataKey.String());
  if (prefixInfoRaw == nullptr) return false;  // "unable to read prefix cache state"
  auto prefixCacheMatchInfo = std::dynamic_pointer_cast<attrprefix::PrefixCacheMatchInfo>(prefixInfoRaw);
  if (prefixCacheMatchInfo == nullptr) return false;  // "wrong type of prefix cache match info"
  // The unweighted cached-block count, not the tier-weighted match score.
  const int hitPrefixTokens = prefixCacheMatchInfo->CachedBlockCount() * prefixCacheMatchInfo->BlockSizeTokens();
  const int nonCachedTokens = *inputTokens - hitPrefixTokens;  // length of the non-cached suffix
  return nonCachedTokens >= config_.NonCachedTokens;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go@71f4f099 getUserInputLenInTokens
std::optional<int> getUserInputLenInTokens(const fwksched::InferenceRequest* request) {
  if (request == nullptr || request->Body == nullptr) return std::nullopt;  // "request or request body is nil"
  if (request->Body->TokenizedPrompt) return request->Body->TokenizedPrompt->TokenCount();
  return 0;
}

}  // namespace blis::router::disagg
