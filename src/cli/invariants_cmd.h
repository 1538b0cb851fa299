#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

// `blis invariants ...`; returns the process exit status.
int invariants_main(std::span<const std::string_view> args);

}  // namespace blis::cli
