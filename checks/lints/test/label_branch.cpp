// lint-path: src/cost/label_branch_fixture.cpp
// Fixture of blis-label-branch (SUB-20): comparisons, searches, lookups and switches on a blis::Label
// (the generated type of a schema field marked `label: true`) are flagged, however the label is held;
// printing, copying, hashing, presence tests and the same operations on ordinary strings are not.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/label.h"

namespace fixture {

using Note = blis::Label;  // an alias of the alias is still a label

struct Doc {  // as blis-gen declares a schema object
  std::string name;                          // resolved by: not a label
  blis::Label title;                         // label: true, required
  std::optional<blis::Label> description{};  // label: true, optional
  std::vector<blis::Label> remarks{};        // a list of labels
};

int compare(const Doc& d, const blis::Label& role, const std::map<std::string, int>& by_text) {
  int n = 0;
  if (d.title == "Hopper") ++n;                         // expect: comparison on a documentation-only label
  if (d.title != d.name) ++n;                           // expect: comparison on a documentation-only label
  if (d.title < d.name) ++n;                            // expect: comparison on a documentation-only label
  if ((d.title <=> d.name) > 0) ++n;                    // expect: comparison on a documentation-only label
  if (*d.description == "shared expert") ++n;           // expect: comparison on a documentation-only label
  if (d.description.value() == "routed") ++n;           // expect: comparison on a documentation-only label
  if (d.description->starts_with("moe")) ++n;           // expect: comparison on a documentation-only label
  if (role.ends_with("cache")) ++n;                     // expect: comparison on a documentation-only label
  if (role.find("kv") != std::string::npos) ++n;        // expect: comparison on a documentation-only label
  if (role.rfind("draft", 0) == 0) ++n;                 // expect: comparison on a documentation-only label
  if (role.compare("x") == 0) ++n;                      // expect: comparison on a documentation-only label
  if (std::strcmp(role.c_str(), "attn") == 0) ++n;      // expect: comparison on a documentation-only label
  if (std::string_view(role) == "rope") ++n;            // expect: comparison on a documentation-only label
  if (d.name.starts_with(d.title)) ++n;                 // expect: comparison on a documentation-only label
  if (std::equal_to<>{}(d.title, d.name)) ++n;          // expect: comparison on a documentation-only label
  if (role[0] == 'k') ++n;                              // expect: comparison on a documentation-only label
  const std::string& held = d.title;
  if (held == "held") ++n;                              // expect: comparison on a documentation-only label
  auto copied = d.description.value_or("");
  if (copied == "copied") ++n;                          // expect: comparison on a documentation-only label
  for (const auto& r : d.remarks)
    if (r == "remark") ++n;                             // expect: comparison on a documentation-only label
  if (d.remarks.front() == "first") ++n;                // expect: comparison on a documentation-only label
  const Note& note = d.title;
  if (note == "aliased") ++n;                           // expect: comparison on a documentation-only label
  n += by_text.at(d.title);                             // expect: a documentation-only label used as a lookup key
  if (by_text.find(*d.description) != by_text.end()) ++n;  // expect: a documentation-only label used as a lookup key
  auto it = std::find(d.remarks.begin(), d.remarks.end(), d.name);  // expect: comparison on a documentation-only label
  if (it != d.remarks.end()) ++n;                       // near-miss: comparing iterators
  switch (d.title.size() > 3 ? d.title[0] : ' ') {      // expect: switch on a documentation-only label
    case 'a': ++n; break;
    default: break;
  }
  return n;
}

int near_misses(const Doc& d, std::map<std::string, int>& counts, const std::string& kind) {
  int n = 0;
  std::printf("%s\n", d.title.c_str());                 // near-miss: printing a label
  std::string copy = d.title;                           // near-miss: copying a label
  if (d.name == "H100-SXM") ++n;                        // near-miss: a name the loader resolves by is no label
  if (kind.starts_with("attention")) ++n;               // near-miss: an ordinary string parameter
  if (d.description.has_value()) ++n;                   // near-miss: presence is not a comparison
  if (d.title.empty()) ++n;                             // near-miss: emptiness is not a comparison
  n += static_cast<int>(std::hash<std::string>{}(d.title) % 2);  // near-miss: hashing the text
  counts[d.name] += 1;                                  // near-miss: an ordinary key
  std::vector<std::string> names = {d.name};
  if (std::find(names.begin(), names.end(), kind) != names.end()) ++n;  // near-miss: searching ordinary strings
  n += static_cast<int>(d.remarks.size() + copy.size());  // near-miss: counting labels
  return n;
}

}  // namespace fixture
