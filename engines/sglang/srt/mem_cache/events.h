// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/events.py@71de97b2; the mixin's self.page_size and self.root_node are passed to the record methods.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "srt/disaggregation/kv_events.h"
#include "srt/mem_cache/tree_node.h"

namespace blis::sglang {

// events.py@71de97b2 KVCacheEventMixin.
class KVCacheEventMixin {
 public:
  bool enable_kv_cache_events = false;
  std::vector<KVCacheEvent> kv_event_queue;

  // KVCacheEventMixin._enqueue_kv_event: appends, coalescing with a compatible queue tail.
  void enqueue_kv_event(KVCacheEvent event);
  // KVCacheEventMixin._record_store_event: one BlockStored per page (medium nullopt: GPU).
  void record_store_event(TreeNode& node, std::int64_t page_size, const TreeNode* root_node,
                          std::optional<std::string> medium = std::nullopt);
  // KVCacheEventMixin._record_remove_event: one BlockRemoved per node.
  void record_remove_event(TreeNode& node, std::int64_t page_size, std::optional<std::string> medium = std::nullopt);
  // KVCacheEventMixin._record_all_cleared_event.
  void record_all_cleared_event();
  // KVCacheEventMixin.take_events.
  std::vector<KVCacheEvent> take_kv_events();
};

}  // namespace blis::sglang
