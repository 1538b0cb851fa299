// `blis validate` and `blis catalog`: the data in use (embedded, or a path, plus overlays), checked by
// every validator and cross-check, listed and resolved by name.
#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

int validate_main(std::span<const std::string_view> args);
int catalog_main(std::span<const std::string_view> args);

}  // namespace blis::cli
