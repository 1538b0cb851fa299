#pragma once
#include "contracts/engine.h"          // near-miss: the engine contract
#include "engines/vllm/kv_cache.h"     // near-miss: its own engine directory
#include "build/src/schema/chip.h"     // near-miss: a generated schema type
#include "engines/sglang/radix.h"      // expect: an engine includes no other engine
namespace vllm { struct Scheduler : contracts::Engine { KvCache kv; }; }
