// Original to BLIS: see kv_events_bridge.h.
#include "distributed/kv_events_bridge.h"

#include <type_traits>
#include <variant>

namespace blis::vllm {

namespace {

engine::KvEvent event_of(const KVCacheEvent& e) {
  return std::visit(
      [](const auto& x) -> engine::KvEvent {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, BlockStored>) {
          engine::KvBlockStored s;
          s.block_hashes = x.block_hashes;
          s.parent_block_hash = x.parent_block_hash;
          s.token_ids = x.token_ids;
          s.block_size = x.block_size;
          s.lora_id = x.lora_id;
          s.medium = x.medium;
          s.lora_name = x.lora_name;
          s.extra_keys = x.extra_keys;
          s.group_idx = x.group_idx;
          s.kv_cache_spec_kind = x.kv_cache_spec_kind;
          s.kv_cache_spec_sliding_window = x.kv_cache_spec_sliding_window;
          return s;
        } else if constexpr (std::is_same_v<T, BlockRemoved>) {
          return engine::KvBlockRemoved{x.block_hashes, x.medium, x.group_idx};
        } else {
          return engine::KvAllBlocksCleared{};
        }
      },
      e);
}

}  // namespace

engine::KvEventMessage to_contract(const std::string& topic, std::uint64_t sequence, const KVEventBatch& batch) {
  engine::KvEventMessage m;
  m.topic = topic;
  m.sequence = sequence;
  m.ts = batch.ts;
  for (const auto& e : batch.events) m.events.push_back(event_of(e));
  if (batch.data_parallel_rank) m.data_parallel_rank = *batch.data_parallel_rank;
  return m;
}

}  // namespace blis::vllm
