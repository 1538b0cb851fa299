#include "invariants/query.h"

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace blis::invariants {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 5> kStatuses = {"ci", "partial", "new", "review", "practice"};

Json text_or_null(std::string_view s) { return s.empty() ? Json(nullptr) : Json(std::string(s)); }

Json strings(std::span<const std::string_view> xs) {
  Json a = Json::array();
  for (auto x : xs) a.push_back(std::string(x));
  return a;
}

Json check_json(const Check& c) {
  Json j;
  j["name"] = c.name;
  j["runs"] = c.runs;
  j["target"] = c.target;
  j["status"] = c.status;
  j["command"] = c.command.empty() ? Json(nullptr) : strings(c.command);
  j["input"] = c.input;
  j["known_bad"] = text_or_null(c.known_bad);
  j["expect"] = text_or_null(c.expect);
  j["runner"] = c.runner;
  return j;
}

Json record_json(const Invariant& r) {
  Json j;
  j["id"] = r.id;
  j["family"] = r.family;
  j["title"] = r.title;
  j["section"] = r.section;
  j["statement"] = r.statement;
  j["applies_to"] = strings(r.applies_to);
  j["kind"] = strings(r.kind);
  j["checks"] = Json::array();
  for (const auto& c : r.checks) j["checks"].push_back(check_json(c));
  if (r.review != nullptr) {
    j["review"] = {{"question", r.review->question},
                   {"expertise", r.review->expertise},
                   {"applies_when", r.review->applies_when}};
  } else {
    j["review"] = nullptr;
  }
  j["status"] = r.status;
  if (r.cpp_counterpart != nullptr) {
    j["cpp_counterpart"] = {{"design", r.cpp_counterpart->design}, {"here", r.cpp_counterpart->here}};
  } else {
    j["cpp_counterpart"] = nullptr;
  }
  j["not_applicable"] = text_or_null(r.not_applicable);
  j["gaps"] = strings(r.gaps);
  j["trigger"] = text_or_null(r.trigger);
  j["undefined"] = text_or_null(r.undefined);
  return j;
}

}  // namespace

std::vector<const Invariant*> select(std::span<const Invariant> all, const Filter& f) {
  std::vector<const Invariant*> out;
  for (const auto& r : all) {
    if (!f.status.empty() && r.status != f.status) continue;
    if (!f.family.empty() && r.family != f.family) continue;
    if (!f.id.empty() && r.id != f.id) continue;
    out.push_back(&r);
  }
  return out;
}

std::string to_json(std::span<const Invariant* const> rows) {
  Json doc;
  doc["invariants"] = Json::array();
  for (const auto* r : rows) doc["invariants"].push_back(record_json(*r));
  return doc.dump(2) + "\n";
}

std::string to_text(std::span<const Invariant* const> rows) {
  std::ostringstream out;
  for (const auto* r : rows) {
    out << r->id << "\t" << r->status << "\t";
    for (std::size_t i = 0; i < r->kind.size(); ++i) out << (i ? "," : "") << r->kind[i];
    out << "\t" << r->title << "\n";
  }
  return out.str();
}

StatusReport status(std::span<const Invariant> all) {
  // Families in the table's order (it is sorted by identifier); a map would reorder them.
  std::vector<std::string_view> families;
  std::map<std::pair<std::string_view, std::string_view>, int> counts;
  StatusReport rep;
  std::ostringstream problems;
  for (const auto& r : all) {
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
    ++counts[{r.family, r.status}];
    if (r.status != "ci" && r.status != "partial") continue;
    for (const auto& c : r.checks) {
      if (c.status == "ci" && !c.in_build) {
        ++rep.problems;
        problems << r.id << ": claims " << r.status << " but its check '" << c.name << "' (" << c.target
                 << ") is missing from the build\n";
      }
    }
  }
  std::ostringstream out;
  out << "family";
  for (auto s : kStatuses) out << "\t" << s;
  out << "\ttotal\n";
  std::map<std::string_view, int> totals;
  for (auto fam : families) {
    out << fam;
    int sum = 0;
    for (auto s : kStatuses) {
      int n = counts[{fam, s}];
      out << "\t" << n;
      sum += n;
      totals[s] += n;
    }
    out << "\t" << sum << "\n";
  }
  out << "all";
  for (auto s : kStatuses) out << "\t" << totals[s];
  out << "\t" << all.size() << "\n";
  out << problems.str();
  rep.text = out.str();
  return rep;
}

}  // namespace blis::invariants
