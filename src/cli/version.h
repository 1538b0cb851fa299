#pragma once

#include <string>

namespace blis::cli {

// "key<TAB>value" lines for every version in versions.yaml (generated into the build directory).
std::string version_text();

}  // namespace blis::cli
