#include "sim/api/run.h"               // near-miss: the command drives the simulator
#include "data/loader.h"               // near-miss: the command loads data
#include "engines/sglang/radix.h"      // expect: only the build site in src/sim/ includes engine headers
int main() { return sim::run(); }
