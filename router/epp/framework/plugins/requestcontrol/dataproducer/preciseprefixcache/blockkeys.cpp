// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The llm-d Authors.
// Changed for BLIS: a C++ port of pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099;
// see blockkeys.h.
#include "router/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.h"

namespace blis::router::preciseprefixcache {

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 computeBlockKeys
std::vector<std::vector<kvblock::BlockHash>> computeBlockKeys(kvCacheIndexer& idx, const fwksched::InferenceRequest* request,
                                                              int blockSizeTokens) {
  std::vector<std::vector<kvblock::BlockHash>> result;
  if (request == nullptr || request->Body == nullptr) return result;
  const auto& tp = request->Body->TokenizedPrompt;
  if (!tp.has_value() || tp->PerPromptTokens.empty()) return result;
  for (const auto& tokens : tp->PerPromptTokens) {
    if (tokens.empty()) continue;
    std::vector<kvblock::BlockHash> keys =
        computeBlockKeysForTokens(idx, tokens, tp->CacheSalt, request->TargetModel, blockSizeTokens);
    if (keys.empty()) continue;
    result.push_back(std::move(keys));
  }
  return result;
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 computeBlockKeysForTokens
std::vector<kvblock::BlockHash> computeBlockKeysForTokens(kvCacheIndexer& idx, std::span<const std::uint32_t> tokens,
                                                          const std::string& cacheSalt, const std::string& model,
                                                          int blockSizeTokens) {
  kvblock::ExtraFeatures extraFeatures;  // Go: nil (no multimodal features in this port)
  extraFeatures = foldCacheSalt(std::move(extraFeatures), cacheSalt, static_cast<int>(tokens.size()) / blockSizeTokens);
  return idx.ComputeBlockKeysFromTokens(tokens, model, extraFeatures);
}

// pkg/epp/framework/plugins/requestcontrol/dataproducer/preciseprefixcache/blockkeys.go@71f4f099 foldCacheSalt
kvblock::ExtraFeatures foldCacheSalt(kvblock::ExtraFeatures extraFeatures, const std::string& salt, int numBlocks) {
  if (salt.empty() || numBlocks == 0) return extraFeatures;
  if (!extraFeatures.has_value()) extraFeatures.emplace(static_cast<std::size_t>(numBlocks));
  auto& first = (*extraFeatures)[0];
  if (!first.has_value()) first.emplace();
  first->MMHashes.push_back(kvblock::MMHash{salt});
  return extraFeatures;
}

}  // namespace blis::router::preciseprefixcache
