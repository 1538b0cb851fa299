// The simulator's public API.
#pragma once
#include "contracts/engine.h"          // near-miss: the API speaks contracts
#include "engines/sglang/radix.h"      // expect: src/sim/api/ includes no engine header: engines are wired at the build site
namespace sim { inline int run() { return 0; } }
