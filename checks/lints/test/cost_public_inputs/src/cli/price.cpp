// The command line prices a step through the public headers only.
#include "cost/step.h"       // near-miss: a public header
#include "cost/primitive.h"  // expect: src/cost/primitive.h is not a public header of the cost model: outside src/cost/ include only its public headers

int main() { return 0; }
