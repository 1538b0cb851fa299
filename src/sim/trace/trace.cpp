#include "sim/trace/trace.h"

#include <charconv>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

#include "contracts/doc/diagnostics.h"
#include "contracts/sha256.h"
#include "sim/trace/fields.h"

namespace blis::sim {
namespace {

constexpr const char* kColumns =
    "request,client,user,cause,after,time_us,timeout_us,max_tokens,measured,sampled_output_len,prompt";

std::string_view cause_name(Cause c) { return c == Cause::kOpen ? "open" : c == Cause::kStart ? "start" : "after"; }


}  // namespace

void TraceWriter::add(const engine::Request& r, const std::string& client, std::int64_t user, Cause cause,
                      const std::string& after, std::int64_t time_us, std::optional<std::int64_t> timeout_us,
                      bool measured) {
  csv_ += r.id + "," + client + "," + std::to_string(user) + "," + std::string(cause_name(cause)) + "," + after + "," +
          std::to_string(time_us) + "," + (timeout_us ? std::to_string(*timeout_us) : "") + "," +
          (r.max_tokens ? std::to_string(*r.max_tokens) : "") + "," + (measured ? "1" : "0") + "," +
          std::to_string(r.sampled_output_len) + ",";
  for (std::size_t i = 0; i < r.prompt.size(); ++i) csv_ += (i ? " " : "") + std::to_string(r.prompt[i]);
  csv_ += "\n";
  ++rows_;
}

std::string TraceWriter::text(schema::TraceHeader header) const {
  header.requests = units::Count{rows_};
  // The header as JSON, which YAML reads, indented for people.
  std::string out;
  const auto j = schema::to_json(header);
  out += j.dump(2) + "\n...\n";
  out += std::string(kColumns) + "\n" + csv_;
  return out;
}

Trace read_trace_text(const std::string& text, const std::string& name) {
  Trace t;
  const auto sep = text.find("\n...\n");
  if (sep == std::string::npos) throw std::invalid_argument(name + ": no '...' line ends the trace header");
  doc::Diagnostics d{name};
  auto header = schema::load_trace_header(text.substr(0, sep + 1), name, d);
  if (!header || !d.ok()) throw std::invalid_argument(d.str());
  t.header = *header;
  if (t.header.format_version != kTraceFormatVersion) {
    throw std::invalid_argument(name + ": format_version " + std::to_string(t.header.format_version) +
                                " is not one this build reads (" + std::to_string(kTraceFormatVersion) + ")");
  }
  if (t.header.producer != "simulator") {
    throw std::invalid_argument(name + ": producer '" + t.header.producer + "': only a simulator's trace is replayed");
  }
  std::istringstream in(text.substr(sep + 5));
  std::string line;
  std::getline(in, line);
  if (line != kColumns) throw std::invalid_argument(name + ": the record columns are not " + std::string(kColumns));
  std::int64_t lineno = 0;
  std::set<std::string> seen;
  auto integer = [&](const std::string& s, const char* field) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size()) {
      throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": " + field + " '" + s + "' is not an integer");
    }
    return v;
  };
  // The bounds a scenario's fields of the same kinds hold (schemas/docs/scenario.yaml: a client's max_tokens
  // and timeout, a token count, a seed), in the words the schema's validators use (SIM-11).
  auto at_least = [&](std::int64_t v, std::int64_t min, const char* field) {
    if (v < min) {
      throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": " + field + ": " + std::to_string(v) +
                                  " is below the minimum " + std::to_string(min));
    }
    return v;
  };
  auto positive = [&](std::int64_t v, const char* field) {
    at_least(v, 0, field);
    if (v == 0) {
      throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": " + field + ": 0 must be greater than 0");
    }
    return v;
  };
  while (std::getline(in, line)) {
    ++lineno;
    const auto f = split_fields(line, ',');
    if (f.size() != 11) throw std::invalid_argument(name + ": record " + std::to_string(lineno) + " has " + std::to_string(f.size()) + " fields, not 11");
    TraceRow r;
    r.request.id = f[0];
    r.client = f[1];
    r.user = at_least(integer(f[2], "user"), -1, "user");  // -1: an open arrival's
    if (f[3] == "open") r.cause = Cause::kOpen;
    else if (f[3] == "start") r.cause = Cause::kStart;
    else if (f[3] == "after") r.cause = Cause::kAfter;
    else throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": cause '" + f[3] + "' is not open, start or after");
    r.after = f[4];
    if (r.cause == Cause::kAfter && !seen.contains(r.after)) {
      throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": after '" + r.after + "' is not an earlier request");
    }
    r.time_us = at_least(integer(f[5], "time_us"), 0, "time_us");
    if (!f[6].empty()) r.timeout_us = positive(integer(f[6], "timeout_us"), "timeout_us");
    if (!f[7].empty()) r.request.max_tokens = at_least(integer(f[7], "max_tokens"), 1, "max_tokens");
    if (f[8] != "0" && f[8] != "1") {
      throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": measured '" + f[8] + "' is not 0 or 1");
    }
    r.measured = f[8] == "1";
    r.request.sampled_output_len = at_least(integer(f[9], "sampled_output_len"), 0, "sampled_output_len");
    if (!f[10].empty()) {
      for (const auto& tok : split_fields(f[10], ' ')) {
        const std::int64_t id = integer(tok, "prompt");
        if (id < 0 || id > std::numeric_limits<std::int32_t>::max()) {
          throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": prompt: token id " + tok +
                                      " is outside 0 to " + std::to_string(std::numeric_limits<std::int32_t>::max()));
        }
        r.request.prompt.push_back(static_cast<std::int32_t>(id));
      }
    }
    if (!seen.insert(r.request.id).second) throw std::invalid_argument(name + ": record " + std::to_string(lineno) + ": request '" + r.request.id + "' again");
    t.rows.push_back(std::move(r));
  }
  t.sha256 = contracts::sha256_hex(text);
  return t;
}

Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  return read_trace_text(ss.str(), path);
}

}  // namespace blis::sim
