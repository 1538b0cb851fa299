// The build a Result names (§3.3, X8): this repository's version and commit, whether the tree differed from
// the commit, the upstream releases it runs and the toolchain, all from versions.yaml and the checkout.
#pragma once

#include <string_view>

#include "schema/result.h"

namespace blis::cli {

// "<40 hex> <0|1>", written at build time (gen/build_commit.py).
std::string_view build_commit_line();

// The Result's build record: kind unreleased (the release tool is what makes a release build).
schema::ResultBuild build_record();

}  // namespace blis::cli
