// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099;
// all of it (the prefix-cache-affinity filter reads it). The producer-type constant it names comes from
// pkg/epp/framework/plugins/requestcontrol/dataproducer/predictedlatency/constants (not otherwise ported).
#pragma once

#include <memory>

#include "router/epp/framework/interface/datalayer/attributemap.h"
#include "router/epp/framework/interface/plugin/datakey.h"

namespace blis::router::latency {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/predictedlatency/constants/constants.go@71f4f099 LatencyDataProviderPluginType
inline constexpr const char* LatencyDataProviderPluginType = "predicted-latency-producer";

// pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 LatencyPredictionInfoDataKey
extern const fwkplugin::DataKey LatencyPredictionInfoDataKey;

// pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 LatencyPredictionInfo
// Latency predictions for an endpoint (validity against SLOs, headroom, raw TTFT/TPOT in ms).
class LatencyPredictionInfo final : public fwkdl::Cloneable {
 public:
  // pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 NewLatencyPredictionInfo
  LatencyPredictionInfo(bool ttftValid, bool tpotValid, double ttftHeadroom, double tpotHeadroom, double ttft,
                        double tpot, int dispatchedRequestCount)
      : ttftValid_(ttftValid),
        tpotValid_(tpotValid),
        ttftHeadroom_(ttftHeadroom),
        tpotHeadroom_(tpotHeadroom),
        ttft_(ttft),
        tpot_(tpot),
        dispatchedRequestCount_(dispatchedRequestCount) {}

  // pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 the getters
  bool TTFTValid() const { return ttftValid_; }
  bool TPOTValid() const { return tpotValid_; }
  bool IsValid() const { return ttftValid_ && tpotValid_; }
  double TTFTHeadroom() const { return ttftHeadroom_; }
  double TPOTHeadroom() const { return tpotHeadroom_; }
  double TTFT() const { return ttft_; }
  double TPOT() const { return tpot_; }
  int DispatchedRequestCount() const { return dispatchedRequestCount_; }

  // pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 LatencyPredictionInfo.Clone
  fwkdl::CloneablePtr Clone() const override { return std::make_shared<LatencyPredictionInfo>(*this); }
  bool DeepEqual(const fwkdl::Cloneable& other) const override;

 private:
  bool ttftValid_;
  bool tpotValid_;
  double ttftHeadroom_;
  double tpotHeadroom_;
  double ttft_;
  double tpot_;
  int dispatchedRequestCount_;
};

// pkg/epp/framework/plugins/datalayer/attribute/latency/data_types.go@71f4f099 NewLatencyPredictionInfo
inline std::shared_ptr<LatencyPredictionInfo> NewLatencyPredictionInfo(bool ttftValid, bool tpotValid,
                                                                       double ttftHeadroom, double tpotHeadroom,
                                                                       double ttft, double tpot,
                                                                       int dispatchedRequestCount) {
  return std::make_shared<LatencyPredictionInfo>(ttftValid, tpotValid, ttftHeadroom, tpotHeadroom, ttft, tpot,
                                                 dispatchedRequestCount);
}

}  // namespace blis::router::latency
