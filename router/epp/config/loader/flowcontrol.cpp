// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of the checks of pkg/epp/config/loader/flowcontrol.go@71f4f099
// (buildFlowControlConfig's resolveQuantity checks, in buildRegistryConfig's order); the flow controller, its
// registry and policies are not modelled, so a configuration that enables the flowControl feature gate is
// refused once its quantities pass.
#include <stdexcept>

#include "router/epp/config/loader/configloader.h"

namespace blis::router::loader {
namespace {

// Original to BLIS: a Go error return, as std::invalid_argument with its text.
[[noreturn]] void fail(const std::string& text) { throw std::invalid_argument(text); }

// pkg/epp/config/loader/flowcontrol.go@71f4f099 resolveQuantity: a negative value is refused. The quantity's
// integer value (Quantity.Value rounds up) is negative when the text is signed '-' and its magnitude is at
// least 1 after rounding towards +inf, i.e. any nonzero digit before the suffix scales it to >= 1; the port
// reports the sign only ("got -N" needs the exact value: the text is quoted instead).
void resolveQuantity(const std::optional<std::string>& q, const std::string& fieldName) {
  if (!q || q->empty() || (*q)[0] != '-') return;
  bool nonzero = false;
  for (char c : *q) nonzero = nonzero || (c >= '1' && c <= '9');
  if (nonzero) fail(fieldName + " must be non-negative, got " + *q);
}

// pkg/epp/config/loader/flowcontrol.go@71f4f099 buildPriorityBand (its resolveQuantity checks)
void checkBand(const v1alpha1::PriorityBandConfig& band, const std::string& label) {
  resolveQuantity(band.MaxBytes, label + " MaxBytes");
  resolveQuantity(band.MaxRequests, label + " MaxRequests");
}

}  // namespace

// pkg/epp/config/loader/flowcontrol.go@71f4f099 buildFlowControlConfig / buildRegistryConfig (checks only)
void buildFlowControlConfig(const std::optional<v1alpha1::FlowControlConfig>& apiConfig) {
  if (apiConfig) {
    try {
      resolveQuantity(apiConfig->MaxBytes, "global MaxBytes");
      resolveQuantity(apiConfig->MaxRequests, "global MaxRequests");
      if (apiConfig->DefaultPriorityBand) checkBand(*apiConfig->DefaultPriorityBand, "default priority band");
      if (apiConfig->DefaultNegativePriorityBand) {
        checkBand(*apiConfig->DefaultNegativePriorityBand, "default negative priority band");
      }
      for (const auto& band : apiConfig->PriorityBands) checkBand(band, "priority band " + std::to_string(band.Priority));
    } catch (const std::invalid_argument& e) {
      fail(std::string("failed to create registry config: ") + e.what());
    }
  }
  fail("the flowControl feature gate is enabled, but flow control is not modelled by this port (requests are "
       "dispatched as they arrive); remove flowControl from featureGates");
}

}  // namespace blis::router::loader
