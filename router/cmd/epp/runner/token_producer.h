// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the token-producer plugin of
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 (Plugin, PluginFactory,
// LegacyPluginFactory, TokenizedPromptDataKey) on the estimate backend only: the vLLM /render and UDS tokenizer
// backends need a tokenizer service and are refused by name. Placed under cmd/epp/runner because the plugin
// type is what the runner registers; it wraps the ported estimateBackend.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "router/epp/framework/interface/plugin/datakey.h"
#include "router/epp/framework/interface/plugin/plugins.h"
#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/types.h"

namespace blis::router::tokenizer {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 PluginType, LegacyPluginType
inline constexpr const char* PluginType = "token-producer";
inline constexpr const char* LegacyPluginType = "tokenizer";
// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 TokenizedPromptDataKey
inline fwkplugin::DataKey TokenizedPromptDataKey() { return fwkplugin::NewDataKey("TokenizedPrompt", PluginType); }

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 Plugin (estimate backend)
class Plugin final : public fwkplugin::ProducerPlugin {
 public:
  explicit Plugin(const std::string& name)
      : typedName_{PluginType, name}, dk_(TokenizedPromptDataKey().WithNonEmptyProducerName(name)) {}
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 Plugin.Produces
  fwkplugin::DataKeyTypes Produces() const override { return {{dk_, fwkrh::TokenizedPrompt{}}}; }
  // pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 Plugin.Produce
  // Writes the request body's TokenizedPrompt with the body's cache salt. A body that already holds one is
  // left as it is (only its empty cache salt is filled in); a result of no tokens is not stored. Returns
  // Go's error text ("request body is nil", or the backend's), std::nullopt on success.
  std::optional<std::string> Produce(fwksched::InferenceRequest* request) const;

 private:
  fwkplugin::TypedName typedName_;
  fwkplugin::DataKey dk_;
};

// pkg/epp/framework/plugins/requestcontrol/dataproducer/tokenizer/tokenizer.go@71f4f099 PluginFactory
std::shared_ptr<fwkplugin::Plugin> PluginFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                 fwkplugin::Handle& handle);

}  // namespace blis::router::tokenizer
