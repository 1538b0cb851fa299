// The document kinds blis-gen compiled from schemas/, and loading a text as one of them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/node.h"
#include "contracts/doc/parse.h"

namespace blis::doc {

struct KindInfo {
  std::string_view name;         // e.g. "chip", "scenario"
  std::string_view source;       // the schema file, e.g. "schemas/catalog/chip.yaml"
  std::string_view doc;          // the schema's one-line description
  bool aliases_allowed;          // YAML anchors and aliases (refused unless the schema allows them)
  std::string_view json_schema;  // the committed schemas/json/<name>.json text
  bool (*check)(const Node& n, Diagnostics& d);  // reads n as this kind, refusing what breaks the schema
  // Reads n and writes the typed value back as JSON: equal to n unless a declared field was dropped.
  bool (*round_trip)(const Node& n, Diagnostics& d, nlohmann::ordered_json& out);
};

// Every kind, in name order (generated).
std::span<const KindInfo> kinds();
const KindInfo* find_kind(std::string_view name);

// Parses text as documents of one kind: syntax by the path's extension, exactly one document unless
// `multi`, aliases refused unless the kind allows them. Returns the parsed documents, or nullopt after
// adding diagnostics. The caller reads them with the kind's typed read().
std::optional<Parsed> parse_as(const KindInfo& kind, std::string_view text, std::string_view path, Diagnostics& d,
                               bool multi = false);

// Refuses (returns false) when parsed used an alias and kind does not allow them.
bool aliases_allowed_here(const KindInfo& kind, const Parsed& parsed, Diagnostics& d);

// parse_as, then check every document.
bool check_text(const KindInfo& kind, std::string_view text, std::string_view path, Diagnostics& d,
                bool multi = false);

// Loads one document of kind T (the generated load_<kind> functions call this).
template <class T>
std::optional<T> load_as(std::string_view kind_name, std::string_view text, std::string_view path, Diagnostics& d) {
  const KindInfo* kind = find_kind(kind_name);
  if (kind == nullptr) {
    d.add(Mark{}, "", "no document kind '" + std::string(kind_name) + "'");
    return std::nullopt;
  }
  auto parsed = parse_as(*kind, text, path, d);
  if (!parsed) return std::nullopt;
  T out;
  if (!read(parsed->documents.front(), "", d, out)) return std::nullopt;
  return out;
}

}  // namespace blis::doc
