#include "contracts/doc/json.h"

#include <charconv>
#include <string>

#include "contracts/doc/scalars.h"

namespace blis::doc {

nlohmann::ordered_json to_json(const Node& n) {
  switch (n.kind) {
    case Kind::Null: return nullptr;
    case Kind::Sequence: {
      auto a = nlohmann::ordered_json::array();
      for (const auto& x : n.items) a.push_back(to_json(x));
      return a;
    }
    case Kind::Map: {
      auto o = nlohmann::ordered_json::object();
      for (const auto& [k, v] : n.entries) o[k.scalar] = to_json(v);
      return o;
    }
    case Kind::Scalar: break;
  }
  if (n.style == Style::Quoted) return n.scalar;
  const std::string t = plain_type(n.scalar);
  if (t == "null") return nullptr;
  if (t == "bool") return n.scalar == "true" || n.scalar == "True" || n.scalar == "TRUE";
  const char* first = n.scalar.data() + (n.scalar[0] == '+' ? 1 : 0);
  const char* last = n.scalar.data() + n.scalar.size();
  if (t == "int") {
    std::int64_t i = 0;
    if (std::from_chars(first, last, i).ec == std::errc{}) return i;
  }
  if (t == "float" || t == "int") {
    double x = 0;
    if (std::from_chars(first, last, x).ec == std::errc{}) return x;
  }
  return n.scalar;  // 0x1F, .inf and the like stay as written
}

}  // namespace blis::doc
