// Original to BLIS: the field-list generator's reader of the pinned SGLang tree (SGL-3); it ports no upstream code.
// The configuration fields and environment variables of a pinned SGLang source tree (SGL-3, under VLM-3's
// rules), read with the project's tree-sitter Python reader (checks/lints/python/reader.h, X19). No
// classification here: the generator merges statuses.yaml onto what this finds.
//
// Arguments: every field of the ServerArgs dataclass (python/sglang/srt/server_args.py). At the pinned
// commit each field is declared `name: A[T, <help or Arg(...)>, NS("group")] = default`, and
// add_cli_args_from_dataclass (arg_groups/arg_utils.py) derives its flag: Arg's cli_name, else
// `--name-with-dashes`, plus Arg's aliases, none when Arg(no_cli=True). ServerArgs.add_cli_args then adds
// flags by hand (dynamic choices, deprecated aliases): a flag whose dest is a field is another flag of that
// field; a flag whose dest is no field (--config, removed flags) is listed as an argument of its own, group
// "add_cli_args". A field is named by its primary flag without the dashes, or, with no flag, by its
// attribute with dashes (vLLM's list does the same). The arg_groups/ modules declare no field at this
// commit: they hold resolution hooks that write ServerArgs fields.
// Environment variables: every EnvField descriptor of environ.py's Envs class (and the deprecated_name of
// an Env*WithAlias), every key of its _DEPRECATED_ENVS registry, and every name a getenv / environ.get
// call anywhere under python/sglang/srt/ reads as a literal.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "contracts/doc/node.h"

namespace blis::sglang::fields {

struct UpstreamDefault {
  bool computed = false;
  std::string at;   // computed: path@commit8:line
  doc::Node value;  // a declared literal (Null: None, or no default)
};

struct UpstreamField {
  std::string name;        // primary flag without "--", the attribute with dashes, or the variable's name
  std::string kind;        // "argument" | "environment_variable"
  std::string group;       // NS(...) path, "ServerArgs", "add_cli_args", or the Envs section / registry
  std::string value_type;  // as written, whitespace collapsed
  UpstreamDefault upstream_default;
  std::set<std::string> read_at;  // path@commit8[:line]
  std::string py_name;            // the attribute or variable name the source reads it by
  std::vector<std::string> flags; // every CLI option string that sets it (primary first); empty for a variable
  std::string help;               // the argparse help or the comment above a variable, when literal ("" if not)
  std::string declared_at;        // path@commit8:line of the declaration (or first read, for a getenv variable)
};

// Reads the tree under `checkout` (which holds python/sglang/srt/). `commit` is the pin (40 hex digits);
// paths cite its first 8. Throws std::runtime_error when an expected file or class is missing, or a key
// file does not parse.
std::vector<UpstreamField> read_upstream(const std::filesystem::path& checkout, const std::string& commit);

}  // namespace blis::sglang::fields
