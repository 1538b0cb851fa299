// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099;
// the data key and DeepEqual (the type is in data_types.h).
#include "router/epp/framework/plugins/datalayer/attribute/latency/data_types.h"

namespace blis::router::latency {

// pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 LatencyPredictionInfoDataKey
const fwkplugin::DataKey LatencyPredictionInfoDataKey =
    fwkplugin::NewDataKey("LatencyPredictionInfoDataKey", LatencyDataProviderPluginType);

// Original to BLIS: reflect.DeepEqual of two LatencyPredictionInfo values (all fields equal).
bool LatencyPredictionInfo::DeepEqual(const fwkdl::Cloneable& other) const {
  const auto* o = dynamic_cast<const LatencyPredictionInfo*>(&other);
  return o != nullptr && o->ttftValid_ == ttftValid_ && o->tpotValid_ == tpotValid_ &&
         o->ttftHeadroom_ == ttftHeadroom_ && o->tpotHeadroom_ == tpotHeadroom_ && o->ttft_ == ttft_ &&
         o->tpot_ == tpot_ && o->dispatchedRequestCount_ == dispatchedRequestCount_;
}

}  // namespace blis::router::latency
