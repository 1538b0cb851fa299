// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own tests of vllm/v1/core/kv_cache_utils.py@6e448d0e and
// vllm/utils/hashing.py@6e448d0e: the pickle and CBOR writers against CPython's pickle and RFC 8949's
// examples, the incremental request hasher, hash keys and the block-size views of block hashes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kv_cache_test_util.h"
#include "v1/core/kv_cache_utils.h"
#include "v1/core/kv_cache_utils_hashing.h"

namespace blis::vllm {
namespace {

using testing::block_tuple;
using testing::hex;
using testing::iota_tokens;
using testing::make_request;

// The request block hasher hashes only full blocks and continues the chain as tokens are appended
// (kv_cache_utils.py@6e448d0e get_request_block_hasher, reached through Request.update_block_hashes).
TEST(KvCacheHashing, RequestBlockHasherIncremental) {
  HashFn hash_fn = testing::sha256_fn();
  init_none_hash(hash_fn, std::string("0"));
  Request request = make_request("0", iota_tokens(7), 3, hash_fn, std::string("salt"));
  ASSERT_EQ(request.block_hashes.size(), 2u);
  EXPECT_EQ(request.block_hashes[0].bytes,
            hash_fn(block_tuple(NONE_HASH.bytes, {0, 1, 2}, std::vector<std::string>{"salt"})));
  EXPECT_EQ(request.block_hashes[1].bytes, hash_fn(block_tuple(request.block_hashes[0].bytes, {3, 4, 5}, std::nullopt)));
  request.append_output_token_id(100);
  EXPECT_EQ(request.block_hashes.size(), 2u);
  request.append_output_token_id(101);
  ASSERT_EQ(request.block_hashes.size(), 3u);
  EXPECT_EQ(request.block_hashes[2].bytes, hash_fn(block_tuple(request.block_hashes[1].bytes, {6, 100, 101}, std::nullopt)));
}

// get_hash_fn_by_name refuses the xxhash family by name and rejects unknown names with upstream's text.
TEST(KvCacheHashing, HashFnByName) {
  EXPECT_THROW(get_hash_fn_by_name("xxhash"), std::invalid_argument);
  EXPECT_THROW(get_hash_fn_by_name("xxhash_cbor"), std::invalid_argument);
  try {
    get_hash_fn_by_name("md5");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Unsupported hash function: md5");
  }
}

// The pickle writer against CPython 3.11's pickle.dumps(value, protocol=5) (the bytes below were
// produced by it).
TEST(KvCacheHashing, PickleMatchesCPython) {
  EXPECT_EQ(hex(pickle_dumps(block_tuple("123", {1, 2, 3}, std::vector<std::string>{"key1", "key2"}))),
            "80059521000000000000004303313233944b014b024b0387948c046b657931948c046b65793294869487942e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::str("python hash seed"))),
            "80059514000000000000008c10707974686f6e20686173682073656564942e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::tuple({HashValue::bytes(""), HashValue::tuple({}), HashValue::none()}))),
            "8005950800000000000000430094294e87942e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(1))), "80054b012e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(-1))), "80059506000000000000004affffffff2e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(2147483648LL))), "80059508000000000000008a0500000080002e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(-2147483649LL))), "80059508000000000000008a05ffffff7fff2e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(INT64_MIN))), "8005950b000000000000008a0800000000000000802e");
  EXPECT_EQ(hex(pickle_dumps(HashValue::int_(INT64_MAX))), "8005950b000000000000008a08ffffffffffffff7f2e");
  // (b"x" * 300, (0, 1, 2, 3), ("s",)): BINBYTES, MARK ... TUPLE, TUPLE1.
  std::string expected = "8005954601000000000000422c010000" + hex(std::string(300, 'x')) +
                         "94284b004b014b024b0374948c017394859487942e";
  EXPECT_EQ(hex(pickle_dumps(HashValue::tuple({HashValue::bytes(std::string(300, 'x')),
                                              HashValue::tuple({HashValue::int_(0), HashValue::int_(1),
                                                                HashValue::int_(2), HashValue::int_(3)}),
                                              HashValue::tuple({HashValue::str("s")})}))),
            expected);
  // hashlib.sha256 of the first pickle above.
  EXPECT_EQ(hex(sha256(block_tuple("123", {1, 2, 3}, std::vector<std::string>{"key1", "key2"}))),
            "4e3d2003d97191221843dc19af9e8dc05d8f3f4267c286ebde07819cc57197a4");
}

