// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: decoding the JSON form of apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099 as
// apimachinery's strict JSON serializer does (sigs.k8s.io/json UnmarshalStrict: case-sensitive names, unknown
// and duplicate fields as strict errors, type mismatches as encoding/json's UnmarshalTypeError), with
// resource.Quantity and metav1.Duration's own unmarshalers reduced to their validation.
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "router/apix/config/v1alpha1/endpointpickerconfig_types.h"
#include "router/epp/config/loader/goparse.h"

namespace blis::router::v1alpha1 {
namespace {

using nlohmann::json;

// Original to BLIS: encoding/json's name for a JSON value's kind in an UnmarshalTypeError.
std::string kindOf(const json& v, bool intTarget) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  if (v.is_number()) return intTarget ? "number " + v.dump() : "number";
  return "null";
}

// Original to BLIS: the decoding state: the Go struct and JSON field path (encoding/json's errorContext) and the
// strict errors collected on the way (sigs.k8s.io/json).
class Decoder {
 public:
  std::vector<std::string> strictErrs;

  [[noreturn]] void typeError(const json& v, const std::string& structName, const std::vector<std::string>& path,
                              const std::string& goType, bool intTarget = false) const {
    std::string field;
    for (const auto& p : path) field += (field.empty() ? "" : ".") + p;
    throw std::runtime_error("json: cannot unmarshal " + kindOf(v, intTarget) + " into Go struct field " + structName +
                             "." + field + " of type " + goType);
  }

  // Each member of obj is handed to `field`, which returns false for a name the struct does not have.
  template <class F>
  void object(const json& obj, const std::string& strictPath, F&& field) {
    for (const auto& [k, v] : obj.items()) {
      if (!field(k, v)) strictErrs.push_back("unknown field \"" + (strictPath.empty() ? "" : strictPath + ".") + k + "\"");
    }
  }

  std::string str(const json& v, const std::string& st, const std::vector<std::string>& path) const {
    if (v.is_null()) return "";
    if (!v.is_string()) typeError(v, st, path, "string");
    return v.get<std::string>();
  }
  bool boolean(const json& v, const std::string& st, const std::vector<std::string>& path) const {
    if (v.is_null()) return false;
    if (!v.is_boolean()) typeError(v, st, path, "bool");
    return v.get<bool>();
  }
  int integer(const json& v, const std::string& st, const std::vector<std::string>& path) const {
    if (v.is_null()) return 0;
    if (!v.is_number()) typeError(v, st, path, "int");
    if (v.is_number_float()) typeError(v, st, path, "int", true);
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) typeError(v, st, path, "int", true);
    return static_cast<int>(v.get<std::int64_t>());
  }
  // resource.Quantity UnmarshalJSON: a string or number matching the quantity grammar.
  std::optional<std::string> quantity(const json& v) const {
    if (v.is_null()) return std::nullopt;
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    if (auto err = loader::ValidateQuantity(s)) throw std::runtime_error(*err);
    return s;
  }
  // metav1.Duration UnmarshalJSON: a JSON string parsed by time.ParseDuration.
  std::optional<std::string> duration(const json& v) const {
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) throw std::runtime_error("json: cannot unmarshal " + kindOf(v, false) + " into Go value of type string");
    auto d = loader::ParseDuration(v.get<std::string>());
    if (!d.Value) throw std::runtime_error(*d.Err);
    return v.get<std::string>();
  }
  template <class T, class F>
  std::vector<T> array(const json& v, const std::string& st, const std::vector<std::string>& path,
                       const std::string& goType, const std::string& strictPath, F&& elem) {
    std::vector<T> out;
    if (v.is_null()) return out;
    if (!v.is_array()) typeError(v, st, path, goType);
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(elem(v[i], strictPath + "[" + std::to_string(i) + "]"));
    return out;
  }
  void requireObject(const json& v, const std::string& st, const std::vector<std::string>& path, const std::string& goType) const {
    if (!v.is_object()) typeError(v, st, path, goType);
  }

  SaturationDetectorConfig saturation(const json& v, const std::string& st, std::vector<std::string> path, const std::string& sp) {
    SaturationDetectorConfig c;
    requireObject(v, st, path, "v1alpha1.SaturationDetectorConfig");
    object(v, sp, [&](const std::string& k, const json& f) {
      if (k == "pluginRef") { auto p = path; p.push_back(k); c.PluginRef = str(f, "SaturationDetectorConfig", p); return true; }
      return false;
    });
    return c;
  }
  PriorityBandConfig band(const json& v, const std::string& st, std::vector<std::string> path, const std::string& sp) {
    PriorityBandConfig b;
    requireObject(v, st, path, "v1alpha1.PriorityBandConfig");
    object(v, sp, [&](const std::string& k, const json& f) {
      auto p = path;
      p.push_back(k);
      if (k == "priority") b.Priority = integer(f, "PriorityBandConfig", p);
      else if (k == "maxBytes") b.MaxBytes = quantity(f);
      else if (k == "maxRequests") b.MaxRequests = quantity(f);
      else if (k == "fairnessPolicyRef") b.FairnessPolicyRef = str(f, "PriorityBandConfig", p);
      else if (k == "orderingPolicyRef") b.OrderingPolicyRef = str(f, "PriorityBandConfig", p);
      else return false;
      return true;
    });
    return b;
  }
};

}  // namespace

