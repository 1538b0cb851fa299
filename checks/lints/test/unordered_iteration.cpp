// lint-path: src/sim/event_fixture.cpp
// Fixture of blis-unordered-iteration (X6, RTR-6): every walk over a std::unordered_* container is
// flagged, whatever names or wraps it; lookups, size queries and a copy into a std::map/std::set are not.
#include <algorithm>
#include <iterator>
#include <map>
#include <memory_resource>
#include <numeric>
#include <ranges>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fixture {

using Index = std::unordered_map<std::string, int>;
struct Registry : std::unordered_set<int> {};
struct Pools {
  Index by_name;
  std::unordered_multimap<int, int> by_block;
};

int walks(const Index& idx, Pools& pools, const Registry& reg, const Pools* pp,
          std::pmr::unordered_map<int, int>& arena) {
  int n = 0;
  for (const auto& [name, v] : idx) n += v;            // expect: iteration over an unordered container follows hash order
  for (auto& kv : pools.by_name) n += kv.second;       // expect: iteration over an unordered container follows hash order
  for (int id : reg) n += id;                          // expect: iteration over an unordered container follows hash order
  for (const auto& kv : pp->by_block) n += kv.second;  // expect: iteration over an unordered container follows hash order
  for (auto& kv : arena) n += kv.second;               // expect: iteration over an unordered container follows hash order
  for (auto it = idx.begin(); it != idx.end(); ++it) n += it->second;  // expect: iteration over an unordered container follows hash order
  for (auto it = idx.cbegin(); it != idx.cend(); ++it) n += it->second;  // expect: iteration over an unordered container follows hash order
  std::for_each(std::begin(reg), std::end(reg), [&](int id) { n += id; });  // expect: iteration over an unordered container follows hash order
  n += std::accumulate(reg.begin(), reg.end(), 0);      // expect: iteration over an unordered container follows hash order
  n += idx.begin()->second;                            // expect: iteration over an unordered container follows hash order
  std::ranges::for_each(reg, [&](int id) { n += id; });  // expect: iteration over an unordered container follows hash order
  for (const auto& k : idx | std::views::keys) n += static_cast<int>(k.size());  // expect: iteration over an unordered container follows hash order
  n += static_cast<int>(std::ranges::count_if(reg, [](int id) { return id > 2; }));  // expect: iteration over an unordered container follows hash order
  std::vector<std::pair<std::string, int>> items(idx.begin(), idx.end());  // expect: iteration over an unordered container follows hash order
  std::map<int, int> first_of(pools.by_block.begin(), pools.by_block.end());  // expect: iteration over an unordered container follows hash order
  auto [lo, hi] = pools.by_block.equal_range(3);
  for (auto it = lo; it != hi; ++it) n += it->second;  // expect: iteration over an unordered container follows hash order
  auto found = idx.find("a");
  if (found != idx.end()) n += std::next(found)->second;  // expect: iteration over an unordered container follows hash order
  return n + static_cast<int>(items.size() + first_of.size());
}

template <class K>
int later(const std::unordered_map<K, int>& m) {
  int n = 0;
  for (const auto& kv : m) n += kv.second;             // expect: iteration over an unordered container follows hash order
  return n;
}

int near_misses(Index& idx, const Registry& reg, const Pools& pools) {
  int n = idx.at("a") + idx["b"];                      // near-miss: at() and operator[] are lookups
  if (auto it = idx.find("c"); it != idx.end()) n += it->second;  // near-miss: end() compared with find()
  n += static_cast<int>(reg.count(3) + reg.contains(4) + reg.size() + reg.empty());  // near-miss: lookups and size
  n += static_cast<int>(std::ranges::size(reg));       // near-miss: ranges::size reads the size only
  idx.erase("d");                                      // near-miss: erasing by key
  Index other;
  std::ranges::swap(idx, other);                       // near-miss: swapping moves the container whole
  std::erase_if(other, [](const auto& kv) { return kv.second < 0; });  // near-miss: what remains is order-free
  std::map<std::string, int> sorted(idx.begin(), idx.end());  // near-miss: a copy into an ordered map
  std::set<int> ids;
  ids.insert(reg.begin(), reg.end());                  // near-miss: filling an ordered set
  for (const auto& [name, v] : sorted) n += v;         // near-miss: walking the ordered copy
  std::vector<int> ordered{3, 1, 2};
  for (int v : ordered) n += v;                        // near-miss: a vector keeps its order
  bool same = pools.by_name == idx;                    // near-miss: comparing two containers is order-free
  auto range = pools.by_block.equal_range(1);          // near-miss: equal_range itself is a lookup
  return n + static_cast<int>(ids.size()) + same + (range.first == range.second);
}

}  // namespace fixture
