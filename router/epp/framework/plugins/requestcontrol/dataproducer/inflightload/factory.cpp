// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099;
// InFlightLoadProducerFactory (metrics registration and the PluginState janitor's context are not ported).
#include <charconv>
#include <cmath>
#include <limits>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/concurrency/data_types.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.h"

namespace blis::router::inflightload {
namespace {

// Original to BLIS: Go's fmt "%v" of a float64 (strconv 'g' with the shortest digits; %e form when the
// exponent is < -4 or >= 6, as fmt prints: -1, -0.5, -1e+06).
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

// Original to BLIS: whether the JSON object holds a non-null value for the field jsonName (matched as
// encoding/json matches: exactly, then case-insensitively); a Go pointer field stays nil otherwise.
bool present(fwkplugin::Parameters parameters, const std::string& jsonName) {
  if (parameters == nullptr || !parameters->is_object()) return false;
  auto lower = [](std::string s) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
  };
  for (const auto& [key, val] : parameters->items()) {
    if (lower(key) == lower(jsonName) && !val.is_null()) return true;
  }
  return false;
}

}  // namespace

// Original to BLIS: the construction InFlightLoadProducerFactory does after decoding (validation included).
std::shared_ptr<InFlightLoadProducer> NewInFlightLoadProducer(const std::string& name, const Config& cfg) {
  double outputRatio = DefaultOutputRatio;
  if (cfg.OutputRatio.has_value()) {
    if (*cfg.OutputRatio < 0) {
      throw fwkplugin::PluginError("outputRatio must be non-negative, got " + goFloatV(*cfg.OutputRatio));
    }
    outputRatio = *cfg.OutputRatio;
  }
  if (cfg.MaxEstimatedOutputTokens.has_value() && *cfg.MaxEstimatedOutputTokens < 0) {
    throw fwkplugin::PluginError("maxEstimatedOutputTokens must be non-negative, got " +
                                 std::to_string(*cfg.MaxEstimatedOutputTokens));
  }
  auto p = std::make_shared<InFlightLoadProducer>();
  p->typedName = fwkplugin::TypedName{std::string(InFlightLoadProducerType), name};
  p->tokenEstimator = NewSimpleTokenEstimatorWithConfig(outputRatio, cfg.MaxEstimatedOutputTokens);
  p->addEstimatedOutputTokens = cfg.AddEstimatedOutputTokens;
  p->dk = concurrency::InFlightLoadDataKey.WithNonEmptyProducerName(name);
  p->prefixMatchInfoDK = attrprefix::PrefixCacheMatchInfoDataKey.WithNonEmptyProducerName(cfg.PrefixMatchInfoProducerName);
  p->uncachedRequestTokensDk = concurrency::UncachedRequestTokensDataKey.WithNonEmptyProducerName(name);
  p->syncCrossReplicaState = cfg.SyncCrossReplicaState.value_or(true);
  return p;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/inflightload/producer.go@71f4f099 InFlightLoadProducerFactory
std::shared_ptr<fwkplugin::Plugin> InFlightLoadProducerFactory(const std::string& name,
                                                               fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& /*handle*/) {
  Config cfg = defaultConfig();
  try {
    fwkplugin::StrictObject obj(parameters, "inflightload.Config");
    // The pointer fields decode into locals; present() tells a nil pointer from a set one.
    double outputRatio = 0;
    std::int64_t maxEstimated = 0;
    bool sync = true;
    obj.Field("addEstimatedOutputTokens", cfg.AddEstimatedOutputTokens);
    obj.Field("outputRatio", outputRatio);
    obj.Field("maxEstimatedOutputTokens", maxEstimated);
    obj.Field("prefixMatchInfoProducerName", cfg.PrefixMatchInfoProducerName);
    obj.Field("syncCrossReplicaState", sync);
    obj.Finish();
    if (present(parameters, "outputRatio")) cfg.OutputRatio = outputRatio;
    if (present(parameters, "maxEstimatedOutputTokens")) cfg.MaxEstimatedOutputTokens = maxEstimated;
    if (present(parameters, "syncCrossReplicaState")) cfg.SyncCrossReplicaState = sync;
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to decode inflight-load-producer parameters: ") + e.what());
  }
  return NewInFlightLoadProducer(name, cfg);
}

}  // namespace blis::router::inflightload
