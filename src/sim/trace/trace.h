// A run's trace of arrivals (design §8.5, DEV-7): every request the generator created, with the cause of its
// arrival, so that a replay under another configuration recomputes the arrivals that depend on completions.
//
// File format (format_version 1): the trace-header document (YAML), a line "...", then CSV with the header
//   request,client,user,cause,after,time_us,timeout_us,max_tokens,measured,sampled_output_len,prompt
// one row per request in creation order:
//   cause open   the request arrives at time_us (an open arrival process)
//   cause start  a closed-loop user's first request, at time_us
//   cause after  sent time_us after request `after` ended (a closed-loop user's think time)
// user is the closed-loop user (-1 for open arrivals); timeout_us and max_tokens are empty when the client
// stated none; measured is 1 or 0 (a client's warm-up request); prompt is the token IDs separated by spaces.
// The sampled output length is recorded so the replay sends the same requests (DEV-13 allows this module
// to read it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contracts/engine/request.h"
#include "schema/trace-header.h"

namespace blis::sim {

inline constexpr std::int64_t kTraceFormatVersion = 1;

enum class Cause : std::uint8_t { kOpen, kStart, kAfter };

struct TraceRow {
  engine::Request request;
  std::string client;
  std::int64_t user = -1;
  Cause cause = Cause::kOpen;
  std::string after;                  // cause after: the request whose end it waits for
  std::int64_t time_us = 0;           // open and start: the arrival time; after: the delay
  std::optional<std::int64_t> timeout_us;
  bool measured = true;
};

class TraceWriter {
 public:
  void add(const engine::Request& request, const std::string& client, std::int64_t user, Cause cause,
           const std::string& after, std::int64_t time_us, std::optional<std::int64_t> timeout_us, bool measured);
  std::int64_t rows() const { return rows_; }
  // The whole file: the header (its `requests` set to the rows written), "...", the CSV.
  std::string text(schema::TraceHeader header) const;

 private:
  std::string csv_;
  std::int64_t rows_ = 0;
};

struct Trace {
  schema::TraceHeader header;
  std::vector<TraceRow> rows;
  std::string sha256;  // of the file's bytes
};

// Reads a trace file; refuses (std::invalid_argument naming the file, line and field) a header its schema
// refuses, a format version this build does not read, a producer other than the simulator, and any row
// that is malformed or names an `after` request not written before it.
Trace read_trace(const std::string& path);
Trace read_trace_text(const std::string& text, const std::string& name);

}  // namespace blis::sim
