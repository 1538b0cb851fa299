#include "sim/workload/convert/vllm_bench_random.h"

#include <algorithm>
#include <cmath>

#include "contracts/doc/scalars.h"
#include "sim/rng/distributions.h"
#include "sim/workload/convert/vllm_serve.h"

namespace blis::sim::convert {

ConvertedWorkload convert_vllm_bench_random(const Source& source, std::uint64_t seed) {
  const doc::Node file = parse_file(source);
  Options o({OptionSource{&file, source.name, true}, OptionSource{source.options, "workload.convert.options", false}},
            vllm_spelling);
  const ServeOptions so = read_serve_options(o, "random");
  const std::int64_t input_len = o.integer("random-input-len").value_or(1024);
  const std::int64_t output_len = o.integer("random-output-len").value_or(128);
  const double ratio = o.number("random-range-ratio").value_or(0.0);
  const std::int64_t prefix_len = o.integer("random-prefix-len").value_or(0);
  o.finish();
  if (input_len < 0) o.refuse_value("random-input-len", "a length is at least 0");
  if (prefix_len < 0) o.refuse_value("random-prefix-len", "a length is at least 0");
  if (!(ratio >= 0.0 && ratio < 1.0)) o.refuse_value("random-range-ratio", "upstream requires a range ratio in [0, 1)");

  const auto low = [](std::int64_t len, double r) {
    return static_cast<std::int64_t>(std::floor(static_cast<double>(len) * (1 - r)));
  };
  const auto high = [](std::int64_t len, double r) {
    return static_cast<std::int64_t>(std::ceil(static_cast<double>(len) * (1 + r)));
  };
  const std::int64_t in_lo = low(input_len, ratio), in_hi = high(input_len, ratio);
  const std::int64_t out_lo = std::max<std::int64_t>(low(output_len, ratio), 1);
  const std::int64_t out_hi = std::max<std::int64_t>(high(output_len, ratio), 1);
  if (prefix_len + in_lo < 1) {
    o.refuse_value("random-input-len", "with random-prefix-len " + std::to_string(prefix_len) +
                                           " and random-range-ratio " + doc::show_number(ratio) +
                                           " a prompt may have no token, which upstream refuses");
  }

  const std::string component = "convert:" + source.format;
  const rng::Substreams streams(seed);
  auto ps = streams.stream(component, "prefix_ids", 0);
  const std::vector<std::int32_t> prefix = token_ids(ps, static_cast<std::uint64_t>(prefix_len));
  std::vector<engine::Request> requests;
  for (std::int64_t i = 0; i < so.num_prompts; ++i) {
    const auto n = static_cast<std::uint64_t>(i);
    auto ls = streams.stream(component, "prompt_tokens", n);
    const std::uint64_t own =
        rng::uniform_int(ls, static_cast<std::uint64_t>(in_lo), static_cast<std::uint64_t>(in_hi));
    auto os = streams.stream(component, "output_tokens", n);
    const auto out = static_cast<std::int64_t>(
        rng::uniform_int(os, static_cast<std::uint64_t>(out_lo), static_cast<std::uint64_t>(out_hi)));
    auto is = streams.stream(component, "prompt_ids", n);
    engine::Request r;
    r.prompt = prefix;
    const auto ids = token_ids(is, own);
    r.prompt.insert(r.prompt.end(), ids.begin(), ids.end());
    r.max_tokens = out;
    r.sampled_output_len = out;
    requests.push_back(std::move(r));
  }
  ConvertedWorkload w;
  w.warnings.push_back("input lengths are drawn from [" + std::to_string(in_lo) + ", " + std::to_string(in_hi) +
                       "] as if the tokenizer added no special tokens (upstream subtracts them before drawing and the "
                       "server adds them back), and without upstream's decode and re-encode, which can move a "
                       "prompt's length by a few tokens");
  w.warnings.push_back(
      "prompt token IDs after the prefix are drawn uniformly; upstream's are consecutive vocabulary entries "
      "from a random offset (in both, prompts share no IDs beyond the prefix except by chance)");
  const Arrivals a = serve_arrivals(so, requests.size(), streams, component, w.warnings);
  w.trace = make_trace(source.format, std::move(requests), a, seed);
  return w;
}

}  // namespace blis::sim::convert
