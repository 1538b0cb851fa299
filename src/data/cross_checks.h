// The hand-written checks between catalog and registry files (X15: written once, here).
#pragma once

#include "data/data_set.h"
#include "data/diagnostics.h"
#include "data/validators.h"

namespace blis::data {

// Every catalog entry a coefficient's scope names exists in the catalog in use (§3.3: a candidate registry
// that does not fit its catalog is refused): chip names catalog/hardware/<chip>.yaml, fabric names
// catalog/networks/<fabric>.yaml, and model names the id of some catalog/models/*/model.yaml.
void check_scope_names(const DataSet& data, Diagnostics& diags);

// VAL-4: no two entries of one name and rank answer one lookup unless scope_precedence orders them.
void check_scope_precedence(const DataSet& data, Diagnostics& diags);

// Registers the two above as scope-names and scope-precedence.
void add_builtin_cross_checks(ValidatorTable& table);

}  // namespace blis::data
