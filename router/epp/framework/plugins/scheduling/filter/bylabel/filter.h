// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 and
// roles.go@71f4f099 (the deprecated by-label filter and the encode/decode/prefill role filters built on it);
// the deprecation log line is not ported (logging); no Go context.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/registry.h"
#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::bylabel {

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabelType (deprecated upstream)
inline constexpr const char* ByLabelType = "by-label";

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 the role label and values
inline constexpr const char* RoleLabel = "llm-d.ai/role";
inline constexpr const char* RoleDecode = "decode";
inline constexpr const char* RolePrefill = "prefill";
inline constexpr const char* RoleEncode = "encode";
inline constexpr const char* RolePrefillDecode = "prefill-decode";
inline constexpr const char* RoleEncodePrefill = "encode-prefill";
inline constexpr const char* RoleEncodePrefillDecode = "encode-prefill-decode";
inline constexpr const char* RoleBoth = "both";  // deprecated upstream: RolePrefillDecode
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 the role filters' types
inline constexpr const char* DecodeRoleType = "decode-filter";
inline constexpr const char* PrefillRoleType = "prefill-filter";
inline constexpr const char* EncodeRoleType = "encode-filter";

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 byLabelParameters
struct byLabelParameters {
  std::string Label;
  std::vector<std::string> ValidValues;
  bool AllowsNoLabel = false;
};

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabel
// Keeps the endpoints whose label `labelName` has one of the valid values, and (when allowsNoLabel) those
// without the label. Its Type is "by-label" whichever factory made it (the role filters too, as upstream).
class ByLabel final : public fwksched::FilterPlugin, public std::enable_shared_from_this<ByLabel> {
 public:
  ByLabel(const std::string& name, const std::string& labelName, bool allowsNoLabel,
          const std::vector<std::string>& validValues);

  // pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabel.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabel.WithName
  std::shared_ptr<ByLabel> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 ByLabel.Filter
  // An endpoint without metadata (a nil dereference upstream) is refused with std::invalid_argument.
  std::vector<fwksched::EndpointPtr> Filter(fwksched::InferenceRequest* request,
                                            const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  fwkplugin::TypedName typedName_;
  std::string labelName_;
  std::set<std::string> validValues_;
  bool allowsNoLabel_;
};

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 NewByLabel
std::shared_ptr<ByLabel> NewByLabel(const std::string& name, const std::string& labelName, bool allowsNoLabel,
                                    const std::vector<std::string>& validValues);

// pkg/epp/framework/plugins/scheduling/filter/bylabel/filter.go@71f4f099 Factory (type "by-label")
// Throws fwkplugin::PluginError with upstream's texts.
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& handle);

// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewDecodeRole
std::shared_ptr<ByLabel> NewDecodeRole();
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewPrefillRole
std::shared_ptr<ByLabel> NewPrefillRole();
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 NewEncodeRole
std::shared_ptr<ByLabel> NewEncodeRole();
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 DecodeRoleFactory (parameters ignored,
// as upstream never reads its decoder)
std::shared_ptr<fwkplugin::Plugin> DecodeRoleFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                     fwkplugin::Handle& handle);
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 PrefillRoleFactory
std::shared_ptr<fwkplugin::Plugin> PrefillRoleFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                      fwkplugin::Handle& handle);
// pkg/epp/framework/plugins/scheduling/filter/bylabel/roles.go@71f4f099 EncodeRoleFactory
std::shared_ptr<fwkplugin::Plugin> EncodeRoleFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                     fwkplugin::Handle& handle);

}  // namespace blis::router::bylabel
