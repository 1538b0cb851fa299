// SUB-18: provenance per field. Every `cite:` in a catalog entry names a source the same file lists under
// `sources:`, and in a hardware entry (chip, network, device: figures only) every listed source is cited by
// some figure (an unused source there is a stale citation).
#pragma once

#include "data/data_set.h"
#include "data/diagnostics.h"

namespace blis::data {

void check_citations(const DataSet& data, Diagnostics& diags);

}  // namespace blis::data
