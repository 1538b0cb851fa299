// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099; the
// three regular expressions (metricSpecRE, labelPairRE, addQuotesRE) become hand-written matchers with RE2's
// classes (\s = [\t\n\f\r ], \w = [0-9A-Za-z_]) and leftmost-first, lazy-name results.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/spec.h"

#include <optional>

namespace blis::router::metrics {
namespace {

// Original to BLIS: a helper of the port's own.
// RE2's \s.
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
// Original to BLIS: a helper of the port's own.
// RE2's \w.
bool isWord(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// Original to BLIS: a helper of the port's own.
size_t skipSpaces(const std::string& s, size_t i) {
  while (i < s.size() && isSpace(s[i])) ++i;
  return i;
}

// Original to BLIS: a helper of the port's own.
// Go's strings.TrimSpace on ASCII input (Unicode spaces beyond ASCII are not expected in a spec).
std::string trimSpace(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (isSpace(s[b]) || s[b] == '\v')) ++b;
  while (e > b && (isSpace(s[e - 1]) || s[e - 1] == '\v')) --e;
  return s.substr(b, e - b);
}

// Original to BLIS: a helper of the port's own.
// Does rest match `^\s*(?:\{([^}]*)\})?\s*$`? On a match, *block is group 2 ("" when the group is absent).
bool matchSpecTail(const std::string& rest, std::string* block) {
  size_t i = skipSpaces(rest, 0);
  if (i == rest.size()) {
    *block = "";
    return true;
  }
  if (rest[i] != '{') return false;
  const size_t close = rest.find('}', i + 1);
  if (close == std::string::npos) return false;
  if (skipSpaces(rest, close + 1) != rest.size()) return false;
  *block = rest.substr(i + 1, close - i - 1);
  return true;
}

// metricSpecRE `^\s*(\S+?)\s*(?:\{([^}]*)\})?\s*$`: the shortest non-space name after the leading spaces for
// which the rest matches. std::nullopt where FindStringSubmatch returns nil.
struct SpecMatch {
  std::string name;
  std::string block;
};
// Original to BLIS: a helper of the port's own.
std::optional<SpecMatch> matchMetricSpec(const std::string& s) {
  const size_t p = skipSpaces(s, 0);
  for (size_t k = 1; p + k <= s.size() && !isSpace(s[p + k - 1]); ++k) {
    std::string block;
    if (matchSpecTail(s.substr(p + k), &block)) return SpecMatch{s.substr(p, k), block};
  }
  return std::nullopt;
}

// Original to BLIS: a helper of the port's own.
// labelPairRE `^\s*(\S+?)\s*=\s*"([^"]*)"\s*$`: key and value, or std::nullopt.
std::optional<std::pair<std::string, std::string>> matchLabelPair(const std::string& s) {
  const size_t p = skipSpaces(s, 0);
  for (size_t k = 1; p + k <= s.size() && !isSpace(s[p + k - 1]); ++k) {
    size_t i = skipSpaces(s, p + k);
    if (i >= s.size() || s[i] != '=') continue;
    i = skipSpaces(s, i + 1);
    if (i >= s.size() || s[i] != '"') continue;
    const size_t close = s.find('"', i + 1);
    if (close == std::string::npos) continue;
    if (skipSpaces(s, close + 1) != s.size()) continue;
    return std::make_pair(s.substr(p, k), s.substr(i + 1, close - i - 1));
  }
  return std::nullopt;
}

// Original to BLIS: a helper of the port's own.
// strings.Split(s, ",").
std::vector<std::string> splitComma(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t c = s.find(',', start);
    if (c == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
}

}  // namespace

// Original to BLIS: a helper of the port's own.
// github.com/prometheus/common/model LegacyValidation.IsValidMetricName
bool isValidLegacyMetricName(const std::string& name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char b = name[i];
    const bool ok = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_' || b == ':' ||
                    (b >= '0' && b <= '9' && i > 0);
    if (!ok) return false;
  }
  return true;
}

// Original to BLIS: a helper of the port's own.
// github.com/prometheus/common/model LegacyValidation.IsValidLabelName
bool isValidLegacyLabelName(const std::string& name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char b = name[i];
    const bool ok = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_' || (b >= '0' && b <= '9' && i > 0);
    if (!ok) return false;
  }
  return true;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 parseStringToSpec
SpecPtr parseStringToSpec(const std::string& spec, Error* err) {
  *err = std::nullopt;
  if (spec.empty()) return nullptr;  // the empty string is the nil (disabled) Spec

  // Normalise unquoted label values so {label=value} and {label="value"} both work.
  const std::string quoted = addQuotesToLabelValues(spec);
  const auto m = matchMetricSpec(quoted);
  if (!m || !isValidLegacyMetricName(m->name)) {
    *err = "not a valid metric specification: " + goQuote(spec);
    return nullptr;
  }

  auto out = std::make_shared<Spec>();
  out->Name = m->name;
  const std::string labelBlock = trimSpace(m->block);
  if (!labelBlock.empty()) {
    for (const auto& pair : splitComma(labelBlock)) {
      const auto lm = matchLabelPair(pair);
      if (!lm || !isValidLegacyLabelName(lm->first)) {
        *err = "invalid label pair " + goQuote(pair) + " in specification: " + goQuote(spec);
        return nullptr;
      }
      out->Labels[lm->first] = lm->second;
    }
  }
  return out;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 addQuotesToLabelValues
// ReplaceAllString scans left to right; a match is a maximal \w run, \s*=\s*, and a maximal run of bytes
// outside [",}\s] (greedy runs cannot give back: the next byte would not fit the following element).
std::string addQuotesToLabelValues(const std::string& input) {
  std::string out;
  size_t i = 0;
  while (i < input.size()) {
    if (isWord(input[i])) {
      size_t j = i;
      while (j < input.size() && isWord(input[j])) ++j;
      size_t k = skipSpaces(input, j);
      if (k < input.size() && input[k] == '=') {
        const size_t v = skipSpaces(input, k + 1);
        size_t e = v;
        while (e < input.size() && input[e] != '"' && input[e] != ',' && input[e] != '}' && !isSpace(input[e])) ++e;
        if (e > v) {
          out += input.substr(i, j - i) + "=\"" + input.substr(v, e - v) + "\"";
          i = e;
          continue;
        }
      }
      // No match starts inside this \w run either (each start reaches the same run end), so copy it.
      out += input.substr(i, j - i);
      i = j;
      continue;
    }
    out += input[i];
    ++i;
  }
  return out;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 extractFamily
const MetricFamily* extractFamily(const Spec* spec, const PrometheusMetricMap& families, Error* err) {
  *err = std::nullopt;
  if (spec == nullptr) {
    *err = "metric specification is nil";
    return nullptr;
  }
  const auto it = families.find(spec->Name);
  if (it == families.end()) {
    *err = "metric family " + goQuote(spec->Name) + " not found";
    return nullptr;
  }
  if (it->second.Metric.empty()) {
    *err = "no metrics found for " + goQuote(spec->Name);
    return nullptr;
  }
  return &it->second;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 Spec.getLatestMetric
const Metric* Spec::getLatestMetric(const PrometheusMetricMap& families, Error* err) const {
  const MetricFamily* family = extractFamily(this, families, err);
  if (family == nullptr) return nullptr;

  const Metric* latest = nullptr;
  std::int64_t recent = -1;
  for (const auto& metric : family->Metric) {
    if (labelsMatch(metric.Label)) {
      const std::int64_t ts = metric.GetTimestampMs();
      if (ts > recent) {
        recent = ts;
        latest = &metric;
      }
    }
  }
  if (latest == nullptr) {
    *err = "no matching metric found for " + goQuote(Name) + " with labels " + goMapString(Labels);
  }
  return latest;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 Spec.labelsMatch
// (a label repeated on a sample: the last value counts, as Go's map assignment)
bool Spec::labelsMatch(const std::vector<LabelPair>& metricLabels) const {
  if (Labels.empty()) return true;  // no label requirements
  std::map<std::string, std::string> metricLabelMap;
  for (const auto& label : metricLabels) metricLabelMap[label.Name] = label.Value;
  for (const auto& [name, value] : Labels) {
    const auto it = metricLabelMap.find(name);
    if (it == metricLabelMap.end() || it->second != value) return false;
  }
  return true;
}

// pkg/epp/framework/plugins/datalayer/extractor/metrics/spec.go@71f4f099 extractValue
double extractValue(const Metric* metric) {
  if (metric == nullptr) return 0;
  if (metric->Gauge) return *metric->Gauge;
  if (metric->Counter) return *metric->Counter;
  return 0;
}

}  // namespace blis::router::metrics
