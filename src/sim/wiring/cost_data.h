// The build site's wiring of the loaded data into the cost model (MAPPING.md: src/sim wires the parts
// together). src/cost may not include src/data (X7), so the registry reaches it as a RegistryInput whose
// precedence is src/data's compare_scopes: VAL-4's order is written once, in src/data/scope_precedence.
#pragma once

#include "cost/coefficients.h"
#include "data/data_set.h"

namespace blis::sim {

// The registry of `data` as the cost model reads it.
cost::RegistryInput registry_input(const data::DataSet& data);

// The same, read into typed entries (throws cost::CostError when an entry is refused).
cost::Coefficients coefficients(const data::DataSet& data);

}  // namespace blis::sim
