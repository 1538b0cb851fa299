// Original to BLIS: the SGLang KV-event encoder (engines/sglang/srt/disaggregation/kv_events_codec) against
// bytes written out by hand from msgspec's rules for disaggregation/kv_events.py@71de97b2 (array_like
// structs, the tag first, every field written, the smallest int forms), and its typed message.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "srt/disaggregation/kv_events_codec.h"

namespace sg = blis::sglang;
namespace eng = blis::engine;

namespace {

std::string hex(const std::string& b) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 15]);
  }
  return out;
}

sg::BlockStored stored() {
  sg::BlockStored s;
  s.block_hashes = {-2, 300};
  s.parent_block_hash = std::nullopt;
  s.token_ids = {std::int64_t{1}, std::int64_t{200}};
  s.block_size = 1;
  s.medium = "GPU";
  return s;
}

TEST(SglKvEventsCodec, BlockStoredIsATaggedArrayOfEveryField) {
  // [ "BlockStored", [-2, 300], nil, [1, 200], 1, nil, "GPU" ]
  EXPECT_EQ(hex(sg::encode(sg::KVCacheEvent{stored()})),
            "97"                          // fixarray 7
            "ab426c6f636b53746f726564"    // "BlockStored"
            "92fecd012c"                  // [-2 (negative fixint), 300 (uint16)]
            "c0"                          // parent None
            "9201ccc8"                    // [1, 200 (uint8)]
            "01c0"                        // block_size 1, lora_id None
            "a3475055");                  // "GPU"
}

TEST(SglKvEventsCodec, MetadataAndBigramsFollowTheWithMetadataAndTupleEncodings) {
  sg::BlockStored s = stored();
  s.token_ids = {std::pair<std::int64_t, std::int64_t>{1, 2}};
  s.medium = std::nullopt;
  s.metadata = sg::BlockStoredMetadata{"s1"};
  EXPECT_EQ(hex(sg::encode(sg::KVCacheEvent{s})),
            "98ab426c6f636b53746f726564"  // fixarray 8, "BlockStored" (BlockStoredWithMetadata's tag)
            "92fecd012cc0"
            "91920102"                    // [(1, 2)]
            "01c0c0"
            "81aa63616368655f73616c74a27331");  // {"cache_salt": "s1"}
}

TEST(SglKvEventsCodec, BatchAndFrames) {
  sg::KVEventBatch b;
  b.ts = 1.5;
  sg::BlockRemoved r;
  r.block_hashes = {std::int64_t{-5000000000}};
  b.events = {r, sg::AllBlocksCleared{}};
  // [1.5, [["BlockRemoved", [-5000000000 (int64)], nil], ["AllBlocksCleared"]], nil]
  const std::string want =
      "93cb3ff8000000000000"
      "92"
      "93ac426c6f636b52656d6f766564" "91d3fffffffed5fa0e00" "c0"
      "91b0416c6c426c6f636b73436c6561726564"
      "c0";
  EXPECT_EQ(hex(sg::encode(b)), want);
  auto frames = sg::publish_frames("kv@pod@m", 258, b, 3);
  EXPECT_EQ(frames[0], "kv@pod@m");
  EXPECT_EQ(hex(frames[1]), "0000000000000102");
  // publish() gives a batch without a rank the publisher's: the last item is 3.
  EXPECT_EQ(hex(frames[2]), want.substr(0, want.size() - 2) + "03");
  b.attn_dp_rank = 1;  // a batch that has its rank keeps it
  EXPECT_EQ(hex(sg::publish_frames("t", 0, b, 3)[2]).substr(want.size() - 2), "01");
}

TEST(SglKvEventsCodec, TypedMessageKeepsTheHashBitsAndRefusesWhatTheContractLacks) {
  sg::KVEventBatch b;
  b.ts = 2.0;
  b.attn_dp_rank = 0;
  b.events = {stored()};
  eng::KvEventMessage m = sg::to_contract("kv@p@m", 7, b);
  EXPECT_EQ(m.topic, "kv@p@m");
  EXPECT_EQ(m.sequence, 7U);
  EXPECT_EQ(m.data_parallel_rank, 0);
  const auto& s = std::get<eng::KvBlockStored>(m.events.at(0));
  EXPECT_EQ(std::get<std::uint64_t>(s.block_hashes.at(0)), 0xfffffffffffffffeULL);
  EXPECT_EQ(s.token_ids, (std::vector<std::int32_t>{1, 200}));
  EXPECT_EQ(s.medium, "GPU");
  // Refusal pairs: metadata and a bigram pair are refused by name; the same event without them is not.
  sg::BlockStored salted = stored();
  salted.metadata = sg::BlockStoredMetadata{"s1"};
  b.events = {salted};
  try {
    sg::to_contract("t", 0, b);
    FAIL() << "metadata accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "BlockStored: metadata (cache_salt 's1') has no field in the engine contract's KV events");
  }
  sg::BlockStored bigram = stored();
  bigram.token_ids = {std::pair<std::int64_t, std::int64_t>{1, 2}};
  b.events = {bigram};
  EXPECT_THROW(sg::to_contract("t", 0, b), std::invalid_argument);
  b.events = {stored()};
  EXPECT_NO_THROW(sg::to_contract("t", 0, b));
  // A token id past int32 is refused, never wrapped; the largest int32 passes.
  sg::BlockStored wide = stored();
  wide.token_ids = {std::int64_t{2147483648}};
  b.events = {wide};
  EXPECT_THROW(sg::to_contract("t", 0, b), std::invalid_argument);
  wide.token_ids = {std::int64_t{2147483647}};
  b.events = {wide};
  EXPECT_EQ(std::get<eng::KvBlockStored>(sg::to_contract("t", 0, b).events.at(0)).token_ids,
            (std::vector<std::int32_t>{2147483647}));
}

}  // namespace
