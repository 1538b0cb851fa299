// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099;
// see context_length_aware.h.
#include "router/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.h"

#include <limits>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/cmd/epp/runner/token_producer.h"

namespace blis::router::contextlengthaware {
namespace {

// Original to BLIS: a helper of the port's own.
// Go's strings.TrimSpace for ASCII white space (the Unicode spaces it also trims, e.g. U+00A0, are kept).
std::string trimSpace(const std::string& s) {
  const char* ws = " \t\n\v\f\r";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

// Original to BLIS: a helper of the port's own.
// Go's strconv.Atoi on a 64-bit int: an optional sign, then one or more decimal digits, in int64 range.
std::optional<std::int64_t> atoi(const std::string& s) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i == s.size()) return std::nullopt;
  std::uint64_t v = 0;
  const std::uint64_t limit = neg ? static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1
                                  : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(s[i] - '0');
    if (v > (limit - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (neg) return v == limit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(v);
  return static_cast<std::int64_t>(v);
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  const std::string type = ContextLengthAwareType;
  contextLengthAwareParameters p;  // Label = DefaultContextLengthLabel, EnableFiltering = false
  try {
    fwkplugin::StrictObject obj(parameters, "contextlengthaware.contextLengthAwareParameters");
    obj.Field("label", p.Label).Field("enableFiltering", p.EnableFiltering);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + type + "' plugin - " + e.what());
  }
  if (p.Label.empty()) {
    throw fwkplugin::PluginError("invalid configuration for '" + type + "' plugin: 'label' must be specified");
  }
  return NewContextLengthAware(name, p);
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 NewContextLengthAware
std::shared_ptr<ContextLengthAware> NewContextLengthAware(const std::string& name,
                                                          const contextLengthAwareParameters& params) {
  return std::make_shared<ContextLengthAware>(name, params);
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Filter
std::vector<fwksched::EndpointPtr> ContextLengthAware::Filter(fwksched::InferenceRequest* request,
                                                              const std::vector<fwksched::EndpointPtr>& endpoints) {
  if (!enableFiltering_) return endpoints;  // pass through if not in filter mode
  const std::int64_t contextLength = getContextLength(request);
  std::vector<fwksched::EndpointPtr> filteredEndpoints;
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* metadata = endpoint->GetMetadata();
    if (metadata == nullptr) {  // endpoints without metadata are included (treated as no-label)
      filteredEndpoints.push_back(endpoint);
      continue;
    }
    const auto it = metadata->Labels.find(labelName_);
    if (it == metadata->Labels.end()) {  // endpoints without the label accept any context length
      filteredEndpoints.push_back(endpoint);
      continue;
    }
    const parsedRange r = parseContextRange(it->second);
    if (!r.error.empty()) continue;  // upstream logs the parse error and drops the endpoint
    if (contextLength >= r.range.min && contextLength <= r.range.max) filteredEndpoints.push_back(endpoint);
  }
  return filteredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Score
fwksched::ScoreMap ContextLengthAware::Score(fwksched::InferenceRequest* request,
                                             const std::vector<fwksched::EndpointPtr>& endpoints) {
  const std::int64_t contextLength = getContextLength(request);
  fwksched::ScoreMap scoredEndpoints;
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* metadata = endpoint->GetMetadata();
    if (metadata == nullptr) {
      scoredEndpoints[endpoint] = 0.5;
      continue;
    }
    const auto it = metadata->Labels.find(labelName_);
    if (it == metadata->Labels.end()) {  // endpoints without the label get a neutral score
      scoredEndpoints[endpoint] = 0.5;
      continue;
    }
    const parsedRange r = parseContextRange(it->second);
    if (!r.error.empty()) {  // upstream logs the parse error
      scoredEndpoints[endpoint] = 0.0;
      continue;
    }
    scoredEndpoints[endpoint] = calculateRangeScore(contextLength, r.range);
  }
  return scoredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 getContextLength
std::int64_t getContextLength(const fwksched::InferenceRequest* request) {
  if (request == nullptr || request->Body == nullptr || !request->Body->TokenizedPrompt.has_value()) return 0;
  return request->Body->TokenizedPrompt->TokenCount();
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 parseContextRange
// "min-max" with min <= max; Go's error texts.
parsedRange parseContextRange(const std::string& rangeStr) {
  if (rangeStr.empty()) return {{}, "empty range string"};
  std::vector<std::string> bounds;  // strings.Split(rangeStr, "-")
  for (std::size_t start = 0;;) {
    const std::size_t dash = rangeStr.find('-', start);
    bounds.push_back(rangeStr.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  if (bounds.size() != 2) return {{}, "invalid range format: " + rangeStr + " (expected 'min-max')"};
  const auto minVal = atoi(trimSpace(bounds[0]));
  if (!minVal) return {{}, "invalid min value: " + bounds[0]};
  const auto maxVal = atoi(trimSpace(bounds[1]));
  if (!maxVal) return {{}, "invalid max value: " + bounds[1]};
  if (*minVal > *maxVal) {
    return {{}, "min (" + std::to_string(*minVal) + ") cannot be greater than max (" + std::to_string(*maxVal) + ")"};
  }
  return {{*minVal, *maxVal}, ""};
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 calculateRangeScore
// In range: (0.3, 1.0], tighter ranges and more headroom higher. Out of range: [0, 0.3), by proximity to the
// nearest bound. (Bounds and lengths are non-negative here: "-" separates the bounds, so no difference
// overflows.)
double calculateRangeScore(std::int64_t contextLength, const contextRange& r) {
  constexpr double maxFallbackScore = 0.3;
  if (contextLength >= r.min && contextLength <= r.max) {
    const std::int64_t rangeWidth = r.max - r.min;
    if (rangeWidth == 0) return 1.0;
    const double widthScore = 1.0 / (1.0 + static_cast<double>(rangeWidth) / 10000.0);
    const double headroom = static_cast<double>(r.max - contextLength);
    const double positionScore = headroom / static_cast<double>(rangeWidth);
    const double rawScore = 0.7 * widthScore + 0.3 * positionScore;
    return maxFallbackScore + rawScore * (1.0 - maxFallbackScore);
  }
  const std::int64_t distance = contextLength > r.max ? contextLength - r.max : r.min - contextLength;
  return maxFallbackScore / (1.0 + static_cast<double>(distance) / 1000.0);
}

// pkg/epp/framework/plugins/scheduling/scorer/contextlengthaware/context_length_aware.go@71f4f099 ContextLengthAware.Consumes
fwkplugin::DataDependencies ContextLengthAware::Consumes() const {
  return {{{tokenizer::TokenizedPromptDataKey(), fwksched::TokenizedPrompt{}}}, {}};
}

}  // namespace blis::router::contextlengthaware
