// The trace reader's row refusals (src/sim/trace/trace.cpp, SIM-9 pairs, SIM-11): a replayed trace's row is
// held to the bounds a scenario's fields of the same kinds hold (a client's max_tokens at least 1, its timeout
// greater than 0, token counts and times not negative, token ids within int32), in the schema validators'
// words; each refusal beside the closest row that is read.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "sim/trace/trace.h"

namespace blis::sim {
namespace {

// A header the trace-header schema accepts, written by the writer the simulator uses.
std::string trace_with(const std::string& row) {
  schema::TraceHeader h;
  h.format_version = kTraceFormatVersion;
  h.producer = "simulator";
  h.writer.program = "blis";
  h.writer.version = "test";
  h.writer.commit = std::string(40, '0');
  h.engine.kind = "test-engine";
  h.engine.version = "test";
  h.engine.commit = std::string(40, '0');
  h.scenario = std::string(64, '0');
  h.seed = 0;
  h.generator.name = "philox4x64-10";
  h.generator.version = 1;
  h.time_unit = "microseconds";
  h.records = {"arrivals"};
  const std::string empty = TraceWriter().text(h);  // the header and the column line, no row
  return empty + row + "\n";
}

// request,client,user,cause,after,time_us,timeout_us,max_tokens,measured,sampled_output_len,prompt
struct Pair {
  const char* refused;
  const char* message;  // what the refusal says after "t: record 1: "
  const char* accepted;
};

TEST(TraceReader, RowRefusalsBesideTheClosestAcceptedRow) {
  const Pair pairs[] = {
      {"r0,c,-1,open,,-1,,,1,4,1 2", "time_us: -1 is below the minimum 0", "r0,c,-1,open,,0,,,1,4,1 2"},
      {"r0,c,-1,open,,5,0,,1,4,1 2", "timeout_us: 0 must be greater than 0", "r0,c,-1,open,,5,1,,1,4,1 2"},
      {"r0,c,-1,open,,5,-3,,1,4,1 2", "timeout_us: -3 is below the minimum 0", "r0,c,-1,open,,5,3,,1,4,1 2"},
      {"r0,c,-1,open,,5,,0,1,4,1 2", "max_tokens: 0 is below the minimum 1", "r0,c,-1,open,,5,,1,1,4,1 2"},
      {"r0,c,-1,open,,5,,,2,4,1 2", "measured '2' is not 0 or 1", "r0,c,-1,open,,5,,,0,4,1 2"},
      {"r0,c,-1,open,,5,,,1,-1,1 2", "sampled_output_len: -1 is below the minimum 0", "r0,c,-1,open,,5,,,1,0,1 2"},
      {"r0,c,-2,open,,5,,,1,4,1 2", "user: -2 is below the minimum -1", "r0,c,0,start,,5,,,1,4,1 2"},
      {"r0,c,-1,open,,5,,,1,4,1 2147483648", "prompt: token id 2147483648 is outside 0 to 2147483647",
       "r0,c,-1,open,,5,,,1,4,1 2147483647"},
      {"r0,c,-1,open,,5,,,1,4,-1 2", "prompt: token id -1 is outside 0 to 2147483647", "r0,c,-1,open,,5,,,1,4,0 2"},
  };
  for (const auto& p : pairs) {
    SCOPED_TRACE(p.refused);
    try {
      read_trace_text(trace_with(p.refused), "t");
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), std::string("t: record 1: ") + p.message);
    }
    EXPECT_NO_THROW(read_trace_text(trace_with(p.accepted), "t")) << p.accepted;
  }
}

// The accepted rows read back as written.
TEST(TraceReader, AcceptedRowReadsItsFields) {
  const Trace t = read_trace_text(trace_with("r0,c,-1,open,,5,7,1,0,0,0 2147483647"), "t");
  ASSERT_EQ(t.rows.size(), 1u);
  const TraceRow& r = t.rows[0];
  EXPECT_EQ(r.time_us, 5);
  EXPECT_EQ(r.timeout_us, 7);
  EXPECT_EQ(r.request.max_tokens, 1);
  EXPECT_FALSE(r.measured);
  EXPECT_EQ(r.request.sampled_output_len, 0);
  EXPECT_EQ(r.request.prompt, (std::vector<std::int32_t>{0, 2147483647}));
}

}  // namespace
}  // namespace blis::sim
