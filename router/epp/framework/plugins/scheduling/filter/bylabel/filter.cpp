// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 and
// roles.go@71f4f099; see filter.h.
#include "router/epp/framework/plugins/scheduling/filter/bylabel/filter.h"

#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::bylabel {

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 NewByLabel (the fields it sets)
ByLabel::ByLabel(const std::string& name, const std::string& labelName, bool allowsNoLabel,
                 const std::vector<std::string>& validValues)
    : typedName_{ByLabelType, name},
      labelName_(labelName),
      validValues_(validValues.begin(), validValues.end()),
      allowsNoLabel_(allowsNoLabel) {}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 NewByLabel
std::shared_ptr<ByLabel> NewByLabel(const std::string& name, const std::string& labelName, bool allowsNoLabel,
                                    const std::vector<std::string>& validValues) {
  return std::make_shared<ByLabel>(name, labelName, allowsNoLabel, validValues);
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  const std::string type = ByLabelType;
  byLabelParameters p;
  try {
    fwkplugin::StrictObject obj(parameters, "bylabel.byLabelParameters");
    obj.Field("label", p.Label).Field("validValues", p.ValidValues).Field("allowsNoLabel", p.AllowsNoLabel);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError("failed to parse the parameters of the '" + type + "' filter - " + e.what());
  }
  if (name.empty()) {
    throw fwkplugin::PluginError("invalid configuration for '" + type + "' filter: name cannot be empty");
  }
  if (p.Label.empty()) {
    throw fwkplugin::PluginError("invalid configuration for '" + type + "' filter: 'label' must be specified");
  }
  if (p.ValidValues.empty() && !p.AllowsNoLabel) {
    throw fwkplugin::PluginError("invalid configuration for '" + type +
                                 "' filter: either 'validValues' must be non-empty or 'allowsNoLabel' must be true");
  }
  return NewByLabel(name, p.Label, p.AllowsNoLabel, p.ValidValues);
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabel.Filter
std::vector<fwksched::EndpointPtr> ByLabel::Filter(fwksched::InferenceRequest* /*request*/,
                                                   const std::vector<fwksched::EndpointPtr>& endpoints) {
  std::vector<fwksched::EndpointPtr> filteredEndpoints;
  for (const auto& endpoint : endpoints) {
    const fwkdl::EndpointMetadata* meta = endpoint->GetMetadata();
    if (meta == nullptr) {
      throw std::invalid_argument(std::string(ByLabelType) +
                                  ": an endpoint without metadata is not modelled by this port "
                                  "(upstream dereferences nil metadata)");
    }
    const auto it = meta->Labels.find(labelName_);
    const bool labelDefined = it != meta->Labels.end();
    // Go reads the zero value "" for a missing label, so "" among the valid values admits it too.
    const bool valueExists = validValues_.count(labelDefined ? it->second : std::string()) != 0;
    if ((!labelDefined && allowsNoLabel_) || valueExists) filteredEndpoints.push_back(endpoint);
  }
  return filteredEndpoints;
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewDecodeRole
std::shared_ptr<ByLabel> NewDecodeRole() {
  return NewByLabel(DecodeRoleType, RoleLabel, true, {RoleDecode, RolePrefillDecode, RoleBoth, RoleEncodePrefillDecode});
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewPrefillRole
std::shared_ptr<ByLabel> NewPrefillRole() {
  return NewByLabel(PrefillRoleType, RoleLabel, false,
                    {RolePrefill, RoleEncodePrefill, RolePrefillDecode, RoleBoth, RoleEncodePrefillDecode});
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewEncodeRole
std::shared_ptr<ByLabel> NewEncodeRole() {
  return NewByLabel(EncodeRoleType, RoleLabel, false, {RoleEncode, RoleEncodePrefill, RoleEncodePrefillDecode});
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 DecodeRoleFactory
std::shared_ptr<fwkplugin::Plugin> DecodeRoleFactory(const std::string& name, fwkplugin::Parameters /*parameters*/,
                                                     fwkplugin::Handle& /*handle*/) {
  return NewDecodeRole()->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 PrefillRoleFactory
std::shared_ptr<fwkplugin::Plugin> PrefillRoleFactory(const std::string& name, fwkplugin::Parameters /*parameters*/,
                                                      fwkplugin::Handle& /*handle*/) {
  return NewPrefillRole()->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 EncodeRoleFactory
std::shared_ptr<fwkplugin::Plugin> EncodeRoleFactory(const std::string& name, fwkplugin::Parameters /*parameters*/,
                                                     fwkplugin::Handle& /*handle*/) {
  return NewEncodeRole()->WithName(name);
}

}  // namespace blis::router::bylabel
