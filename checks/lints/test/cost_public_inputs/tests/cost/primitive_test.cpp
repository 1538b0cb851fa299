// Tests exercise the cost model's internals.
#include "cost/primitive.h"  // near-miss: tests may include internal headers
