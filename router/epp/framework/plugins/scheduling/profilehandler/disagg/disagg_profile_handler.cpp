// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 (Pick,
// ProcessResults, PreRequest; the parameters and factory are in disagg_profile_handler_config.cpp); tracing
// and the decision metric (metrics.go RecordDisaggDecision) are not ported.
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"

#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_headers_handler.h"
#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"

namespace blis::router::disagg {

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 NewDisaggProfileHandler
std::shared_ptr<Handler> NewDisaggProfileHandler(const std::string& decodeProfile, const std::string& prefillProfile,
                                                 const std::string& encodeProfile,
                                                 std::shared_ptr<deciderPlugin> pdDecider,
                                                 std::shared_ptr<deciderPlugin> encodeDecider) {
  return std::make_shared<Handler>(DisaggProfileHandlerType, decodeProfile, prefillProfile, encodeProfile,
                                   std::move(pdDecider), std::move(encodeDecider));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.Pick
fwksched::ProfileMap Handler::Pick(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                                   const fwksched::ProfileResultMap& profileResults) {
  if (request == nullptr) return {};
  // Go's map is a reference: Pick's nil markers ("evaluated, declined") land in the scheduler's own
  // profileRunResults, which Scheduler::Schedule holds as a non-const object, so casting the const away
  // writes where Go writes. (The ProfileHandler interface takes a const reference; see the report.)
  auto& results = const_cast<fwksched::ProfileResultMap&>(profileResults);
  if (stageOrder_ == StageOrderPrefillFirst) return pickPrefillFirst(request, profiles, results);
  return pickDecodeFirst(request, profiles, results);
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.pickDecodeFirst
fwksched::ProfileMap Handler::pickDecodeFirst(fwksched::InferenceRequest* request, const fwksched::ProfileMap& profiles,
                                              fwksched::ProfileResultMap& profileResults) {
  // Stage 1: Decode.
  if (profileResults.find(decodeProfile_) == profileResults.end()) {
    auto decode = profiles.find(decodeProfile_);
    if (decode == profiles.end()) return {};  // error_missing_decode_profile
    return {{decodeProfile_, decode->second}};
  }
  const std::shared_ptr<fwksched::ProfileRunResult> decodeRes = profileResults[decodeProfile_];
  if (decodeRes == nullptr || decodeRes->TargetEndpoints.empty()) return {};  // decode failed: complete

  // Stage 2: Encode (optional).
  if (auto encode = profiles.find(encodeProfile_); encode != profiles.end()) {
    if (profileResults.find(encodeProfile_) == profileResults.end()) {
      if (encodeDecider_ != nullptr && encodeDecider_->disaggregate(request, decodeRes->TargetEndpoints[0])) {
        return {{encodeProfile_, encode->second}};
      }
      profileResults[encodeProfile_] = nullptr;  // declined: mark as evaluated so the decider is not re-run
    }
  }

  // Stage 3: Prefill (optional).
  if (auto prefill = profiles.find(prefillProfile_); prefill != profiles.end()) {
    if (profileResults.find(prefillProfile_) == profileResults.end()) {
      if (pdDecider_ != nullptr && pdDecider_->disaggregate(request, decodeRes->TargetEndpoints[0])) {
        // Publish the decode pick for plugins in the prefill profile (e.g. topology affinity).
        request->PutAttribute(PeerEndpointAttributeKey, decodeRes->TargetEndpoints[0]);
        return {{prefillProfile_, prefill->second}};
      }
      profileResults[prefillProfile_] = nullptr;  // declined: mark as evaluated
    }
  }
  // All stages done (upstream records the decision metric here).
  return {};
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.pickPrefillFirst
fwksched::ProfileMap Handler::pickPrefillFirst(fwksched::InferenceRequest* request,
                                               const fwksched::ProfileMap& profiles,
                                               fwksched::ProfileResultMap& profileResults) {
  // Decode has run: done (upstream records the decision metric when decode succeeded).
  if (profileResults.find(decodeProfile_) != profileResults.end()) return {};

  // Stage 1: Prefill (optional): runs whenever the prefill profile is configured.
  if (auto prefill = profiles.find(prefillProfile_); prefill != profiles.end()) {
    if (profileResults.find(prefillProfile_) == profileResults.end()) return {{prefillProfile_, prefill->second}};
  }

  // Stage 2: Encode (optional).
  if (auto encode = profiles.find(encodeProfile_); encode != profiles.end()) {
    if (profileResults.find(encodeProfile_) == profileResults.end()) {
      if (encodeDecider_ != nullptr && encodeDecider_->disaggregate(request, nullptr)) {
        return {{encodeProfile_, encode->second}};
      }
      profileResults[encodeProfile_] = nullptr;  // declined: mark as evaluated
    }
  }

  // Stage 3: Decode (mandatory).
  auto decode = profiles.find(decodeProfile_);
  if (decode == profiles.end()) return {};  // error_missing_decode_profile
  // Publish the prefill pick (if prefill ran and succeeded) for plugins in the decode profile.
  if (auto prefillRes = profileResults.find(prefillProfile_);
      prefillRes != profileResults.end() && prefillRes->second != nullptr &&
      !prefillRes->second->TargetEndpoints.empty()) {
    request->PutAttribute(PeerEndpointAttributeKey, prefillRes->second->TargetEndpoints[0]);
  }
  return {{decodeProfile_, decode->second}};
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.ProcessResults
fwksched::Outcome<fwksched::SchedulingResult> Handler::ProcessResults(
    fwksched::InferenceRequest* request, const fwksched::ProfileResultMap& profileResults) {
  if (request == nullptr) return {nullptr, fwksched::PlainError("request is nil")};
  auto decode = profileResults.find(decodeProfile_);
  if (decode == profileResults.end() || decode->second == nullptr || decode->second->TargetEndpoints.empty()) {
    return {nullptr, fwksched::PlainError("failed to find available decode workers")};
  }
  auto result = std::make_shared<fwksched::SchedulingResult>();
  result->ProfileResults[decodeProfile_] = decode->second;
  if (auto prefill = profileResults.find(prefillProfile_);
      prefill != profileResults.end() && prefill->second != nullptr) {
    result->ProfileResults[prefillProfile_] = prefill->second;
  }
  if (auto encode = profileResults.find(encodeProfile_); encode != profileResults.end() && encode->second != nullptr) {
    result->ProfileResults[encodeProfile_] = encode->second;
  }
  result->PrimaryProfileName = decodeProfile_;
  return {result, std::nullopt};
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.PreRequest
std::optional<fwksched::GoError> Handler::PreRequest(fwksched::InferenceRequest* request,
                                                    fwksched::SchedulingResult* schedulingResult) {
  setDisaggregationHeaders(request, schedulingResult, prefillProfile_, encodeProfile_);
  return std::nullopt;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 Handler.Consumes
fwkplugin::DataDependencies Handler::Consumes() const {
  return {{{attrprefix::PrefixCacheMatchInfoDataKey, attrprefix::PrefixCacheMatchInfo(0, 0, 0)},
           {tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}},
          {}};
}

}  // namespace blis::router::disagg
