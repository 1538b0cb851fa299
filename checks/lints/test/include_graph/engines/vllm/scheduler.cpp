#include "engines/vllm/scheduler.h"    // near-miss: its own header
#include "cost/memory.h"               // expect: an engine includes only src/contracts/, generated types and its own directory
#include "sim/api/run.h"               // expect: an engine includes only src/contracts/, generated types and its own directory
