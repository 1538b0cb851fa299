#include "sim/api/run.h"               // near-miss: the simulator's public API
#include "search/report.h"             // near-miss: its own directory
#include "sim/engines.h"               // expect: src/search/ reaches src/sim/ only through its public api, src/sim/api/
#include "engines/vllm/kv_cache.h"     // expect: src/search/ includes no engine or router header: it reaches them through src/sim/api/
