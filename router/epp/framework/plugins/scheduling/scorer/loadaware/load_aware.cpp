// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099;
// see load_aware.h.
#include "router/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.h"

#include <stdexcept>

#include "router/epp/framework/interface/plugin/decode.h"

namespace blis::router::loadaware {

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 Factory
std::shared_ptr<fwkplugin::Plugin> Factory(const std::string& name, fwkplugin::Parameters parameters,
                                           fwkplugin::Handle& /*handle*/) {
  loadAwareParameters params;
  try {
    fwkplugin::StrictObject obj(parameters, "loadaware.loadAwareParameters");
    obj.Field("threshold", params.Threshold);
    obj.Finish();
  } catch (const fwkplugin::PluginError& e) {
    throw fwkplugin::PluginError(std::string("failed to parse the parameters of the '") + LoadAwareType +
                                 "' scorer - " + e.what());
  }
  return NewLoadAware(params.Threshold)->WithName(name);
}

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 NewLoadAware
std::shared_ptr<LoadAware> NewLoadAware(int queueThreshold) {
  if (queueThreshold <= 0) queueThreshold = QueueThresholdDefault;  // (upstream logs this)
  return std::make_shared<LoadAware>(static_cast<double>(queueThreshold));
}

// pkg/epp/framework/plugins/scheduling/scorer/loadaware/load_aware.go@71f4f099 LoadAware.Score
fwksched::ScoreMap LoadAware::Score(fwksched::InferenceRequest* /*request*/,
                                    const std::vector<fwksched::EndpointPtr>& endpoints) {
  fwksched::ScoreMap scoredEndpoints;
  for (const auto& endpoint : endpoints) {
    const fwkdl::Metrics* metrics = endpoint->GetMetrics();
    if (metrics == nullptr) {
      throw std::invalid_argument("load-aware-scorer: an endpoint without metrics is not modelled by this port "
                                  "(upstream dereferences nil metrics)");
    }
    double waitingRequests = static_cast<double>(metrics->WaitingQueueSize);
    if (waitingRequests == 0) {
      scoredEndpoints[endpoint] = 0.5;
    } else {
      if (waitingRequests > queueThreshold_) waitingRequests = queueThreshold_;
      scoredEndpoints[endpoint] = 0.5 * (1.0 - (waitingRequests / queueThreshold_));
    }
  }
  return scoredEndpoints;
}

}  // namespace blis::router::loadaware
