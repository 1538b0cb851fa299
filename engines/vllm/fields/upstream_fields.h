// Original to BLIS: the field-list generator's reader of the pinned vLLM tree (VLM-3); it ports no upstream code.
// The configuration fields and environment variables of a pinned vLLM source tree (VLM-3), read with the
// project's tree-sitter Python reader (checks/lints/python/reader.h, X19). No classification here: the
// generator merges statuses.yaml onto what this finds.
//
// Arguments: every field of EngineArgs and AsyncEngineArgs (vllm/engine/arg_utils.py), named by its CLI
// flag, grouped by the config class add_cli_args takes its argparse kwargs from (get_kwargs(XConfig)) or
// its default names (XConfig.x, get_field(XConfig, "x")); and every init field of a config dataclass an
// argument holds (--compilation-config, --speculative-config, ...), named `<flag>.<field>`, recursively.
// Environment variables: the keys of vllm/envs.py's environment_variables and its TYPE_CHECKING
// declarations, and every name a getenv / environ.get call anywhere under vllm/ reads as a literal.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "contracts/doc/node.h"

namespace blis::vllm::fields {

struct UpstreamDefault {
  bool computed = false;
  std::string at;    // computed: path@commit8:line
  doc::Node value;   // a declared literal (Null: None, or no default)
};

struct UpstreamField {
  std::string name;        // CLI name (dashes), `<flag>.<field>`, or the variable's name
  std::string kind;        // "argument" | "environment_variable"
  std::string group;       // the config class or argument group; "" for a variable
  std::string value_type;  // as written, whitespace collapsed
  UpstreamDefault upstream_default;
  std::set<std::string> read_at;  // path@commit8[:line]
  std::string py_name;            // the attribute or variable name the source reads it by
};

// Reads the tree under `checkout` (which holds vllm/). `commit` is the pin (40 hex digits); paths cite
// its first 8. Throws std::runtime_error when an expected file or class is missing.
std::vector<UpstreamField> read_upstream(const std::filesystem::path& checkout, const std::string& commit);

}  // namespace blis::vllm::fields
