// A simulator header that reaches an engine: every unit including it becomes a build site.
#pragma once
#include "engines/vllm/kv_cache.h"     // expect: only one unit of src/sim/ includes engine headers (the build site): src/sim/build_site.cpp already does
