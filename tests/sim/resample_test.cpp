// Resampling a recorded trace (src/sim/trace/resample.h): the bootstrap keeps each client's unit count, its
// gaps and its requests' contents, draws differently per seed and identically for one seed, keeps sessions
// whole; each refusal beside the closest trace it accepts (SIM-9).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/rng/substreams.h"
#include "sim/trace/resample.h"

namespace blis::sim {
namespace {

TraceRow open_row(const std::string& client, const std::string& id, std::int64_t time_us, std::int32_t prompt_len,
                  std::int64_t output) {
  TraceRow r;
  r.client = client;
  r.request.id = id;
  r.request.prompt.assign(static_cast<std::size_t>(prompt_len), 7);
  r.request.sampled_output_len = output;
  r.cause = Cause::kOpen;
  r.time_us = time_us;
  return r;
}

TraceRow after_row(const std::string& client, const std::string& id, const std::string& after, std::int64_t delay_us,
                   std::int64_t user) {
  TraceRow r = open_row(client, id, delay_us, 3, 2);
  r.cause = Cause::kAfter;
  r.after = after;
  r.user = user;
  return r;
}

// An open client of n requests with irregular gaps (1, 2, ..., 9 ms cycling) and prompt lengths tied to
// the gap (10 tokens per ms), so a drawn row's content shows which recorded row it copies.
Trace open_trace(std::size_t n) {
  Trace t;
  std::int64_t time = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::int64_t gap_ms = 1 + static_cast<std::int64_t>(k % 9);
    time += gap_ms * 1000;
    t.rows.push_back(open_row("chat", "chat/" + std::to_string(k), time, static_cast<std::int32_t>(10 * gap_ms), gap_ms));
  }
  return t;
}

double mean_gap_us(const Trace& t) {
  return static_cast<double>(t.rows.back().time_us) / static_cast<double>(t.rows.size());
}

TEST(Resample, RequestsKeepTheCountTheGapsAndEachRequestsContent) {
  const Trace t = open_trace(2000);
  const Trace a = resample_trace(t, "requests", 11);
  ASSERT_EQ(a.rows.size(), t.rows.size());
  ASSERT_TRUE(a.header.requests.has_value());
  EXPECT_EQ(a.header.requests->value(), 2000);
  std::set<std::string> ids, sources;
  std::int64_t previous = 0;
  for (std::size_t k = 0; k < a.rows.size(); ++k) {
    const TraceRow& r = a.rows[k];
    EXPECT_TRUE(ids.insert(r.request.id).second) << r.request.id;
    const std::string suffix = "~" + std::to_string(k);
    ASSERT_TRUE(r.request.id.ends_with(suffix)) << r.request.id;
    const std::string source = r.request.id.substr(0, r.request.id.size() - suffix.size());
    sources.insert(source);
    // The gap before it is its source's recorded gap, and it carries its source's prompt and output.
    const std::int64_t gap_us = r.time_us - previous;
    previous = r.time_us;
    EXPECT_EQ(gap_us % 1000, 0);
    EXPECT_EQ(static_cast<std::int64_t>(r.request.prompt.size()), 10 * gap_us / 1000) << r.request.id;
    EXPECT_EQ(r.request.sampled_output_len, gap_us / 1000) << r.request.id;
    EXPECT_EQ(r.cause, Cause::kOpen);
  }
  // With replacement: about 1 - 1/e of the recorded requests appear (63.2%); the offered load is kept.
  EXPECT_GT(sources.size(), 1200u);
  EXPECT_LT(sources.size(), 1330u);
  EXPECT_NEAR(mean_gap_us(a) / mean_gap_us(t), 1.0, 0.05);
}

TEST(Resample, OneSeedDrawsOneTraceAndAnotherSeedAnother) {
  const Trace t = open_trace(200);
  const Trace a = resample_trace(t, "requests", 5), b = resample_trace(t, "requests", 5), c = resample_trace(t, "requests", 6);
  std::size_t same_ab = 0, same_ac = 0;
  for (std::size_t k = 0; k < a.rows.size(); ++k) {
    same_ab += a.rows[k].request.id == b.rows[k].request.id && a.rows[k].time_us == b.rows[k].time_us;
    same_ac += a.rows[k].request.id == c.rows[k].request.id;
  }
  EXPECT_EQ(same_ab, a.rows.size());
  EXPECT_LT(same_ac, a.rows.size() / 10);
}

TEST(Resample, EachClientDrawsFromItsOwnRequestsOnItsOwnSubstream) {
  Trace t = open_trace(50);
  for (std::size_t k = 0; k < 30; ++k) t.rows.push_back(open_row("batch", "batch/" + std::to_string(k), 5000 * (k + 1), 1, 1));
  const Trace a = resample_trace(t, "requests", 3);
  std::map<std::string, std::size_t> per_client;
  for (const TraceRow& r : a.rows) {
    ++per_client[r.client];
    EXPECT_TRUE(r.request.id.starts_with(r.client + "/")) << r.request.id;
  }
  EXPECT_EQ(per_client["chat"], 50u);
  EXPECT_EQ(per_client["batch"], 30u);
  // The chat client's draws do not depend on the batch client being there.
  const Trace chat_only = resample_trace(open_trace(50), "requests", 3);
  std::vector<std::string> x, y;
  for (const TraceRow& r : a.rows) if (r.client == "chat") x.push_back(r.request.id);
  for (const TraceRow& r : chat_only.rows) y.push_back(r.request.id);
  EXPECT_EQ(x, y);
}

// Two closed-loop users, each a chain of three requests: sessions are drawn whole, their waits follow the
// copy, and each drawn chain is a user of its own.
Trace closed_trace() {
  Trace t;
  for (std::int64_t u = 0; u < 2; ++u) {
    const std::string p = "loop/" + std::to_string(u) + ".";
    TraceRow first = open_row("loop", p + "0", 100 * u, 5, 4);
    first.cause = Cause::kStart;
    first.user = u;
    t.rows.push_back(first);
    t.rows.push_back(after_row("loop", p + "1", p + "0", 2000, u));
    t.rows.push_back(after_row("loop", p + "2", p + "1", 3000, u));
  }
  return t;
}

TEST(Resample, SessionsAreDrawnWholeWithTheirWaitsAndAUserEach) {
  const Trace a = resample_trace(closed_trace(), "sessions", 9);
  ASSERT_EQ(a.rows.size(), 6u);
  for (std::size_t k = 0; k < 2; ++k) {
    const TraceRow& first = a.rows[3 * k];
    EXPECT_EQ(first.cause, Cause::kStart);
    EXPECT_EQ(first.user, static_cast<std::int64_t>(k));
    const std::string suffix = "~" + std::to_string(k);
    for (std::size_t j = 1; j < 3; ++j) {
      const TraceRow& r = a.rows[3 * k + j];
      EXPECT_EQ(r.cause, Cause::kAfter);
      EXPECT_EQ(r.after, a.rows[3 * k + j - 1].request.id);
      EXPECT_TRUE(r.request.id.ends_with(suffix));
      EXPECT_EQ(r.user, static_cast<std::int64_t>(k));
      EXPECT_EQ(r.time_us, j == 1 ? 2000 : 3000);  // recorded delays, recomputed from completions by the replay
    }
    // A user's first request keeps its recorded time.
    const std::int64_t source_user = first.request.id.starts_with("loop/0.") ? 0 : 1;
    EXPECT_EQ(first.time_us, 100 * source_user);
  }
}

// Three requests that share a 4-token system prompt, each with 6 tokens of its own, drawn 300 times: a
// unit's first copy is sent as recorded; a repeated copy keeps the shared 4 tokens and moves its own 6, so
// no two copies of one request share more than the system prompt, and lengths never change.
TEST(Resample, ARepeatedCopySharesWhatItsRequestSharedWithOthersAndNotItsOwnTokens) {
  Trace t;
  for (std::int32_t k = 0; k < 3; ++k) {
    TraceRow r = open_row("chat", "chat/" + std::to_string(k), 1000 * (k + 1), 0, 1);
    r.request.prompt = {1, 2, 3, 4};
    for (std::int32_t i = 0; i < 6; ++i) r.request.prompt.push_back(100 + 10 * k + i);
    t.rows.push_back(r);
  }
  for (std::size_t k = 3; k < 300; ++k) {  // more open rows of the same three prompts' shapes, to draw from
    TraceRow r = t.rows[k % 3];
    r.request.id = "chat/" + std::to_string(k);
    r.time_us = 1000 * static_cast<std::int64_t>(k + 1);
    t.rows.push_back(r);
  }
  // Rows k and k + 3 have one prompt: as different units they share all of it, so nothing moves for them.
  const Trace same = resample_trace(t, "requests", 2);
  for (const TraceRow& r : same.rows) {
    const std::size_t source = std::stoul(r.request.id.substr(5, r.request.id.find('~') - 5));
    EXPECT_EQ(r.request.prompt, t.rows[source].request.prompt) << r.request.id;
  }
  // Now each recorded prompt unique in its own part: repeated copies move it.
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    for (std::size_t i = 4; i < 10; ++i) t.rows[k].request.prompt[i] = static_cast<std::int32_t>(1000 + 6 * k + i);
  }
  const Trace a = resample_trace(t, "requests", 2);
  std::map<std::size_t, std::vector<std::vector<std::int32_t>>> copies;  // source -> prompts sent
  for (const TraceRow& r : a.rows) {
    const std::size_t source = std::stoul(r.request.id.substr(5, r.request.id.find('~') - 5));
    ASSERT_EQ(r.request.prompt.size(), 10u);
    EXPECT_EQ(std::vector<std::int32_t>(r.request.prompt.begin(), r.request.prompt.begin() + 4),
              (std::vector<std::int32_t>{1, 2, 3, 4}));
    copies[source].push_back(r.request.prompt);
  }
  std::size_t repeated = 0;
  for (const auto& [source, prompts] : copies) {
    EXPECT_EQ(prompts.front(), t.rows[source].request.prompt) << source;  // the first copy as recorded
    for (std::size_t i = 1; i < prompts.size(); ++i) {
      ++repeated;
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(prompts[i][4], prompts[j][4]) << source;  // own parts differ
    }
  }
  EXPECT_GT(repeated, 50u);
}

// Refused: a requests resample of a trace with a row that waits for another; accepted: the same trace
// resampled by sessions, and a trace of open arrivals resampled by requests.
TEST(RefusalPairs, ResamplingRequestsNeedsEveryRowToArriveOnItsOwn) {
  try {
    resample_trace(closed_trace(), "requests", 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("workload.replay.resample: requests: trace row 2 ('loop/0.1') waits for "
                                         "'loop/0.0' to end, so it belongs to a session or a closed-loop user; "
                                         "resample sessions"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(resample_trace(closed_trace(), "sessions", 1));
  EXPECT_NO_THROW(resample_trace(open_trace(3), "requests", 1));
}

// Refused: an empty trace; accepted: one row.
TEST(RefusalPairs, ResamplingNeedsARowToDraw) {
  EXPECT_THROW(resample_trace(Trace{}, "requests", 1), std::invalid_argument);
  EXPECT_EQ(resample_trace(open_trace(1), "requests", 1).rows.size(), 1u);
}

}  // namespace
}  // namespace blis::sim
