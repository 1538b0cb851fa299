// `blis validate` and `blis catalog`: the data in use (embedded, or a path, plus overlays), checked by
// every validator and cross-check, listed and resolved by name.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "data/data_set.h"
#include "data/loader.h"

namespace blis::cli {

// The data flags every data-reading command takes, for its usage text.
extern const std::string_view kDataFlags;

// Parses the data flags out of args; the rest is returned in `rest`. Returns false after printing a
// usage error.
bool data_flags(std::span<const std::string_view> args, data::LoadOptions& o, std::vector<std::string_view>& rest);

// Loads the data the flags and the environment name; prints every diagnostic and returns nothing when refused.
std::optional<data::DataSet> load(const data::LoadOptions& flags);

int validate_main(std::span<const std::string_view> args);
int catalog_main(std::span<const std::string_view> args);

}  // namespace blis::cli
