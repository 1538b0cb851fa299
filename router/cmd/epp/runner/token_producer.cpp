// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099
// (the token-producer plugin on the estimate backend only; see token_producer.h).
#include "router/cmd/epp/runner/token_producer.h"

#include <stdexcept>

#include <cctype>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/backend.h"
#include "router/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/estimate.h"

namespace blis::router::tokenizer {
namespace {

// Original to BLIS: encoding/json's strict decoding of a nested struct (udsTokenizerConfig, vllm, estimate): an object whose
// fields are not decoded by this port must be absent or empty.
bool nonEmpty(const nlohmann::json& v, const std::string& goType) {
  if (v.is_null()) return false;
  if (!v.is_object()) throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into Go struct field tokenizerPluginConfig." + goType);
  return !v.empty();
}

}  // namespace

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 Plugin.Produce
std::optional<std::string> Plugin::Produce(fwksched::InferenceRequest* request) const {
  if (request->Body == nullptr) {
    return "request body is nil";
  }
  if (request->Body->TokenizedPrompt) {
    // A parser may pre-populate tokens without a salt; cache-salt isolation still applies on the skip path.
    if (request->Body->TokenizedPrompt->CacheSalt.empty()) {
      request->Body->TokenizedPrompt->CacheSalt = CacheSaltFromBody(*request->Body);
    }
    return std::nullopt;
  }
  auto produced = estimateBackend().produce(*request->Body);
  if (produced.Err) {
    return produced.Err;
  }
  if (!produced.Value || produced.Value->TokenCount() == 0) {
    return std::nullopt;
  }
  produced.Value->CacheSalt = CacheSaltFromBody(*request->Body);
  request->Body->TokenizedPrompt = std::move(*produced.Value);
  return std::nullopt;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 PluginFactory
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle&) {
  const std::string wrap = std::string("failed to parse the parameters of the '") + PluginType + "' plugin - ";
  bool uds = false, vllm = false, estimate = false;
  std::string modelName;
  try {
    if (parameters != nullptr && !parameters->is_null() && !parameters->is_object()) {
      throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(*parameters) +
                                   " into Go value of type tokenizer.tokenizerPluginConfig");
    }
    if (parameters != nullptr && parameters->is_object()) {
      for (const auto& [key, v] : parameters->items()) {
        std::string k;
        for (char c : key) k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (k == "udstokenizerconfig") uds = nonEmpty(v, "udsTokenizerConfig of type kvctok.UdsTokenizerConfig");
        else if (k == "vllm") vllm = !v.is_null() || vllm;
        else if (k == "modelname") {
          if (v.is_null()) continue;
          if (!v.is_string()) {
            throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) +
                                         " into Go struct field tokenizerPluginConfig.modelName of type string");
          }
          modelName = v.get<std::string>();
        } else if (k == "estimate") {
          estimate = !v.is_null();
          if (nonEmpty(v, "estimate of type tokenizer.estimateConfig")) {
            for (const auto& [ek, ev] : v.items()) {
              if (ek != "image" && ek != "video") throw fwkplugin::PluginError("json: unknown field \"" + ek + "\"");
              if (!ev.is_null()) {
                throw std::invalid_argument("estimate." + ek + " of plugin type 'token-producer' is not modelled by this "
                                            "port: multimodal inputs are refused, so their estimation is never used");
              }
            }
          }
        } else {
          throw fwkplugin::PluginError("json: unknown field \"" + key + "\"");
        }
      }
    }
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(wrap + e.what());
  }
  vllm = vllm || !modelName.empty();
  if ((estimate && (uds || vllm)) || (uds && vllm)) {
    throw fwkplugin::PluginError(std::string("invalid configuration for '") + PluginType +
                                 "' plugin: only one of 'estimate', 'vllm', or 'udsTokenizerConfig' may be set");
  }
  if ((uds || vllm) && modelName.empty()) {
    throw fwkplugin::PluginError(std::string("invalid configuration for '") + PluginType + "' plugin: 'modelName' must be specified");
  }
  if (uds || vllm) {
    throw std::invalid_argument(std::string("the ") + (uds ? "udsTokenizerConfig" : "vllm") +
                                " backend of plugin type 'token-producer' is not modelled by this port: it needs a tokenizer "
                                "service; use the estimate backend (no parameters)");
  }
  return std::make_shared<Plugin>(name);
}

}  // namespace blis::router::tokenizer
