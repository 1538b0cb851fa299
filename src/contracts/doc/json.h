// A located tree as JSON: plain scalars take the type YAML 1.2's core schema gives them.
#pragma once

#include <nlohmann/json.hpp>

#include "contracts/doc/node.h"

namespace blis::doc {

nlohmann::ordered_json to_json(const Node& n);

}  // namespace blis::doc
