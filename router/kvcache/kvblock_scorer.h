// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock_scorer.go@71f4f099 (KVScoringStrategy,
// KVBlockScorerConfig, KVBlockScorer, NewKVBlockScorer, LongestPrefixScorer); the traced wrapper
// (traced_scorer.go, OpenTelemetry) is not ported.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "router/kvcache/backend.h"
#include "router/kvcache/kvblock/index.h"

namespace blis::router::kvcache {

// pkg/kvcache/kvblock_scorer.go@71f4f099 KVScoringStrategy, LongestPrefixMatch
using KVScoringStrategy = std::string;
inline const KVScoringStrategy LongestPrefixMatch = "LongestPrefix";

// pkg/kvcache/kvblock_scorer.go@71f4f099 KVBlockScorerConfig
struct KVBlockScorerConfig {
  KVScoringStrategy ScoringStrategy;
  std::vector<KVCacheBackendConfig> BackendConfigs;  // json "backendConfigs"
};

// pkg/kvcache/kvblock_scorer.go@71f4f099 DefaultKVBlockScorerConfig
KVBlockScorerConfig DefaultKVBlockScorerConfig();

// pkg/kvcache/kvblock_scorer.go@71f4f099 KVBlockScorer
class KVBlockScorer {
 public:
  virtual ~KVBlockScorer() = default;
  virtual KVScoringStrategy Strategy() const = 0;
  // Score: pod identifier -> score for the keys given the pods holding each key.
  virtual std::map<std::string, double> Score(const std::vector<kvblock::BlockHash>& keys,
                                              const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods) const = 0;
};

// pkg/kvcache/kvblock_scorer.go@71f4f099 LongestPrefixScorer: the score of a pod is the sum, over the
// consecutive keys from the first that the pod holds, of the highest weight among the device tiers it holds
// the key on (a tier missing from MediumWeights weighs 1.0; no map at all = every tier 1.0).
class LongestPrefixScorer final : public KVBlockScorer {
 public:
  std::optional<std::map<std::string, double>> MediumWeights;  // nullopt = Go's nil map
  KVScoringStrategy Strategy() const override { return LongestPrefixMatch; }
  std::map<std::string, double> Score(const std::vector<kvblock::BlockHash>& keys,
                                      const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods) const override;
};

// pkg/kvcache/kvblock_scorer.go@71f4f099 NewKVBlockScorer; throws std::runtime_error
// ("unsupported scoring strategy: X").
std::shared_ptr<KVBlockScorer> NewKVBlockScorer(const KVBlockScorerConfig& config);

}  // namespace blis::router::kvcache
