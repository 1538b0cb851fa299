// The engine-word matcher of blis-engine-words and the scripts lint (X2, X19): checks/lints/word_list.h.
#include "word_list.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using blis::lint::EngineWords;

namespace {

std::vector<std::string> hits(const EngineWords& w, std::string_view text) {
  std::vector<std::string> out;
  for (const auto& m : w.find(text)) out.push_back(m.word + "@" + std::string(text.substr(m.offset, m.length)));
  return out;
}

using V = std::vector<std::string>;

TEST(WordList, SpellingVariantsAreOneWord) {
  auto w = EngineWords::from_words({"max_num_seqs"});
  EXPECT_EQ(hits(w, "max_num_seqs"), V{"max_num_seqs@max_num_seqs"});
  EXPECT_EQ(hits(w, "maxNumSeqs"), V{"max_num_seqs@maxNumSeqs"});
  EXPECT_EQ(hits(w, "MAX-NUM-SEQS"), V{"max_num_seqs@MAX-NUM-SEQS"});
  EXPECT_EQ(hits(w, "kMaxNumSeqsLimit"), V{"max_num_seqs@kMaxNumSeqsLimit"});
}

TEST(WordList, MatchesWholePartsOnly) {
  auto w = EngineWords::from_words({"vllm", "max_num_seqs"});
  EXPECT_TRUE(hits(w, "allvllmish").empty());     // inside a longer part
  EXPECT_TRUE(hits(w, "num_seqs max_num").empty());  // parts of the word, not the word
  EXPECT_EQ(hits(w, "vllm_compat"), V{"vllm@vllm_compat"});
  EXPECT_EQ(hits(w, "kVllm"), V{"vllm@kVllm"});
  EXPECT_EQ(hits(w, "vllm/v1/core/sched/scheduler.py"), V{"vllm@vllm/v1/core/sched/scheduler.py"});
}

TEST(WordList, VersionsKeepTheirDots) {
  auto w = EngineWords::from_words({"0.6.19"});
  EXPECT_EQ(hits(w, "v0.6.19"), V{"0.6.19@v0.6.19"});
  EXPECT_EQ(hits(w, "sglang==0.6.19"), V{"0.6.19@0.6.19"});
  EXPECT_TRUE(hits(w, "2026-06-19").empty());  // a date, not the version
  EXPECT_TRUE(hits(w, "10.6.19").empty());
  EXPECT_TRUE(hits(w, "0518").empty());
}

TEST(WordList, OneMatchPerTokenInTextOrder) {
  auto w = EngineWords::from_words({"vllm", "sglang"});
  auto m = w.find("use sglang, then vllm-and-sglang");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].word, "sglang");
  EXPECT_EQ(m[0].offset, 4u);
  EXPECT_EQ(m[1].offset, 17u);
  EXPECT_EQ(m[1].length, 15u);
}

TEST(WordList, LoadReadsEntriesAndRefusesBadOnes) {
  auto dir = std::filesystem::temp_directory_path() / "word_list_test";
  std::filesystem::create_directories(dir);
  auto file = dir / "words.txt";
  {
    std::ofstream out(file);
    out << "# comment\n\nvllm  # trailing comment\nmax_num_seqs\nMaxNumSeqs\nbad word\n--\n";
  }
  std::vector<std::string> errors;
  auto w = EngineWords::load(file, errors);
  EXPECT_EQ(w.words(), (V{"vllm", "max_num_seqs"}));
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find(":5: entry 'MaxNumSeqs' repeats"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find(":6: entry 'bad word' holds a character"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find(":7: entry '--' has no letters"), std::string::npos) << errors[2];
  std::vector<std::string> missing;
  EngineWords::load(dir / "absent.txt", missing);
  EXPECT_EQ(missing.size(), 1u);
  std::filesystem::remove_all(dir);
}

TEST(WordList, PinnedEngineVersionsComeFromTheVersionsFile) {
  auto dir = std::filesystem::temp_directory_path() / "blis-word-list-pins";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "words.txt") << "vllm\nsglang\n";
  std::ofstream(dir / "versions.yaml") << "project:\n  blis: \"9.9.9\"\nupstreams:\n"
                                       << "  vllm: {release: \"0.28.2\", commit: \"c0ffee12\"}\n"
                                       << "  llm_d_router: {release: \"0.11.3\", commit: \"fe98dc76\"}\n"
                                       << "  sglang: {release: 0.6.19}\n";
  std::vector<std::string> errors;
  auto w = EngineWords::load_with_pins(dir / "words.txt", dir / "versions.yaml", errors);
  EXPECT_EQ(w.words(), (V{"vllm", "sglang", "0.28.2", "c0ffee12"}));
  EXPECT_TRUE(hits(w, "0.11.3 fe98dc76 9.9.9").empty());  // the router's pin and the project's own: no engine's
  ASSERT_EQ(errors.size(), 1u);  // an entry it cannot read is refused, not skipped
  EXPECT_NE(errors[0].find("versions.yaml:6: an upstreams entry"), std::string::npos) << errors[0];
  // The fixture's own versions file stands in for the repository's only where it exists.
  EXPECT_EQ(blis::lint::versions_file("/repo", dir), dir / "versions.yaml");
  EXPECT_EQ(blis::lint::versions_file("/repo", ""), std::filesystem::path("/repo/versions.yaml"));
  std::filesystem::remove_all(dir);
}

TEST(WordList, TheProjectListLoads) {
  std::vector<std::string> errors;
  auto w = EngineWords::load(std::filesystem::path(BLIS_SOURCE_ROOT) / "invariants" / "engine-words.txt", errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_FALSE(hits(w, "gpu_memory_utilization").empty());
  EXPECT_TRUE(hits(w, "dtype block_size page_size").empty());  // architecture vocabulary stays out
}

}  // namespace
