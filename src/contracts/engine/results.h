// What the environment answers an engine with (design §6.3): the price of a step, the memory a partial
// plan needs, and the bytes a KV move puts on each link. Plain structs the cost model fills (src/cost/
// implements Environment::price, memory and transfer_demand); quantities carry their units (SUB-16). A
// default-constructed value states nothing: empty lists, zero quantities, rank 0 for "no coefficient".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "contracts/units.h"

namespace blis::engine {

// The coefficient methods of design §9.2, in order of trust: the enumerator's value is the method's rank.
// not_charged is not here: it prices nothing, so it is never the least trusted method of a price.
enum class Method : std::uint8_t {
  kMeasured = 1,
  kCalibrated = 2,
  kTransferred = 3,
  kLiterature = 4,
  kVendorSpec = 5,
  kRoofline = 6,
  kAssumed = 7,
};

constexpr int rank_of(Method m) { return static_cast<int>(m); }

// The method's name as a coefficient entry spells it (schemas/registry/coefficient-set.yaml): "measured",
// "vendor_spec", ... An out-of-range value has no name and yields "".
std::string_view method_name(Method m);

// The method a coefficient entry names, or nullopt for a name outside the ranked list.
std::optional<Method> method_from_name(std::string_view name);

// VAL-3: the rank a price reports for an entry: an extrapolated lookup ranks with transferred (3) and an
// unidentified entry with assumed (7), whichever is less trusted than the entry's own method.
constexpr int effective_rank(Method m, bool extrapolated, bool unidentified) {
  int r = rank_of(m);
  if (extrapolated && r < rank_of(Method::kTransferred)) r = rank_of(Method::kTransferred);
  if (unidentified && r < rank_of(Method::kAssumed)) r = rank_of(Method::kAssumed);
  return r;
}

// How far one price (or one term of it) can be trusted (VAL-3).
struct Trust {
  int effective_rank = 0;               // 1 (measured) .. 7 (assumed), after the flags; 0: no coefficient used
  Method method = Method::kMeasured;    // the least trusted entry's own method (read only when rank > 0)
  bool extrapolated = false;            // a fitted entry used outside the input range it was fitted on (VAL-10)
  bool unidentified = false;            // an entry whose parameters the data could not identify (VAL-10)
};

// The time of one pipeline stage.
struct StageSeconds {
  std::int64_t stage = 0;
  units::Seconds seconds{};
};

// One priced primitive of the step: a lowered layer (or a host or transfer term) and what it cost.
struct PrimitivePrice {
  std::string family;                  // a family of registry/families.yaml
  std::optional<std::int64_t> layer;   // the lowered layer's graph layer index, when it has one
  std::int64_t stage = 0;
  units::Seconds seconds{};
  Trust trust;                         // the least trusted entry this term used
  std::vector<std::string> entries;    // the coefficient entries it used, by id
};

// The price of one StepShape (Environment::price).
struct StepEstimate {
  std::vector<StageSeconds> stages;            // the step's time on each stage it runs on, in stage order
  Trust least_trusted;                         // over every entry the price used (VAL-3)
  std::vector<std::string> entries_used;       // every entry used, by id, sorted
  std::vector<std::string> entries_displaced;  // matching entries a more trusted or nearer one displaced (VAL-4)
  std::vector<PrimitivePrice> primitives;      // the breakdown, in the plan's layer order
};

// A memory amount with its basis (SUB-14): held by each rank, once per node, or once per group.
using MemoryBytes = std::variant<units::BytesPerRank, units::BytesPerNode, units::BytesPerGroup>;

// "rank", "node" or "group": the basis of an amount.
std::string_view basis_name(const MemoryBytes& bytes);

// One term of the breakdown.
struct MemoryTerm {
  MemoryBytes bytes{};                 // default: 0 bytes per rank
  std::vector<std::string> sources;    // what it sums (buffer or tensor names, coefficient entries), for provenance
};

// GPU memory of the ranks of one pipeline stage (SUB-14): each figure an upstream reports at start-up has
// exactly one term here.
struct StageMemory {
  std::int64_t stage = 0;
  MemoryTerm weights;                  // the resident tensors the plan states
  MemoryTerm activations;              // the peak activations of the plan's profiling step
  MemoryTerm graph_pool;               // the pool of the graphs the plan captures
  MemoryTerm engine_buffers;           // the buffers and workspaces the plan states
  MemoryTerm outside_allocator;        // memory the engine does not choose (device context, communication libraries)
  std::map<std::string, MemoryTerm> remainder;  // named terms on SUB-14's list that may only shrink
};

// Host memory of one node (SUB-14): each figure counted once per node when the node's engines share it.
// Every term's amount is per node (BytesPerNode), with the names it sums as its sources.
struct HostNodeMemory {
  std::int64_t node = 0;
  MemoryTerm weights;                  // host-resident tensors
  MemoryTerm kv_tier;                  // the KV tiers held in host memory
  MemoryTerm pinned_buffers;           // pinned host buffers
  MemoryTerm pageable_buffers;         // pageable host buffers the plan states
};

// What Environment::memory answers for a partial plan.
struct MemoryBreakdown {
  std::vector<StageMemory> stages;     // in stage order
  std::vector<HostNodeMemory> host;    // in node order
};

// What Environment::transfer_demand answers for one move: the bytes each link must carry, by link name.
struct TransferDemand {
  std::map<std::string, units::Bytes> bytes_per_link;
};

}  // namespace blis::engine
