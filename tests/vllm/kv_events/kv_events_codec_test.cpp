// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: tests of the C++ port of vllm/distributed/kv_events.py@6e448d0e's wire encoding
// (msgspec.msgpack.Encoder() on KVEventBatch and its events, ZmqEventPublisher's frames) and its decode.
// Every expected byte string is derived by hand from the msgpack spec and msgspec's rules (see
// engines/vllm/distributed/kv_events_codec.h); the comments give the derivation.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "distributed/kv_events_codec.h"
#include "v1/core/block_pool.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/core/kv_cache_utils_hashing.h"
#include "v1/request.h"

namespace blis::vllm {
namespace {

std::string hex(std::string_view bytes) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(d[c >> 4]);
    out.push_back(d[c & 0xf]);
  }
  return out;
}

// A spaced hex literal without its spaces.
std::string h(std::string_view spaced) {
  std::string out;
  for (char c : spaced) {
    if (c != ' ') out.push_back(c);
  }
  return out;
}

std::string unhex(std::string_view spaced) {
  std::string s = h(spaced), out;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(s.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string repeat(std::string_view unit, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += unit;
  return out;
}

// The str keys and tags. A str shorter than 32 bytes is a fixstr: one byte 0xa0 | length, then its UTF-8.
const std::string T = " a4 74797065 ";                                // fixstr(4) "type"
const std::string BLOCK_STORED = " ab 426c6f636b53746f726564 ";       // fixstr(11) "BlockStored"
const std::string BLOCK_REMOVED = " ac 426c6f636b52656d6f766564 ";    // fixstr(12) "BlockRemoved"
const std::string ALL_CLEARED = " b0 416c6c426c6f636b73436c6561726564 ";  // fixstr(16) "AllBlocksCleared"
const std::string K_HASHES = " ac 626c6f636b5f686173686573 ";         // fixstr(12) "block_hashes"
const std::string K_PARENT = " b1 706172656e745f626c6f636b5f68617368 ";  // fixstr(17) "parent_block_hash"
const std::string K_TOKENS = " a9 746f6b656e5f696473 ";               // fixstr(9) "token_ids"
const std::string K_BLOCK_SIZE = " aa 626c6f636b5f73697a65 ";         // fixstr(10) "block_size"
const std::string K_LORA_ID = " a7 6c6f72615f6964 ";                  // fixstr(7) "lora_id"
const std::string K_MEDIUM = " a6 6d656469756d ";                     // fixstr(6) "medium"
const std::string K_LORA_NAME = " a9 6c6f72615f6e616d65 ";            // fixstr(9) "lora_name"
const std::string K_EXTRA = " aa 65787472615f6b657973 ";              // fixstr(10) "extra_keys"
const std::string K_GROUP = " a9 67726f75705f696478 ";                // fixstr(9) "group_idx"
const std::string K_KIND = " b2 6b765f63616368655f737065635f6b696e64 ";  // fixstr(18) "kv_cache_spec_kind"
// fixstr(28) "kv_cache_spec_sliding_window"
const std::string K_SW = " bc 6b765f63616368655f737065635f736c6964696e675f77696e646f77 ";
const std::string K_LOCALITY = " a8 6c6f63616c697479 ";               // fixstr(8) "locality"
const std::string GPU = " a3 475055 ";                                // fixstr(3) "GPU"
const std::string CPU = " a3 435055 ";                                // fixstr(3) "CPU"
const std::string SQL_LORA = " a8 73716c2d6c6f7261 ";                 // fixstr(8) "sql-lora"
const std::string NIL = " c0 ";                                       // None
// msgspec writes an AllBlocksCleared as fixmap(1) {"type": "AllBlocksCleared"}.
const std::string ALL_CLEARED_EVENT = " 81 " + T + ALL_CLEARED;

const std::string kAb32(32, '\xab');  // test_kv_cache_events.py@6e448d0e _FAKE_HASH = b"\xab" * 32
// bin8 of 32 bytes: 0xc4, length 0x20, the bytes.
const std::string AB32_BIN = " c4 20 " + repeat("ab", 32) + " ";

// The canonical test events (kv_events.py@6e448d0e lines 50-116 define their fields).
BlockStored stored_bytes_hash() {  // test_kv_cache_events.py@6e448d0e _make_block_stored()
  BlockStored e;
  e.block_hashes = {kAb32};
  e.token_ids = {1, 2, 3, 4};
  e.block_size = 4;
  e.medium = MEDIUM_GPU;
  return e;
}

BlockStored stored_int_hashes() {
  BlockStored e;
  e.block_hashes = {std::uint64_t{1}, std::uint64_t{0xffffffffffffffffULL}};
  e.parent_block_hash = std::uint64_t{0x8000};
  e.token_ids = {1, 2, 3, 4, 5, 6, 7, 8};
  e.block_size = 4;
  e.lora_id = 7;
  e.medium = MEDIUM_CPU;
  e.lora_name = "sql-lora";
  e.extra_keys = std::vector<BlockExtraKeys>{std::vector<std::string>{"sql-lora"},
                                             std::vector<std::string>{"sql-lora", "salt"}};
  e.group_idx = 1;
  return e;
}

BlockStored stored_all_fields() {
  BlockStored e;
  e.block_hashes = {std::string("\x01\x02\x03", 3)};
  e.parent_block_hash = std::string("\xff", 1);
  e.block_size = 0;
  e.lora_id = 0;
  e.lora_name = "a-lora-adapter-name-of-32-bytes!";
  e.extra_keys = std::vector<BlockExtraKeys>{std::nullopt};
  e.group_idx = 2;
  e.kv_cache_spec_kind = "sliding_window";
  e.kv_cache_spec_sliding_window = 128;
  e.locality = "LOCAL";
  return e;
}

BlockRemoved removed_bytes_hash() {  // test_kv_cache_events.py@6e448d0e _make_block_removed()
  BlockRemoved e;
  e.block_hashes = {kAb32};
  e.medium = MEDIUM_GPU;
  return e;
}

BlockRemoved removed_with_defaults_set() {
  BlockRemoved e;
  e.block_hashes = {std::uint64_t{0xffffffffULL}, std::uint64_t{0x100000000ULL}};
  e.group_idx = 0;
  e.locality = "REMOTE";
  return e;
}

// kv_events.py@6e448d0e lines 36-64 (KVCacheEvent tag=True, omit_defaults=True, not array_like; BlockStored's
// fields): a map, the tag "type": "BlockStored" first, then the seven fields without a default in order, bytes
// hashes as bin; the five defaulted fields are None and left out. Transcribes the payload of
// test_kv_cache_events.py@6e448d0e _make_block_stored() (test_block_stored_locality_is_wire_compatible).
TEST(KVEventsCodec, BlockStoredBytesHashParentNoneLoraNone) {
  std::string expected = h(" 88 "  // fixmap(8): the tag + 7 fields (extra_keys .. locality are None: omitted)
                           + T + BLOCK_STORED +
                           K_HASHES + " 91 " + AB32_BIN +         // fixarray(1) [bin8(32)]
                           K_PARENT + NIL +                       // parent None: written (no default)
                           K_TOKENS + " 94 01 02 03 04 " +        // fixarray(4) of positive fixints
                           K_BLOCK_SIZE + " 04 " +                // 4: positive fixint
                           K_LORA_ID + NIL + K_MEDIUM + GPU + K_LORA_NAME + NIL);
  EXPECT_EQ(hex(encode(KVCacheEvent{stored_bytes_hash()})), expected);
}

// kv_events.py@6e448d0e lines 50-77, with kv_cache_utils.py@6e448d0e maybe_convert_block_hash's int hashes
// (VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES defaults to 1): ints in their smallest form, a parent, a LoRA, extra keys
// (tuples encode as arrays) and group_idx, which is written because it is not None.
TEST(KVEventsCodec, BlockStoredIntHashesParentSetLoraSet) {
  std::string expected = h(" 8a "  // fixmap(10): tag + 7 + extra_keys + group_idx
                           + T + BLOCK_STORED +
                           K_HASHES + " 92 01 cf ffffffffffffffff " +  // [fixint 1, uint64 2**64-1]
                           K_PARENT + " cd 8000 " +                    // 0x8000 >= 2**8: uint16
                           K_TOKENS + " 98 01 02 03 04 05 06 07 08 " +  // fixarray(8)
                           K_BLOCK_SIZE + " 04 " +
                           K_LORA_ID + " 07 " +
                           K_MEDIUM + CPU +
                           K_LORA_NAME + SQL_LORA +
                           // extra_keys [("sql-lora",), ("sql-lora", "salt")]: tuples as fixarrays
                           K_EXTRA + " 92 91 " + SQL_LORA + " 92 " + SQL_LORA + " a4 73616c74 " +
                           K_GROUP + " 01 ");
  EXPECT_EQ(hex(encode(KVCacheEvent{stored_int_hashes()})), expected);
}

// kv_events.py@6e448d0e lines 50-77: every field set, in declaration order; 0 is written (it is not the
// default None); a 32-byte str is a str8 (0xd9, length); extra_keys [None]. Pins the order of the five
// defaulted fields, as test_kv_cache_events.py@6e448d0e test_block_stored_locality_is_wire_compatible relies on.
TEST(KVEventsCodec, BlockStoredAllFields) {
  std::string expected = h(" 8d "  // fixmap(13): tag + 12 fields
                           + T + BLOCK_STORED +
                           K_HASHES + " 91 c4 03 010203 " +  // [bin8(3)]
                           K_PARENT + " c4 01 ff " +         // bin8(1)
                           K_TOKENS + " 90 " +               // empty fixarray
                           K_BLOCK_SIZE + " 00 " +
                           K_LORA_ID + " 00 " +
                           K_MEDIUM + NIL +
                           K_LORA_NAME + " d9 20 " +  // str8(32) "a-lora-adapter-name-of-32-bytes!"
                           "612d6c6f72612d616461707465722d6e616d652d6f662d33322d627974657321" +
                           K_EXTRA + " 91 c0 " +                          // [None]
                           K_GROUP + " 02 " +
                           K_KIND + " ae 736c6964696e675f77696e646f77 " +  // fixstr(14) "sliding_window"
                           K_SW + " cc 80 " +                             // 128 >= 2**7: uint8
                           K_LOCALITY + " a5 4c4f43414c ");                // fixstr(5) "LOCAL"
  EXPECT_EQ(hex(encode(KVCacheEvent{stored_all_fields()})), expected);
}

// kv_events.py@6e448d0e lines 97-102: BlockRemoved is {"type", block_hashes, medium} with group_idx and
// locality left out when None: the legacy payload of test_kv_cache_events.py@6e448d0e
// test_block_removed_locality_is_wire_compatible. Then medium None (written as nil), group_idx 0 and a
// locality (written), and the uint32 / uint64 boundary of int hashes.
TEST(KVEventsCodec, BlockRemoved) {
  EXPECT_EQ(hex(encode(KVCacheEvent{removed_bytes_hash()})),
            h(" 83 " + T + BLOCK_REMOVED + K_HASHES + " 91 " + AB32_BIN + K_MEDIUM + GPU));
  EXPECT_EQ(hex(encode(KVCacheEvent{removed_with_defaults_set()})),
            h(" 85 " + T + BLOCK_REMOVED +
              K_HASHES + " 92 ce ffffffff cf 0000000100000000 " +  // 2**32-1: uint32; 2**32: uint64
              K_MEDIUM + NIL + K_GROUP + " 00 " + K_LOCALITY + " a6 52454d4f5445 "));  // fixstr(6) "REMOTE"
}

// kv_events.py@6e448d0e lines 115-116: AllBlocksCleared has no fields: the tag alone.
TEST(KVEventsCodec, AllBlocksCleared) {
  EXPECT_EQ(hex(encode(KVCacheEvent{AllBlocksCleared{}})), h(ALL_CLEARED_EVENT));
}

// msgspec's smallest int forms (mpack_encode_long), through BlockStored.block_size (an int field); the
// rest of the event is fixed: 0x88, the tag, empty hashes and tokens, None parent / lora / medium.
TEST(KVEventsCodec, IntForms) {
  const std::string prefix = " 88 " + T + BLOCK_STORED + K_HASHES + " 90 " + K_PARENT + NIL + K_TOKENS + " 90 " +
                             K_BLOCK_SIZE;
  const std::string suffix = K_LORA_ID + NIL + K_MEDIUM + NIL + K_LORA_NAME + NIL;
  struct Case {
    std::int64_t value;
    const char* bytes;
  };
  const std::vector<Case> cases = {
      {0, "00"},                        // positive fixint 0x00-0x7f
      {127, "7f"},
      {128, "cc 80"},                   // uint8
      {255, "cc ff"},
      {256, "cd 0100"},                 // uint16
      {65535, "cd ffff"},
      {65536, "ce 00010000"},           // uint32
      {4294967295LL, "ce ffffffff"},
      {4294967296LL, "cf 0000000100000000"},  // uint64
      {std::numeric_limits<std::int64_t>::max(), "cf 7fffffffffffffff"},
      {-1, "ff"},                       // negative fixint 0xe0-0xff
      {-32, "e0"},
      {-33, "d0 df"},                   // int8
      {-128, "d0 80"},
      {-129, "d1 ff7f"},                // int16
      {-32768, "d1 8000"},
      {-32769, "d2 ffff7fff"},          // int32
      {-2147483648LL, "d2 80000000"},
      {-2147483649LL, "d3 ffffffff7fffffff"},  // int64
      {std::numeric_limits<std::int64_t>::min(), "d3 8000000000000000"},
  };
  for (const auto& c : cases) {
    BlockStored e;
    e.block_size = c.value;
    std::string bytes = encode(KVCacheEvent{e});
    EXPECT_EQ(hex(bytes), h(prefix + " " + c.bytes + " " + suffix)) << c.value;
    EXPECT_EQ(std::get<BlockStored>(decode_kv_cache_event(bytes)).block_size, c.value) << c.value;
  }
}

// kv_events.py@6e448d0e lines 25-33 and 119-120 (EventBatch array_like=True, KVEventBatch): the array
// [ts, events, data_parallel_rank]; ts a float64; every field written although omit_defaults is set (it does
// not apply to array_like structs), so a None rank is nil.
TEST(KVEventsCodec, Batch) {
  BlockRemoved removed;
  removed.block_hashes = {std::uint64_t{5}};
  removed.medium = MEDIUM_GPU;
  KVEventBatch batch{1.5, {AllBlocksCleared{}, removed}, 3};
  EXPECT_EQ(hex(encode(batch)),
            h(" 93 cb 3ff8000000000000 "  // fixarray(3); 1.5 = 1.1b x 2**0: exponent 0x3ff, mantissa 0x8 << 48
              " 92 " + ALL_CLEARED_EVENT +  // fixarray(2) of events
              " 83 " + T + BLOCK_REMOVED + K_HASHES + " 91 05 " + K_MEDIUM + GPU +
              " 03 "));                    // data_parallel_rank 3
  // 1024.25 = 2**10 x (1 + 2**-12): exponent 1023 + 10 = 0x409, mantissa bit 40; no events; rank None.
  EXPECT_EQ(hex(encode(KVEventBatch{1024.25, {}, std::nullopt})), h("93 cb 4090010000000000 90 c0"));
  // Sixteen events: array16 (0xdc, 2-byte length 0x0010); -2.0 = sign, exponent 0x400.
  KVEventBatch many{-2.0, std::vector<KVCacheEvent>(16, AllBlocksCleared{}), 0};
  EXPECT_EQ(hex(encode(many)), h("93 cb c000000000000000 dc 0010 " + repeat(ALL_CLEARED_EVENT, 16) + " 00"));
}

// kv_events.py@6e448d0e lines 372-377 (publish fills a None data_parallel_rank with the publisher's) and
// 460-464 (the frames: topic.encode("utf-8"), seq.to_bytes(8, "big"), the payload).
TEST(KVEventsCodec, PublishFrames) {
  auto frames = publish_frames("kv-events", 258, KVEventBatch{1.5, {AllBlocksCleared{}}, std::nullopt}, 2);
  EXPECT_EQ(frames[0], "kv-events");
  EXPECT_EQ(hex(frames[1]), "0000000000000102");  // 258 = 0x0102, 8 bytes big-endian
  EXPECT_EQ(hex(frames[2]), h("93 cb 3ff8000000000000 91" + ALL_CLEARED_EVENT + "02"));  // rank 2 filled in
  auto kept = publish_frames("", 0, KVEventBatch{1.5, {}, 5}, 2);
  EXPECT_EQ(kept[0], "");
  EXPECT_EQ(hex(kept[1]), "0000000000000000");
  EXPECT_EQ(hex(kept[2]), "93cb3ff800000000000090" "05");  // a rank already set is kept
  EXPECT_EQ(hex(seq_to_bytes(0x0102030405060708ULL)), "0102030405060708");
}

// decode(encode(x)) == x for every event shape above, alone and in batches.
TEST(KVEventsCodec, RoundTrip) {
  std::vector<KVCacheEvent> events = {stored_bytes_hash(), stored_int_hashes(), stored_all_fields(),
                                      removed_bytes_hash(), removed_with_defaults_set(), AllBlocksCleared{}};
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(decode_kv_cache_event(encode(events[i])), events[i]) << i;
  }
  std::vector<KVEventBatch> batches = {{1.5, events, 0}, {1717171717.125, events, std::nullopt}, {0.0, {}, 7}};
  for (std::size_t i = 0; i < batches.size(); ++i) {
    EXPECT_EQ(decode_kv_event_batch(encode(batches[i])), batches[i]) << i;
  }
}

// The decode direction of hand-written bytes, with msgspec's Decoder leniency: keys in any order (the tag
// last), an unknown key skipped, a missing defaulted field None, a batch of two items (rank None), an int
// ts, a trailing extra batch item skipped (msgspec mpack_decode_struct_map / _struct_union / _array_inner).
TEST(KVEventsCodec, DecodeHandWritten) {
  BlockRemoved five;
  five.block_hashes = {std::uint64_t{5}};
  five.medium = MEDIUM_GPU;
  EXPECT_EQ(decode_kv_cache_event(unhex(" 83 " + K_MEDIUM + GPU + K_HASHES + " 91 05 " + T + BLOCK_REMOVED)),
            KVCacheEvent{five});
  BlockRemoved five_none = five;
  five_none.medium = std::nullopt;
  EXPECT_EQ(decode_kv_cache_event(unhex(" 84 " + T + BLOCK_REMOVED + K_HASHES + " 91 05 " + K_MEDIUM + NIL +
                                        // an unknown key "extra": {1: [2, 3], 4: b"\0"}
                                        " a5 6578747261 82 01 92 02 03 04 c4 01 00 ")),
            KVCacheEvent{five_none});
  EXPECT_EQ(decode_kv_cache_event(unhex(h(" 88 " + T + BLOCK_STORED + K_HASHES + " 91 " + AB32_BIN + K_PARENT + NIL +
                                          K_TOKENS + " 94 01 02 03 04 " + K_BLOCK_SIZE + " 04 " + K_LORA_ID + NIL +
                                          K_MEDIUM + GPU + K_LORA_NAME + NIL))),
            KVCacheEvent{stored_bytes_hash()});
  EXPECT_EQ(decode_kv_event_batch(unhex("92 cb 3ff8000000000000 90")), (KVEventBatch{1.5, {}, std::nullopt}));
  EXPECT_EQ(decode_kv_event_batch(unhex("93 07 91" + ALL_CLEARED_EVENT + "00")),
            (KVEventBatch{7.0, {AllBlocksCleared{}}, 0}));
  EXPECT_EQ(decode_kv_event_batch(unhex("94 ca 3fc00000 90 01 a3 787878")),  // float32 1.5; a 4th item "xxx"
            (KVEventBatch{1.5, {}, 1}));
}

void expect_decode_error(const std::string& bytes, const std::string& needle, bool batch = true) {
  try {
    if (batch) decode_kv_event_batch(bytes);
    else decode_kv_cache_event(bytes);
    ADD_FAILURE() << "no error; wanted one containing: " << needle;
  } catch (const KVEventDecodeError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// Malformed input is refused with a KVEventDecodeError naming the problem and the place.
TEST(KVEventsCodec, DecodeRefusesMalformed) {
  std::string good = encode(KVEventBatch{1.5, {removed_bytes_hash()}, 0});
  expect_decode_error(good.substr(0, good.size() - 1), "Input data was truncated");
  expect_decode_error(good + std::string(1, '\xc0'), "trailing characters (byte " + std::to_string(good.size()) + ")");
  expect_decode_error(unhex("80"), "Expected `array`, got `object` - at `$`");
  expect_decode_error(unhex("91 cb 3ff8000000000000"), "Expected `array` of at least length 2, got 1");
  expect_decode_error(unhex("92 a1 78 90"), "Expected `float`, got `str` - at `$[0]`");
  // 2**32-1 events claimed (array32), none present.
  expect_decode_error(unhex("93 cb 3ff8000000000000 dd ffffffff"), "Input data was truncated");
  expect_decode_error(unhex("92 cb 3ff8000000000000 c1"), "invalid opcode");
  expect_decode_error(unhex("92 cb 3ff8000000000000 91 91 00"), "Expected `object`, got `array` - at `$[1][0]`");
  expect_decode_error(unhex("92 cb 3ff8000000000000 91 81 " + T + " a3 466f6f"),
                      "Invalid value 'Foo' - at `$[1][0].type`");
  expect_decode_error(unhex("92 cb 3ff8000000000000 91 81" + K_MEDIUM + NIL),
                      "Object missing required field `type` - at `$[1][0]`");
  expect_decode_error(unhex(" 82 " + T + BLOCK_REMOVED + K_HASHES + " 90 "),
                      "Object missing required field `medium` - at `$`", false);
  expect_decode_error(unhex(" 83 " + T + BLOCK_REMOVED + K_HASHES + " 90 " + K_MEDIUM + " 05 "),
                      "Expected `str`, got `int` - at `$.medium`", false);
  expect_decode_error(unhex(" 83 " + T + BLOCK_REMOVED + K_HASHES + " 90 " + K_MEDIUM + " a1 ff "), "invalid UTF-8",
                      false);
  expect_decode_error(unhex(" 83 " + T + BLOCK_REMOVED + K_HASHES + " 91 ff " + K_MEDIUM + NIL),
                      "not modelled by this port", false);  // a negative int hash
  expect_decode_error(unhex(" 83 " + T + BLOCK_REMOVED + K_HASHES + " 91 a1 78 " + K_MEDIUM + NIL),
                      "Expected `bytes | int`, got `str` - at `$.block_hashes[0]`", false);
  expect_decode_error(unhex(" 84 " + T + BLOCK_REMOVED + K_HASHES + " 90 " + K_MEDIUM + NIL + T + ALL_CLEARED),
                      "Invalid value 'AllBlocksCleared' - at `$.type`", false);  // a second, different tag
  std::string stored_prefix = " 89 " + T + BLOCK_STORED + K_HASHES + " 90 " + K_PARENT + NIL + K_BLOCK_SIZE + " 04 " +
                              K_LORA_ID + NIL + K_MEDIUM + NIL + K_LORA_NAME + NIL;
  expect_decode_error(unhex(stored_prefix + K_TOKENS + " 91 ce 80000000 " + K_EXTRA + NIL),
                      "beyond this port's range for the field - at `$.token_ids[0]`", false);  // 2**31 > int32
  expect_decode_error(unhex(stored_prefix + K_TOKENS + " 90 " + K_EXTRA + " 91 91 01 "),
                      "not modelled by this port", false);  // an int extra key
  expect_decode_error(unhex(stored_prefix + K_TOKENS + " 90 " + K_EXTRA + " 91 91 01 "), "$.extra_keys[0][0]", false);
}

// Encoding refuses what upstream cannot hold: a str field that is not UTF-8 (a Python str always is).
TEST(KVEventsCodec, EncodeRefusesNonUtf8) {
  BlockRemoved e;
  e.medium = std::string("\xff", 1);
  EXPECT_THROW(encode(KVCacheEvent{e}), std::invalid_argument);
}

// The last 8 digest bytes as msgspec writes the int hash of maybe_convert_block_hash (int.from_bytes(..., "big")
// & (2**64 - 1) is those bytes read big-endian): uint64 (0xcf + the 8 bytes) when the value is at least 2**32.
std::string int_hash_bytes(const BlockHash& digest) {
  std::string low = digest.bytes.substr(digest.bytes.size() - 8);
  EXPECT_NE(hex(low.substr(0, 4)), "00000000") << "a value below 2**32 would take a shorter form";
  return " cf " + hex(low) + " ";
}

std::string tokens_hex(int from, int to) {  // fixints (every token id here is below 128)
  std::string out;
  for (int t = from; t < to; ++t) out += hex(std::string(1, static_cast<char>(t)));
  return out;
}

// End to end: block_pool.py@6e448d0e cache_full_blocks / _build_block_stored_event (lines 344-371) with events
// on, take_events, then what ZmqEventPublisher sends for the scheduler's KVEventBatch(ts, events)
// (scheduler.py@6e448d0e Scheduler.update_from_output) from data-parallel rank 0.
TEST(KVEventsCodec, EndToEndBlockPoolIntHashes) {
  HashFn fn = get_hash_fn_by_name("sha256");
  init_none_hash(fn, std::string("0"));
  std::vector<std::int32_t> tokens;
  for (int t = 0; t < 48; ++t) tokens.push_back(t);
  Request req("r", tokens, 17, 0.0, 0, std::nullopt, std::nullopt, get_request_block_hasher(16, fn));
  ASSERT_EQ(req.block_hashes.size(), 3u);
  BlockPool pool(5, true, 16, /*enable_kv_cache_events=*/true);
  auto blocks = pool.get_new_blocks(3);
  pool.cache_full_blocks(req, blocks, 0, 2, 16, 0);  // blocks 0-1: no parent
  pool.cache_full_blocks(req, blocks, 2, 3, 16, 0);  // block 2: parent = block 1's hash
  auto frames = publish_frames("", 0, KVEventBatch{1.5, pool.take_events(), std::nullopt}, 0);
  std::string expected = h(
      " 93 cb 3ff8000000000000 92 "
      // First BlockStored: fixmap(10) = tag + 7 + extra_keys ([None, None]: no LoRA, no salt) + group_idx 0.
      " 8a " + T + BLOCK_STORED + K_HASHES + " 92 " + int_hash_bytes(req.block_hashes[0]) +
      int_hash_bytes(req.block_hashes[1]) + K_PARENT + NIL +
      K_TOKENS + " dc 0020 " + tokens_hex(0, 32) +  // 32 token ids: array16
      K_BLOCK_SIZE + " 10 " + K_LORA_ID + NIL + K_MEDIUM + GPU + K_LORA_NAME + NIL + K_EXTRA + " 92 c0 c0 " +
      K_GROUP + " 00 " +
      // Second BlockStored: one hash, the parent set, 16 token ids (array16 from 16 items on).
      " 8a " + T + BLOCK_STORED + K_HASHES + " 91 " + int_hash_bytes(req.block_hashes[2]) +
      K_PARENT + int_hash_bytes(req.block_hashes[1]) + K_TOKENS + " dc 0010 " + tokens_hex(32, 48) +
      K_BLOCK_SIZE + " 10 " + K_LORA_ID + NIL + K_MEDIUM + GPU + K_LORA_NAME + NIL + K_EXTRA + " 91 c0 " +
      K_GROUP + " 00 "
      " 00 ");  // data_parallel_rank 0, filled in by the publisher
  EXPECT_EQ(hex(frames[2]), expected);
  EXPECT_EQ(hex(frames[1]), "0000000000000000");
}

// End to end with VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=0 (bytes hashes: bin8 of the 32-byte sha256 digest), a
// LoRA request (lora_id, lora_name and the ("lora",) extra key), then reset_prefix_cache's AllBlocksCleared
// (block_pool.py@6e448d0e reset_prefix_cache).
TEST(KVEventsCodec, EndToEndBlockPoolBytesHashesLora) {
  HashFn fn = get_hash_fn_by_name("sha256");
  init_none_hash(fn, std::string("0"));
  std::vector<std::int32_t> tokens = {3, 1, 4, 1, 5, 9, 2, 6, 5};
  Request req("r", tokens, 17, 0.0, 0, LoRARequest{"lora", 7}, std::nullopt, get_request_block_hasher(4, fn));
  ASSERT_EQ(req.block_hashes.size(), 2u);
  ASSERT_EQ(req.block_hashes[0].bytes.size(), 32u);
  BlockPool pool(5, true, 4, /*enable_kv_cache_events=*/true, /*kv_events_use_int_block_hashes=*/false);
  auto blocks = pool.get_new_blocks(2);
  pool.cache_full_blocks(req, blocks, 0, 1, 4, 0);
  pool.free_blocks({blocks[1], blocks[0]});
  ASSERT_TRUE(pool.reset_prefix_cache());
  KVEventBatch batch{1024.25, pool.take_events(), 1};
  std::string expected = h(
      " 93 cb 4090010000000000 92 "
      " 8a " + T + BLOCK_STORED + K_HASHES + " 91 c4 20 " + hex(req.block_hashes[0].bytes) + K_PARENT + NIL +
      K_TOKENS + " 94 03 01 04 01 " + K_BLOCK_SIZE + " 04 " + K_LORA_ID + " 07 " + K_MEDIUM + GPU +
      K_LORA_NAME + " a4 6c6f7261 " +                    // fixstr(4) "lora"
      K_EXTRA + " 91 91 a4 6c6f7261 " + K_GROUP + " 00 " +  // [("lora",)]
      ALL_CLEARED_EVENT + " 01 ");
  std::string payload = encode(batch);
  EXPECT_EQ(hex(payload), expected);
  EXPECT_EQ(decode_kv_event_batch(payload), batch);
}

}  // namespace
}  // namespace blis::vllm
