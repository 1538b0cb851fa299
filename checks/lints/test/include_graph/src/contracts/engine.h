// The Engine contract: includes only contracts and generated types.
#pragma once
#include <vector>                  // near-miss: the standard library is not ours
#include "build/src/schema/chip.h"  // near-miss: a generated schema type
#include "contracts/units.h"       // near-miss: contracts include contracts
#include "data/loader.h"           // expect: src/contracts/ includes only src/contracts/ and generated types
namespace contracts { struct Engine { virtual ~Engine() = default; std::vector<Bytes> plan; }; }
