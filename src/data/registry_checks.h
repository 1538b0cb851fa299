// The coefficient registry's rules that its schemas cannot state (registry/README.md "Validators"), as
// cross-checks over the combined catalog and registry (X15: each rule once, in C++, reached through
// `blis validate`). Every file is read through its generated reader (src/schema/); the rules the readers
// already refuse (one method, required fields, enums), the identity rule and the path of a coefficient set
// (data/coefficients.cpp, data/loader.cpp), VAL-4's precedence and the catalog names a scope uses
// (data/cross_checks.cpp) are not repeated here.
#pragma once

#include "data/data_set.h"
#include "data/diagnostics.h"
#include "data/validators.h"

namespace blis::data {

// SUB-4: a registry file's first line is the header of the writer its written_by names, and an acceptance
// profile set sits at acceptance/<set>.yaml.
void check_registry_provenance(const DataSet& data, Diagnostics& diags);

// VAL-2, VAL-1: a coefficient set's family is in families.yaml, each entry names a coefficient the family
// declares, in the unit declared for it.
void check_registry_families(const DataSet& data, Diagnostics& diags);

// VAL-9: an entry's boundary is the one its reading formula declares (execution may be independent).
void check_registry_boundaries(const DataSet& data, Diagnostics& diags);

// VAL-1: a value on every method but not_charged and none there; a cited key is in the file's sources and a
// literature or vendor_spec source is of an allowed kind; a roofline fact equals the catalog's value; a
// transfer moves a measured or calibrated entry that is in the registry.
void check_registry_sources(const DataSet& data, Diagnostics& diags);

// VAL-10: interval_95 has low <= high and holds the value; input_range names the family's inputs with
// min <= max.
void check_registry_intervals(const DataSet& data, Diagnostics& diags);

// D5, VAL-8: a measured or calibrated entry states kernel and chip. VAL-7: a model-scoped entry names its
// missing_form.
void check_registry_scopes(const DataSet& data, Diagnostics& diags);

// D8: a workload-keyed family's entries state a workload (an assumed or not_charged entry with an empty
// scope excepted) and no other family's do.
void check_registry_workload(const DataSet& data, Diagnostics& diags);

// D8: an acceptance profile's mean_acceptance_length is at most K + 1, its position_rates are K rates that
// do not increase, and no exact key (with its sampling and rejection) is held twice, in one set or two.
void check_acceptance_profiles(const DataSet& data, Diagnostics& diags);

// VAL-2, SUB-7: every coefficient of every family answers the floor lookups on every catalog chip:
// {chip}; {chip, dtype} for each data type the chip states for `varies_by: [dtype]`; {chip, span} for
// node, rack (a rack tier) and fabric (a NIC) for `varies_by: [span]`.
void check_registry_complete(const DataSet& data, Diagnostics& diags);

// VAL-10's flag, a notice and not a refusal: each measured or calibrated entry whose interval_95 is
// unbounded or wider than half its value is unidentified (it ranks with assumed for VAL-3). Added to
// `notices`, one per entry.
void registry_notices(const DataSet& data, Diagnostics& notices);

// Registers every check above as registry-<what>.
void add_registry_checks(ValidatorTable& table);

}  // namespace blis::data
