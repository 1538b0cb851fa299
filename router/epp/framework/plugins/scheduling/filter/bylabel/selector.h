// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099
// (label-selector-filter and the deprecated by-label-selector); the label selector is the apimachinery subset
// of k8slabels.h; the deprecation log line is not ported (logging); no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"
#include "router/epp/framework/plugins/scheduling/filter/bylabel/k8slabels.h"

namespace blis::router::bylabel {

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 LabelSelectorFilterType
inline constexpr const char* LabelSelectorFilterType = "label-selector-filter";
// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 ByLabelSelectorType (deprecated)
inline constexpr const char* ByLabelSelectorType = "by-label-selector";

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 Selector
// Keeps the endpoints whose labels the label selector matches.
class Selector final : public fwksched::FilterPlugin {
 public:
  Selector(fwkplugin::TypedName typedName, k8s::Selector selector)
      : typedName_(std::move(typedName)), selector_(std::move(selector)) {}

  // pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 Selector.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 Selector.Filter
  // An endpoint without metadata (a nil dereference upstream) is refused with std::invalid_argument.
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;

  // Go's DeprecatedSelectorFactory sets the unexported typedName.Type.
  void setType(const std::string& type) { typedName_.Type = type; }

 private:
  fwkplugin::TypedName typedName_;
  k8s::Selector selector_;
};

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 NewSelector
// Throws std::invalid_argument: "Selector: missing filter name", or LabelSelectorAsSelector's error.
std::shared_ptr<Selector> NewSelector(const std::string& name, const k8s::LabelSelector* selector);

// The metav1.LabelSelector that Go's strict json.Decoder decodes from the parameters (nullptr: the zero
// value), with encoding/json's error texts (throws fwkplugin::PluginError). matchLabels through
// fwkplugin::StrictObject; matchExpressions (a slice of structs, which StrictObject does not decode) here.
k8s::LabelSelector DecodeLabelSelector(fwkplugin::Parameters parameters);

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 SelectorFactory (and
// LabelSelectorFilterFactory, its alias). Throws fwkplugin::PluginError with upstream's texts.
std::shared_ptr<fwkplugin::Plugin> SelectorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                   fwkplugin::Handle& handle);
// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 LabelSelectorFilterFactory
inline std::shared_ptr<fwkplugin::Plugin> LabelSelectorFilterFactory(const std::string& name,
                                                                     fwkplugin::Parameters parameters,
                                                                     fwkplugin::Handle& handle) {
  return SelectorFactory(name, parameters, handle);
}
// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 DeprecatedSelectorFactory
// A Selector whose Type is "by-label-selector".
std::shared_ptr<fwkplugin::Plugin> DeprecatedSelectorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                             fwkplugin::Handle& handle);

}  // namespace blis::router::bylabel
