// A scored point's grade (design §11.3, §11.5): the engine release the run used against the one this build
// runs (the release engines/vllm or engines/sglang ports, by the point's backend). Every scored point names estimates (convert.h), so a run on that release is G2, never G1.
// A run on another release is G3 when none of the upstream functions the port ports changed between the
// two releases, else G4; no function-level diff exists yet, so such a point is G4 and says so. A nightly
// or custom build is G4 naming the build. A run whose build is not recorded at all is G4 too: nothing
// closer can be decided from the data (§11.3), and it says so.
//
// The release is read from backend_version and from the engine's image named in silicon_data_source
// (vllm/vllm-openai:v<release>[-suffix] or :nightly-<commit>; lmsysorg/sglang:v<release>[-suffix] or
// :nightly-dev-<date>-<commit>); when both state a release and they differ the point is G5 value_conflict.
#pragma once

#include <optional>
#include <string>

#include "score/points.h"
#include "score/reasons.h"

namespace blis::score {

struct Grade {
  std::string grade;    // G2, G3 or G4
  std::string release;  // the run's engine release as recorded ("nightly-<commit>", or "unrecorded")
  std::string detail;   // what makes it this grade
  std::optional<NotScored> not_scored;  // value_conflict: no grade
};

Grade grade(const Point& point);

}  // namespace blis::score
