#include "engines/sglang/radix.h"      // near-miss: its own header
#include "router/picker.h"             // expect: an engine includes only src/contracts/, generated types and its own directory
