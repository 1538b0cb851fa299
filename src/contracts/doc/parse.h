// Strict parsing of YAML and JSON text into located trees (SUB-12).
//
// Refused here, for every document: invalid UTF-8, YAML syntax errors, duplicate keys, keys that are
// not scalars, explicit tags, recursive aliases, and (for .json) anything that is not strict JSON.
// Aliases that are not recursive are expanded and remembered, so a schema that refuses aliases can
// name where one was used.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/node.h"

namespace blis::doc {

enum class Syntax { Yaml, Json };

struct Parsed {
  std::vector<Node> documents;
  std::vector<Mark> aliases;  // where each alias was used, in order
};

// Parses every document of `text`. On a refusal the diagnostics say why and the result is partial.
Parsed parse(std::string_view text, Syntax syntax, Diagnostics& diags);

// .json files are JSON; everything else is YAML.
Syntax syntax_of(std::string_view path);

}  // namespace blis::doc
