// The metric registry (design §8.7, DEV-8): src/sim/metrics/registry.yaml, compiled into blis and
// read with the generated reader. Each metric identifier names a quantity and a statistic
// ("ttft.p99", "throughput.output_tokens_per_s"); src/sim/metrics computes exactly the identifiers the
// registry defines, and refuses any other.
#pragma once

#include <string>
#include <string_view>

#include "schema/metric-registry.h"

namespace blis::sim {

// The registry document as compiled in.
std::string_view metric_registry_text();
// Parsed and validated once; a registry that breaks its schema is a build defect (std::logic_error).
const schema::MetricRegistry& metric_registry();
// The metric of an identifier, or nullptr.
const schema::MetricRegistryMetric* find_metric(std::string_view id);

}  // namespace blis::sim
