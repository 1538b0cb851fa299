// Original to BLIS: the compute capability torch.cuda.get_device_capability reports, for the catalog chip.
#pragma once

#include "schema/chip.h"
#include "srt/model_executor/lowering.h"

namespace blis::sglang {

// The chip schema does not state the compute capability yet; the vendor's architecture label stands in for
// it here only (the same table as the vLLM port's device_capability; SUB-20's allowance names this file).
// Throws std::invalid_argument for an architecture it does not know.
model_executor::DeviceCapability device_capability(const schema::Chip& chip);

}  // namespace blis::sglang
