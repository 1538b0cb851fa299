// `blis fields`: an engine's field list (VLM-3), compiled in from the engine's fields.json.
#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

// blis fields vllm [--json]: one line per field (name, group, status, reason), or the JSON verbatim.
int fields_main(std::span<const std::string_view> args);

}  // namespace blis::cli
