#include "data/patterns.h"

#include <algorithm>

#include "data/embedded.h"

namespace blis::data {
namespace {

std::string_view first_segment(std::string_view path) { return path.substr(0, path.find('/')); }

bool match_segment(std::string_view pat, std::string_view seg) {
  const auto star = pat.find('*');
  if (star == std::string_view::npos) return pat == seg;
  const std::string_view prefix = pat.substr(0, star);
  const std::string_view suffix = pat.substr(star + 1);
  return seg.size() > prefix.size() + suffix.size() && seg.starts_with(prefix) && seg.ends_with(suffix);
}

}  // namespace

std::string_view tree_name(Tree t) {
  switch (t) {
    case Tree::catalog:
      return "catalog";
    case Tree::registry:
      return "registry";
    case Tree::ledger:
      return "ledger";
  }
  return "?";
}

std::string_view overlay_identity_name(OverlayIdentity o) {
  switch (o) {
    case OverlayIdentity::file:
      return "file";
    case OverlayIdentity::directory:
      return "directory";
    case OverlayIdentity::coefficient:
      return "coefficient";
    case OverlayIdentity::none:
      return "none";
  }
  return "?";
}

bool glob_match(std::string_view pattern, std::string_view path) {
  while (true) {
    const auto pp = pattern.find('/');
    const auto xp = path.find('/');
    if ((pp == std::string_view::npos) != (xp == std::string_view::npos)) return false;
    if (!match_segment(pattern.substr(0, pp), path.substr(0, xp))) return false;
    if (pp == std::string_view::npos) return true;
    pattern.remove_prefix(pp + 1);
    path.remove_prefix(xp + 1);
  }
}

PatternTable::PatternTable(std::span<const PatternRow> rows, std::span<const IgnoredRow> ignored)
    : rows_(rows), ignored_(ignored) {}

const PatternTable& PatternTable::compiled() {
  static const PatternTable table(generated::pattern_rows(), generated::ignored_rows());
  return table;
}

bool PatternTable::is_data_directory(Tree tree, std::string_view name) const {
  return std::any_of(rows_.begin(), rows_.end(), [&](const PatternRow& r) {
    return r.tree == tree && r.pattern.find('/') != std::string_view::npos && first_segment(r.pattern) == name;
  });
}

Classification PatternTable::classify(Tree tree, std::string_view path) const {
  using W = Classification::What;
  if (path.find('/') == std::string_view::npos) {
    for (const auto& r : rows_) {
      if (r.tree == tree && glob_match(r.pattern, path)) return {W::data, &r};
    }
    return {W::outside, nullptr};
  }
  if (!is_data_directory(tree, first_segment(path))) return {W::outside, nullptr};
  for (const auto& i : ignored_) {
    if (i.tree == tree && glob_match(i.pattern, path)) return {W::ignored, nullptr};
  }
  for (const auto& r : rows_) {
    if (r.tree == tree && glob_match(r.pattern, path)) return {W::data, &r};
  }
  return {W::unmatched, nullptr};
}

std::string PatternTable::patterns_under(Tree tree, std::string_view directory) const {
  std::string out;
  for (const auto& r : rows_) {
    if (r.tree != tree || r.pattern.find('/') == std::string_view::npos || first_segment(r.pattern) != directory) {
      continue;
    }
    if (!out.empty()) out += ", ";
    out += r.pattern;
  }
  return out;
}

std::vector<std::string_view> PatternTable::kinds(Tree tree) const {
  std::vector<std::string_view> out;
  for (const auto& r : rows_) {
    if (r.tree == tree && std::find(out.begin(), out.end(), r.kind) == out.end()) out.push_back(r.kind);
  }
  return out;
}

}  // namespace blis::data
