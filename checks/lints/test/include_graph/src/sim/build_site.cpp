// Fixture of blis-include-graph (X3, X7): this directory is a small repository. Each #include that
// breaks the dependency direction of MAPPING.md is marked with the finding; allowed ones are near-misses.
// build/ stands for the build directory (generated schema types): a fixture has no generated include
// path, so it spells build/src/schema/.
// The one build site: constructs the engines behind the Engine contract.
#include "engines/vllm/scheduler.h"    // near-miss: the build site includes engines
#include "engines/sglang/radix.h"      // near-miss: the build site includes engines
#include "router/embed/embed.h"        // near-miss: src/sim/ wires the router through its entry point
#include "cost/price.h"                // near-miss: src/sim/ uses the cost model
