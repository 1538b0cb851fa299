// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The Kubernetes Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099; Consumes (the data-layer DAG) and the multicluster variant (multicluster.go) are not ported; the factory takes only the name; no Go context.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router/epp/framework/interface/scheduling/plugins.h"

namespace blis::router::queuedepth {

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorerType
inline constexpr const char* QueueScorerType = "queue-scorer";

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer
// Scores endpoints by waiting queue size: the shorter the queue, the higher the score.
// An endpoint without metrics (a nil dereference upstream) is refused with std::invalid_argument.
class QueueScorer final : public fwksched::Scorer, public std::enable_shared_from_this<QueueScorer> {
 public:
  QueueScorer() : typedName_{QueueScorerType, QueueScorerType} {}

  // pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer.TypedName
  fwkplugin::TypedName TypedName() const override { return typedName_; }
  // pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer.Category
  fwksched::ScorerCategory Category() const override { return fwksched::Distribution; }
  // pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer.WithName
  std::shared_ptr<QueueScorer> WithName(const std::string& name) {
    typedName_.Name = name;
    return shared_from_this();
  }
  // pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorer.Score
  fwksched::ScoreMap Score(fwksched::InferenceRequest* request,
                           const std::vector<fwksched::EndpointPtr>& endpoints) override;

 private:
  fwkplugin::TypedName typedName_;
};

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 NewQueueScorer
inline std::shared_ptr<QueueScorer> NewQueueScorer() { return std::make_shared<QueueScorer>(); }

// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go@71f4f099 QueueScorerFactory
inline std::shared_ptr<fwkplugin::Plugin> QueueScorerFactory(const std::string& name) {
  return NewQueueScorer()->WithName(name);
}

}  // namespace blis::router::queuedepth
