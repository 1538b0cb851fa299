// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of the parameters, config parser and factory of
// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 (the
// upstream file has no licence header; the year is its first commit's); the deprecation log lines and
// registerMetrics are not ported. Go's strict JSON decoding reports the first error in document order; the
// parsed JSON here is key-ordered, so with several bad fields the one reported may differ.
#include <any>
#include <utility>
#include <vector>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.h"

namespace blis::router::disagg {
namespace {

// Original to BLIS: ASCII lower-casing (strings.ToLower on the stage-order and field names).
std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Original to BLIS: Go's %q (strconv.Quote) for the printable ASCII text a stage order holds.
std::string goQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Original to BLIS: encoding/json's strict decoding of a struct whose fields are all strings, the field
// `path` of the top-level struct `topStruct` (DisallowUnknownFields; keys matched exactly, then
// case-insensitively; null leaves a field unchanged). Throws fwkplugin::PluginError with encoding/json's text.
void decodeStringFields(const nlohmann::json& v, const std::string& topStruct, const std::string& path,
                        const std::string& goType, const std::vector<std::pair<std::string, std::string*>>& fields) {
  if (v.is_null()) return;
  if (!v.is_object()) {
    const std::string where = path.empty() ? "Go value of type " + goType
                                           : "Go struct field " + topStruct + "." + path + " of type " + goType;
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into " + where);
  }
  for (const auto& [key, val] : v.items()) {
    std::string* target = nullptr;
    std::string jsonName;
    for (const auto& [name, out] : fields) {
      if (name == key) target = out, jsonName = name;
    }
    for (const auto& [name, out] : fields) {
      if (target == nullptr && lower(name) == lower(key)) target = out, jsonName = name;
    }
    if (target == nullptr) throw fwkplugin::PluginError("json: unknown field \"" + key + "\"");
    if (val.is_null()) continue;
    if (!val.is_string()) {
      throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(val) + " into Go struct field " +
                                   topStruct + "." + (path.empty() ? "" : path + ".") + jsonName + " of type " +
                                   "string");
    }
    *target = val.get<std::string>();
  }
}

// Original to BLIS: encoding/json's strict decoding of DisaggProfileHandlerParameters (the nested schema).
void decodeNested(const nlohmann::json& v, DisaggProfileHandlerParameters& p) {
  const std::string top = "DisaggProfileHandlerParameters";
  if (!v.is_null() && !v.is_object()) {
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) +
                                 " into Go value of type disagg.DisaggProfileHandlerParameters");
  }
  if (v.is_null()) return;
  for (const auto& [key, val] : v.items()) {
    const std::string k = lower(key);
    if (k == "stageorder") {
      if (val.is_null()) continue;
      if (!val.is_string()) {
        throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(val) + " into Go struct field " +
                                     top + ".stageOrder of type disagg.StageOrder");
      }
      p.StageOrder = val.get<std::string>();
    } else if (k == "profiles") {
      decodeStringFields(val, top, "profiles", "disagg.disaggProfilesParameters",
                         {{"decode", &p.Profiles.Decode}, {"prefill", &p.Profiles.Prefill},
                          {"encode", &p.Profiles.Encode}});
    } else if (k == "deciders") {
      decodeStringFields(val, top, "deciders", "disagg.disaggDecidersParameters",
                         {{"prefill", &p.Deciders.Prefill}, {"encode", &p.Deciders.Encode}});
    } else {
      throw fwkplugin::PluginError("json: unknown field \"" + key + "\"");
    }
  }
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 legacyDisaggProfileHandlerParameters
struct legacyDisaggProfileHandlerParameters {
  disagg::StageOrder StageOrder;  // qualified: the member shares the type's name, as upstream
  std::string DecodeProfile;
  std::string PrefillProfile;
  std::string EncodeProfile;
  std::string PrefillDeciderPluginName;
  std::string EncodeDeciderPluginName;
  std::string DeciderPluginName;  // a legacy alias from pd-profile-handler, maps to deciders.prefill

  // pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 legacyDisaggProfileHandlerParameters.toDisaggParams
  // (the deprecation log lines are not ported)
  DisaggProfileHandlerParameters toDisaggParams() const {
    DisaggProfileHandlerParameters p;
    if (!StageOrder.empty()) p.StageOrder = StageOrder;
    if (!DecodeProfile.empty()) p.Profiles.Decode = DecodeProfile;
    if (!PrefillProfile.empty()) p.Profiles.Prefill = PrefillProfile;
    if (!EncodeProfile.empty()) p.Profiles.Encode = EncodeProfile;
    if (!PrefillDeciderPluginName.empty()) p.Deciders.Prefill = PrefillDeciderPluginName;
    // DeciderPluginName is a lower-priority alias for the prefill decider.
    if (!DeciderPluginName.empty() && p.Deciders.Prefill.empty()) p.Deciders.Prefill = DeciderPluginName;
    if (!EncodeDeciderPluginName.empty()) p.Deciders.Encode = EncodeDeciderPluginName;
    return p;
  }
};

