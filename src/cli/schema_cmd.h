// `blis schema`: the document schemas compiled into this build, and checking documents against them.
#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

int schema_main(std::span<const std::string_view> args);

}  // namespace blis::cli
