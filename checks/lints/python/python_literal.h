// Original to BLIS: a small reader of Python literal text for the field-list generator (VLM-3).
// A Python literal's source text as a located document value (VLM-3): the field-list generator states a
// declared upstream default in the upstream's own type. Strings become quoted scalars, numbers and
// booleans plain scalars, None null, lists, tuples and sets sequences, dicts maps.
#pragma once

#include <optional>
#include <string_view>

#include "contracts/doc/node.h"

namespace blis::pyread {

// The value of a literal the tree-sitter reader classed as one (pyread::LiteralKind), or nullopt when the
// text holds something this small reader does not know (then the default is reported as computed).
std::optional<doc::Node> python_literal(std::string_view text);

}  // namespace blis::pyread
