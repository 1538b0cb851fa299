// Loading the catalog and the coefficient registry: from a directory when one is named, else from the
// copy compiled into blis, plus overlays; every load validates in full (§3.3, SUB-9).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/data_set.h"
#include "data/diagnostics.h"
#include "data/patterns.h"
#include "data/validators.h"

namespace blis::data {

struct LoadOptions {
  std::optional<std::string> catalog_dir;      // --catalog / BLIS_CATALOG; unset: the embedded catalog
  std::optional<std::string> registry_dir;     // --registry / BLIS_REGISTRY; unset: the embedded registry
  std::vector<std::string> catalog_overlays;   // --catalog-overlay, in the order given
  std::vector<std::string> registry_overlays;  // --registry-overlay, in the order given
};

// Returns an environment variable's value, or nullopt when it is unset.
using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
EnvLookup process_environment();  // std::getenv

// Fills catalog_dir and registry_dir from BLIS_CATALOG and BLIS_REGISTRY where the flags left them unset;
// a flag wins over its variable. A variable or flag set to the empty string is refused.
LoadOptions apply_environment(LoadOptions flags, const EnvLookup& env, Diagnostics& diags);

struct LoadOutcome {
  std::optional<DataSet> data;  // set only when diagnostics is empty
  Diagnostics diagnostics;
  bool ok() const { return data.has_value(); }
};

// Reads both trees and every overlay (catalog overlays replace a whole file or a whole model directory;
// registry overlays replace or add single coefficients by set, name, scope and method, and other registry
// files whole), runs every kind validator on every file of every layer, applies the overlays, and runs
// every cross-check on the result. Refuses, naming each problem, a load with any problem, including a
// loaded file whose kind has no validator in the table.
LoadOutcome load(const LoadOptions& options, const ValidatorTable& validators,
                 const PatternTable& table = PatternTable::compiled());

// The embedded copy's content hash of a tree (computed at run time from the embedded bytes).
std::string embedded_hash(Tree tree);

// The ledger's published role lists, the one part of the ledger compiled in (§3.3); never read from a path.
// The pattern-lists test checks they pass the same scan rules.
Layer embedded_published_role_lists();

// Whether the data in use is the embedded content, whatever its source: no overlay, and both base hashes
// equal the embedded ones. A run uses released data when this holds and blis is a tagged release (§3.3).
bool uses_embedded_content(const DataSet& data);

}  // namespace blis::data
