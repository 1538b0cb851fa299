// `blis compare BASELINE CANDIDATE` (design §8.8, DEV-11): runs two scenario files on common random numbers
// (the same seed, the same number of replications) and says, for each cluster-scope metric both report,
// whether the candidate is better, worse or not distinguished, with the chance of any false claim across
// all the metrics held at 1 - the family confidence (Holm's procedure unless told otherwise). Written
// against a Runtime like `blis run`, so the conformance runner runs the same command code.
#pragma once

#include <span>
#include <string_view>

#include "cli/run_cmd.h"

namespace blis::cli {

int compare_main(std::span<const std::string_view> args, const Runtime& runtime);

}  // namespace blis::cli
