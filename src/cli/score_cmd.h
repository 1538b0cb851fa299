// `blis score --points FILE`: measured vLLM points scored against their simulations (src/score/).
#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

int score_main(std::span<const std::string_view> args);

}  // namespace blis::cli
