#pragma once
#include "contracts/units.h"
namespace cost { inline contracts::Bytes weights() { return 1; } }
