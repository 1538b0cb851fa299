// Original to BLIS: encoding/json's decoding of modelServerExtractorParams
// (pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go@71f4f099), see params_decode.h.
#include "router/epp/framework/plugins/datalayer/extractor/metrics/params_decode.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "router/epp/framework/interface/plugin/decode.h"
#include "router/epp/framework/plugins/datalayer/extractor/metrics/gotext.h"

namespace blis::router::metrics {
namespace {

using json = nlohmann::json;

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// One decoding pass: keeps the first error, as encoding/json's decodeState.saveError does.
class decoder {
 public:
  std::optional<std::string> first;

  void fail(std::string msg) {
    if (!first) first = std::move(msg);
  }
  // UnmarshalTypeError with its error context: the innermost struct and the JSON field path from the root.
  void mismatch(const json& v, const std::string& structName, const std::string& path, const std::string& goType) {
    fail("json: cannot unmarshal " + fwkplugin::JsonKind(v) + " into Go struct field " + structName + "." + path +
         " of type " + goType);
  }
  void str(const json& v, std::string& out, const std::string& structName, const std::string& path) {
    if (v.is_null()) return;
    if (!v.is_string()) return mismatch(v, structName, path, "string");
    out = v.get<std::string>();
  }
  // A struct's fields: each key of obj goes to the field its name matches (exactly, else ignoring ASCII
  // case), or is refused as unknown.
  void fields(const json& obj, const std::vector<std::string>& names,
              const std::function<void(const std::string& name, const json& value)>& onField) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& key = it.key();
      const std::string* match = nullptr;
      for (const auto& n : names) {
        if (n == key) match = &n;
      }
      if (match == nullptr) {
        for (const auto& n : names) {
          if (match == nullptr && lower(n) == lower(key)) match = &n;
        }
      }
      if (match == nullptr) {
        fail("json: unknown field " + goQuote(key));
        continue;
      }
      onField(*match, it.value());
    }
  }
  // A []T field: null leaves it nil, an array replaces it; each element is an object (decoded by elem), null
  // (a zero T) or a mismatch.
  template <class T>
  void list(const json& v, std::vector<T>& out, const std::string& structName, const std::string& path,
            const std::string& goElemType, const std::function<void(const json&, T&)>& elem) {
    if (v.is_null()) {
      out.clear();
      return;
    }
    if (!v.is_array()) return mismatch(v, structName, path, "[]" + goElemType);
    out.clear();
    for (const auto& e : v) {
      T t{};
      if (e.is_object()) {
        elem(e, t);
      } else if (!e.is_null()) {
        mismatch(e, structName, path, goElemType);
      }
      out.push_back(std::move(t));
    }
  }
};

void decodeCustomMetric(decoder& d, const json& obj, customMetricConfigParams& out) {
  const std::string s = "customMetricConfigParams";
  const std::string p = "engineConfigs.customMetrics.";
  d.fields(obj, {"attributeKey", "metricSpec"}, [&](const std::string& n, const json& v) {
    d.str(v, n == "attributeKey" ? out.AttributeKey : out.MetricSpec, s, p + n);
  });
}

void decodeEngineConfig(decoder& d, const json& obj, engineConfigParams& out) {
  const std::string s = "engineConfigParams";
  const std::string p = "engineConfigs.";
  const std::vector<std::pair<std::string, std::string*>> strings{
      {"name", &out.Name},
      {"queuedRequestsSpec", &out.QueuedRequestsSpec},
      {"runningRequestsSpec", &out.RunningRequestsSpec},
      {"kvUsageSpec", &out.KVUsageSpec},
      {"loraSpec", &out.LoRASpec},
      {"cacheInfoSpec", &out.CacheInfoSpec},
      {"cacheBlockSizeLabelName", &out.CacheBlockSizeLabelName},
      {"cacheNumBlocksLabelName", &out.CacheNumBlocksLabelName},
      {"cacheBlockSizeSpec", &out.CacheBlockSizeSpec},
      {"cacheNumBlocksSpec", &out.CacheNumBlocksSpec},
  };
  std::vector<std::string> names;
  for (const auto& [n, f] : strings) names.push_back(n);
  names.push_back("customMetrics");
  d.fields(obj, names, [&](const std::string& n, const json& v) {
    if (n == "customMetrics") {
      d.list<customMetricConfigParams>(v, out.CustomMetrics, s, p + n, "metrics.customMetricConfigParams",
                                       [&](const json& e, customMetricConfigParams& t) { decodeCustomMetric(d, e, t); });
      return;
    }
    for (const auto& [fn, f] : strings) {
      if (fn == n) d.str(v, *f, s, p + n);
    }
  });
}

}  // namespace

// Original to BLIS: encoding/json's Decode into *modelServerExtractorParams (see params_decode.h).
void decodeExtractorParams(const nlohmann::json& v, modelServerExtractorParams& out) {
  if (v.is_null()) return;
  if (!v.is_object()) {
    throw fwkplugin::PluginError("json: cannot unmarshal " + fwkplugin::JsonKind(v) +
                                 " into Go value of type metrics.modelServerExtractorParams");
  }
  decoder d;
  const std::string s = "modelServerExtractorParams";
  d.fields(v, {"engineLabelKey", "defaultEngine", "engineConfigs"}, [&](const std::string& n, const json& f) {
    if (n == "engineLabelKey") {
      d.str(f, out.EngineLabelKey, s, n);
    } else if (n == "defaultEngine") {
      d.str(f, out.DefaultEngine, s, n);
    } else {
      d.list<engineConfigParams>(f, out.EngineConfigs, s, n, "metrics.engineConfigParams",
                                 [&](const json& e, engineConfigParams& t) { decodeEngineConfig(d, e, t); });
    }
  });
  if (d.first) throw fwkplugin::PluginError(*d.first);
}

}  // namespace blis::router::metrics
