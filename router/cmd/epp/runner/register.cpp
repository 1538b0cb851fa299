// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins for the modelled
// plugins, with FactoryFunc adapters over the ported typed factories (see register.h).
#include "router/cmd/epp/runner/register.h"

#include <stdexcept>

#include "router/cmd/epp/runner/metrics_extractor.h"
#include "router/cmd/epp/runner/token_producer.h"
#include "router/epp/config/loader/roles.h"
#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/attribute/prefix/data_types.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/picker/maxscore/picker.h"
#include "router/epp/framework/plugins/scheduling/picker/random/picker.h"
#include "router/epp/framework/plugins/scheduling/picker/weightedrandom/picker.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.h"
#include "router/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.h"
#include "router/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.h"
#include "router/epp/framework/plugins/scheduling/scorer/prefix/plugin.h"
#include "router/epp/framework/plugins/scheduling/scorer/queuedepth/queue.h"
#include "router/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.h"

namespace blis::router::runner {
namespace {

using fwkplugin::StabilityLevel;

// pkg/epp/framework/plugins/scheduling/picker/common.go@71f4f099 PickerParameters, decoded by the pickers'
// factories ("failed to parse the parameters of the '<type>' picker - <err>").
std::optional<picker::PickerParameters> decodePicker(fwkplugin::Parameters parameters, const std::string& type) {
  if (parameters == nullptr) return std::nullopt;
  picker::PickerParameters p{picker::DefaultMaxNumOfEndpoints};
  try {
    fwkplugin::StrictObject obj(parameters, "picker.PickerParameters");
    obj.Field("maxNumOfEndpoints", p.MaxNumOfEndpoints);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + type + "' picker - " + e.what());
  }
  return p;
}

// Original to BLIS: a plugin the port holds for the loader's checks and which makes no decision here.
template <class Role>
class InertPlugin final : public Role {
 public:
  explicit InertPlugin(fwkplugin::TypedName tn) : tn_(std::move(tn)) {}
  fwkplugin::TypedName TypedName() const override { return tn_; }

 private:
  fwkplugin::TypedName tn_;
};

}  // namespace

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorerFactory (parameters ignored)
std::shared_ptr<fwkplugin::Plugin> QueueScorerFactory(const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) {
  return queuedepth::QueueScorerFactory(name);
}
// pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go@71f4f099 KvCacheUtilizationScorerFactory
std::shared_ptr<fwkplugin::Plugin> KvCacheUtilizationScorerFactory(const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) {
  return kvcacheutilization::KvCacheUtilizationScorerFactory(name);
}
// pkg/epp/framework/plugins/scheduling/scorer/runningrequests/runningrequest.go@71f4f099 RunningRequestsSizeScorerFactory
std::shared_ptr<fwkplugin::Plugin> RunningRequestsSizeScorerFactory(const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) {
  return runningrequests::RunningRequestsSizeScorerFactory(name);
}
// pkg/epp/framework/plugins/scheduling/scorer/loraaffinity/lora_affinity.go@71f4f099 LoraAffinityScorerFactory
std::shared_ptr<fwkplugin::Plugin> LoraAffinityScorerFactory(const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) {
  return loraaffinity::LoraAffinityScorerFactory(name);
}
// pkg/epp/framework/plugins/scheduling/profilehandler/single/single_profile_handler.go@71f4f099 SingleProfileHandlerFactory
std::shared_ptr<fwkplugin::Plugin> SingleProfileHandlerFactory(const std::string& name, fwkplugin::Parameters, fwkplugin::Handle&) {
  return single::SingleProfileHandlerFactory(name);
}

// pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go@71f4f099 PrefixCachePluginFactory
std::shared_ptr<fwkplugin::Plugin> PrefixCachePluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                            fwkplugin::Handle&) {
  std::optional<prefix::Config> cfg;
  if (parameters != nullptr) {
    cfg = prefix::DefaultConfig();
    try {
      fwkplugin::StrictObject obj(parameters, "prefix.Config");
      obj.Field("prefixMatchInfoProducerName", cfg->PrefixMatchInfoProducerName);
      obj.Field("matchLengthWeight", cfg->MatchLengthWeight);
      obj.Field("matchLengthScaleTokens", cfg->MatchLengthScaleTokens);
      obj.Finish();
    } catch (const fwkplugin::PluginError& e) {
      throw fwkplugin::PluginError(std::string("failed to decode prefix cache scorer parameters: ") + e.what());
    }
  }
  try {
    return prefix::PrefixCachePluginFactory(name, cfg);
  } catch (const std::invalid_argument& e) {
    throw fwkplugin::PluginError(e.what());
  }
}

