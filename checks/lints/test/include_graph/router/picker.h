#pragma once
#include "contracts/engine.h"          // near-miss: the router depends on contracts
namespace router { struct Picker { int pick() const { return 0; } }; }
