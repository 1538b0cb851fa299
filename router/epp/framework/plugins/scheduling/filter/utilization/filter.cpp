// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099;
// see filter.h.
#include "router/epp/framework/plugins/scheduling/filter/utilization/filter.h"

#include <charconv>
#include <cmath>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"

namespace blis::router::utilization {
namespace {

// Original to BLIS: Go's fmt "%v" of a float64 (shortest digits; %e form when the exponent is < -4 or >= 6).
std::string goFloatV(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, sci.ptr);
  const int exp = std::stoi(s.substr(s.find('e') + 1));
  if (exp < -4 || exp >= 6) return s;
  auto fix = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, fix.ptr);
}

// Original to BLIS: Go's fmt "%q" of a string (printable ASCII; quotes and backslashes escaped, other bytes
// as \xNN, as strconv.Quote does for them).
std::string goQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Original to BLIS: ASCII lower-casing, for encoding/json's case-insensitive field match.
std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Original to BLIS: decodes parameters.conditions (a []condition, which StrictObject does not handle) as
// encoding/json does, and returns the parameters object without it for StrictObject.
nlohmann::json takeConditions(const nlohmann::json& raw, std::vector<condition>& out) {
  nlohmann::json rest = raw;
  const nlohmann::json* field = nullptr;
  if (raw.contains("conditions")) field = &raw["conditions"];
  for (auto it = raw.begin(); it != raw.end(); ++it) {
    if (lower(it.key()) == "conditions") {
      if (field == nullptr) field = &*it;
      rest.erase(it.key());
    }
  }
  if (field == nullptr || field->is_null()) return rest;
  if (!field->is_array()) {
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(*field) +
                                 " into Go struct field parameters.conditions of type []utilization.condition");
  }
  out.clear();
  for (const auto& elem : *field) {
    condition c;
    if (elem.is_null()) {
      out.push_back(c);
      continue;
    }
    if (!elem.is_object()) {
      throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(elem) +
                                   " into Go struct field parameters.conditions of type utilization.condition");
    }
    try {
      fwkplugin::StrictObject obj(&elem, "utilization.condition");
      double maxValue = std::nan("");  // *float64: NaN (which JSON cannot carry) marks "not given"
      obj.Field("metric", c.Metric);
      obj.Field("maxValue", maxValue);
      obj.Finish();
      if (!std::isnan(maxValue)) c.MaxValue = maxValue;
    } catch (const fwkplugin::PluginError& e) {
      // encoding/json names a nested field by its path from the top-level struct.
      std::string text = e.what();
      const std::string from = "Go struct field condition.";
      if (auto pos = text.find(from); pos != std::string::npos) {
        text.replace(pos, from.size(), "Go struct field condition.conditions.");
      }
      throw fwkplugin::PluginError(text);
    }
    out.push_back(c);
  }
  return rest;
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters rawParameters,
                                           fwkplugin::Handle& /*handle*/) {
  parameters params;
  try {
    nlohmann::json rest;
    fwkplugin::Parameters forStrict = rawParameters;
    if (rawParameters != nullptr && rawParameters->is_object()) {
      rest = takeConditions(*rawParameters, params.Conditions);
      forStrict = &rest;
    }
    fwkplugin::StrictObject obj(forStrict, "utilization.parameters");
    obj.Field("fallbackOnEmpty", params.FallbackOnEmpty);
    obj.Field("inFlightLoadProducerName", params.InFlightLoadProducerName);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") + UtilizationFilterType +
                                 "' filter - " + e.what());
  }
  return NewUtilizationFilter(name, params);
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 NewUtilizationFilter
std::shared_ptr<UtilizationFilter> NewUtilizationFilter(std::string name, const parameters& params) {
  if (name.empty()) name = UtilizationFilterType;
  if (params.Conditions.empty()) throw fwkplugin::PluginError("utilization filter requires at least one condition");
  for (const auto& cond : params.Conditions) {
    if (cond.Metric != MetricActiveRequests && cond.Metric != MetricRunningRequests &&
        cond.Metric != MetricWaitingQueue && cond.Metric != MetricKVCacheUtilization) {
      throw fwkplugin::PluginError("utilization filter condition metric must be one of " +
                                   goQuote(MetricActiveRequests) + ", " + goQuote(MetricRunningRequests) + ", " +
                                   goQuote(MetricWaitingQueue) + ", " + goQuote(MetricKVCacheUtilization) +
                                   ", got " + goQuote(cond.Metric));
    }
    if (!cond.MaxValue.has_value()) {
      throw fwkplugin::PluginError("utilization filter condition for " + goQuote(cond.Metric) + " requires maxValue");
    }
    if (*cond.MaxValue < 0) {
      throw fwkplugin::PluginError("utilization filter condition for " + goQuote(cond.Metric) +
                                   " requires a non-negative maxValue, got " + goFloatV(*cond.MaxValue));
    }
    if (cond.Metric == MetricKVCacheUtilization && *cond.MaxValue > 1) {
      throw fwkplugin::PluginError(std::string("utilization filter maxValue for ") +
                                   goQuote(MetricKVCacheUtilization) + " is a fraction and must be at most 1, got " +
                                   goFloatV(*cond.MaxValue));
    }
  }
  auto f = std::make_shared<UtilizationFilter>();
  f->typedName = fwkplugin::TypedName{UtilizationFilterType, name};
  f->conditions = params.Conditions;
  f->fallbackOnEmpty = params.FallbackOnEmpty;
  f->inFlightLoadDataKey = concurrency::InFlightLoadDataKey.WithNonEmptyProducerName(params.InFlightLoadProducerName);
  return f;
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.Consumes
fwkplugin::DataDependencies UtilizationFilter::Consumes() const {
  for (const auto& cond : conditions) {
    if (cond.Metric == MetricActiveRequests) return {{{inFlightLoadDataKey, concurrency::InFlightLoad{}}}, {}};
  }
  return {};
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.Filter
std::vector<fwksched::EndpointPtr> UtilizationFilter::Filter(fwksched::InferenceRequest* /*request*/,
                                                             const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<fwksched::EndpointPtr> filtered;
  for (const auto& endpoint : endpoints) {
    if (satisfiesAll(*endpoint)) filtered.push_back(endpoint);
  }
  if (filtered.empty() && fallbackOnEmpty) return endpoints;
  return filtered;
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.satisfiesAll
bool UtilizationFilter::satisfiesAll(const fwksched::Endpoint& endpoint) const {
  for (const auto& cond : conditions) {
    if (metricValue(endpoint, cond.Metric) > *cond.MaxValue) return false;
  }
  return true;
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.metricValue
double UtilizationFilter::metricValue(const fwksched::Endpoint& endpoint, const std::string& metric) const {
  if (metric == MetricActiveRequests) return static_cast<double>(activeRequestCount(endpoint));
  const fwkdl::Metrics* metrics = endpoint.GetMetrics();
  if (metrics == nullptr) return 0;
  if (metric == MetricRunningRequests) return static_cast<double>(metrics->RunningRequestsSize);
  if (metric == MetricWaitingQueue) return static_cast<double>(metrics->WaitingQueueSize);
  if (metric == MetricKVCacheUtilization) return metrics->KVCacheUsagePercent;
  return 0;  // unreachable: the metric is validated at construction
}

// pkg/epp/framework/plugins/scheduling/filter/utilization/filter.go@71f4f099 UtilizationFilter.activeRequestCount
// 0 when the attribute is absent or not an InFlightLoad (upstream logs the latter).
std::int64_t UtilizationFilter::activeRequestCount(const fwksched::Endpoint& endpoint) const {
  auto load = std::dynamic_pointer_cast<concurrency::InFlightLoad>(endpoint.Get(inFlightLoadDataKey.String()));
  return load == nullptr ? 0 : load->Requests;
}

}  // namespace blis::router::utilization