// Original to BLIS: apimachinery's strict decode of an EndpointPickerConfig (see the header); the types are
// apix/config/v1alpha1/endpointpickerconfig_types.go@71f4f099's.
EndpointPickerConfig DecodeEndpointPickerConfig(const json& doc, std::vector<std::string> strictErrs) {
  Decoder d;
  d.strictErrs = std::move(strictErrs);
  EndpointPickerConfig cfg;
  const std::string E = "EndpointPickerConfig";
  if (!doc.is_object()) throw std::runtime_error("json: cannot unmarshal " + kindOf(doc, false) + " into Go value of type v1alpha1.EndpointPickerConfig");
  d.object(doc, "", [&](const std::string& k, const json& v) {
    const std::vector<std::string> path{k};
    if (k == "apiVersion") cfg.APIVersion = d.str(v, E, path);
    else if (k == "kind") cfg.Kind = d.str(v, E, path);
    else if (k == "featureGates") {
      if (v.is_null()) cfg.FeatureGates.reset();
      else cfg.FeatureGates = d.array<std::string>(v, E, path, "v1alpha1.FeatureGates", k, [&](const json& e, const std::string&) {
        return d.str(e, E, path);
      });
    } else if (k == "plugins") {
      cfg.Plugins = d.array<PluginSpec>(v, E, path, "[]v1alpha1.PluginSpec", k, [&](const json& e, const std::string& sp) {
        PluginSpec s;
        if (e.is_null()) return s;
        d.requireObject(e, E, path, "v1alpha1.PluginSpec");
        d.object(e, sp, [&](const std::string& fk, const json& f) {
          auto p = path;
          p.push_back(fk);
          if (fk == "name") s.Name = d.str(f, "PluginSpec", p);
          else if (fk == "type") s.Type = d.str(f, "PluginSpec", p);
          else if (fk == "parameters") s.Parameters = f;  // json.RawMessage: any value, null kept as "null"
          else return false;
          return true;
        });
        return s;
      });
    } else if (k == "schedulingProfiles") {
      cfg.SchedulingProfiles = d.array<SchedulingProfile>(v, E, path, "[]v1alpha1.SchedulingProfile", k, [&](const json& e, const std::string& sp) {
        SchedulingProfile prof;
        if (e.is_null()) return prof;
        d.requireObject(e, E, path, "v1alpha1.SchedulingProfile");
        d.object(e, sp, [&](const std::string& fk, const json& f) {
          auto p = path;
          p.push_back(fk);
          if (fk == "name") prof.Name = d.str(f, "SchedulingProfile", p);
          else if (fk == "plugins") {
            prof.Plugins = d.array<SchedulingPlugin>(f, "SchedulingProfile", p, "[]v1alpha1.SchedulingPlugin", sp + ".plugins", [&](const json& pe, const std::string& psp) {
              SchedulingPlugin sp2;
              if (pe.is_null()) return sp2;
              d.requireObject(pe, "SchedulingProfile", p, "v1alpha1.SchedulingPlugin");
              d.object(pe, psp, [&](const std::string& pk, const json& pf) {
                auto pp = p;
                pp.push_back(pk);
                if (pk == "pluginRef") sp2.PluginRef = d.str(pf, "SchedulingPlugin", pp);
                else if (pk == "weight") {
                  if (pf.is_null()) sp2.Weight.reset();
                  else if (!pf.is_number()) d.typeError(pf, "SchedulingPlugin", pp, "float64");
                  else sp2.Weight = pf.get<double>();
                } else return false;
                return true;
              });
              return sp2;
            });
          } else return false;
          return true;
        });
        return prof;
      });
    } else if (k == "dataLayer") {
      if (v.is_null()) { cfg.DataLayer.reset(); return true; }
      d.requireObject(v, E, path, "v1alpha1.DataLayerConfig");
      DataLayerConfig dl;
      d.object(v, k, [&](const std::string& fk, const json& f) {
        auto p = path;
        p.push_back(fk);
        const std::string sp = k + "." + fk;
        if (fk == "injectDefaults") { if (!f.is_null()) dl.InjectDefaults = d.boolean(f, "DataLayerConfig", p); }
        else if (fk == "sources") {
          dl.Sources = d.array<DataLayerSource>(f, "DataLayerConfig", p, "[]v1alpha1.DataLayerSource", sp, [&](const json& e, const std::string& esp) {
            DataLayerSource s;
            if (e.is_null()) return s;
            d.requireObject(e, "DataLayerConfig", p, "v1alpha1.DataLayerSource");
            d.object(e, esp, [&](const std::string& sk, const json& sf) {
              auto sp2 = p;
              sp2.push_back(sk);
              if (sk == "pluginRef") s.PluginRef = d.str(sf, "DataLayerSource", sp2);
              else if (sk == "extractors") {
                s.Extractors = d.array<DataLayerExtractor>(sf, "DataLayerSource", sp2, "[]v1alpha1.DataLayerExtractor", esp + ".extractors", [&](const json& xe, const std::string& xsp) {
                  DataLayerExtractor x;
                  if (xe.is_null()) return x;
                  d.requireObject(xe, "DataLayerSource", sp2, "v1alpha1.DataLayerExtractor");
                  d.object(xe, xsp, [&](const std::string& xk, const json& xf) {
                    auto xp = sp2;
                    xp.push_back(xk);
                    if (xk == "pluginRef") { x.PluginRef = d.str(xf, "DataLayerExtractor", xp); return true; }
                    return false;
                  });
                  return x;
                });
              } else return false;
              return true;
            });
            return s;
          });
        } else if (fk == "discovery") {
          if (f.is_null()) return true;
          d.requireObject(f, "DataLayerConfig", p, "v1alpha1.DiscoveryConfig");
          DiscoveryConfig dc;
          d.object(f, sp, [&](const std::string& dk, const json& df) {
            auto dp = p;
            dp.push_back(dk);
            if (dk == "pluginRef") { dc.PluginRef = d.str(df, "DiscoveryConfig", dp); return true; }
            return false;
          });
          dl.Discovery = dc;
        } else if (fk == "crossReplicaSyncerPluginRef") dl.CrossReplicaSyncerPluginRef = d.str(f, "DataLayerConfig", p);
        else if (fk == "crossReplicaSyncInterval") dl.CrossReplicaSyncInterval = d.duration(f);
        else return false;
        return true;
      });
      cfg.DataLayer = dl;
    } else if (k == "flowControl") {
      if (v.is_null()) { cfg.FlowControl.reset(); return true; }
      d.requireObject(v, E, path, "v1alpha1.FlowControlConfig");
      FlowControlConfig fc;
      const std::string F = "FlowControlConfig";
      d.object(v, k, [&](const std::string& fk, const json& f) {
        auto p = path;
        p.push_back(fk);
        const std::string sp = k + "." + fk;
        if (fk == "maxBytes") fc.MaxBytes = d.quantity(f);
        else if (fk == "maxRequests") fc.MaxRequests = d.quantity(f);
        else if (fk == "defaultRequestTTL") fc.DefaultRequestTTL = d.duration(f);
        else if (fk == "defaultPriorityBand") { if (!f.is_null()) fc.DefaultPriorityBand = d.band(f, F, p, sp); }
        else if (fk == "defaultNegativePriorityBand") { if (!f.is_null()) fc.DefaultNegativePriorityBand = d.band(f, F, p, sp); }
        else if (fk == "priorityBands") {
          fc.PriorityBands = d.array<PriorityBandConfig>(f, F, p, "[]v1alpha1.PriorityBandConfig", sp, [&](const json& e, const std::string& esp) {
            return e.is_null() ? PriorityBandConfig{} : d.band(e, F, p, esp);
          });
        } else if (fk == "usageLimitPolicyPluginRef") fc.UsageLimitPolicyPluginRef = d.str(f, F, p);
        else if (fk == "saturationDetector") { if (!f.is_null()) fc.SaturationDetector = d.saturation(f, F, p, sp); }
        else if (fk == "enableEviction") fc.EnableEviction = d.boolean(f, F, p);
        else return false;
        return true;
      });
      cfg.FlowControl = fc;
    } else if (k == "requestHandler") {
      if (v.is_null()) { cfg.RequestHandler.reset(); return true; }
      d.requireObject(v, E, path, "v1alpha1.RequestHandlerConfig");
      RequestHandlerConfig rh;
      d.object(v, k, [&](const std::string& fk, const json& f) {
        auto p = path;
        p.push_back(fk);
        if (fk != "parsers") return false;
        rh.Parsers = d.array<ParserConfig>(f, "RequestHandlerConfig", p, "[]v1alpha1.ParserConfig", k + ".parsers", [&](const json& e, const std::string& esp) {
          ParserConfig pc;
          if (e.is_null()) return pc;
          d.requireObject(e, "RequestHandlerConfig", p, "v1alpha1.ParserConfig");
          d.object(e, esp, [&](const std::string& pk, const json& pf) {
            auto pp = p;
            pp.push_back(pk);
            if (pk == "pluginRef") { pc.PluginRef = d.str(pf, "ParserConfig", pp); return true; }
            return false;
          });
          return pc;
        });
        return true;
      });
      cfg.RequestHandler = rh;
    } else if (k == "saturationDetector") {
      if (!v.is_null()) cfg.SaturationDetector = d.saturation(v, E, path, k);
    } else if (k == "parser") {
      if (v.is_null()) return true;
      d.requireObject(v, E, path, "v1alpha1.ParserConfig");
      ParserConfig pc;
      d.object(v, k, [&](const std::string& pk, const json& pf) {
        if (pk == "pluginRef") { pc.PluginRef = d.str(pf, "ParserConfig", {k, pk}); return true; }
        return false;
      });
      cfg.Parser = pc;
    } else return false;
    return true;
  });
  if (!d.strictErrs.empty()) {
    std::string msg = "strict decoding error: ";
    for (std::size_t i = 0; i < d.strictErrs.size(); ++i) msg += (i ? ", " : "") + d.strictErrs[i];
    throw std::runtime_error(msg);
  }
  return cfg;
}

}  // namespace blis::router::v1alpha1
