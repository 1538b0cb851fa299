// The cost tests' wiring of src/data into src/cost: load the catalog and registry (embedded, or from a
// directory, with overlays) and hand the coefficients to the cost model as a RegistryInput whose
// precedence is src/data's compare_scopes (src/cost may not include src/data, X7). The simulator's build
// site will wire them the same way.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cost/coefficients.h"
#include "data/data_set.h"
#include "data/loader.h"
#include "schema/chip.h"

namespace blis::cost::testing {

// The source root (BLIS_SOURCE_ROOT, set by meson).
std::string source_root();

// Loads with the standard validators; throws std::runtime_error with every diagnostic when refused.
data::DataSet load_data(const data::LoadOptions& options = {});

// A check's input directory: DIR/catalog and DIR/registry replace the embedded trees where present, and
// DIR/registry-overlay is applied as a registry overlay where present.
data::LoadOptions options_for_dir(const std::string& dir);

// The registry of `data` as the cost model reads it.
RegistryInput registry_input(const data::DataSet& data);
Coefficients coefficients(const data::DataSet& data);
// The same without the embedded fitted sets (`measured`, `transferred`): the floor and a test's own
// fixture sets (which name other sets), for tests whose expectations are the catalog roofline or that
// pit fixture entries against the floor.
Coefficients floor_coefficients(const data::DataSet& data);

// Every catalog chip, by name, read with the generated reader.
std::map<std::string, schema::Chip> chips(const data::DataSet& data);

// The data types a chip states a dense peak for, in the schema's order.
std::vector<std::string> chip_dtypes(const schema::Chip& chip);
// The peak for one of them.
double dense_peak(const schema::Chip& chip, const std::string& dtype);

}  // namespace blis::cost::testing
