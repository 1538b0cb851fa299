#pragma once
#include "contracts/engine.h"          // near-miss: the cost model depends on contracts
#include "cost/memory.h"               // near-miss: its own directory
#include "build/src/schema/chip.h"     // near-miss: a generated schema type
#include "engines/vllm/scheduler.h"    // expect: src/cost/ includes no engine or router header
#include "data/loader.h"               // expect: src/cost/ includes only src/contracts/, generated types and src/cost/
namespace cost { inline double price(const schema::Chip& c) { return c.sms; } }
