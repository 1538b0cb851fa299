// The scorer's link to the simulator, through its public API only (src/sim/api/, MAPPING.md): a Runner
// on an api::Runtime, and the names the catalog in use holds.
#pragma once

#include <cstdint>
#include <optional>

#include "data/data_set.h"
#include "score/convert.h"
#include "score/score.h"
#include "sim/api/run.h"

namespace blis::score {

// Runs each scenario in process with `replications` replications (absent: the frame's rule), and reads
// ttft.mean and tpot.mean at cluster scope, in milliseconds, with their intervals when the run has them.
Runner api_runner(const sim::api::Runtime& runtime, std::optional<std::int64_t> replications);

// The catalog's model ids (a model directory 'org--name' is the id 'org/name'), with or without a graph,
// and its chip names (hardware/<name>.yaml).
CatalogNames catalog_names(const data::DataSet& data);

}  // namespace blis::score
