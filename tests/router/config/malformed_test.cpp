// The malformed-configuration set (SIM-9 refusal pairs): each tests/router/config/malformed/NAME.yaml is refused
// by embed::New with exactly the message in NAME.err (llm-d's text, behind the port's "router.config: " and the
// runner's "failed to load the configuration - " prefixes where llm-d's runner adds them), and NAME.ok.yaml, the
// closest configuration that is accepted, runs. Another set of pairs in the same layout may be given as the one
// argument (SIM-9's refusal-pairs-router runs the committed set that way, and its known-bad input is a set whose
// accepted twin is refused); without one, the committed set is read and must hold all 23 pairs. The messages
// follow pkg/epp/config/loader@71f4f099
// (configloader.go, defaults.go, validation.go), apimachinery's strict decoder and the plugins' factories.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "router/embed/embed.h"
#include "tests/router/plugins/splitmix_stream.h"

namespace blis::router {
namespace {

class TestRuntime final : public Runtime {
 public:
  std::int64_t now_us() const override { return 0; }
  RandomStream& stream(std::string_view purpose) override {
    auto it = streams_.find(std::string(purpose));
    if (it == streams_.end()) it = streams_.emplace(std::string(purpose), testing::SplitMixStream(7)).first;
    return it->second;
  }

 private:
  std::map<std::string, testing::SplitMixStream> streams_;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::filesystem::path g_dir = MALFORMED_DIR;  // argv[1] when given
std::size_t g_min_pairs = 23;                  // the committed set; 1 for a set given as the argument

TEST(MalformedConfig, EachIsRefusedWithLlmdsMessageAndItsClosestVariantRuns) {
  const std::filesystem::path& dir = g_dir;
  std::set<std::filesystem::path> bad;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 5 && name.ends_with(".yaml") && !name.ends_with(".ok.yaml")) bad.insert(e.path());
  }
  ASSERT_GE(bad.size(), g_min_pairs) << "refusal pairs read from " << dir;
  for (const auto& p : bad) {
    const std::string stem = p.stem().string();
    SCOPED_TRACE(stem);
    std::string want = slurp(dir / (stem + ".err"));
    while (!want.empty() && want.back() == '\n') want.pop_back();
    ASSERT_FALSE(want.empty()) << "missing " << stem << ".err";
    ASSERT_TRUE(std::filesystem::exists(dir / (stem + ".ok.yaml")))
        << "missing " << stem << ".ok.yaml: a refusal without its pair";
    TestRuntime rt;
    try {
      embed::New(slurp(p), {}, rt);
      ADD_FAILURE() << stem << ".yaml accepted: it must be refused with " << want;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
    TestRuntime rt2;
    std::unique_ptr<Router> ok;
    try {
      ok = embed::New(slurp(dir / (stem + ".ok.yaml")), {}, rt2);
    } catch (const std::exception& e) {
      ADD_FAILURE() << stem << ".ok.yaml refused: the closest accepted configuration must run; " << e.what();
    }
  }
}

}  // namespace
}  // namespace blis::router

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc > 2) {
    std::fprintf(stderr, "usage: router-config-malformed-test [PAIRS_DIR]\n");
    return 2;
  }
  if (argc == 2) {
    blis::router::g_dir = argv[1];
    blis::router::g_min_pairs = 1;
  }
  return RUN_ALL_TESTS();
}
