// What the converters (convert.h) share: reading a benchmark client's options from located trees, refusing
// by name, and writing the converted requests as trace rows. Every refusal is a std::invalid_argument
// whose text starts with where the value was written (file:line:col, or the scenario field path) and the
// option's upstream name, then its value and the cause.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "contracts/doc/node.h"
#include "contracts/engine/request.h"
#include "sim/rng/substreams.h"
#include "sim/trace/trace.h"

namespace blis::sim::convert {

[[noreturn]] void refuse(const std::string& where, const std::string& cause);

// What a converter produces: the requests with the causes of their arrivals, and what the conversion could
// not carry over from the source, in words (approximations, options recorded but not reproduced).
struct ConvertedWorkload {
  Trace trace;
  std::vector<std::string> warnings;
};

// The input of one converter: the file's bytes and the scenario's Convert.options (null when absent).
struct Source {
  std::string format;
  std::string name;  // the file as messages name it
  std::string text;
  const doc::Node* options = nullptr;
};

// The file as one YAML document (JSON for a name ending in .json), refused with file:line:col when the
// strict parser refuses it.
doc::Node parse_file(const Source& source);

// The value as written, for messages: a scalar's text, or the tree as compact JSON.
std::string shown(const doc::Node& n);

// One source of options: a map (or null: none) and how messages name it ("workload.convert.options", or
// the file's name, whose marks give line and column).
struct OptionSource {
  const doc::Node* map = nullptr;
  std::string name;
  bool located = false;  // true: name is a file and the nodes' marks are its lines
};

// Options read key by key from one or more sources. A key written in two sources is refused (no precedence
// rule decides between them). Every key a converter asks for, present or not, becomes a known key;
// finish() refuses each key it never asked for, naming its value, the known keys and the closest of them.
// `spelling`, when given, maps a written key to the name the client reads (vLLM reads num_prompts as
// num-prompts).
class Options {
 public:
  Options(std::vector<OptionSource> sources, std::function<std::string(const std::string&)> spelling = nullptr);
  Options(const Options&) = delete;  // entries point into sources_
  Options& operator=(const Options&) = delete;

  const doc::Node* take(const std::string& key);
  std::optional<std::int64_t> integer(const std::string& key);
  std::optional<double> number(const std::string& key);  // finite
  // A finite number, or infinity written as Python's float() reads it (inf, Infinity, .inf).
  std::optional<double> number_or_inf(const std::string& key);
  std::optional<bool> boolean(const std::string& key);
  std::optional<std::string> string(const std::string& key);
  // "where: key = value" for a refusal of a present key's value.
  std::string where(const std::string& key) const;
  [[noreturn]] void refuse_value(const std::string& key, const std::string& cause) const;
  // Refuses the first key never asked for.
  void finish() const;

 private:
  struct Entry {
    std::string key;      // as the client reads it
    std::string written;  // as written
    const doc::Node* value;
    const OptionSource* source;
  };
  const Entry* find(const std::string& key) const;

  std::vector<OptionSource> sources_;
  std::vector<Entry> entries_;
  std::set<std::string> known_;
};

// "file:line:col" for a located node, else the name.
std::string location(const OptionSource& source, const doc::Node& n);

// Seconds to integer microseconds, rounded half to even; refuses a time that is negative, not finite or
// beyond 2^53 microseconds.
std::int64_t to_us(double seconds, const std::string& what);

// `count` token IDs, each uniform on [0, kVocabulary), from `s`.
std::vector<std::int32_t> token_ids(rng::Stream& s, std::uint64_t count);

// How the converted requests arrive: at open times (seconds, in request order), or from `users`
// closed-loop users, user u sending requests u, u + users, u + 2 users, ... each as soon as (delay 0) its
// previous one ended.
struct Arrivals {
  std::vector<double> open_s;
  std::int64_t users = 0;
  std::optional<double> timeout_s;
};

// The rows: request i gets the id "<client>/<i>", the request's prompt, max tokens and sampled output
// length, and its cause from `arrivals`. The header holds what the converter knows (format version,
// producer, seed, generator, time unit, records, requests); the caller fills writer, engine and scenario.
Trace make_trace(const std::string& client, std::vector<engine::Request> requests, const Arrivals& arrivals,
                 std::uint64_t seed);

}  // namespace blis::sim::convert
