// The invariant registry as a tree records it in docs/invariants.json (generated, checked fresh by X7).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace blis::release {

struct CheckRef {
  std::string name, target, status, runner;
};

struct RecordRef {
  std::string id, status;
  std::vector<CheckRef> checks;
};

// Records by ID (sorted); throws std::runtime_error naming the file on malformed JSON.
std::map<std::string, RecordRef> parse_registry(const std::string& json_text, const std::string& where);

}  // namespace blis::release
