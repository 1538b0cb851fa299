#include "sim/metrics/registry.h"

#include <stdexcept>

#include "contracts/doc/parse.h"

namespace blis::sim {

extern const char* const kMetricRegistryYaml;  // generated from src/sim/metrics/registry.yaml

std::string_view metric_registry_text() { return kMetricRegistryYaml; }

const schema::MetricRegistry& metric_registry() {
  static const schema::MetricRegistry registry = [] {
    doc::Diagnostics d{"src/sim/metrics/registry.yaml"};
    const doc::Parsed parsed = doc::parse(metric_registry_text(), doc::Syntax::Yaml, d);
    schema::MetricRegistry r;
    if (d.ok() && parsed.documents.size() == 1 && schema::read(parsed.documents[0], "", d, r)) schema::validate(r, "", d);
    if (!d.ok() || parsed.documents.size() != 1) throw std::logic_error("the compiled metric registry is invalid:\n" + d.str());
    return r;
  }();
  return registry;
}

const schema::MetricRegistryMetric* find_metric(std::string_view id) {
  for (const auto& m : metric_registry().metrics) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

}  // namespace blis::sim
