// §3.3's content hash and combined hash, written out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contracts/sha256.h"
#include "data/content_hash.h"

namespace blis::data {
namespace {

using contracts::sha256_hex;

TEST(ContentHash, LinesSortedByPathBytesEachEndingInALineFeed) {
  const std::string a = sha256_hex("a"), b = sha256_hex("b"), c = sha256_hex("c"), d = sha256_hex("d");
  // '.' (0x2e) sorts before '/' (0x2f), and upper case before lower case.
  const FileDigest files[] = {
      {"models/x/model.yaml", a}, {"models/x.yaml", b}, {"hardware/b.yaml", c}, {"hardware/B.yaml", d}};
  const std::string text = content_hash_text(files);
  EXPECT_EQ(text, d + " hardware/B.yaml\n" + c + " hardware/b.yaml\n" + b + " models/x.yaml\n" + a +
                      " models/x/model.yaml\n");
  EXPECT_EQ(content_hash(files), sha256_hex(text));
}

TEST(ContentHash, EmptyTreeIsTheHashOfNothing) {
  EXPECT_EQ(content_hash({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(ContentHash, OneFileHasOneTerminatedLine) {
  const std::string s = sha256_hex("x: 1\n");
  const FileDigest one[] = {{"families.yaml", s}};
  EXPECT_EQ(content_hash(one), sha256_hex(s + " families.yaml\n"));
  EXPECT_NE(content_hash(one), sha256_hex(s + " families.yaml"));  // the last line ends in a line feed too
}

TEST(CombinedHash, NoOverlayIsTheBaseHash) { EXPECT_EQ(combined_hash("abc", {}), "abc"); }

TEST(CombinedHash, NamesTheBaseAndEveryOverlayInOrder) {
  const std::string base(64, '1'), o1(64, '2'), o2(64, '3');
  const std::vector<std::string> one = {o1};
  EXPECT_EQ(combined_hash(base, one), sha256_hex(base + " base\n" + o1 + " overlay\n"));
  const std::vector<std::string> two = {o1, o2};
  const std::vector<std::string> swapped = {o2, o1};
  EXPECT_EQ(combined_hash(base, two), sha256_hex(base + " base\n" + o1 + " overlay\n" + o2 + " overlay\n"));
  EXPECT_NE(combined_hash(base, two), combined_hash(base, swapped));
}

}  // namespace
}  // namespace blis::data