// The canonical CBOR writer against the examples of RFC 8949 Appendix A.
TEST(KvCacheHashing, CborMatchesRfc8949) {
  auto i = [](std::int64_t v) { return hex(cbor_dumps_canonical(HashValue::int_(v))); };
  EXPECT_EQ(i(0), "00");
  EXPECT_EQ(i(23), "17");
  EXPECT_EQ(i(24), "1818");
  EXPECT_EQ(i(100), "1864");
  EXPECT_EQ(i(1000), "1903e8");
  EXPECT_EQ(i(1000000), "1a000f4240");
  EXPECT_EQ(i(1000000000000LL), "1b000000e8d4a51000");
  EXPECT_EQ(i(-1), "20");
  EXPECT_EQ(i(-100), "3863");
  EXPECT_EQ(i(-1000), "3903e7");
  EXPECT_EQ(hex(cbor_dumps_canonical(HashValue::none())), "f6");
  EXPECT_EQ(hex(cbor_dumps_canonical(HashValue::bytes(std::string("\x01\x02\x03\x04", 4)))), "4401020304");
  EXPECT_EQ(hex(cbor_dumps_canonical(HashValue::str("IETF"))), "6449455446");
  EXPECT_EQ(hex(cbor_dumps_canonical(HashValue::tuple({}))), "80");
  auto t = [](std::vector<HashValue> v) { return HashValue::tuple(std::move(v)); };
  EXPECT_EQ(hex(cbor_dumps_canonical(t({HashValue::int_(1), t({HashValue::int_(2), HashValue::int_(3)}),
                                        t({HashValue::int_(4), HashValue::int_(5)})}))),
            "8301820203820405");
}

// kv_cache_utils.py@6e448d0e make_block_hash_with_group_id / get_block_hash / get_group_id round trip.
TEST(KvCacheHashing, BlockHashWithGroupId) {
  auto key = make_block_hash_with_group_id(BlockHash{"abc"}, 258);
  EXPECT_EQ(hex(key.bytes), "61626300000102");
  EXPECT_EQ(get_block_hash(key).bytes, "abc");
  EXPECT_EQ(get_group_id(key), 258);
  // maybe_convert_block_hash keeps the low 64 bits of the big-endian value.
  BlockHash h{std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9)};
  EXPECT_EQ(std::get<std::uint64_t>(maybe_convert_block_hash(h)), 0x0203040506070809ULL);
  EXPECT_EQ(std::get<std::string>(maybe_convert_block_hash(h, false)), h.bytes);
}

// kv_cache_utils.py@6e448d0e BlockHashListWithBlockSize and resolve_block_hashes.
TEST(KvCacheHashing, BlockHashListWithBlockSize) {
  std::vector<BlockHash> hashes = {{"A"}, {"B"}, {"C"}, {"D"}, {"E"}};
  BlockHashListWithBlockSize view(hashes, 16, 32);
  EXPECT_EQ(view.size(), 2);
  EXPECT_EQ(view[0].bytes, "B");
  EXPECT_EQ(view[1].bytes, "D");
  EXPECT_THROW(view[2], std::out_of_range);
  BlockHashList same = resolve_block_hashes(hashes, 16, 16);
  EXPECT_FALSE(same.is_block_size_view());
  EXPECT_EQ(same.size(), 5);
  BlockHashList coarse = resolve_block_hashes(hashes, 16, 48);
  ASSERT_TRUE(coarse.is_block_size_view());
  EXPECT_EQ(coarse.size(), 1);
  EXPECT_EQ(coarse[0].bytes, "C");
  BlockHashList fine = resolve_block_hashes(hashes, 16, 32, true, 16);
  EXPECT_FALSE(fine.is_block_size_view());
  EXPECT_THROW(resolve_block_hashes(coarse, 16, 32), AssertionError);
}

}  // namespace
}  // namespace blis::vllm
