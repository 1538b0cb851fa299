// `blis price` and `blis price-diff`: a StepEstimate with its provenance for a plan and a step given as
// documents (schemas/plan/pool-plan.yaml, step-shape.yaml), and the price-change report between two
// registries.
#pragma once

#include <span>
#include <string_view>

namespace blis::cli {

int price_main(std::span<const std::string_view> args);
int price_diff_main(std::span<const std::string_view> args);

}  // namespace blis::cli
