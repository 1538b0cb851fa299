#include "sim/workload/convert/inference_perf.h"

#include <algorithm>
#include <cmath>

#include "contracts/doc/scalars.h"
#include "contracts/fmath.h"
#include "sim/rng/distributions.h"

namespace blis::sim::convert {
namespace {

// generate_distribution()'s parameters for one list of lengths.
struct Lengths {
  std::string type = "normal";
  double min = 10, max = 1024, mean = 512, sd = 200;
  std::int64_t total = 0;

  std::int64_t draw(rng::Stream& s) const {
    if (type == "fixed") return static_cast<std::int64_t>(mean);
    double x = mean;
    if (type == "uniform") {
      x = min < max ? rng::uniform(s, min, max) : min;
    } else if (type == "lognormal") {
      const double shifted = mean - min > 0 ? mean - min : 1.0;
      const double sigma2 = fmath::log(1 + (sd / shifted) * (sd / shifted));
      const double mu = fmath::log(shifted) - sigma2 / 2;
      const double sigma = std::sqrt(sigma2);
      x = (sigma > 0 ? rng::lognormal(s, fmath::exp(mu), sigma) : fmath::exp(mu)) + min;
    } else if (sd > 0) {
      x = rng::normal(s, mean, sd);
    }
    return static_cast<std::int64_t>(std::clamp(rng::round_half_even(std::clamp(x, min, max)), min, max));
  }
};

Lengths read_lengths(Options& data, const std::string& key, const std::string& file) {
  const doc::Node* node = data.take(key);
  if (!node) refuse(file, "data." + key + " is required by the random and synthetic data types");
  Options d({OptionSource{node, file, true}});
  Lengths l;
  if (auto v = d.integer("min")) l.min = static_cast<double>(*v);
  if (auto v = d.integer("max")) l.max = static_cast<double>(*v);
  if (auto v = d.number("mean")) l.mean = *v;
  if (auto v = d.number("std_dev")) l.sd = *v;
  const auto total = d.integer("total_count");
  if (auto v = d.string("type")) l.type = *v;
  d.finish();
  if (!total) refuse(location(OptionSource{nullptr, file, true}, *node), "data." + key + ".total_count is required");
  if (*total < 1) d.refuse_value("total_count", "upstream requires a positive count");
  l.total = *total;
  if (l.type != "normal" && l.type != "lognormal" && l.type != "uniform" && l.type != "fixed") {
    d.refuse_value("type", "generate_distribution() draws normal, lognormal, uniform or fixed");
  }
  if (l.min > l.max) d.refuse_value("min", "min cannot be greater than max");
  if (l.sd < 0) d.refuse_value("std_dev", "std_dev cannot be negative");
  if (l.type == "normal" && (l.mean < l.min || l.mean > l.max))
    d.refuse_value("mean", "a normal's mean must lie within [min, max]");
  const double least = l.type == "fixed" ? std::trunc(l.mean) : l.min;
  if (least < 1) {
    d.refuse_value(l.type == "fixed" ? "mean" : "min",
                   "a length can be " + doc::show_number(least) + ", below 1 token");
  }
  return l;
}

// Passes over `keys` of `o` (accepted without effect), listing the present ones as "<prefix><key>".
void pass_over(Options& o, const std::vector<std::string>& keys, const std::string& prefix,
               std::vector<std::string>& passed) {
  for (const auto& k : keys)
    if (o.take(k)) passed.push_back(prefix + k);
}

}  // namespace

ConvertedWorkload convert_inference_perf(const Source& source, std::uint64_t seed) {
  if (source.options && !source.options->is_null()) {
    refuse("workload.convert.options", "inference-perf reads everything from its config file; state the options there");
  }
  const doc::Node file = parse_file(source);
  const OptionSource at{nullptr, source.name, true};
  Options top({OptionSource{&file, source.name, true}});
  std::vector<std::string> passed;
  pass_over(top, {"metrics", "report", "storage", "tokenizer"}, "", passed);
  if (const doc::Node* cb = top.take("circuit_breakers"); cb && !(cb->is_sequence() && cb->items.empty())) {
    top.refuse_value("circuit_breakers",
                     "circuit breakers stop a stage on the server's responses, which is not converted");
  }
  const doc::Node* api_node = top.take("api");
  const doc::Node* server_node = top.take("server");
  const doc::Node* data_node = top.take("data");
  const doc::Node* load_node = top.take("load");
  top.finish();

  Options api({OptionSource{api_node, source.name, true}});
  if (auto t = api.string("type"); t && *t != "completion") {
    api.refuse_value("type", "the random and synthetic data types support only the completion API upstream");
  }
  pass_over(api, {"streaming", "headers", "slo_unit", "slo_tpot_header", "slo_ttft_header"}, "api.", passed);
  api.finish();
  Options server({OptionSource{server_node, source.name, true}});
  const bool ignore_eos = server.boolean("ignore_eos").value_or(true);
  pass_over(server, {"type", "model_name", "base_url", "api_key", "cert_path", "key_path"}, "server.", passed);
  server.finish();

  if (!data_node) refuse(source.name, "data is not stated: inference-perf's default type, mock, is not converted");
  Options data({OptionSource{data_node, source.name, true}});
  const auto type = data.string("type");
  if (!type || (*type != "random" && *type != "synthetic")) {
    if (type) data.refuse_value("type", "this converter reads the random and synthetic data types");
    refuse(location(at, *data_node), "data.type is not stated: inference-perf's default, mock, is not converted");
  }
  const Lengths input = read_lengths(data, "input_distribution", source.name);
  const Lengths output = read_lengths(data, "output_distribution", source.name);
  if (data.boolean("use_chat_template").value_or(false)) {
    data.refuse_value("use_chat_template", "the chat template's tokens are not known without the model's tokenizer");
  }
  pass_over(data, {"corpus_file_path"}, "data.", passed);
  data.finish();

  if (!load_node) refuse(source.name, "load is not stated: a converted workload needs its stage");
  Options load({OptionSource{load_node, source.name, true}});
  const std::string load_type = load.string("type").value_or("constant");
  if (load_type != "constant" && load_type != "poisson") {
    load.refuse_value("type", "this converter reads the constant and poisson load types");
  }
  const doc::Node* stages = load.take("stages");
  const auto timeout = load.number("request_timeout");
  if (timeout && !(*timeout > 0)) load.refuse_value("request_timeout", "a timeout is positive");
  const auto base_seed = load.integer("base_seed");
  const auto workers = load.integer("num_workers");
  const auto per_worker = load.integer("worker_max_concurrency");
  pass_over(load, {"interval", "worker_max_tcp_connections"}, "load.", passed);
  if (const doc::Node* cb = load.take("circuit_breakers"); cb && !(cb->is_sequence() && cb->items.empty())) {
    load.refuse_value("circuit_breakers",
                      "circuit breakers stop a stage on the server's responses, which is not converted");
  }
  load.finish();
  if (!stages || !stages->is_sequence() || stages->items.empty()) {
    refuse(location(at, stages ? *stages : *load_node), "load.stages holds no stage");
  }
  if (stages->items.size() > 1) {
    refuse(location(at, stages->items[1]),
           "a second stage starts when every request of the first has ended, which a "
           "trace row (sent at a time, or a delay after one request) cannot state; "
           "convert one stage per scenario");
  }
  Options stage({OptionSource{&stages->items.front(), source.name, true}});
  const auto rate = stage.number("rate");
  const auto duration = stage.integer("duration");
  for (const char* k : {"num_requests", "concurrency_level"}) {
    if (stage.take(k))
      stage.refuse_value(k, std::string(k) + " should not be set for CONSTANT/POISSON load types (upstream's rule)");
  }
  stage.finish();
  if (!rate || !(*rate > 0)) refuse(location(at, stages->items.front()), "a stage's rate is required and positive");
  if (!duration || *duration <= 0)
    refuse(location(at, stages->items.front()), "a stage's duration is required and positive");
  const double product = *rate * static_cast<double>(*duration);
  const auto n = static_cast<std::int64_t>(product);
  if (n < 1) refuse(location(at, stages->items.front()), "int(rate * duration) is 0: the stage sends no request");
  if (n > std::min(input.total, output.total)) {
    refuse(location(at, stages->items.front()),
           "the stage sends " + std::to_string(n) + " requests, more than total_count (" +
               std::to_string(std::min(input.total, output.total)) + " lengths): upstream fails");
  }

  const std::string component = "convert:" + source.format;
  const rng::Substreams streams(seed);
  Arrivals a;
  a.timeout_s = timeout;
  if (load_type == "constant") {
    std::vector<double> gaps;
    double total = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      auto s = streams.stream(component, "arrival", static_cast<std::uint64_t>(i));
      gaps.push_back(rng::exponential(s, 1.0 / *rate));
      total += gaps.back();
    }
    const double scale = static_cast<double>(*duration) / total;
    double t = 0;
    for (const double g : gaps) a.open_s.push_back(t += g * scale);
  } else {
    double t = 0;
    for (std::uint64_t second = 0; static_cast<std::int64_t>(a.open_s.size()) < n; ++second) {
      auto cs = streams.stream(component, "arrival_count", second);
      std::int64_t count = 0;
      for (double clock = rng::exponential(cs, 1.0 / *rate); clock <= 1.0; clock += rng::exponential(cs, 1.0 / *rate))
        ++count;
      if (count == 0) {
        t += 1.0;
        continue;
      }
      auto ps = streams.stream(component, "arrival", second);
      std::vector<double> gaps;
      double total = 0;
      for (std::int64_t k = 0; k < count; ++k) {
        gaps.push_back(rng::exponential(ps, 1.0 / static_cast<double>(count)));
        total += gaps.back();
      }
      const double scale = 1.0 / total;
      for (const double g : gaps) {
        t += g * scale;
        if (static_cast<std::int64_t>(a.open_s.size()) < n) a.open_s.push_back(t);
      }
    }
  }
  std::vector<engine::Request> requests;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto e = static_cast<std::uint64_t>(i);
    auto ls = streams.stream(component, "prompt_tokens", e);
    auto os = streams.stream(component, "output_tokens", e);
    auto is = streams.stream(component, "prompt_ids", e);
    engine::Request r;
    r.prompt = token_ids(is, static_cast<std::uint64_t>(input.draw(ls)));
    const std::int64_t out = output.draw(os);
    r.max_tokens = out;
    r.sampled_output_len = out;
    requests.push_back(std::move(r));
  }

  ConvertedWorkload w;
  if (!passed.empty()) {
    std::string list;
    for (const auto& p : passed) list += (list.empty() ? "" : ", ") + p;
    w.warnings.push_back("accepted without effect (they do not shape the workload): " + list);
  }
  w.warnings.push_back(
      "base_seed " + (base_seed ? std::to_string(*base_seed) : std::string("(default: the clock)")) +
      " is recorded, not reproduced: upstream's timers draw unseeded; BLIS draws the same distributions "
      "from the replication's named substreams");
  w.warnings.push_back("upstream holds at most num_workers x worker_max_concurrency (" +
                       (workers ? std::to_string(*workers) : std::string("CPU count")) + " x " +
                       std::to_string(per_worker.value_or(100)) +
                       ") requests in flight; one due past that cap waits at "
                       "the client, while the trace sends each at its time");
  if (!ignore_eos) {
    w.warnings.push_back(
        "server.ignore_eos is false: upstream's model may end a response before max_tokens; BLIS sends "
        "max_tokens as the output length");
  }
  w.warnings.push_back(
      "prompt token IDs are drawn uniformly; upstream samples the vocabulary (random) or a corpus (synthetic)");
  w.trace = make_trace(source.format, std::move(requests), a, seed);
  return w;
}

}  // namespace blis::sim::convert
