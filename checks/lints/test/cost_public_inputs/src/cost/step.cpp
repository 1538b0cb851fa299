#include "cost/step.h"       // near-miss: its own header
#include "cost/primitive.h"  // near-miss: the cost model includes its internals

namespace blis::cost {
double price(const PrimitiveCall& call) { return call.m; }
}  // namespace blis::cost
