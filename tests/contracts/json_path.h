// Field paths as the readers and the field walk spell them ("layers[2].kernel.library", a map value as
// "field.key"), resolved in a JSON value: for the contract tests, which remove or compare one field.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace blis::plan_checks {

using PathStep = std::variant<std::string, std::size_t>;

// "a.b[2].c" -> a, b, 2, c. A key holding '.' or '[' cannot be spelled (the plan schemas have no maps).
inline std::vector<PathStep> split_path(const std::string& path) {
  std::vector<PathStep> out;
  std::string key;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '.') {
      if (!key.empty()) out.emplace_back(key);
      key.clear();
    } else if (c == '[') {
      if (!key.empty()) out.emplace_back(key);
      key.clear();
      const std::size_t close = path.find(']', i);
      out.emplace_back(static_cast<std::size_t>(std::stoull(path.substr(i + 1, close - i - 1))));
      i = close;
    } else {
      key += c;
    }
  }
  if (!key.empty()) out.emplace_back(key);
  return out;
}

// The value at a path, or nullptr when the path does not lead to one.
template <class J>
J* json_at(J& root, const std::string& path) {
  J* at = &root;
  for (const PathStep& s : split_path(path)) {
    if (const auto* key = std::get_if<std::string>(&s)) {
      if (!at->is_object() || !at->contains(*key)) return nullptr;
      at = &(*at)[*key];
    } else {
      const std::size_t i = std::get<std::size_t>(s);
      if (!at->is_array() || i >= at->size()) return nullptr;
      at = &(*at)[i];
    }
  }
  return at;
}

// Removes the field a path ends in (its last step is a key); false when there is none.
template <class J>
bool erase_at(J& root, const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::string parent = dot == std::string::npos ? std::string() : path.substr(0, dot);
  const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
  if (key.empty() || key.find('[') != std::string::npos) return false;
  J* p = parent.empty() ? &root : json_at(root, parent);
  if (p == nullptr || !p->is_object() || !p->contains(key)) return false;
  p->erase(key);
  return true;
}

}  // namespace blis::plan_checks
