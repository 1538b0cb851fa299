#include "sim/workload/convert/guidellm_synthetic.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contracts/doc/diagnostics.h"
#include "contracts/doc/scalars.h"
#include "sim/rng/distributions.h"

namespace blis::sim::convert {
namespace {

// IntegerRangeSampler's bounds and mode for one of prompt_tokens / output_tokens.
struct Lengths {
  std::int64_t mean = 0;
  std::optional<std::int64_t> stdev;
  std::int64_t lo = 0, hi = 0;

  std::int64_t draw(rng::Stream& s) const {
    if (lo == hi) return lo;
    if (!stdev)
      return static_cast<std::int64_t>(
          rng::uniform_int(s, static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi)));
    const double x = rng::normal(s, static_cast<double>(mean), static_cast<double>(*stdev));
    return static_cast<std::int64_t>(
        rng::round_half_even(std::clamp(x, static_cast<double>(lo), static_cast<double>(hi))));
  }
};

Lengths read_lengths(Options& o, const std::string& name, const std::string& file) {
  std::optional<std::int64_t> v[4];
  const std::string keys[4] = {name, name + "_stdev", name + "_min", name + "_max"};
  for (int k = 0; k < 4; ++k) {
    v[k] = o.integer(keys[k]);
    if (v[k] && *v[k] <= 0) o.refuse_value(keys[k], "guidellm requires a positive integer");
  }
  if (!v[0]) {
    refuse(file, name + " is not stated: " +
                     (name == "prompt_tokens"
                          ? std::string("guidellm requires it")
                          : std::string("the response length would be the model's own, which BLIS cannot draw")));
  }
  Lengths l;
  l.mean = *v[0];
  l.stdev = v[1];
  l.lo = v[2] ? *v[2] : (l.stdev ? std::max<std::int64_t>(1, l.mean - 5 * *l.stdev) : l.mean);
  l.hi = v[3] ? *v[3] : (l.stdev ? l.mean + 5 * *l.stdev : l.mean);
  if (l.lo > l.hi) {
    o.refuse_value(v[2] ? keys[2] : keys[3],
                   "the range [" + std::to_string(l.lo) + ", " + std::to_string(l.hi) + "] is empty");
  }
  return l;
}

// A number, or a list holding one (guidellm runs one benchmark per element of a longer list).
std::optional<double> single(Options& o, const std::string& key) {
  const doc::Node* n = o.take(key);
  if (!n) return std::nullopt;
  const doc::Node* v = n;
  if (n->is_sequence()) {
    if (n->items.size() != 1) {
      o.refuse_value(key, "a list of " + std::to_string(n->items.size()) +
                              " values runs one benchmark per value, in sequence; convert one value at a time");
    }
    v = &n->items.front();
  }
  doc::Diagnostics d;
  double x = 0;
  if (!doc::to_number(*v, key, d, x)) o.refuse_value(key, d.list().front().cause);
  if (!(x > 0)) o.refuse_value(key, "guidellm requires a positive value");
  return x;
}

std::int64_t whole(const Options& o, const std::string& key, double x) {
  if (x != std::floor(x) || x > 9007199254740992.0) o.refuse_value(key, "expected a whole number");
  return static_cast<std::int64_t>(x);
}

// A phase length guidellm takes as a number or a mapping: only 0 (none) is converted.
void none_or_zero(Options& o, const std::string& key, const std::string& cause) {
  const doc::Node* n = o.take(key);
  if (!n) return;
  doc::Diagnostics d;
  double x = 1;
  if (!(n->is_scalar() && doc::to_number(*n, key, d, x) && x == 0)) o.refuse_value(key, cause);
}

}  // namespace

