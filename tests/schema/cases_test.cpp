// Runs the refusal pairs blis-gen generated from schemas/ (SUB-2, SIM-9) through the C++ readers:
// every accepted twin must load, every refused one must be refused with its field path and cause.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "contracts/doc/json.h"
#include "contracts/doc/kinds.h"

namespace {

std::string g_cases_path;  // argv[1]: the generated cases file, or a known-bad one (X18)

nlohmann::json load_cases() {
  std::ifstream in(g_cases_path);
  if (!in) return nlohmann::json::array();
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

TEST(SchemaCases, EveryPairHasItsVerdict) {
  const auto cases = load_cases();
  ASSERT_FALSE(cases.empty()) << "no cases read from '" << g_cases_path << "'";
  std::map<std::string, int> per_kind;
  int refused = 0;
  for (const auto& c : cases) {
    const std::string kind = c.at("kind");
    const std::string name = c.at("name");
    const auto* info = blis::doc::find_kind(kind);
    ASSERT_NE(info, nullptr) << name << ": kind not compiled into this build";
    blis::doc::Diagnostics d{c.at("path").get<std::string>()};
    const bool ok = blis::doc::check_text(*info, c.at("text").get<std::string>(), c.at("path").get<std::string>(), d);
    if (c.at("ok").get<bool>()) {
      EXPECT_TRUE(ok && d.ok()) << "schema case " << name << " must be accepted, but:\n" << d.str();
    } else {
      ++refused;
      EXPECT_FALSE(ok) << "schema case " << name << " must be refused, but it loads";
      for (const auto& e : c.at("expect")) {
        EXPECT_NE(d.str().find(e.get<std::string>()), std::string::npos)
            << name << ": expected '" << e.get<std::string>() << "' in:\n" << d.str();
      }
    }
    ++per_kind[kind];
  }
  // Every compiled kind has cases, so no schema is compiled without its refusal pairs.
  for (const auto& k : blis::doc::kinds()) EXPECT_GT(per_kind[std::string(k.name)], 0) << k.name << " has no cases";
  EXPECT_GT(refused, 0);
  std::printf("%zu cases, %d refusals, %zu kinds\n", cases.size(), refused, per_kind.size());
}

// SUB-12: every declared field is read and kept: each accepted document, read into its C++ type and
// written back, equals what was written.
TEST(SchemaCases, EveryDeclaredFieldIsRead) {
  const auto cases = load_cases();
  ASSERT_FALSE(cases.empty()) << "no cases read from '" << g_cases_path << "'";
  int checked = 0;
  std::map<std::string, int> per_kind;
  for (const auto& c : cases) {
    if (!c.at("ok").get<bool>()) continue;
    ++per_kind[c.at("kind").get<std::string>()];
    const std::string name = c.at("name");
    const auto* info = blis::doc::find_kind(c.at("kind").get<std::string>());
    ASSERT_NE(info, nullptr) << name;
    blis::doc::Diagnostics d{c.at("path").get<std::string>()};
    auto parsed = blis::doc::parse_as(*info, c.at("text").get<std::string>(), c.at("path").get<std::string>(), d);
    ASSERT_TRUE(parsed.has_value()) << name << ":\n" << d.str();
    nlohmann::ordered_json written;
    ASSERT_TRUE(info->round_trip(parsed->documents.front(), d, written)) << name << ":\n" << d.str();
    // Key order is not content: the written value lists fields in schema order.
    EXPECT_EQ(nlohmann::json::parse(written.dump()), nlohmann::json::parse(blis::doc::to_json(parsed->documents.front()).dump()))
        << "schema case " << name << ": a field was dropped or changed when read";
    ++checked;
  }
  for (const auto& k : blis::doc::kinds())
    EXPECT_GT(per_kind[std::string(k.name)], 0) << k.name << " has no accepted document to read";
  EXPECT_GT(checked, 0);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: schema-cases-test CASES.json\n");
    return 2;
  }
  g_cases_path = argv[1];
  return RUN_ALL_TESTS();
}
