#pragma once
#include "contracts/engine.h"          // near-miss: the engine contract
namespace sglang { struct Radix : contracts::Engine {}; }
