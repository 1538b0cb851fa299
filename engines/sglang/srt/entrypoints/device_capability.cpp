// Original to BLIS: see device_capability.h.
#include "srt/entrypoints/device_capability.h"

#include <stdexcept>
#include <string>

namespace blis::sglang {

model_executor::DeviceCapability device_capability(const schema::Chip& chip) {
  const std::string& a = chip.architecture;
  if (a == "Ampere") return {8, 0};
  if (a == "Ada Lovelace") return {8, 9};
  if (a == "Hopper") return {9, 0};
  if (a == "Blackwell") return {10, 0};
  if (a == "Blackwell Ultra") return {10, 3};
  throw std::invalid_argument("sglang: chip " + chip.name + " (architecture " + a +
                              ") is not modelled by this port: its compute capability is not known");
}

}  // namespace blis::sglang
