// Checks of the three plan documents (pool-plan, step-shape, transfer-move) over their JSON Schema and
// over the generated C++ types: SUB-1 (every field optional but a short essential list; an absent field
// reads as absent; a default value round-trips), SUB-16 (every number has a unit, or is an index on a
// short list with its reason), X2 (no engine word in a field name or enum value) and the field walk (the
// generated for_each_field reaches exactly the fields the schema lists). Each check returns findings,
// one line each; no finding means the check passed. plan_schema_check.cpp runs them from the records;
// contracts_test.cpp shows each one failing on a bad input.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace blis::plan_checks {

using Findings = std::vector<std::string>;

// The three kinds, in the order the checks report them.
const std::vector<std::string>& plan_kinds();

// One field of a kind, as its JSON Schema states it.
struct Field {
  std::string path;      // "layers[].kernel.library": lists as [], map values as {}
  std::string identity;  // the field where it is defined: "KernelImpl.library", or "pool-plan.chip" at the root
  bool required = false;
  bool one_of = false;   // an alternative of an object whose fields are exclusive (exactly one present)
  bool leaf = false;     // it holds no object at any depth
  std::string type;      // the innermost JSON type: integer, number, string, boolean, object, or enum
  std::string unit;      // x-unit of an innermost integer or number, else ""
  std::vector<std::string> values;  // an innermost enum's values
};

// Every field of a JSON Schema document, depth first in schema order. Refs resolve through $defs.
std::vector<Field> fields_of(const nlohmann::json& schema);

// A field walk's path in the schema's spelling: list indices as [], map keys (fill_all's "{}") as {}.
std::string normalize(const std::string& path);

// Every $defs name, property name and enum value of a JSON Schema document (what X2 reads).
std::vector<std::string> names_of(const nlohmann::json& schema);

// Reads <dir>/<kind>.json for each plan kind; a missing or unreadable file is a finding.
std::map<std::string, nlohmann::json> read_schema_dir(const std::filesystem::path& dir, Findings& findings);

// The compiled JSON Schema of a kind (the kinds table blis-gen generates).
nlohmann::json compiled_schema(const std::string& kind);

// SUB-1: required fields are exactly the essential list (each entry with its reason).
Findings check_required(const std::map<std::string, nlohmann::json>& schemas);

// SUB-16: every integer or number states a unit, or is an index on the list (each entry with its reason).
Findings check_units(const std::map<std::string, nlohmann::json>& schemas);

// X2: no name of the schemas holds a word of the engine-word list (root: the repository, for the list).
Findings check_words(const std::map<std::string, nlohmann::json>& schemas, const std::filesystem::path& root);

// The field walk of the generated types reaches exactly the fields each schema lists.
Findings check_walk(const std::map<std::string, nlohmann::json>& schemas);

// SUB-1 on the generated types: every leaf field is set in some example of its kind (<examples>/<kind>/,
// full.yaml first), and removing it there leaves a document that loads with that field absent and nothing
// else changed (or, for a required field or the only alternative of a one_of object, one refused naming
// it); a default-constructed value writes {}, validates and reads back as itself.
Findings check_absent_fields(const std::filesystem::path& examples);

// The essential list and the index list, for the tests.
const std::map<std::string, std::string>& essential_fields();
const std::map<std::string, std::string>& index_fields();

}  // namespace blis::plan_checks
