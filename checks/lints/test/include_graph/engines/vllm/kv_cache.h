#pragma once
#include "contracts/units.h"   // near-miss: engines depend on contracts
namespace vllm { struct KvCache { contracts::Bytes free = 0; }; }
