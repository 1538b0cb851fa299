// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright 2023-2024 SGLang Team
// Changed for BLIS: a C++ port of python/sglang/srt/mem_cache/events.py@71de97b2; the mixin's self.page_size and self.root_node are passed to the record methods.
#include "srt/mem_cache/events.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "srt/mem_cache/utils.h"

namespace blis::sglang {

// events.py@71de97b2 KVCacheEventMixin._enqueue_kv_event.
void KVCacheEventMixin::enqueue_kv_event(KVCacheEvent event) {
  if (!kv_event_queue.empty()) {
    KVCacheEvent& tail = kv_event_queue.back();
    if (auto* t = std::get_if<BlockRemoved>(&tail)) {
      if (auto* e = std::get_if<BlockRemoved>(&event)) {
        if (t->medium == e->medium) {
          t->block_hashes.insert(t->block_hashes.end(), e->block_hashes.begin(), e->block_hashes.end());
          return;
        }
      }
    } else if (auto* ts = std::get_if<BlockStored>(&tail)) {
      if (auto* es = std::get_if<BlockStored>(&event)) {
        if (ts->medium == es->medium && ts->lora_id == es->lora_id && ts->block_size == es->block_size &&
            ts->metadata == es->metadata && !ts->block_hashes.empty() &&
            es->parent_block_hash == ts->block_hashes.back()) {
          ts->block_hashes.insert(ts->block_hashes.end(), es->block_hashes.begin(), es->block_hashes.end());
          ts->token_ids.insert(ts->token_ids.end(), es->token_ids.begin(), es->token_ids.end());
          return;
        }
      }
    }
  }
  kv_event_queue.push_back(std::move(event));
}

// events.py@71de97b2 KVCacheEventMixin._record_store_event.
void KVCacheEventMixin::record_store_event(TreeNode& node, std::int64_t page_size, const TreeNode* root_node,
                                           std::optional<std::string> medium) {
  if (!enable_kv_cache_events) return;
  if (!medium) medium = StorageMedium::GPU;
  if (!node.hash_value) node.hash_value = compute_node_hash_values(node, page_size);
  const bool salted = node.key->cache_salt.has_value();
  const std::vector<std::string> event_hash_values =
      salted ? compute_node_event_hash_values(node, page_size) : *node.hash_value;

  std::optional<std::int64_t> parent_block_hash;
  if (node.parent != nullptr && node.parent != root_node) {
    const std::optional<std::vector<std::string>>* parent_hash_values = nullptr;
    if (salted) {
      parent_hash_values = &node.parent->event_hash_value;
      if (!parent_hash_values->has_value())  // upstream's assert (an AssertionError that propagates)
        throw std::logic_error("radix cache events: a salted node's parent has no event hash values");
    } else {
      parent_hash_values = &node.parent->hash_value;
    }
    if (parent_hash_values->has_value() && !(*parent_hash_values)->empty()) {
      parent_block_hash = hash_str_to_int64((*parent_hash_values)->back());
    }
  }

  std::size_t page_index = 0;
  const std::int64_t logical_len = node.key->size();
  const bool is_bigram = node.key->is_bigram;
  const auto& raw = node.key->token_ids;
  for (std::int64_t start = 0; start < logical_len; start += page_size) {
    const std::int64_t end = std::min(start + page_size, logical_len);
    if (end <= start) continue;
    std::vector<EventToken> page_tokens;
    for (std::int64_t j = start; j < end; ++j) {
      const auto u = static_cast<std::size_t>(j);
      if (is_bigram) {
        page_tokens.emplace_back(std::pair<std::int64_t, std::int64_t>{raw[u], raw[u + 1]});
      } else {
        page_tokens.emplace_back(raw[u]);
      }
    }
    const std::int64_t block_hash = hash_str_to_int64(event_hash_values[page_index]);
    BlockStored event;
    event.block_hashes = {block_hash};
    event.parent_block_hash = parent_block_hash;
    event.block_size = static_cast<std::int64_t>(page_tokens.size());
    event.token_ids = std::move(page_tokens);
    event.lora_id = std::nullopt;
    event.medium = medium;
    if (salted) event.metadata = BlockStoredMetadata{*node.key->cache_salt};
    enqueue_kv_event(std::move(event));
    parent_block_hash = block_hash;
    page_index += 1;
  }
}

// events.py@71de97b2 KVCacheEventMixin._record_remove_event.
void KVCacheEventMixin::record_remove_event(TreeNode& node, std::int64_t page_size, std::optional<std::string> medium) {
  if (!enable_kv_cache_events) return;
  if (!medium) medium = StorageMedium::GPU;
  if (!node.hash_value) node.hash_value = compute_node_hash_values(node, page_size);
  const std::vector<std::string> event_hash_values =
      node.key->cache_salt ? compute_node_event_hash_values(node, page_size) : *node.hash_value;
  std::vector<std::int64_t> block_hashes;
  const std::int64_t logical_len = node.key->size();
  std::size_t page_index = 0;
  for (std::int64_t start = 0; start < logical_len; start += page_size) {
    const std::int64_t end = std::min(start + page_size, logical_len);
    if (end <= start) continue;
    block_hashes.push_back(hash_str_to_int64(event_hash_values[page_index]));
    page_index += 1;
  }
  if (!block_hashes.empty()) enqueue_kv_event(BlockRemoved{std::move(block_hashes), medium});
}

// events.py@71de97b2 KVCacheEventMixin._record_all_cleared_event.
void KVCacheEventMixin::record_all_cleared_event() {
  if (enable_kv_cache_events) enqueue_kv_event(AllBlocksCleared{});
}

// events.py@71de97b2 KVCacheEventMixin.take_events.
std::vector<KVCacheEvent> KVCacheEventMixin::take_kv_events() {
  if (!enable_kv_cache_events) return {};
  std::vector<KVCacheEvent> events = std::move(kv_event_queue);
  kv_event_queue.clear();
  return events;
}

}  // namespace blis::sglang
