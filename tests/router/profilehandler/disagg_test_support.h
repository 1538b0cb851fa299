// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: the shared helpers of the pinned disagg tests
// (pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler_test.go@71f4f099 and
// prefix_based_pd_decider_test.go@71f4f099): makeEndpoint, makeProfileRunResult, completionsRequest,
// chatRequest (text only: multimodal features are not ported), withPrompt, injectPrefixCache,
// handleWithDeciders (without the multimodal decider, which the port refuses) and mockEncodeDecider.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/always_disagg_pd_decider.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.h"
#include "tests/router/profilehandler/test_support.h"

namespace blis::router::disagg::test {

inline const std::string testPodPort = "8000";
// Custom profile names for user-defined configurations.
inline const std::string customDecodeProfile = "my-decode";
inline const std::string customPrefillProfile = "my-prefill";
inline const std::string customEncodeProfile = "my-encode";
inline const std::string testLongPrompt = "hello world hello world hello world";
// Token counts are derived from character-length prompt fixtures.
inline constexpr int averageCharactersPerToken = 4;

// makeProfileRunResult: one endpoint per name at 10.0.0.<i+1>:8000 with an empty attribute map.
inline std::shared_ptr<fwksched::ProfileRunResult> makeProfileRunResult(const std::vector<std::string>& names) {
  return profiletest::newMockProfileRunResult(testPodPort, names);
}

// completionsRequest: a text-only request whose tokenized prompt carries len(prompt)/4 token IDs.
inline std::shared_ptr<fwksched::InferenceRequest> completionsRequest(const std::string& prompt) {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  req->Body->Completions = fwkrh::CompletionsRequest{};
  req->Body->Completions->Prompt.Raw = prompt;
  fwkrh::TokenizedPrompt tp;
  tp.PerPromptTokens = {std::vector<std::uint32_t>(prompt.size() / averageCharactersPerToken)};
  req->Body->TokenizedPrompt = tp;
  return req;
}

// chatRequest(false, false, false): a text-only chat request without a tokenized prompt.
inline std::shared_ptr<fwksched::InferenceRequest> textChatRequest() {
  auto req = std::make_shared<fwksched::InferenceRequest>();
  req->Body = std::make_shared<fwkrh::InferenceRequestBody>();
  fwkrh::ChatCompletionsRequest chat;
  fwkrh::Message m;
  m.Role = "user";
  m.Content.Structured = {fwkrh::ContentBlock{"text", "describe this"}};
  chat.Messages = {m};
  req->Body->ChatCompletions = chat;
  return req;
}

// withPrompt: adds a completions body and sets the input token count to len(prompt)/4.
inline std::shared_ptr<fwksched::InferenceRequest> withPrompt(std::shared_ptr<fwksched::InferenceRequest> req,
                                                              const std::string& prompt) {
  req->Body->Completions = fwkrh::CompletionsRequest{};
  req->Body->Completions->Prompt.Raw = prompt;
  if (!req->Body->TokenizedPrompt) req->Body->TokenizedPrompt = fwkrh::TokenizedPrompt{};
  req->Body->TokenizedPrompt->PerPromptTokens = {std::vector<std::uint32_t>(prompt.size() / averageCharactersPerToken)};
  return req;
}

// withTokens: the tokenized prompt carries n token IDs.
inline std::shared_ptr<fwksched::InferenceRequest> withTokens(std::shared_ptr<fwksched::InferenceRequest> req, int n) {
  if (!req->Body->TokenizedPrompt) req->Body->TokenizedPrompt = fwkrh::TokenizedPrompt{};
  req->Body->TokenizedPrompt->PerPromptTokens = {std::vector<std::uint32_t>(static_cast<std::size_t>(n))};
  return req;
}

// injectPrefixCache: prefix-cache match info (cachedTokens of inputTokens blocks of one token) on each decode
// target.
inline void injectPrefixCache(const fwksched::ProfileResultMap& profileResults, int cachedTokens, int inputTokens) {
  auto it = profileResults.find(defaultDecodeProfile);
  if (it == profileResults.end() || it->second == nullptr) return;
  for (const auto& ep : it->second->TargetEndpoints) {
    ep->Put(attrprefix::PrefixCacheMatchInfoDataKey.String(),
            attrprefix::NewPrefixCacheMatchInfo(cachedTokens, inputTokens, 1));
  }
}

// AlwaysDisaggMulimodalPluginType's value (always_disagg_mm_decider.go@71f4f099), the name upstream's
// handleWithDeciders registers the multimodal decider under.
inline const std::string mmDeciderName = "always-disagg-multimodal-decider";

// mockEncodeDecider: a decider answering `allow`. Where upstream's tests give the multimodal decider a
// multimodal request, this port's tests give a mockEncodeDecider answering true (its answer on such a
// request), and for a text-only request one answering false.
class mockEncodeDecider final : public deciderPlugin {
 public:
  explicit mockEncodeDecider(bool allow) : allow_(allow) {}
  fwkplugin::TypedName TypedName() const override { return {}; }
  bool disaggregate(fwksched::InferenceRequest*, const fwksched::EndpointPtr&) override {
    ++calls;
    return allow_;
  }
  int calls = 0;

 private:
  bool allow_;
};

// handleWithDeciders: a handle holding the decider types by their type names. The multimodal decider,
// which this port refuses, is stood in for by a mockEncodeDecider under its name: HandlerFactory only
// resolves the name and checks that the plugin is a decider.
struct HandleWithDeciders : profiletest::TestHandle {
  HandleWithDeciders() {
    handle.AddPlugin(PrefixBasedPDDeciderPluginType, NewPrefixBasedPDDecider(PrefixBasedPDDeciderConfig{4, 0}));
    handle.AddPlugin(AlwaysDisaggPDDeciderPluginType, newAlwaysDisaggPDDecider());
    handle.AddPlugin(mmDeciderName, std::make_shared<mockEncodeDecider>(true));
  }
};

}  // namespace blis::router::disagg::test
