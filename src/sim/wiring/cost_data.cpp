#include "sim/wiring/cost_data.h"

#include <map>
#include <memory>
#include <vector>

#include "data/scope_precedence.h"

namespace blis::sim {

cost::RegistryInput registry_input(const data::DataSet& ds) {
  cost::RegistryInput in;
  std::map<const data::LoadedFile*, std::size_t> doc_index;
  auto scopes = std::make_shared<std::vector<std::vector<data::ScopeItem>>>();
  for (const data::Coefficient& c : ds.coefficients) {
    auto [it, fresh] = doc_index.try_emplace(c.file.get(), in.documents.size());
    if (fresh) in.documents.push_back({c.file->location(), c.file->path, c.file->bytes});
    in.entries.push_back({it->second, c.entry, c.id.text(), c.location()});
    scopes->push_back(c.id.scope);
  }
  in.precedence = [scopes](std::size_t a, std::size_t b) {
    switch (data::compare_scopes((*scopes)[a], (*scopes)[b])) {
      case data::ScopeOrder::disjoint: return cost::ScopeOrder::disjoint;
      case data::ScopeOrder::first_wins: return cost::ScopeOrder::first_wins;
      case data::ScopeOrder::second_wins: return cost::ScopeOrder::second_wins;
      case data::ScopeOrder::unordered: return cost::ScopeOrder::unordered;
    }
    return cost::ScopeOrder::unordered;
  };
  return in;
}

cost::Coefficients coefficients(const data::DataSet& data) { return cost::Coefficients::read(registry_input(data)); }

}  // namespace blis::sim
