// lint-path: src/sim/cluster/published_cache_key_fixture.cpp
// Fixture of blis-published-cache-key (DEV-4): a record holding an engine's published metrics (or samples of
// them) must hold the publication's time and sequence beside them; the value types themselves, locals,
// parameters and records holding both keys are not flagged.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blis::engine {
struct MetricSample {  // near-miss: the value type itself
  std::string name;
  double value = 0;
};
struct Published {  // near-miss: the value type itself holds its samples
  std::int64_t waiting = 0;
  std::vector<MetricSample> samples;
};
}  // namespace blis::engine

namespace fixture {

using blis::engine::MetricSample;
using blis::engine::Published;

struct LastSeen {
  std::optional<Published> metrics;  // expect: a published value cached without its publication time and sequence beside it
  std::int64_t published_us = 0;     // the time alone is not a key
};

struct BySequenceOnly {
  std::uint64_t sequence = 0;
  std::map<std::string, std::vector<MetricSample>> samples;  // expect: a published value cached without its publication time and sequence beside it
};

class Cache {
 public:
  void put(const Published& p) { held_.push_back(p); }  // near-miss: a parameter is a value in flight

 private:
  std::vector<Published> held_;  // expect: a published value cached without its publication time and sequence beside it
  const Published* last_ = nullptr;  // expect: a published value cached without its publication time and sequence beside it
};

struct Keyed {  // near-miss: both keys beside the value
  std::optional<Published> metrics;
  std::int64_t published_us = 0;
  std::uint64_t sequence = 0;
};

struct Unrelated {  // near-miss: no published value
  std::map<std::string, double> gauges;
};

std::int64_t local_use(const Published& p) {
  Published copy = p;  // near-miss: a local is not a cache
  return copy.waiting + static_cast<std::int64_t>(copy.samples.size());
}

}  // namespace fixture