// pkg/epp/framework/plugins/scheduling/picker/maxscore/picker.go@71f4f099 MaxScorePickerFactory
std::shared_ptr<fwkplugin::Plugin> MaxScorePickerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                         fwkplugin::Handle& handle) {
  auto p = decodePicker(parameters, maxscore::MaxScorePickerType);
  return maxscore::MaxScorePickerFactory(name, p, handle.Context().stream("picker/" + name));
}
// pkg/epp/framework/plugins/scheduling/picker/random/picker.go@71f4f099 RandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> RandomPickerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                       fwkplugin::Handle& handle) {
  auto p = decodePicker(parameters, random::RandomPickerType);
  return random::RandomPickerFactory(name, p, handle.Context().stream("picker/" + name));
}
// pkg/epp/framework/plugins/scheduling/picker/weightedrandom/picker.go@71f4f099 WeightedRandomPickerFactory
std::shared_ptr<fwkplugin::Plugin> WeightedRandomPickerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                               fwkplugin::Handle& handle) {
  auto p = decodePicker(parameters, weightedrandom::WeightedRandomPickerType);
  return weightedrandom::WeightedRandomPickerFactory(name, p, handle.Context().stream("picker/" + name));
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/plugin.go@71f4f099 ApproxPrefixCacheFactory
std::shared_ptr<fwkplugin::Plugin> ApproxPrefixCacheFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                            fwkplugin::Handle&) {
  std::optional<approximateprefix::config> cfg;
  if (parameters != nullptr) {
    cfg = approximateprefix::defaultConfig;
    try {
      fwkplugin::StrictObject obj(parameters, "approximateprefix.config");
      obj.Field("autoTune", cfg->AutoTune);
      obj.Field("blockSizeTokens", cfg->BlockSizeTokens);
      obj.Field("blockSize", cfg->BlockSize);
      obj.Field("maxPrefixBlocksToMatch", cfg->MaxPrefixBlocksToMatch);
      obj.Field("maxPrefixTokensToMatch", cfg->MaxPrefixTokensToMatch);
      obj.Field("lruCapacityPerServer", cfg->LRUCapacityPerServer);
      obj.Finish();
    } catch (const fwkplugin::PluginError& e) {
      throw fwkplugin::PluginError(std::string("failed to unmarshal prefix cache parameters: ") + e.what());
    }
  }
  try {
    return approximateprefix::ApproxPrefixCacheFactory(name, cfg);
  } catch (const std::invalid_argument& e) {
    throw fwkplugin::PluginError(e.what());
  }
}

// Original to BLIS: the factory of a plugin type the port holds without a decision (see PluginSurface). Its
// parameters are not decoded, so any non-empty parameters are refused rather than ignored.
fwkplugin::FactoryFunc InertFactory(const std::string& pluginType, const std::string& role) {
  return [pluginType, role](const std::string& name, fwkplugin::Parameters parameters,
                            fwkplugin::Handle&) -> std::shared_ptr<fwkplugin::Plugin> {
    if (parameters != nullptr && !parameters->is_null() && !(parameters->is_object() && parameters->empty())) {
      throw std::invalid_argument("the parameters of plugin type '" + pluginType +
                                  "' are not modelled by this port (it holds the plugin but it decides nothing here)");
    }
    fwkplugin::TypedName tn{pluginType, name};
    if (role == "parser") return std::make_shared<InertPlugin<loader::ParserRole>>(tn);
    if (role == "source") return std::make_shared<InertPlugin<loader::DataSourceRole>>(tn);
    if (role == "detector") return std::make_shared<InertPlugin<loader::SaturationDetectorRole>>(tn);
    return std::make_shared<InertPlugin<loader::ExtractorRole>>(tn);
  };
}

// cmd/epp/runner/runner.go@71f4f099 registerInTreePlugins (the modelled types; runner.go's stability levels)
void RegisterInTreePlugins(fwkplugin::Registry& r) {
  r.Register("prefix-cache-scorer", StabilityLevel::Beta, PrefixCachePluginFactory);
  r.Register("max-score-picker", StabilityLevel::Beta, MaxScorePickerFactory);
  r.Register("random-picker", StabilityLevel::Beta, RandomPickerFactory);
  r.Register("weighted-random-picker", StabilityLevel::Beta, WeightedRandomPickerFactory);
  r.Register("single-profile-handler", StabilityLevel::Beta, SingleProfileHandlerFactory);
  r.Register("kv-cache-utilization-scorer", StabilityLevel::Beta, KvCacheUtilizationScorerFactory);
  r.Register("queue-scorer", StabilityLevel::Beta, QueueScorerFactory);
  r.Register("running-requests-size-scorer", StabilityLevel::Beta, RunningRequestsSizeScorerFactory);
  r.Register("lora-affinity-scorer", StabilityLevel::Beta, LoraAffinityScorerFactory);
  // Request data producers, as the defaults for their data keys.
  r.RegisterAsDefaultProducer("approx-prefix-cache-producer", StabilityLevel::Beta, ApproxPrefixCacheFactory,
                              attrprefix::PrefixCacheMatchInfoDataKey.String());
  r.RegisterDeprecated("tokenizer", StabilityLevel::Beta, tokenizer::PluginFactory, "v0.9.0", "v0.11.0", "token-producer");
  r.RegisterAsDefaultProducer("token-producer", StabilityLevel::Beta, tokenizer::PluginFactory,
                              tokenizer::TokenizedPromptDataKey().String());
  // Held without a decision (PluginSurface gives the reason for each).
  r.Register("metrics-data-source", StabilityLevel::Beta, InertFactory("metrics-data-source", "source"));
  r.Register("core-metrics-extractor", StabilityLevel::Beta, HeldMetricsExtractorFactory);
  for (const char* parser : {"openai-parser", "vllmgrpc-parser", "passthrough-parser", "anthropic-parser", "vllmhttp-parser",
                             "vertexai-parser"}) {
    r.Register(parser, StabilityLevel::Beta, InertFactory(parser, "parser"));
  }
  r.Register("concurrency-detector", StabilityLevel::Beta, InertFactory("concurrency-detector", "detector"));
  r.Register("utilization-detector", StabilityLevel::Beta, InertFactory("utilization-detector", "detector"));
  RegisterMorePlugins(r);
}

}  // namespace blis::router::runner
