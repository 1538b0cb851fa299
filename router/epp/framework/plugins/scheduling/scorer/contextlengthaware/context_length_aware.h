// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099;
// logging is not ported; no Go context.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::contextlengthaware {

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAwareType
inline constexpr const char* ContextLengthAwareType = "context-length-aware";
// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 DefaultContextLengthLabel
inline constexpr const char* DefaultContextLengthLabel = "llm-d.ai/context-length-range";

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 contextLengthAwareParameters
struct contextLengthAwareParameters {
  // The endpoint label holding the context length range "min-max".
  std::string Label = DefaultContextLengthLabel;
  // Whether the plugin also filters out endpoints whose range does not hold the request's context length.
  bool EnableFiltering = false;
};

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 contextRange
// (Go's int is 64-bit.)
struct contextRange {
  std::int64_t min = 0;
  std::int64_t max = 0;
  bool operator==(const contextRange&) const = default;
};

// The (contextRange, error) Go's parseContextRange returns: error non-empty on failure.
struct parsedRange {
  contextRange range;
  std::string error;
};

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware
// Filters (when enabled) and scores endpoints by how well their context length range label holds the
// request's token count (InferenceRequestBody.TokenizedPrompt; 0 when absent).
class ContextLengthAware final : public fwksched::FilterPlugin,
                                 public fwksched::Scorer,
                                 public fwkplugin::ConsumerPlugin,
                                 public std::enable_shared_from_this<ContextLengthAware> {
 public:
  ContextLengthAware(const std::string& name, const contextLengthAwareParameters& params)
      : typedName_{ContextLengthAwareType, name}, labelName_(params.Label), enableFiltering_(params.EnableFiltering) {}

  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.WithName
  std::shared_ptr<ContextLengthAware> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Category (Affinity)
  fwksched::ScorerCategory Category() const override { return fwksched::Affinity; }
  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Filter
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;
  // pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Consumes
  // Required: the token producer's TokenizedPrompt.
  fwkplugin::DataDependencies Consumes() const override;

 private:
  fwkplugin::TypedName typedName_;
  std::string labelName_;
  bool enableFiltering_;
};

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 NewContextLengthAware
std::shared_ptr<ContextLengthAware> NewContextLengthAware(const std::string& name,
                                                          const contextLengthAwareParameters& params);

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 Factory
// Throws fwkplugin::PluginError with upstream's texts.
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 getContextLength
std::int64_t getContextLength(const fwksched::InferenceRequest* request);
// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 parseContextRange
parsedRange parseContextRange(const std::string& rangeStr);
// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 calculateRangeScore
double calculateRangeScore(std::int64_t contextLength, const contextRange& r);

}  // namespace blis::router::contextlengthaware
