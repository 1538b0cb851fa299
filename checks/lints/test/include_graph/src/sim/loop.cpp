#include "contracts/engine.h"          // near-miss: the simulator speaks contracts
#include "engines/sglang/radix.h"      // expect: only one unit of src/sim/ includes engine headers (the build site): src/sim/build_site.cpp already does
#include "search/report.h"             // expect: src/sim/ includes nothing of the layers above it (src/search/, src/score/, src/cli/)
