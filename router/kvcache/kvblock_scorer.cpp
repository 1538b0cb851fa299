// SPDX-License-Identifier: Apache-2.0
// Copyright 2025 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/kvcache/kvblock_scorer.go@71f4f099; see kvblock_scorer.h.
#include "router/kvcache/kvblock_scorer.h"

#include <set>
#include <stdexcept>

namespace blis::router::kvcache {

// pkg/kvcache/kvblock_scorer.go@71f4f099 DefaultKVBlockScorerConfig
KVBlockScorerConfig DefaultKVBlockScorerConfig() { return KVBlockScorerConfig{LongestPrefixMatch, DefaultKVCacheBackendConfig()}; }

// pkg/kvcache/kvblock_scorer.go@71f4f099 NewKVBlockScorer
std::shared_ptr<KVBlockScorer> NewKVBlockScorer(const KVBlockScorerConfig& config) {
  if (config.ScoringStrategy == LongestPrefixMatch) {
    auto s = std::make_shared<LongestPrefixScorer>();
    std::map<std::string, double> weightMap;
    for (const auto& medium : config.BackendConfigs) weightMap[medium.Name] = medium.Weight;  // later wins
    s->MediumWeights = std::move(weightMap);
    return s;
  }
  throw std::runtime_error("unsupported scoring strategy: " + config.ScoringStrategy);
}

namespace {
// pkg/kvcache/kvblock_scorer.go@71f4f099 fillMaxWeights
void fillMaxWeights(std::map<std::string, double>& dst, const std::vector<kvblock::PodEntry>* entries,
                    const std::optional<std::map<std::string, double>>& mediumWeights) {
  if (entries == nullptr) return;
  for (const auto& entry : *entries) {
    double weight = 1.0;
    if (mediumWeights) {
      auto it = mediumWeights->find(entry.DeviceTier);
      if (it != mediumWeights->end()) weight = it->second;
    }
    auto cur = dst.find(entry.PodIdentifier);
    if (cur == dst.end() || weight > cur->second) dst[entry.PodIdentifier] = weight;
  }
}
}  // namespace

// pkg/kvcache/kvblock_scorer.go@71f4f099 LongestPrefixScorer.Score
std::map<std::string, double> LongestPrefixScorer::Score(
    const std::vector<kvblock::BlockHash>& keys,
    const std::map<kvblock::BlockHash, std::vector<kvblock::PodEntry>>& keyToPods) const {
  std::map<std::string, double> podScores;
  if (keys.empty()) return podScores;
  auto podsOf = [&](kvblock::BlockHash k) -> const std::vector<kvblock::PodEntry>* {
    auto it = keyToPods.find(k);
    return it == keyToPods.end() ? nullptr : &it->second;
  };
  std::map<std::string, double> curWeights;
  fillMaxWeights(curWeights, podsOf(keys[0]), MediumWeights);
  std::set<std::string> activePods;
  for (const auto& [pod, w] : curWeights) {
    activePods.insert(pod);
    podScores[pod] = w;
  }
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (activePods.empty()) break;
    curWeights.clear();
    fillMaxWeights(curWeights, podsOf(keys[i]), MediumWeights);
    for (auto it = activePods.begin(); it != activePods.end();) {
      auto w = curWeights.find(*it);
      if (w != curWeights.end()) {
        podScores[*it] += w->second;
        ++it;
      } else {
        it = activePods.erase(it);
      }
    }
  }
  return podScores;
}

}  // namespace blis::router::kvcache
