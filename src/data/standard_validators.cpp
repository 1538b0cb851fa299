// The one place the validators of every load are registered (§3.3 "Checking data at load"): the reader
// blis-gen compiles for each document kind, then the cross-checks between files.
#include "contracts/doc/kinds.h"
#include "data/cross_checks.h"
#include "data/provenance.h"
#include "data/registry_checks.h"
#include "data/validators.h"

namespace blis::data {

ValidatorTable standard_validators() {
  ValidatorTable t;
  for (const blis::doc::KindInfo& k : blis::doc::kinds()) {
    const blis::doc::KindInfo* kind = &k;
    t.set_kind_validator(std::string(k.name), [kind](const LoadedFile& f, Diagnostics& d) {
      blis::doc::Diagnostics found(f.path);
      blis::doc::check_text(*kind, f.bytes, f.path, found);
      for (const auto& x : found.list())
        d.error(f, x.mark.line, x.mark.col, x.field.empty() ? x.cause : x.field + ": " + x.cause);
    });
  }
  add_builtin_cross_checks(t);
  t.add_cross_check("citations", check_citations);
  add_registry_checks(t);
  return t;
}

}  // namespace blis::data