ConvertedWorkload convert_guidellm_synthetic(const Source& source, std::uint64_t seed) {
  const doc::Node file = parse_file(source);
  Options data({OptionSource{&file, source.name, true}});
  if (auto kind = data.string("kind"); kind && *kind != "synthetic_text") {
    data.refuse_value("kind", "this converter reads synthetic_text data");
  }
  const Lengths prompt = read_lengths(data, "prompt_tokens", source.name);
  const Lengths output = read_lengths(data, "output_tokens", source.name);
  if (auto turns = data.integer("turns"); turns && *turns != 1) {
    data.refuse_value("turns", "multi-turn conversations are not converted by this build");
  }
  data.finish();

  Options opts({OptionSource{source.options, "workload.convert.options", false}});
  const doc::Node* profile_node = opts.take("profile");
  const doc::Node* constraints = opts.take("constraint");
  const doc::Node* seed_node = opts.take("seed");
  opts.finish();
  if (!profile_node) {
    refuse("workload.convert.options",
           "profile is not stated (guidellm's default, sweep, probes the server and is not converted)");
  }
  Options profile({OptionSource{profile_node, "workload.convert.options.profile", false}});
  const std::string kind = profile.string("kind").value_or("");
  std::int64_t users = 0;
  double rate = 0;
  if (kind == "synchronous") {
    users = 1;
  } else if (kind == "concurrent") {
    const auto streams = single(profile, "streams");
    if (!streams) refuse("workload.convert.options.profile", "concurrent requires streams");
    users = whole(profile, "streams", *streams);
  } else if (kind == "constant" || kind == "async" || kind == "poisson") {
    const auto r = single(profile, "rate");
    if (!r) refuse("workload.convert.options.profile", kind + " requires rate");
    rate = *r;
    if (profile.take("max_concurrency")) {
      profile.refuse_value("max_concurrency",
                           "arrivals then wait for a free slot at the client, which a trace row cannot state");
    }
  } else {
    refuse("workload.convert.options.profile.kind", "'" + kind +
                                                        "' is not converted; this converter reads synchronous, "
                                                        "concurrent, constant, async and poisson");
  }
  none_or_zero(profile, "rampup_duration", "a ramp-up is not converted by this build");
  none_or_zero(profile, "warmup", "a warm-up phase is not converted by this build");
  none_or_zero(profile, "cooldown", "a cool-down phase is not converted by this build");
  profile.finish();

  std::optional<std::int64_t> max_requests;
  std::optional<double> max_seconds;
  std::vector<const doc::Node*> items;
  if (constraints && constraints->is_sequence()) {
    for (const auto& c : constraints->items) items.push_back(&c);
  } else if (constraints) {
    items.push_back(constraints);
  }
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string where = "workload.convert.options.constraint[" + std::to_string(k) + "]";
    Options c({OptionSource{items[k], where, false}});
    const std::string ck = c.string("kind").value_or("");
    if (ck == "max_requests" && !max_requests) {
      const auto n = single(c, "count");
      if (!n) refuse(where, "max_requests requires count");
      max_requests = whole(c, "count", *n);
    } else if (ck == "max_duration" && !max_seconds) {
      max_seconds = single(c, "seconds");
      if (!max_seconds) refuse(where, "max_duration requires seconds");
    } else {
      refuse(where + ".kind",
             "'" + ck + "' is not converted (or stated twice); this converter reads max_requests and max_duration");
    }
    c.finish();
  }
  ConvertedWorkload w;
  std::string seed_text = "(default)";
  if (seed_node) {
    Options s({OptionSource{seed_node, "workload.convert.options.seed", false}});
    if (s.string("kind").value_or("") != "static") s.refuse_value("kind", "this converter reads a static seed");
    if (const auto value = s.integer("value")) seed_text = std::to_string(*value);
    s.finish();
  }
  w.warnings.push_back("seed " + seed_text +
                       " is recorded, not reproduced: BLIS draws guidellm's distributions from the "
                       "replication's named substreams");
  if (!max_requests && !max_seconds) {
    refuse("workload.convert.options.constraint", "no max_requests or max_duration: synthetic data never runs out");
  }
  if (users > 0 && !max_requests) {
    refuse(
        "workload.convert.options.constraint",
        "max_duration alone with " + kind + ": how many requests it holds depends on completions; state max_requests");
  }

  const std::string component = "convert:" + source.format;
  const rng::Substreams streams(seed);
  Arrivals a;
  a.users = users;
  if (users == 0) {
    const std::int64_t limit = max_requests.value_or(std::numeric_limits<std::int64_t>::max());
    double t = 0;
    for (std::int64_t k = 1; k <= limit; ++k) {
      if (kind == "poisson") {
        auto s = streams.stream(component, "arrival", static_cast<std::uint64_t>(k - 1));
        t += rng::exponential(s, 1.0 / rate);
      } else {
        t = static_cast<double>(k) / rate;
      }
      if (max_seconds && t >= *max_seconds) break;
      a.open_s.push_back(t);
    }
    if (max_seconds) {
      w.warnings.push_back(
          "max_duration " + doc::show_number(*max_seconds) +
          " s: the requests scheduled before it are "
          "sent and run to completion; upstream also stops processing at that time (bound the run's horizon)");
    }
  }
  const std::size_t n = users > 0 ? static_cast<std::size_t>(*max_requests) : a.open_s.size();
  std::vector<engine::Request> requests;
  for (std::size_t i = 0; i < n; ++i) {
    auto ls = streams.stream(component, "prompt_tokens", i);
    auto os = streams.stream(component, "output_tokens", i);
    auto is = streams.stream(component, "prompt_ids", i);
    engine::Request r;
    r.prompt = token_ids(is, static_cast<std::uint64_t>(prompt.draw(ls)));
    const std::int64_t out = output.draw(os);
    r.max_tokens = out;
    r.sampled_output_len = out;
    requests.push_back(std::move(r));
  }
  if (users > 0) {
    w.warnings.push_back(
        std::to_string(users) + " streams: stream u sends requests u, u + " + std::to_string(users) +
        ", ... each as its previous completes; upstream gives the next request to whichever stream asks "
        "first, so which request follows which differs (lengths are drawn independently per request)");
  }
  w.warnings.push_back("prompt token IDs are drawn uniformly; upstream builds the prompt text from a corpus");
  w.trace = make_trace(source.format, std::move(requests), a, seed);
  return w;
}

}  // namespace blis::sim::convert
