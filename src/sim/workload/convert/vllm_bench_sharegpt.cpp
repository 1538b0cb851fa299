#include "sim/workload/convert/vllm_bench_sharegpt.h"

#include <map>
#include <string_view>
#include <utility>

#include "sim/workload/convert/vllm_serve.h"

namespace blis::sim::convert {
namespace {

struct Sample {
  std::uint64_t entity = 0;  // the prompt's IDs stream
  std::int64_t prompt = 0;
  std::int64_t output = 0;
};

// Upstream's is_valid_sequence() with its defaults.
bool valid(std::int64_t prompt, std::int64_t output, bool check_output) {
  return !(prompt < 4 || (check_output && output < 4) || prompt > 1024 || prompt + output > 2048);
}

const std::string& turn_text(const Source& source, const doc::Node& conversation, std::size_t turn) {
  const doc::Node& t = conversation.items[turn];
  const doc::Node* v = t.is_map() ? t.find("value") : nullptr;
  if (!v || !v->is_scalar()) {
    refuse(location(OptionSource{nullptr, source.name, true}, t),
           "conversations[" + std::to_string(turn) + "] has no string \"value\", which upstream reads");
  }
  return v->scalar;
}

}  // namespace

std::int64_t estimated_tokens(std::uint64_t bytes) {
  // round(bytes / 4) with halves rounded up (Go's math.Round on a positive value), at least 1.
  const auto t = static_cast<std::int64_t>((bytes + 2) / 4);
  return t < 1 ? 1 : t;
}

ConvertedWorkload convert_vllm_bench_sharegpt(const Source& source, std::uint64_t seed) {
  Options o({OptionSource{source.options, "workload.convert.options", false}}, vllm_spelling);
  const ServeOptions so = read_serve_options(o, "sharegpt");
  const std::optional<std::int64_t> fixed_output = o.integer("sharegpt-output-len");
  const bool disable_shuffle = o.boolean("disable-shuffle").value_or(false);
  const bool no_oversample = o.boolean("no-oversample").value_or(false);
  if (o.take("dataset-path")) o.refuse_value("dataset-path", "the dataset is the file at workload.convert.path");
  o.finish();
  if (fixed_output && *fixed_output < 1) o.refuse_value("sharegpt-output-len", "an output has at least 1 token");

  const doc::Node file = parse_file(source);
  const OptionSource at{nullptr, source.name, true};
  if (!file.is_sequence())
    refuse(location(at, file), "a ShareGPT dataset is a list of conversations, got " + shown(file));
  std::vector<std::size_t> kept;
  std::size_t too_few_turns = 0;
  for (std::size_t e = 0; e < file.items.size(); ++e) {
    const doc::Node& entry = file.items[e];
    if (!entry.is_map()) refuse(location(at, entry), "a ShareGPT entry is a mapping, got " + shown(entry));
    const doc::Node* conv = entry.find("conversations");
    if (conv && !conv->is_sequence()) refuse(location(at, *conv), "\"conversations\" is not a list");
    if (!conv || conv->items.size() < 2) {
      ++too_few_turns;
      continue;
    }
    kept.push_back(e);
  }
  const std::string component = "convert:" + source.format;
  const rng::Substreams streams(seed);
  if (!disable_shuffle) {
    auto s = streams.stream(component, "shuffle", 0);
    for (std::size_t i = kept.size(); i > 1; --i) std::swap(kept[i - 1], kept[s.below(i)]);
  }

  std::vector<Sample> samples;
  std::map<std::string_view, std::uint64_t> first_with_text;
  std::size_t filtered = 0;
  for (const std::size_t e : kept) {
    if (samples.size() >= static_cast<std::size_t>(so.num_prompts)) break;
    const doc::Node& entry = file.items[e];
    for (const char* media : {"image", "video"}) {
      if (const doc::Node* m = entry.find(media)) {
        refuse(location(at, *m),
               std::string("the entry has an \"") + media + "\": multimodal prompts are not converted");
      }
    }
    const doc::Node& conv = *entry.find("conversations");
    const std::string& prompt = turn_text(source, conv, 0);
    const std::string& completion = turn_text(source, conv, 1);
    Sample s;
    s.prompt = estimated_tokens(prompt.size());
    s.output = fixed_output ? *fixed_output : estimated_tokens(completion.size());
    if (!valid(s.prompt, s.output, !fixed_output)) {
      ++filtered;
      continue;
    }
    s.entity = first_with_text.try_emplace(prompt, e).first->second;
    samples.push_back(s);
  }
  if (samples.empty()) {
    refuse(source.name, "no conversation is usable: " + std::to_string(too_few_turns) + " have fewer than two turns, " +
                            std::to_string(filtered) +
                            " fail upstream's length filters (prompt 4 to 1024 tokens, output "
                            "at least 4, together at most 2048)");
  }

  ConvertedWorkload w;
  w.warnings.push_back(
      "token counts are llm-d's estimate max(1, round(bytes / 4)), not the model's tokenizer: lengths "
      "and upstream's length filters are approximate");
  w.warnings.push_back(
      "only each conversation's first turn is sent (as upstream): the converted workload has no sessions");
  if (too_few_turns + filtered > 0) {
    w.warnings.push_back(std::to_string(too_few_turns) + " conversations with fewer than two turns and " +
                         std::to_string(filtered) + " failing the length filters are skipped, as upstream");
  }
  if (!disable_shuffle) {
    w.warnings.push_back(
        "conversations are taken in a permutation BLIS draws, not the one Python's random draws for "
        "seed " +
        std::to_string(so.seed) + " (set disable-shuffle for the file's order)");
  }
  const std::size_t found = samples.size();
  if (found < static_cast<std::size_t>(so.num_prompts)) {
    if (no_oversample) {
      w.warnings.push_back("sends " + std::to_string(found) + " of num-prompts " + std::to_string(so.num_prompts) +
                           " requests: the dataset has no more usable conversations (no-oversample, as upstream)");
    } else {
      for (std::size_t k = 0; found + k < static_cast<std::size_t>(so.num_prompts); ++k) {
        auto s = streams.stream(component, "oversample", k);
        const Sample pick = samples[s.below(found)];
        samples.push_back(pick);
      }
      w.warnings.push_back("the dataset has " + std::to_string(found) + " usable conversations; the other " +
                           std::to_string(samples.size() - found) +
                           " requests repeat ones chosen uniformly, as upstream "
                           "oversamples (BLIS's draws, not Python's)");
    }
  }
  std::vector<engine::Request> requests;
  for (const Sample& s : samples) {
    auto is = streams.stream(component, "prompt_ids", s.entity);
    engine::Request r;
    r.prompt = token_ids(is, static_cast<std::uint64_t>(s.prompt));
    r.max_tokens = s.output;
    r.sampled_output_len = s.output;
    requests.push_back(std::move(r));
  }
  const Arrivals a = serve_arrivals(so, requests.size(), streams, component, w.warnings);
  w.trace = make_trace(source.format, std::move(requests), a, seed);
  return w;
}

}  // namespace blis::sim::convert
