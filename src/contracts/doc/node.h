// A parsed YAML or JSON value that keeps where each part was written (file:line:col), in the order
// written. Every document loader reads this tree, never yaml-cpp's own nodes, so refusals can name
// positions and nothing depends on a hash map's order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace blis::doc {

struct Mark {
  int line = 0;  // 1-based; 0 = unknown (a value built in memory)
  int col = 0;   // 1-based
};

enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };

// How a scalar was written: plain scalars may read as numbers or booleans, quoted ones never do.
enum class Style : std::uint8_t { Plain, Quoted };

struct Entry;

struct Node {
  Kind kind = Kind::Null;
  Style style = Style::Plain;
  Mark mark;
  std::string scalar;                          // Kind::Scalar
  std::vector<Node> items;                     // Kind::Sequence
  std::vector<Entry> entries;                  // Kind::Map, in written order (keys are scalars)

  bool is_null() const { return kind == Kind::Null; }
  bool is_map() const { return kind == Kind::Map; }
  bool is_sequence() const { return kind == Kind::Sequence; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  // The value of a map entry by key, or nullptr.
  const Node* find(const std::string& key) const;
};

// One map entry. A named pair rather than std::pair<Node, Node>: clang (which the lints parse the code
// with) refuses a std::pair of a still-incomplete Node as a member of Node; g++ accepts it.
struct Entry {
  Node first;   // the key
  Node second;  // the value
};

const char* kind_name(const Node& n);

}  // namespace blis::doc
