// The coefficient registry as the cost model reads it: every coefficient-set entry of the loaded data as a
// typed entry (value or curve, unit, method and rank, interval, input range, boundary, scope), read with
// the generated coefficient-set reader.
//
// src/cost includes nothing of src/data (X7: cost and data depend on contracts and generated types only;
// the blis-include-graph lint). The loaded data therefore reaches the cost model as a RegistryInput, built
// by the layer that wires the two together (today tests/cost/cost_data.h; later the simulator's build
// site): each entry's document bytes and position, its identity text, and VAL-4's precedence as a
// function over two entries, which that layer answers with src/data's compare_scopes. The order is
// written once, in src/data/scope_precedence.cpp, and the cost model only asks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace blis::cost {

// Every refusal of the cost model: a message naming the field, the value and the cause.
struct CostError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// §9.2's methods; rank = the enumerator's value, not_charged ranking with assumed (7).
enum class Method : std::uint8_t { measured = 1, calibrated, transferred, literature, vendor_spec, roofline, assumed, not_charged };
int method_rank(Method m);
std::string_view method_name(Method m);

struct KernelScope {
  std::string library;
  std::string variant;
  std::vector<std::string> code_hashes;  // sorted
};

struct EntryScope {
  std::optional<KernelScope> kernel;
  std::optional<std::string> chip, dtype, model, workload, fabric, span;
  std::optional<std::int64_t> group_size, tp, ep, pp, dp, cp;
};

struct InputRange {
  double min = 0;
  double max = 0;
};

// The input point a coefficient is read at: the family's inputs by name.
using InputPoint = std::map<std::string, double>;

// A coefficient that varies with the family's inputs (schema coefficient-set `Curve`): multilinear
// interpolation of a grid in scaled coordinates (log2 through fmath, or linear), each coordinate beyond an
// axis's end taking the end's value.
struct CurveAxis {
  std::string input;
  bool log2 = false;
  std::vector<double> points;  // strictly increasing, in the scaled coordinate
};
struct Curve {
  std::vector<CurveAxis> axes;  // outermost first
  std::vector<double> values;   // row-major, the last axis fastest

  // Checks the shape: at least one axis, distinct inputs, two or more strictly increasing finite points per
  // axis, as many finite values as grid points. `what` names the entry in the message.
  void check(const std::string& what) const;
  // The value at `x`; refuses an axis input missing from x, and a non-positive input on a log2 axis.
  double at(const InputPoint& x, const std::string& what) const;
};

struct Entry {
  std::size_t index = 0;   // position in Coefficients::entries() (the RegistryInput's order)
  std::string id;          // the identity text: (set s, name n, scope {...}, method m)
  std::string location;    // file:line
  std::string set;
  std::string family;      // the document's family
  std::string name;        // <family>.<coefficient>
  std::string coefficient;  // name without the family
  std::optional<double> value;  // absent only for not_charged
  std::optional<Curve> curve;
  std::string unit;
  std::string boundary_time, boundary_execution;
  Method method = Method::assumed;
  std::optional<double> interval_low, interval_high;  // measured and calibrated: null = unbounded
  bool has_interval = false;
  std::map<std::string, InputRange> input_range;  // measured and calibrated
  EntryScope scope;

  int rank() const { return method_rank(method); }
  // VAL-10: the interval is unbounded, or wider than half |value|.
  bool unidentified() const;
};

// The loaded data as the wiring layer hands it over.
struct SetDocument {
  std::string location;  // how messages name the file
  std::string path;      // its path in the registry tree
  std::string bytes;
};
struct EntryOrigin {
  std::size_t document = 0;  // index in documents
  std::size_t entry = 0;     // index in that document's entries
  std::string id;            // the identity text
  std::string location;      // file:line
};
enum class ScopeOrder : std::uint8_t { disjoint, first_wins, second_wins, unordered };
struct RegistryInput {
  std::vector<SetDocument> documents;
  std::vector<EntryOrigin> entries;
  // VAL-4's precedence between two entries (indices into entries): src/data's compare_scopes.
  std::function<ScopeOrder(std::size_t, std::size_t)> precedence;
};

class Coefficients {
 public:
  // Reads every entry through the generated reader; refuses (CostError) a document the reader refuses, an
  // entry index out of range, and a malformed curve.
  static Coefficients read(RegistryInput input);

  const std::vector<Entry>& entries() const { return entries_; }
  ScopeOrder order(std::size_t a, std::size_t b) const { return precedence_(a, b); }

 private:
  std::vector<Entry> entries_;
  std::function<ScopeOrder(std::size_t, std::size_t)> precedence_;
};

}  // namespace blis::cost