// Original to BLIS: encoding/json's strict decoding of legacyDisaggProfileHandlerParameters.
legacyDisaggProfileHandlerParameters decodeLegacy(fwkplugin::Parameters parameters) {
  legacyDisaggProfileHandlerParameters l;
  fwkplugin::StrictObject obj(parameters, "disagg.legacyDisaggProfileHandlerParameters");
  obj.Field("stageOrder", l.StageOrder);
  obj.Field("decodeProfile", l.DecodeProfile);
  obj.Field("prefillProfile", l.PrefillProfile);
  obj.Field("encodeProfile", l.EncodeProfile);
  obj.Field("prefillDeciderPluginName", l.PrefillDeciderPluginName);
  obj.Field("encodeDeciderPluginName", l.EncodeDeciderPluginName);
  obj.Field("deciderPluginName", l.DeciderPluginName);
  obj.Finish();
  return l;
}

// Original to BLIS: the decider named `name` (handle.Plugin then the deciderPlugin type assertion, as
// HandlerFactory does), with HandlerFactory's error texts.
std::shared_ptr<deciderPlugin> resolveDecider(const fwkplugin::Handle& handle, const std::string& name,
                                              const std::string& field, const std::string& role) {
  auto p = handle.GetPlugin(name);
  if (p == nullptr) throw fwkplugin::PluginError(field + " plugin not found: " + name);
  auto decider = std::dynamic_pointer_cast<deciderPlugin>(p);
  if (decider == nullptr) throw fwkplugin::PluginError("plugin " + name + " does not implement " + role);
  return decider;
}

}  // namespace

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 ParseStageOrder
StageOrder ParseStageOrder(const std::string& s) {
  std::string k;
  for (char c : s) {
    if (c != '-' && c != '_') k += c;
  }
  k = lower(k);
  if (k.empty() || k == "decodefirst" || k == "decode") return StageOrderDecodeFirst;
  if (k == "prefillfirst" || k == "prefill") return StageOrderPrefillFirst;
  throw fwkplugin::PluginError("invalid stage order " + goQuote(s) + ", must be " + goQuote(StageOrderDecodeFirst) +
                               " or " + goQuote(StageOrderPrefillFirst));
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 DisaggProfileHandlerConfigParser
std::any DisaggProfileHandlerConfigParser(fwkplugin::Parameters parameters, fwkplugin::Handle&) {
  DisaggProfileHandlerParameters p;
  if (parameters != nullptr) {
    // The nested schema strictly first; deprecated flat fields are unknown to it, which is the signal to
    // fall back to the legacy schema.
    try {
      decodeNested(*parameters, p);
    } catch (const fwkplugin::PluginError& errNew) {
      try {
        p = decodeLegacy(parameters).toDisaggParams();
      } catch (const fwkplugin::PluginError& errLegacy) {
        throw fwkplugin::PluginError(std::string("failed to parse parameters of the disagg-profile-handler: ") +
                                     "nested schema error: " + errNew.what() + "; legacy schema error: " +
                                     errLegacy.what() +
                                     " (use one format exclusively: either nested profiles/deciders or the "
                                     "deprecated flat fields)");
      }
    }
  }
  p.StageOrder = ParseStageOrder(p.StageOrder);
  if (p.StageOrder == StageOrderPrefillFirst && !p.Deciders.Prefill.empty()) {
    throw fwkplugin::PluginError("prefill decider is not supported in " + StageOrderPrefillFirst + " stage order");
  }
  if (p.Profiles.Decode.empty()) p.Profiles.Decode = defaultDecodeProfile;
  if (p.Profiles.Prefill.empty()) p.Profiles.Prefill = defaultPrefillProfile;
  if (p.Profiles.Encode.empty()) p.Profiles.Encode = defaultEncodeProfile;
  return p;
}

// pkg/epp/framework/plugins/scheduling/profilehandler/disagg/disagg_profile_handler.go@71f4f099 HandlerFactory
std::shared_ptr<fwkplugin::Plugin> HandlerFactory(const std::string& name, fwkplugin::Parameters parameters,
                                                  fwkplugin::Handle& handle) {
  const auto p = std::any_cast<DisaggProfileHandlerParameters>(DisaggProfileHandlerConfigParser(parameters, handle));
  std::shared_ptr<deciderPlugin> pdDecider;  // optional: without it P/D disaggregation is disabled
  if (!p.Deciders.Prefill.empty()) {
    pdDecider = resolveDecider(handle, p.Deciders.Prefill, "deciders.prefill", "prefillDeciderPlugin");
  }
  std::shared_ptr<deciderPlugin> encodeDecider;  // optional: without it E disaggregation is disabled
  if (!p.Deciders.Encode.empty()) {
    encodeDecider = resolveDecider(handle, p.Deciders.Encode, "deciders.encode", "encodeDeciderPlugin");
  }
  return NewDisaggProfileHandler(p.Profiles.Decode, p.Profiles.Prefill, p.Profiles.Encode, pdDecider, encodeDecider)
      ->WithStageOrder(p.StageOrder)
      ->WithName(name);
}

}  // namespace blis::router::disagg
