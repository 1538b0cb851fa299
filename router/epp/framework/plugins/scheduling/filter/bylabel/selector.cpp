// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099;
// see selector.h.
#include "router/epp/framework/plugins/scheduling/filter/bylabel/selector.h"

#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::bylabel {
namespace {

// Original to BLIS: a helper of the port's own.
std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Original to BLIS: a helper of the port's own.
// encoding/json's field lookup: the exact JSON name, else a case-insensitive match.
nlohmann::json::const_iterator findField(const nlohmann::json& obj, const std::string& name) {
  auto it = obj.find(name);
  if (it != obj.end()) return it;
  for (auto i = obj.begin(); i != obj.end(); ++i) {
    if (lower(i.key()) == lower(name)) return i;
  }
  return obj.end();
}

// Original to BLIS: a helper of the port's own.
[[noreturn]] void mismatch(const nlohmann::json& v, const std::string& structAndField, const std::string& goType) {
  throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into Go struct field " +
                               structAndField + " of type " + goType);
}

// Original to BLIS: a helper of the port's own.
// encoding/json decoding one metav1.LabelSelectorRequirement (a JSON null element is the zero value).
// The error context is Go's: the innermost struct's name and the field path from the top
// ("LabelSelectorRequirement.matchExpressions.key"). Fields are visited in key order (Go: document order,
// which differs only in which of several errors is reported).
k8s::LabelSelectorRequirement decodeRequirement(const nlohmann::json& v) {
  k8s::LabelSelectorRequirement r;
  if (v.is_null()) return r;
  if (!v.is_object()) mismatch(v, "LabelSelector.matchExpressions", "v1.LabelSelectorRequirement");
  const std::string ctx = "LabelSelectorRequirement.matchExpressions.";
  for (const auto& [key, val] : v.items()) {
    const std::string k = lower(key);
    if (k != "key" && k != "operator" && k != "values") throw fwkplugin::PluginError("json: unknown field \"" + key + "\"");
  }
  if (auto it = findField(v, "key"); it != v.end() && !it->is_null()) {
    if (!it->is_string()) mismatch(*it, ctx + "key", "string");
    r.Key = it->get<std::string>();
  }
  if (auto it = findField(v, "operator"); it != v.end() && !it->is_null()) {
    if (!it->is_string()) mismatch(*it, ctx + "operator", "v1.LabelSelectorOperator");
    r.Operator = it->get<std::string>();
  }
  if (auto it = findField(v, "values"); it != v.end() && !it->is_null()) {
    if (!it->is_array()) mismatch(*it, ctx + "values", "[]string");
    for (const auto& e : *it) {
      if (e.is_null()) {
        r.Values.emplace_back();  // null into a string leaves ""
        continue;
      }
      if (!e.is_string()) mismatch(e, ctx + "values", "string");
      r.Values.push_back(e.get<std::string>());
    }
  }
  return r;
}

}  // namespace

// Original to BLIS: a helper of the port's own.
// Go: json.Decoder.Decode(&metav1.LabelSelector{}) with DisallowUnknownFields (see selector.h).
k8s::LabelSelector DecodeLabelSelector(fwkplugin::Parameters parameters) {
  k8s::LabelSelector sel;
  nlohmann::json rest;  // the parameters without matchExpressions, for StrictObject
  const nlohmann::json* expressions = nullptr;
  fwkplugin::Parameters forStrict = parameters;
  if (parameters != nullptr && parameters->is_object()) {
    rest = *parameters;
    auto it = findField(*parameters, "matchExpressions");
    if (it != parameters->end()) {
      expressions = &*it;
      rest.erase(it.key());
    }
    forStrict = &rest;
  }
  fwkplugin::StrictObject obj(forStrict, "v1.LabelSelector");
  obj.Field("matchLabels", sel.MatchLabels);
  obj.Finish();
  if (expressions != nullptr && !expressions->is_null()) {
    if (!expressions->is_array()) mismatch(*expressions, "LabelSelector.matchExpressions", "[]v1.LabelSelectorRequirement");
    for (const auto& e : *expressions) sel.MatchExpressions.push_back(decodeRequirement(e));
  }
  return sel;
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 NewSelector
std::shared_ptr<Selector> NewSelector(const std::string& name, const k8s::LabelSelector* selector) {
  if (name.empty()) throw std::invalid_argument("Selector: missing filter name");
  k8s::Selector labelSelector = k8s::LabelSelectorAsSelector(selector);
  return std::make_shared<Selector>(fwkplugin::TypedName{LabelSelectorFilterType, name}, std::move(labelSelector));
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 SelectorFactory
std::shared_ptr<fwkplugin::Plugin> SelectorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                   fwkplugin::Handle& /*handle*/) {
  k8s::LabelSelector sel;
  try {
    sel = DecodeLabelSelector(parameters);
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + std::string(LabelSelectorFilterType) +
                                 "' filter - " + e.what());
  }
  try {
    return NewSelector(name, &sel);
  } catch (const std::invalid_argument& e) {
    throw fwkplugin::PluginError(e.what());
  }
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 DeprecatedSelectorFactory
std::shared_ptr<fwkplugin::Plugin> DeprecatedSelectorFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                             fwkplugin::Handle& handle) {
  auto p = SelectorFactory(name, parameters, handle);
  auto s = std::dynamic_pointer_cast<Selector>(p);
  s->setType(ByLabelSelectorType);
  return s;
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/selector.go@71f4f099 Selector.Filter
std::vector<fwksched::EndpointPtr> Selector::Filter(fwksched::InferenceRequest* /*request*/,
                                                    const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<fwksched::EndpointPtr> filtered;
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* meta = endpoint->GetMetadata();
    if (meta == nullptr) {
      throw std::invalid_argument(typedName_.Type +
                                  ": an endpoint without metadata is not modelled by this port "
                                  "(upstream dereferences nil metadata)");
    }
    if (selector_.Matches(meta->Labels)) filtered.push_back(endpoint);
  }
  return filtered;
}

}  // namespace blis::router::bylabel
