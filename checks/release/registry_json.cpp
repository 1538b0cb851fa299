#include "registry_json.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace blis::release {

std::map<std::string, RecordRef> parse_registry(const std::string& json_text, const std::string& where) {
  std::map<std::string, RecordRef> out;
  try {
    const auto doc = nlohmann::json::parse(json_text);
    for (const auto& r : doc.at("invariants")) {
      RecordRef rec{r.at("id").get<std::string>(), r.at("status").get<std::string>(), {}};
      for (const auto& c : r.at("checks")) {
        rec.checks.push_back({c.at("name").get<std::string>(), c.at("target").get<std::string>(),
                              c.at("status").get<std::string>(), c.value("runner", std::string("meson"))});
      }
      out.emplace(rec.id, std::move(rec));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(where + ": not a registry: " + e.what());
  }
  return out;
}

}  // namespace blis::release
