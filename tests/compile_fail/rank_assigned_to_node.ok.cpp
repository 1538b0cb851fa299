// Twin of rank_assigned_to_node.fail.cpp: the conversion states the ranks on the node.
#include "contracts/units.h"

using namespace blis::units;

BytesPerNode on_node(BytesPerRank r) {
  BytesPerNode n;
  n = to_node(r, Count{8});
  return n;
}
