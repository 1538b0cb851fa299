#include "score/grade.h"

#include "score/convert.h"

namespace blis::score {
namespace {

// The release an image tag names: "vllm/vllm-openai:v0.19.0-cu130" -> "0.19.0",
// "vllm/vllm-openai:nightly-<commit>" -> "nightly-<commit>"; none for another image.
std::optional<std::string> release_of_image(const std::string& image) {
  const std::string repo = "vllm/vllm-openai:";
  if (!image.starts_with(repo)) return std::nullopt;
  std::string tag = image.substr(repo.size());
  if (tag.starts_with("nightly")) return tag;
  if (!tag.starts_with("v")) return std::nullopt;
  tag = tag.substr(1);
  const auto dash = tag.find('-');
  return dash == std::string::npos ? tag : tag.substr(0, dash);
}

}  // namespace

Grade grade(const Point& p) {
  std::optional<std::string> image;
  for (const auto& item : p.source_items) {
    if (release_of_image(item)) image = item;
  }
  if (const auto it = p.source_fields.find("image"); it != p.source_fields.end() && release_of_image(it->second)) {
    image = it->second;
  }
  const std::optional<std::string> from_image = image ? release_of_image(*image) : std::nullopt;
  Grade g;
  g.release = p.backend_version;
  if (from_image) {
    // A nightly's backend_version abbreviates the commit the image names in full.
    const bool same = p.backend_version.empty() || *from_image == p.backend_version ||
                      (p.backend_version.starts_with("nightly-") && from_image->starts_with(p.backend_version));
    if (!same) {
      g.not_scored = NotScored{Reason::value_conflict, "engine release: backend_version is " + p.backend_version +
                                                           " and silicon_data_source names the image " + *image};
      return g;
    }
    if (p.backend_version.empty()) g.release = *from_image;
  }
  if (g.release.empty()) {
    g.release = "unrecorded";
    g.grade = "G4";
    g.detail = "engine build not recorded (backend_version empty, no vLLM image in silicon_data_source): simulated on "
               "0.27.1; nothing closer than G4 can be decided";
  } else if (g.release == kEngineRelease) {
    g.grade = "G2";
    g.detail = "run on 0.27.1, the release this build runs; estimates named";
  } else if (g.release.starts_with("nightly")) {
    g.grade = "G4";
    g.detail = "nightly build " + (image ? *image : g.release) + ": simulated on 0.27.1";
  } else {
    g.grade = "G4";
    g.detail = "run on vLLM " + g.release + ", simulated on 0.27.1: ported-function diff between " + g.release +
               " and 0.27.1 not computed";
  }
  return g;
}

}  // namespace blis::score
