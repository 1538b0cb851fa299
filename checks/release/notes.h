// Release notes, generated and never typed (LIF-4): what changed in the invariant registry since the
// previous tag, with the commit and the tag's own registry counts.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "registry_json.h"

namespace blis::release {

std::string release_notes(const std::string& tag, const std::string& commit,
                          const std::optional<std::string>& previous_tag,
                          const std::map<std::string, RecordRef>& before,
                          const std::map<std::string, RecordRef>& after);

}  // namespace blis::release
