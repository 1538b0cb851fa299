#include "contracts/doc/diagnostics.h"

#include <algorithm>

namespace blis::doc {

const Node* Node::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k.scalar == key) return &v;
  return nullptr;
}

const char* kind_name(const Node& n) {
  switch (n.kind) {
    case Kind::Null: return "null";
    case Kind::Scalar: return n.style == Style::Quoted ? "a string" : "a scalar";
    case Kind::Sequence: return "a list";
    case Kind::Map: return "a mapping";
  }
  return "?";
}

std::string Diagnostic::str() const {
  std::string s = file.empty() ? std::string("<input>") : file;
  if (mark.line > 0) s += ":" + std::to_string(mark.line) + ":" + std::to_string(mark.col);
  s += ": ";
  if (!field.empty()) s += field + ": ";
  return s + cause;
}

void Diagnostics::add(Mark at, std::string field, std::string cause) {
  list_.push_back(Diagnostic{file_, at, std::move(field), std::move(cause)});
}

std::string Diagnostics::str() const {
  std::string out;
  for (const auto& d : list_) out += d.str() + "\n";
  return out;
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0U : 1U)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string nearest(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string best;
  std::size_t best_d = 0;
  for (auto c : candidates) {
    const std::size_t d = edit_distance(word, c);
    // Close means at most a third of the longer word changed (difflib's 0.6 ratio, roughly).
    if (d * 3 > std::max(word.size(), c.size())) continue;
    if (best.empty() || d < best_d) {
      best = std::string(c);
      best_d = d;
    }
  }
  return best;
}

}  // namespace blis::doc
