#include "router/picker.h"             // near-miss: its own directory
#include "engines/vllm/kv_cache.h"     // expect: router/ includes no engine header
#include "data/loader.h"               // expect: router/ includes only src/contracts/, generated types and router/
