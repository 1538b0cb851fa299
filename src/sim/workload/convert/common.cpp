#include "sim/workload/convert/common.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/json.h"
#include "contracts/doc/parse.h"
#include "contracts/doc/scalars.h"
#include "sim/rng/distributions.h"
#include "sim/workload/generator.h"

namespace blis::sim::convert {

void refuse(const std::string& where, const std::string& cause) { throw std::invalid_argument(where + ": " + cause); }

doc::Node parse_file(const Source& source) {
  doc::Diagnostics d{source.name};
  doc::Parsed p = doc::parse(source.text, doc::syntax_of(source.name), d);
  if (!d.ok()) throw std::invalid_argument(d.str());
  if (p.documents.size() != 1) {
    refuse(source.name, "holds " + std::to_string(p.documents.size()) + " documents, not one");
  }
  return std::move(p.documents.front());
}

std::string shown(const doc::Node& n) {
  if (n.is_scalar()) return n.style == doc::Style::Quoted ? "'" + n.scalar + "'" : n.scalar;
  if (n.is_null()) return "null";
  return doc::to_json(n).dump();
}

std::string location(const OptionSource& source, const doc::Node& n) {
  if (!source.located || n.mark.line == 0) return source.name;
  return source.name + ":" + std::to_string(n.mark.line) + ":" + std::to_string(n.mark.col);
}

Options::Options(std::vector<OptionSource> sources, std::function<std::string(const std::string&)> spelling)
    : sources_(std::move(sources)) {
  for (const auto& src : sources_) {
    if (!src.map || src.map->is_null()) continue;
    if (!src.map->is_map()) refuse(location(src, *src.map), "expected a mapping of options, got " + shown(*src.map));
    for (const auto& e : src.map->entries) {
      const std::string key = spelling ? spelling(e.first.scalar) : e.first.scalar;
      if (const Entry* prior = find(key)) {
        refuse(location(src, e.first), "option '" + e.first.scalar + "' is also written at " +
                                           location(*prior->source, *prior->value) + " as '" + prior->written +
                                           "'; state it once");
      }
      entries_.push_back(Entry{key, e.first.scalar, &e.second, &src});
    }
  }
}

const Options::Entry* Options::find(const std::string& key) const {
  for (const auto& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

const doc::Node* Options::take(const std::string& key) {
  known_.insert(key);
  const Entry* e = find(key);
  return e ? e->value : nullptr;
}

std::string Options::where(const std::string& key) const {
  const Entry* e = find(key);
  if (!e) return key;
  return location(*e->source, *e->value) + ": " + e->written + " = " + shown(*e->value);
}

void Options::refuse_value(const std::string& key, const std::string& cause) const {
  throw std::invalid_argument(where(key) + ": " + cause);
}

namespace {

template <typename T, typename Read>
std::optional<T> scalar(Options& o, const std::string& key, Read read) {
  const doc::Node* n = o.take(key);
  if (!n) return std::nullopt;
  doc::Diagnostics d;
  T v{};
  if (!read(*n, d, v)) o.refuse_value(key, d.list().front().cause);
  return v;
}

}  // namespace

std::optional<std::int64_t> Options::integer(const std::string& key) {
  return scalar<std::int64_t>(
      *this, key, [&](const doc::Node& n, doc::Diagnostics& d, std::int64_t& v) { return doc::to_int(n, key, d, v); });
}

std::optional<double> Options::number(const std::string& key) {
  return scalar<double>(
      *this, key, [&](const doc::Node& n, doc::Diagnostics& d, double& v) { return doc::to_number(n, key, d, v); });
}

std::optional<double> Options::number_or_inf(const std::string& key) {
  const doc::Node* n = take(key);
  if (!n) return std::nullopt;
  if (n->is_scalar()) {
    std::string s = n->scalar;
    if (!s.empty() && s[0] == '+') s.erase(0, 1);
    if (!s.empty() && s[0] == '.') s.erase(0, 1);
    for (auto& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    if (s == "inf" || s == "infinity") return std::numeric_limits<double>::infinity();
  }
  return number(key);
}

std::optional<bool> Options::boolean(const std::string& key) {
  return scalar<bool>(*this, key,
                      [&](const doc::Node& n, doc::Diagnostics& d, bool& v) { return doc::to_bool(n, key, d, v); });
}

std::optional<std::string> Options::string(const std::string& key) {
  return scalar<std::string>(*this, key, [&](const doc::Node& n, doc::Diagnostics& d, std::string& v) {
    return doc::to_string(n, key, d, v);
  });
}

void Options::finish() const {
  std::vector<std::string_view> known(known_.begin(), known_.end());
  std::string list;
  for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
  for (const auto& e : entries_) {
    if (known_.contains(e.key)) continue;
    const std::string close = doc::nearest(e.key, known);
    throw std::invalid_argument(location(*e.source, *e.value) + ": option '" + e.written + "' (value " +
                                shown(*e.value) + ") is not converted; this converter reads " + list +
                                (close.empty() ? "" : "; did you mean '" + close + "'?"));
  }
}

std::int64_t to_us(double seconds, const std::string& what) {
  constexpr double kLimit = 9007199254740992.0;  // 2^53
  const double us = rng::round_half_even(seconds * 1e6);
  if (!std::isfinite(seconds) || seconds < 0 || us > kLimit) {
    refuse(what, "the time " + doc::show_number(seconds) + " s is not a time from 0 to 2^53 microseconds");
  }
  return static_cast<std::int64_t>(us);
}

std::vector<std::int32_t> token_ids(rng::Stream& s, std::uint64_t count) {
  std::vector<std::int32_t> ids;
  ids.reserve(count);
  for (std::uint64_t k = 0; k < count; ++k) ids.push_back(static_cast<std::int32_t>(s.below(kVocabulary)));
  return ids;
}

Trace make_trace(const std::string& client, std::vector<engine::Request> requests, const Arrivals& arrivals,
                 std::uint64_t seed) {
  Trace t;
  t.header.format_version = kTraceFormatVersion;
  t.header.producer = "simulator";
  t.header.seed = static_cast<std::int64_t>(seed);
  t.header.generator.name = std::string(rng::Substreams::generator_name());
  t.header.generator.version = rng::Substreams::generator_version();
  t.header.time_unit = "microseconds";
  t.header.records = {"arrivals"};
  t.header.requests = units::Count{static_cast<std::int64_t>(requests.size())};
  std::optional<std::int64_t> timeout;
  if (arrivals.timeout_s) timeout = to_us(*arrivals.timeout_s, client + " request timeout");
  for (std::size_t i = 0; i < requests.size(); ++i) {
    TraceRow row;
    row.request = std::move(requests[i]);
    row.request.id = client + "/" + std::to_string(i);
    row.client = client;
    row.timeout_us = timeout;
    if (arrivals.users > 0) {
      const auto users = static_cast<std::size_t>(arrivals.users);
      row.user = static_cast<std::int64_t>(i % users);
      if (i < users) {
        row.cause = Cause::kStart;
      } else {
        row.cause = Cause::kAfter;
        row.after = t.rows[i - users].request.id;
      }
    } else {
      row.time_us = to_us(arrivals.open_s.at(i), row.request.id + " arrival");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace blis::sim::convert
