#include "data/validators.h"

namespace blis::data {

void ValidatorTable::set_kind_validator(std::string kind, KindValidator v) { kinds_[std::move(kind)] = std::move(v); }

void ValidatorTable::add_cross_check(std::string name, CrossCheck c) { cross_[std::move(name)] = std::move(c); }

const KindValidator* ValidatorTable::kind_validator(std::string_view kind) const {
  const auto it = kinds_.find(kind);
  return it == kinds_.end() ? nullptr : &it->second;
}

std::vector<std::string> ValidatorTable::missing_kinds(const PatternTable& table) const {
  std::vector<std::string> out;
  for (Tree t : {Tree::catalog, Tree::registry}) {
    for (auto k : table.kinds(t)) {
      if (kind_validator(k) == nullptr) out.emplace_back(k);
    }
  }
  return out;
}

}  // namespace blis::data
