// Original to BLIS: transcription of test/registered/unit/mem_cache/test_radix_cache_unit.py@71de97b2 (class TestKVCacheEventQueue) into GoogleTest.
// Stand-ins: upstream's _KVCacheEventQueue (a KVCacheEventMixin with events enabled) is a KVCacheEventMixin
// with enable_kv_cache_events set; a BlockStoredWithMetadata is a BlockStored whose metadata is set.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "srt/disaggregation/kv_events.h"
#include "srt/mem_cache/events.h"

namespace blis::sglang {
namespace {

// test_radix_cache_unit.py@71de97b2 _KVCacheEventQueue.
KVCacheEventMixin make_queue() {
  KVCacheEventMixin q;
  q.enable_kv_cache_events = true;
  return q;
}

struct StoreArgs {
  std::int64_t block_size = 2;
  std::string medium = StorageMedium::GPU;
  std::optional<std::int64_t> lora_id{};
  std::optional<std::string> cache_salt{};
};

// test_radix_cache_unit.py@71de97b2 TestKVCacheEventQueue._store.
BlockStored store(std::int64_t block_hash, std::optional<std::int64_t> parent_block_hash, const StoreArgs& a = {}) {
  BlockStored e;
  e.block_hashes = {block_hash};
  e.parent_block_hash = parent_block_hash;
  std::vector<EventToken> tokens{block_hash, block_hash + 1};
  tokens.resize(static_cast<std::size_t>(std::min<std::int64_t>(a.block_size, 2)));
  e.token_ids = tokens;
  e.block_size = a.block_size;
  e.lora_id = a.lora_id;
  e.medium = a.medium;
  if (a.cache_salt) e.metadata = BlockStoredMetadata{*a.cache_salt};
  return e;
}

// test_radix_cache_unit.py@71de97b2 TestKVCacheEventQueue.test_enqueue_coalesces_compatible_stores.
TEST(SglKVCacheEventQueue, EnqueueCoalescesCompatibleStores) {
  auto queue = make_queue();
  queue.enqueue_kv_event(store(1, std::nullopt));
  queue.enqueue_kv_event(store(2, 1));
  auto events = queue.take_kv_events();
  ASSERT_EQ(events.size(), 1u);
  const auto& e = std::get<BlockStored>(events[0]);
  EXPECT_EQ(e.block_hashes, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(e.parent_block_hash, std::nullopt);
  EXPECT_EQ(e.token_ids, (std::vector<EventToken>{1, 2, 2, 3}));
}

// test_radix_cache_unit.py@71de97b2 TestKVCacheEventQueue.test_enqueue_coalesces_compatible_removes.
TEST(SglKVCacheEventQueue, EnqueueCoalescesCompatibleRemoves) {
  auto queue = make_queue();
  queue.enqueue_kv_event(BlockRemoved{{1}, StorageMedium::GPU});
  queue.enqueue_kv_event(BlockRemoved{{2, 3}, StorageMedium::GPU});
  auto events = queue.take_kv_events();
  ASSERT_EQ(events.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<BlockRemoved>(events[0]));
  EXPECT_EQ(std::get<BlockRemoved>(events[0]).block_hashes, (std::vector<std::int64_t>{1, 2, 3}));
}

// test_radix_cache_unit.py@71de97b2 TestKVCacheEventQueue.test_enqueue_preserves_fusion_boundaries.
TEST(SglKVCacheEventQueue, EnqueuePreservesFusionBoundaries) {
  const std::vector<BlockStored> incompatible_stores{
      store(2, 1, {.medium = StorageMedium::CPU}),
      store(3, 1, {.lora_id = 1}),
      store(4, 1, {.block_size = 1}),
      store(5, std::nullopt),
  };
  for (const auto& incoming : incompatible_stores) {
    auto queue = make_queue();
    queue.enqueue_kv_event(store(1, std::nullopt));
    queue.enqueue_kv_event(incoming);
    EXPECT_EQ(queue.take_kv_events().size(), 2u);
  }
  {
    auto queue = make_queue();
    queue.enqueue_kv_event(store(1, std::nullopt));
    queue.enqueue_kv_event(BlockRemoved{{1}, StorageMedium::GPU});
    queue.enqueue_kv_event(AllBlocksCleared{});
    queue.enqueue_kv_event(store(2, std::nullopt));
    EXPECT_EQ(queue.take_kv_events().size(), 4u);
  }
  {
    auto queue = make_queue();
    queue.enqueue_kv_event(BlockRemoved{{1}, StorageMedium::GPU});
    queue.enqueue_kv_event(BlockRemoved{{2}, StorageMedium::CPU});
    EXPECT_EQ(queue.take_kv_events().size(), 2u);
  }
  {
    auto queue = make_queue();
    queue.enqueue_kv_event(store(1, std::nullopt, {.cache_salt = "tenant-a"}));
    queue.enqueue_kv_event(store(2, 1, {.cache_salt = "tenant-b"}));
    EXPECT_EQ(queue.take_kv_events().size(), 2u);
  }
}

}  // namespace
}  // namespace blis::sglang
