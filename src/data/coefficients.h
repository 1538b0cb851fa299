// Reading the identity of each coefficient-set entry: set, family, name, scope and method (§3.3). The
// full document is checked by the coefficient-set validator; this reads only what overlays and the
// cross-checks need, and refuses what it cannot read.
#pragma once

#include <vector>

#include "data/data_set.h"
#include "data/diagnostics.h"

namespace blis::data {

// The entries of one coefficient-set file (a file of registry/sets/<set>/<family>.yaml). Checks that its
// set: and family: agree with the path, that every entry has a name, a scope mapping (absent: the empty
// scope) and a method mapping with exactly one key, and that no mapping read here repeats a key.
std::vector<Coefficient> read_coefficients(const FileRef& file, Diagnostics& diags);

// The rank of §9.2 for a method name: measured 1 ... assumed 7, not_charged 7 (registry/README.md); else 0.
int method_rank(std::string_view method);

}  // namespace blis::data
