#include "score/grade.h"

#include "score/convert.h"

#include <stdexcept>

namespace blis::score {
namespace {

// The release an image tag of the backend's repository names: "vllm/vllm-openai:v0.19.0-cu130" -> "0.19.0",
// "lmsysorg/sglang:v0.5.9-cu130-amd64" -> "0.5.9", "vllm/vllm-openai:nightly-<commit>" -> "nightly-<commit>",
// "lmsysorg/sglang:nightly-dev-20260216-d3bae71e" -> itself; none for another image.
std::optional<std::string> release_of_image(const std::string& image, const Backend& b) {
  const std::string repo = b.image_repo;
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
  const Backend* backend = backend_of(p.backend);
  if (backend == nullptr) throw std::invalid_argument("grade: point " + p.id + " is a " + p.backend + " point; this build ports vllm and sglang");
  const Backend& b = *backend;
  const std::string ported = b.release;
  std::optional<std::string> image;
  for (const auto& item : p.source_items) {
    if (release_of_image(item, b)) image = item;
  }
  if (const auto it = p.source_fields.find("image"); it != p.source_fields.end() && release_of_image(it->second, b)) {
    image = it->second;
  }
  const std::optional<std::string> from_image = image ? release_of_image(*image, b) : std::nullopt;
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
    g.detail = "engine build not recorded (backend_version empty, no " + std::string(b.display) +
               " image in silicon_data_source): simulated on " + ported + "; nothing closer than G4 can be decided";
  } else if (g.release == ported) {
    g.grade = "G2";
    g.detail = "run on " + ported + ", the release this build runs; estimates named";
  } else if (g.release.starts_with("nightly")) {
    g.grade = "G4";
    g.detail = "nightly build " + (image ? *image : g.release) + ": simulated on " + ported;
  } else {
    g.grade = "G4";
    g.detail = "run on " + std::string(b.display) + " " + g.release + ", simulated on " + ported +
               ": ported-function diff between " + g.release + " and " + ported + " not computed";
  }
  return g;
}

}  // namespace blis::score
