// DEV-7 (converter-two-sample): each converter of src/sim/workload/convert against its source, on fixture
// files written from the formats' documentation (fixtures/README.md). Per format: (a) offered load and the
// gaps between arrivals, by Kolmogorov-Smirnov against the distribution the source's algorithm gives (one
// sample against its CDF, or two samples against an independent implementation of the source's algorithm);
// (b) prompt and output lengths (exactly, for ShareGPT; by KS against the stated distribution's CDF, and a
// correlation bound for their independence, for synthetic lengths); (c) closed-loop session structure; (d)
// each refusal beside its closest accepted input; (e) determinism. Every KS test is at level alpha = 0.01
// with ks.h's asymptotic critical values; each prints its statistic ("KS ...") for the record.
#include "sim/workload/convert/convert.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "contracts/doc/parse.h"
#include "contracts/sha256.h"
#include "ks.h"
#include "sim/rng/distributions.h"
#include "sim/rng/normal.h"
#include "sim/workload/convert/vllm_bench_sharegpt.h"

#ifndef BLIS_CONVERT_FIXTURES
#error "BLIS_CONVERT_FIXTURES must name tests/sim/convert/fixtures"
#endif

namespace blis::sim {
namespace {

using test::ks_critical;
constexpr double kAlpha = 0.01;
const std::string kFixtures = BLIS_CONVERT_FIXTURES;

doc::Node yaml(const std::string& text) {
  doc::Diagnostics d;
  doc::Parsed p = doc::parse(text, doc::Syntax::Yaml, d);
  EXPECT_TRUE(d.ok()) << d.str();
  return p.documents.empty() ? doc::Node{} : p.documents.front();
}

ConvertedWorkload run(const std::string& format, const std::string& path, const std::string& options = "",
                      std::uint64_t seed = 1, const std::string& dir = kFixtures,
                      std::optional<std::string> sha = std::nullopt) {
  schema::ScenarioConvert c;
  c.format = format;
  c.path = path;
  c.sha256 = std::move(sha);
  if (!options.empty()) c.options = yaml(options);
  return convert_workload(c, dir, seed);
}

template <typename F>
std::string refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "not refused";
  return "";
}

// The conversion is refused with a message holding `part`.
void expect_refused(const std::string& format, const std::string& path, const std::string& options,
                    const std::string& part, const std::string& dir = kFixtures) {
  const std::string message = refusal([&] { run(format, path, options, 1, dir); });
  EXPECT_NE(message.find(part), std::string::npos) << "expected \"" << part << "\" in: " << message;
}

// A directory holding one file with this text, for variants of a fixture.
std::string dir_with(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("blis-convert-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return dir.string();
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<double> gaps_s(const Trace& t) {
  std::vector<double> g;
  std::int64_t before = 0;
  for (const auto& r : t.rows) {
    EXPECT_EQ(r.cause, Cause::kOpen);
    EXPECT_GE(r.time_us, before);
    g.push_back(static_cast<double>(r.time_us - before) / 1e6);
    before = r.time_us;
  }
  return g;
}

std::vector<double> gaps_of_times(const std::vector<double>& times_s) {
  std::vector<double> g;
  double before = 0;
  for (double t : times_s) {
    const double us = rng::round_half_even(t * 1e6) / 1e6;  // the trace's microsecond grid
    g.push_back(us - before);
    before = us;
  }
  return g;
}

void expect_ks(const std::string& name, double d, double critical) {
  std::printf("KS %s: D = %.4f, critical %.4f (alpha %.2f)\n", name.c_str(), d, critical, kAlpha);
  EXPECT_LT(d, critical) << name;
}

std::vector<std::int64_t> prompt_lengths(const Trace& t, std::size_t skip = 0) {
  std::vector<std::int64_t> v;
  for (const auto& r : t.rows) v.push_back(static_cast<std::int64_t>(r.request.prompt.size() - skip));
  return v;
}

std::vector<std::int64_t> output_lengths(const Trace& t) {
  std::vector<std::int64_t> v;
  for (const auto& r : t.rows) {
    EXPECT_EQ(r.request.max_tokens, r.request.sampled_output_len);
    v.push_back(r.request.sampled_output_len);
  }
  return v;
}

// Under independence sqrt(n) r is about standard normal: |r| < 2.576 / sqrt(n) at alpha 0.01.
void expect_independent(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  std::vector<double> x(a.begin(), a.end()), y(b.begin(), b.end());
  const double mx = test::mean_of(x), my = test::mean_of(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0 || syy == 0) return;  // a constant length is independent of anything
  const double r = sxy / std::sqrt(sxx * syy);
  std::printf("correlation of prompt and output lengths: r = %.4f, bound %.4f\n", r, 2.576 / std::sqrt(x.size()));
  EXPECT_LT(std::abs(r), 2.576 / std::sqrt(static_cast<double>(x.size())));
}

// A discrete uniform on [lo, hi].
std::function<double(std::int64_t)> uniform_cdf(std::int64_t lo, std::int64_t hi) {
  return [=](std::int64_t k) {
    return std::clamp(static_cast<double>(k - lo + 1) / static_cast<double>(hi - lo + 1), 0.0, 1.0);
  };
}

// round(clamp(X, lo, hi)) for a continuous X with CDF g: P(<= k) = g(k + 0.5) inside [lo, hi).
std::function<double(std::int64_t)> rounded_clamped_cdf(std::function<double(double)> g, std::int64_t lo,
                                                        std::int64_t hi) {
  return [=](std::int64_t k) { return k < lo ? 0.0 : k >= hi ? 1.0 : g(static_cast<double>(k) + 0.5); };
}

void expect_closed_loop(const Trace& t, std::int64_t users) {
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const TraceRow& r = t.rows[i];
    EXPECT_EQ(r.user, static_cast<std::int64_t>(i) % users) << i;
    EXPECT_EQ(r.time_us, 0) << i;
    if (static_cast<std::int64_t>(i) < users) {
      EXPECT_EQ(r.cause, Cause::kStart) << i;
    } else {
      EXPECT_EQ(r.cause, Cause::kAfter) << i;
      EXPECT_EQ(r.after, t.rows[i - static_cast<std::size_t>(users)].request.id) << i;
    }
  }
}

bool has_warning(const ConvertedWorkload& w, const std::string& part) {
  for (const auto& s : w.warnings)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

// ---- vllm-bench-random ----

// upstream's get_request(): gamma gaps, cumulative, scaled so the last is n / rate; here gamma(1/2, theta) is
// drawn as theta Z^2 / 2 (a chi-square of one degree), independently of the converter's gamma sampler.
std::vector<double> vllm_half_shape_reference(double rate, std::size_t n) {
  const double theta = 1.0 / (rate * 0.5);
  rng::Substreams ref(4242);
  std::vector<double> t;
  double c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    auto s = ref.stream("test:reference", "gap", i);
    const double z = rng::standard_normal(s);
    c += theta * z * z / 2;
    t.push_back(c);
  }
  for (auto& v : t) v *= (static_cast<double>(n) / rate) / c;
  return gaps_of_times(t);
}

TEST(VllmBenchRandom, PoissonGapsAndOfferedLoad) {
  const auto w = run("vllm-bench-random", "vllm-random.yaml", "request-rate: 10");
  ASSERT_EQ(w.trace.rows.size(), 2000u);
  const auto g = gaps_s(w.trace);
  // The last arrival at num-prompts / request-rate: the offered load is exactly the rate.
  EXPECT_NEAR(static_cast<double>(w.trace.rows.back().time_us) / 1e6, 200.0, 1e-6);
  EXPECT_NEAR(test::cv_of(g), 1.0, 0.1);
  expect_ks("vllm-random gaps vs exponential(rate 10)",
            test::ks_one_sample(g, [](double x) { return 1 - std::exp(-10 * x); }), ks_critical(g.size(), kAlpha));
}

TEST(VllmBenchRandom, GammaBurstinessShapesTheGaps) {
  // burstiness 4: gamma(4, 1 / 40), an Erlang with a closed-form CDF; cv 1/2.
  const auto smooth = gaps_s(run("vllm-bench-random", "vllm-random.yaml", "{request-rate: 10, burstiness: 4}").trace);
  const auto erlang = [](double x) {
    const double y = 40 * x;
    return 1 - std::exp(-y) * (1 + y + y * y / 2 + y * y * y / 6);
  };
  EXPECT_NEAR(test::cv_of(smooth), 0.5, 0.05);
  expect_ks("vllm-random gaps vs gamma(4, 1/40)", test::ks_one_sample(smooth, erlang),
            ks_critical(smooth.size(), kAlpha));
  // burstiness 0.5: burstier than Poisson, cv sqrt(2); against the reference implementation.
  const auto bursty = gaps_s(run("vllm-bench-random", "vllm-random.yaml", "{request-rate: 10, burstiness: 0.5}").trace);
  const auto ref = vllm_half_shape_reference(10, 4000);
  EXPECT_NEAR(test::cv_of(bursty), std::sqrt(2.0), 0.15);
  expect_ks("vllm-random gaps vs reference gamma(0.5, 1/5)", test::ks_two_sample(bursty, ref),
            ks_critical(bursty.size(), ref.size(), kAlpha));
  // burstiness inf: even gaps of 1 / rate.
  for (double gap : gaps_s(run("vllm-bench-random", "vllm-random.yaml", "{request-rate: 10, burstiness: inf}").trace)) {
    EXPECT_NEAR(gap, 0.1, 1.5e-6);
  }
}

TEST(VllmBenchRandom, LengthsPrefixAndIndependence) {
  const auto w = run("vllm-bench-random", "vllm-random.yaml", "request-rate: 10");
  // input 512, ratio 0.25: [384, 640] after the 32-token prefix; output 128: [96, 160].
  const auto in = prompt_lengths(w.trace, 32);
  const auto out = output_lengths(w.trace);
  expect_ks("vllm-random prompt lengths vs uniform[384, 640]", test::ks_discrete(in, uniform_cdf(384, 640), 384, 640),
            ks_critical(in.size(), kAlpha));
  expect_ks("vllm-random output lengths vs uniform[96, 160]", test::ks_discrete(out, uniform_cdf(96, 160), 96, 160),
            ks_critical(out.size(), kAlpha));
  EXPECT_EQ(*std::min_element(in.begin(), in.end()), 384);
  EXPECT_EQ(*std::max_element(in.begin(), in.end()), 640);
  expect_independent(in, out);
  const std::vector<std::int32_t> prefix(w.trace.rows[0].request.prompt.begin(),
                                         w.trace.rows[0].request.prompt.begin() + 32);
  for (const auto& r : w.trace.rows) {
    EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), r.request.prompt.begin()));
    EXPECT_TRUE(r.measured);
    EXPECT_EQ(r.client, "vllm-bench-random");
  }
  EXPECT_NE(w.trace.rows[0].request.prompt[32], w.trace.rows[1].request.prompt[32]);
}

TEST(VllmBenchRandom, RateInfSendsAllAtOnceAndMaxConcurrencyIsAClosedLoop) {
  for (const auto& r : run("vllm-bench-random", "vllm-random.yaml").trace.rows) {
    EXPECT_EQ(r.cause, Cause::kOpen);
    EXPECT_EQ(r.time_us, 0);
  }
  const auto w = run("vllm-bench-random", "vllm-random.yaml", "max-concurrency: 8");
  expect_closed_loop(w.trace, 8);
  EXPECT_TRUE(has_warning(w, "whichever slot frees first"));
}

TEST(VllmBenchRandom, RefusalsBesideTheirAcceptedTwins) {
  const std::string f = "vllm-bench-random", file = "vllm-random.yaml";
  EXPECT_NO_THROW(run(f, file, "request-rate: 5"));
  expect_refused(f, file, "request-rates: 5", "did you mean 'request-rate'");
  expect_refused(f, file, "ramp-up-strategy: linear", "option 'ramp-up-strategy' (value linear) is not converted");
  // Stated in the file (as num-prompts) and in the options: refused, whichever the value.
  expect_refused(f, file, "num_prompts: 100", "also written at");
  EXPECT_NO_THROW(run(f, file, "{request-rate: inf, max-concurrency: 4}"));
  expect_refused(f, file, "{request-rate: 10, max-concurrency: 4}", "wait for a free slot");
  EXPECT_NO_THROW(run(f, file, "{request-rate: 10, burstiness: 0.1}"));
  expect_refused(f, file, "{request-rate: 10, burstiness: 0}", "burstiness = 0: upstream asserts a positive");
  expect_refused(f, file, "request-rate: -1", "positive request rate");
  const std::string base = "random-input-len: 100\nrandom-output-len: 10\n";
  EXPECT_NO_THROW(run(f, "r.yaml", "", 1, dir_with("r.yaml", base + "random-range-ratio: 0.99\n")));
  expect_refused(f, "r.yaml", "", "r.yaml:3:21: random-range-ratio = 1.0: upstream requires a range ratio in [0, 1)",
                 dir_with("r.yaml", base + "random-range-ratio: 1.0\n"));
  EXPECT_NO_THROW(run(f, "r.yaml", "", 1, dir_with("r.yaml", "random-input-len: 1\nrandom-range-ratio: 0\n")));
  expect_refused(f, "r.yaml", "", "may have no token",
                 dir_with("r.yaml", "random-input-len: 1\nrandom-range-ratio: 0.5\n"));
  expect_refused(f, "r.yaml", "", "reads the random dataset", dir_with("r.yaml", "dataset-name: sharegpt\n"));
}

// ---- vllm-bench-sharegpt ----

struct Pair {
  std::int64_t prompt, output;
  bool operator==(const Pair&) const = default;
  bool operator<(const Pair& o) const { return prompt != o.prompt ? prompt < o.prompt : output < o.output; }
};

std::vector<Pair> pairs(const Trace& t) {
  std::vector<Pair> v;
  for (const auto& r : t.rows)
    v.push_back({static_cast<std::int64_t>(r.request.prompt.size()), r.request.sampled_output_len});
  return v;
}

// fixtures/sharegpt.json's usable conversations in file order: (bytes + 2) / 4 tokens of turns 0 and 1.
const std::vector<Pair> kShareGptPairs = {{10, 50}, {1024, 1024}, {200, 100}, {10, 21}, {12, 5}};

TEST(VllmBenchShareGpt, ExactLengthsInFileOrder) {
  const auto w =
      run("vllm-bench-sharegpt", "sharegpt.json", "{disable-shuffle: true, num-prompts: 5, request-rate: 10}");
  EXPECT_EQ(pairs(w.trace), kShareGptPairs);
  // c0 and c10 share their prompt's text, so their IDs; c9 does not.
  EXPECT_EQ(w.trace.rows[0].request.prompt, w.trace.rows[3].request.prompt);
  EXPECT_NE(w.trace.rows[0].request.prompt, std::vector<std::int32_t>(w.trace.rows[2].request.prompt.begin(),
                                                                      w.trace.rows[2].request.prompt.begin() + 10));
  EXPECT_TRUE(has_warning(w, "max(1, round(bytes / 4))"));
  EXPECT_TRUE(has_warning(w, "no sessions"));
  EXPECT_TRUE(has_warning(w, "2 conversations with fewer than two turns and 5 failing the length filters"));
  EXPECT_EQ(convert::estimated_tokens(0), 1);
  EXPECT_EQ(convert::estimated_tokens(6), 2);   // 1.5 rounds up
  EXPECT_EQ(convert::estimated_tokens(10), 3);  // 2.5 rounds up
  EXPECT_EQ(convert::estimated_tokens(13), 3);
}

TEST(VllmBenchShareGpt, OutputLenOverrideAndNoOversample) {
  const auto w = run("vllm-bench-sharegpt", "sharegpt.json",
                     "{disable-shuffle: true, num-prompts: 100, sharegpt-output-len: 8, no-oversample: true}");
  // With a stated output length the output filter is off: c3, c5 and c7 join; c2 and c4 stay out.
  const std::vector<Pair> expected = {{10, 8}, {4, 8}, {1024, 8}, {1024, 8}, {100, 8}, {200, 8}, {10, 8}, {12, 8}};
  EXPECT_EQ(pairs(w.trace), expected);
  EXPECT_TRUE(has_warning(w, "sends 8 of num-prompts 100"));
}

TEST(VllmBenchShareGpt, OversamplingAndOfferedLoad) {
  const auto w =
      run("vllm-bench-sharegpt", "sharegpt.json", "{disable-shuffle: true, num-prompts: 2000, request-rate: 20}");
  const auto p = pairs(w.trace);
  ASSERT_EQ(p.size(), 2000u);
  EXPECT_EQ(std::vector<Pair>(p.begin(), p.begin() + 5), kShareGptPairs);
  // The other 1995 repeat the 5 uniformly: each count within 5 standard deviations of 399.
  std::map<Pair, int> count;
  for (std::size_t i = 5; i < p.size(); ++i) ++count[p[i]];
  EXPECT_EQ(count.size(), 5u);
  for (const auto& expected : kShareGptPairs) EXPECT_NEAR(count[expected], 399, 5 * std::sqrt(1995 * 0.2 * 0.8));
  const auto g = gaps_s(w.trace);
  EXPECT_NEAR(static_cast<double>(w.trace.rows.back().time_us) / 1e6, 100.0, 1e-6);
  expect_ks("vllm-sharegpt gaps vs exponential(rate 20)",
            test::ks_one_sample(g, [](double x) { return 1 - std::exp(-20 * x); }), ks_critical(g.size(), kAlpha));
}

TEST(VllmBenchShareGpt, ShuffleKeepsTheConversationsAndVariesTheirOrder) {
  const auto a = pairs(run("vllm-bench-sharegpt", "sharegpt.json", "num-prompts: 5", 1).trace);
  const auto b = pairs(run("vllm-bench-sharegpt", "sharegpt.json", "num-prompts: 5", 2).trace);
  auto sorted = [](std::vector<Pair> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(a), sorted(kShareGptPairs));
  EXPECT_EQ(sorted(b), sorted(kShareGptPairs));
  EXPECT_NE(a, b);
  EXPECT_TRUE(has_warning(run("vllm-bench-sharegpt", "sharegpt.json", "num-prompts: 5"), "permutation BLIS draws"));
}

TEST(VllmBenchShareGpt, RefusalsBesideTheirAcceptedTwins) {
  const std::string f = "vllm-bench-sharegpt", file = "sharegpt.json";
  EXPECT_NO_THROW(run(f, file, "sharegpt-output-len: 1"));
  expect_refused(f, file, "sharegpt-output-len: 0", "at least 1 token");
  expect_refused(f, file, "dataset-path: other.json", "the dataset is the file");
  expect_refused(f, file, "dataset-name: random", "reads the sharegpt dataset");
  const std::string ok = R"([{"id": "a", "conversations": [{"from": "human", "value": "a prompt of some length"},
                                                           {"from": "gpt", "value": "an answer of some length"}]}])";
  EXPECT_EQ(run(f, "s.json", "", 1, dir_with("s.json", ok)).trace.rows.size(), 1000u);  // oversampled to num-prompts
  std::string image = ok;
  image.insert(image.find("\"id\""), "\"image\": \"cat.png\", ");
  expect_refused(f, "s.json", "", "multimodal prompts are not converted", dir_with("s.json", image));
  std::string short_answer = ok;
  short_answer.replace(short_answer.find("an answer of some length"), 24, "no");
  expect_refused(f, "s.json", "", "no conversation is usable", dir_with("s.json", short_answer));
}

// ---- guidellm-synthetic ----

TEST(GuidellmSynthetic, PoissonProfileAndLengths) {
  const auto w = run("guidellm-synthetic", "guidellm-synthetic.yaml",
                     "{profile: {kind: poisson, rate: 10}, constraint: [{kind: max_requests, count: 2000}], "
                     "seed: {kind: static, value: 42}}");
  ASSERT_EQ(w.trace.rows.size(), 2000u);
  const auto g = gaps_s(w.trace);
  EXPECT_GT(w.trace.rows[0].time_us, 0);  // the first request waits one gap too
  EXPECT_NEAR(2000 / (static_cast<double>(w.trace.rows.back().time_us) / 1e6), 10, 10 * 4 / std::sqrt(2000.0));
  EXPECT_NEAR(test::cv_of(g), 1.0, 0.1);
  expect_ks("guidellm poisson gaps vs exponential(rate 10)",
            test::ks_one_sample(g, [](double x) { return 1 - std::exp(-10 * x); }), ks_critical(g.size(), kAlpha));
  const auto in = prompt_lengths(w.trace);
  const auto out = output_lengths(w.trace);
  const auto normal = [](double x) { return rng::normal_cdf((x - 256) / 64); };
  expect_ks("guidellm prompt lengths vs round(clamp(normal(256, 64), 64, 400))",
            test::ks_discrete(in, rounded_clamped_cdf(normal, 64, 400), 64, 400), ks_critical(in.size(), kAlpha));
  expect_ks("guidellm output lengths vs uniform[64, 192]", test::ks_discrete(out, uniform_cdf(64, 192), 64, 192),
            ks_critical(out.size(), kAlpha));
  EXPECT_EQ(*std::max_element(in.begin(), in.end()), 400);  // upstream clamps: an atom at the maximum
  expect_independent(in, out);
  EXPECT_TRUE(has_warning(w, "seed 42 is recorded, not reproduced"));
}

TEST(GuidellmSynthetic, ConstantProfileAndDuration) {
  const auto w = run("guidellm-synthetic", "guidellm-fixed.json",
                     "{profile: {kind: constant, rate: [8]}, constraint: {kind: max_duration, seconds: 30}}");
  ASSERT_EQ(w.trace.rows.size(), 239u);  // k / 8 < 30 for k = 1 .. 239
  for (std::size_t k = 0; k < w.trace.rows.size(); ++k) {
    EXPECT_EQ(w.trace.rows[k].time_us, static_cast<std::int64_t>(k + 1) * 125000);
    EXPECT_EQ(w.trace.rows[k].request.prompt.size(), 100u);
    EXPECT_EQ(w.trace.rows[k].request.sampled_output_len, 20);
  }
  EXPECT_TRUE(has_warning(w, "max_duration 30 s"));
  const auto both = run("guidellm-synthetic", "guidellm-fixed.json",
                        "{profile: {kind: async, rate: 8}, constraint: [{kind: max_duration, seconds: 30}, {kind: "
                        "max_requests, count: 10}]}");
  EXPECT_EQ(both.trace.rows.size(), 10u);
}

TEST(GuidellmSynthetic, ConcurrentAndSynchronousAreClosedLoops) {
  expect_closed_loop(run("guidellm-synthetic", "guidellm-fixed.json",
                         "{profile: {kind: concurrent, streams: 16}, constraint: {kind: max_requests, count: 100}}")
                         .trace,
                     16);
  const auto sync = run("guidellm-synthetic", "guidellm-fixed.json",
                        "{profile: {kind: synchronous}, constraint: {kind: max_requests, count: 5}}");
  ASSERT_EQ(sync.trace.rows.size(), 5u);
  expect_closed_loop(sync.trace, 1);
}

TEST(GuidellmSynthetic, RefusalsBesideTheirAcceptedTwins) {
  const std::string f = "guidellm-synthetic", file = "guidellm-fixed.json";
  const std::string stop = ", constraint: {kind: max_requests, count: 10}}";
  EXPECT_NO_THROW(run(f, file, "{profile: {kind: poisson, rate: 2}" + stop));
  expect_refused(f, file, "{profile: {kind: poisson, rate: [2, 4]}" + stop, "one benchmark per value");
  expect_refused(f, file, "{profile: {kind: poisson, rate: 2, max_concurrency: 4}" + stop, "wait for a free slot");
  expect_refused(f, file, "{profile: {kind: throughput}" + stop, "'throughput' is not converted");
  EXPECT_NO_THROW(run(f, file, "{profile: {kind: constant, rate: 2, rampup_duration: 0}" + stop));
  expect_refused(f, file, "{profile: {kind: constant, rate: 2, rampup_duration: 5}" + stop, "ramp-up");
  expect_refused(f, file, "{profile: {kind: poisson, rate: 0}" + stop, "requires a positive value");
  expect_refused(f, file, "profile: {kind: poisson, rate: 2}", "never runs out");
  EXPECT_NO_THROW(run(f, file, "{profile: {kind: concurrent, streams: 2}" + stop));
  expect_refused(f, file, "{profile: {kind: concurrent, streams: 2}, constraint: {kind: max_duration, seconds: 5}}",
                 "depends on completions");
  expect_refused(f, file, "{profile: {kind: poisson, rate: 2}, constraint: {kind: max_errors, count: 5}}",
                 "'max_errors' is not converted");
  expect_refused(f, file, "{profile: {kind: synchronous}, sweep_size: 5" + stop,
                 "option 'sweep_size' (value 5) is not converted");
  const auto data = [&](const std::string& json, const std::string& part) {
    const std::string dir = dir_with("g.json", json);
    if (part.empty()) {
      EXPECT_NO_THROW(run(f, "g.json", "{profile: {kind: synchronous}" + stop, 1, dir));
    } else {
      expect_refused(f, "g.json", "{profile: {kind: synchronous}" + stop, part, dir);
    }
  };
  data(R"({"prompt_tokens": 10, "output_tokens": 5, "turns": 1})", "");
  data(R"({"prompt_tokens": 10, "output_tokens": 5, "turns": 2})", "multi-turn");
  data(R"({"prompt_tokens": 10})", "output_tokens is not stated");
  data(R"({"prompt_tokens": 10, "output_tokens": 5, "prompt_token_stdev": 2})", "did you mean 'prompt_tokens_stdev'");
  data(R"({"prompt_tokens": 10, "output_tokens": 5, "prefix_tokens": 64})", "option 'prefix_tokens' (value 64)");
  data(R"({"output_tokens": 5, "prompt_tokens_stdev": 2})", "prompt_tokens is not stated: guidellm requires it");
  data(R"({"prompt_tokens": 10, "output_tokens": 0})", "positive integer");
  data(R"({"prompt_tokens": 10, "prompt_tokens_min": 10, "output_tokens": 5})", "");
  data(R"({"prompt_tokens": 10, "prompt_tokens_min": 20, "output_tokens": 5})", "[20, 10] is empty");
}

// ---- inference-perf ----

// load_timer.py's constant timer: n exponential gaps scaled to sum to duration, so the arrival times are n - 1
// sorted uniforms on [0, duration] and duration itself; drawn here as the sorted uniforms.
std::vector<double> inference_perf_constant_reference(std::size_t n, double duration) {
  rng::Substreams ref(777);
  auto s = ref.stream("test:reference", "uniforms", 0);
  std::vector<double> t;
  for (std::size_t i = 0; i + 1 < n; ++i) t.push_back(rng::uniform(s, 0, duration));
  std::sort(t.begin(), t.end());
  t.push_back(duration);
  return gaps_of_times(t);
}

// The poisson timer: per second a Poisson(rate) count (here by inverting its CDF), placed as sorted uniforms
// with the last at the second's end; the first n arrivals.
std::vector<double> inference_perf_poisson_reference(std::size_t n, double rate) {
  rng::Substreams ref(778);
  std::vector<double> t;
  for (std::uint64_t sec = 0; t.size() < n; ++sec) {
    auto s = ref.stream("test:reference", "second", sec);
    const double u = s.uniform01();
    std::int64_t k = 0;
    double p = std::exp(-rate), f = p;
    while (u > f) {
      ++k;
      p *= rate / static_cast<double>(k);
      f += p;
    }
    std::vector<double> in;
    for (std::int64_t j = 0; j + 1 < k; ++j) in.push_back(static_cast<double>(sec) + s.uniform01());
    std::sort(in.begin(), in.end());
    if (k > 0) in.push_back(static_cast<double>(sec + 1));
    for (double v : in)
      if (t.size() < n) t.push_back(v);
  }
  return gaps_of_times(t);
}

TEST(InferencePerf, ConstantLoadRandomData) {
  const auto w = run("inference-perf", "inference-perf-random.yaml");
  ASSERT_EQ(w.trace.rows.size(), 2000u);  // int(20 * 100)
  EXPECT_NEAR(static_cast<double>(w.trace.rows.back().time_us) / 1e6, 100.0, 1e-6);
  const auto g = gaps_s(w.trace);
  const auto ref = inference_perf_constant_reference(4000, 200.0);  // the same rate, twice the sample
  EXPECT_NEAR(test::cv_of(g), 1.0, 0.1);  // upstream's "constant" load has exponential-like gaps
  expect_ks("inference-perf constant gaps vs reference timer", test::ks_two_sample(g, ref),
            ks_critical(g.size(), ref.size(), kAlpha));
  const auto in = prompt_lengths(w.trace);
  const auto out = output_lengths(w.trace);
  const auto normal = [](double x) { return rng::normal_cdf((x - 300) / 80); };
  expect_ks("inference-perf prompt lengths vs round(clip(normal(300, 80), 50, 600))",
            test::ks_discrete(in, rounded_clamped_cdf(normal, 50, 600), 50, 600), ks_critical(in.size(), kAlpha));
  const auto uniform = [](double x) { return (x - 20) / 180; };
  expect_ks("inference-perf output lengths vs round(uniform(20, 200))",
            test::ks_discrete(out, rounded_clamped_cdf(uniform, 20, 200), 20, 200), ks_critical(out.size(), kAlpha));
  expect_independent(in, out);
  for (const auto& r : w.trace.rows) EXPECT_EQ(r.timeout_us, 120000000);
  EXPECT_TRUE(has_warning(w,
                          "accepted without effect (they do not shape the workload): report, api.streaming, "
                          "server.type, server.model_name, server.base_url, load.interval"));
  EXPECT_TRUE(has_warning(w, "(4 x 100)"));
}

TEST(InferencePerf, PoissonLoadSyntheticData) {
  const auto w = run("inference-perf", "inference-perf-synthetic.yaml");
  ASSERT_EQ(w.trace.rows.size(), 2000u);
  const auto g = gaps_s(w.trace);
  const auto ref = inference_perf_poisson_reference(4000, 20);
  EXPECT_NEAR(2000 / (static_cast<double>(w.trace.rows.back().time_us) / 1e6), 20, 20 * 4 / std::sqrt(2000.0));
  expect_ks("inference-perf poisson gaps vs reference timer", test::ks_two_sample(g, ref),
            ks_critical(g.size(), ref.size(), kAlpha));
  const auto in = prompt_lengths(w.trace);
  // lognormal with mean 300 (400 - min 100) and sd 150, plus 100, clipped to [100, 2000].
  const double s2 = std::log(1 + 0.25), mu = std::log(300.0) - s2 / 2;
  const auto lognormal = [=](double x) {
    return x <= 100 ? 0.0 : rng::normal_cdf((std::log(x - 100) - mu) / std::sqrt(s2));
  };
  expect_ks("inference-perf prompt lengths vs round(clip(100 + lognormal(mean 300, sd 150)))",
            test::ks_discrete(in, rounded_clamped_cdf(lognormal, 100, 2000), 100, 2000),
            ks_critical(in.size(), kAlpha));
  for (const auto& r : w.trace.rows) EXPECT_EQ(r.request.sampled_output_len, 64);
  EXPECT_TRUE(has_warning(w, "base_seed 12345 is recorded, not reproduced"));
}

TEST(InferencePerf, RefusalsBesideTheirAcceptedTwins) {
  const std::string text = read(kFixtures + "/inference-perf-random.yaml");
  // The fixture with `from` (its first occurrence) replaced by `to`, refused with `part`, or accepted when empty.
  const auto variant = [&](const std::string& from, const std::string& to, const std::string& part) {
    std::string t = text;
    const auto at = t.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    const std::string dir = dir_with("ip.yaml", t);
    if (part.empty()) {
      EXPECT_NO_THROW(run("inference-perf", "ip.yaml", "", 1, dir)) << to;
    } else {
      expect_refused("inference-perf", "ip.yaml", "", part, dir);
    }
  };
  variant("type: constant", "type: poisson", "");
  variant("type: constant", "type: concurrent", "constant and poisson load types");
  variant("      duration: 100\n", "      duration: 100\n    - rate: 40\n      duration: 50\n", "second stage");
  variant("      duration: 100\n", "      duration: 100\n      num_requests: 10\n", "should not be set");
  variant("total_count: 3000\n  output", "total_count: 2000\n  output", "");
  variant("total_count: 3000\n  output", "total_count: 1999\n  output", "more than total_count");
  variant("type: random", "type: shareGPT", "random and synthetic data types");
  variant("type: uniform", "type: skew_normal", "normal, lognormal, uniform or fixed");
  variant("mean: 300", "mean: 700", "within [min, max]");
  variant("min: 20", "min: 1", "");
  variant("min: 20", "min: 0", "below 1 token");
  variant("std_dev: 80", "std_dev: 80\n    variance: 6400", "option 'variance' (value 6400)");
  variant("load:", "loads: {}\nload:", "did you mean 'load'");
  variant("type: random", "type: random\n  use_chat_template: false", "");
  variant("type: random", "type: random\n  use_chat_template: true", "chat template");
  variant("  ignore_eos: true", "  ignore_eos: true\n  tls: true", "option 'tls' (value true)");
  expect_refused("inference-perf", "inference-perf-random.yaml", "rate: 5", "reads everything from its config file");
}

// ---- the dispatcher, and determinism ----

TEST(ConvertWorkload, FormatPathAndSha256) {
  const std::string sha = contracts::sha256_hex(read(kFixtures + "/vllm-random.yaml"));
  const auto w = run("vllm-bench-random", "vllm-random.yaml", "", 1, kFixtures, sha);
  EXPECT_EQ(w.trace.sha256, sha);
  EXPECT_EQ(w.trace.header.requests->value(), 2000);
  EXPECT_EQ(w.trace.header.producer, "simulator");
  std::string wrong = sha;
  wrong[0] = wrong[0] == '0' ? '1' : '0';
  EXPECT_NE(refusal([&] {
              run("vllm-bench-random", "vllm-random.yaml", "", 1, kFixtures, wrong);
            }).find("not the stated " + wrong),
            std::string::npos);
  const std::string unknown = refusal([] { run("vllm-bench-randm", "vllm-random.yaml"); });
  EXPECT_NE(unknown.find("'vllm-bench-randm' is not a format this build converts; it converts vllm-bench-random, "
                         "vllm-bench-sharegpt, guidellm-synthetic, inference-perf"),
            std::string::npos);
  EXPECT_NE(refusal([] { run("vllm-bench-random", "missing.yaml"); }).find("cannot be read"), std::string::npos);
}

void expect_same_rows(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    const TraceRow &x = a.rows[i], &y = b.rows[i];
    EXPECT_TRUE(x.request.id == y.request.id && x.request.prompt == y.request.prompt &&
                x.request.max_tokens == y.request.max_tokens &&
                x.request.sampled_output_len == y.request.sampled_output_len && x.client == y.client &&
                x.user == y.user && x.cause == y.cause && x.after == y.after && x.time_us == y.time_us &&
                x.timeout_us == y.timeout_us && x.measured == y.measured)
        << i;
  }
}

// The converted rows are what the trace file format carries: written with the header the caller completes
// (writer, engine, scenario) and read back, they are the same rows.
TEST(ConvertWorkload, ConvertedTraceWritesAndReadsBack) {
  for (const auto& w : {run("vllm-bench-random", "vllm-random.yaml", "max-concurrency: 8"),
                        run("inference-perf", "inference-perf-random.yaml")}) {
    schema::TraceHeader h = w.trace.header;
    h.writer.program = "blis";
    h.writer.version = "test";
    h.writer.commit = std::string(40, '0');
    h.engine.kind = "test-engine";
    h.engine.version = "test";
    h.engine.commit = std::string(40, '0');
    h.scenario = std::string(64, '0');
    TraceWriter out;
    for (const auto& r : w.trace.rows) {
      out.add(r.request, r.client, r.user, r.cause, r.after, r.time_us, r.timeout_us, r.measured);
    }
    expect_same_rows(w.trace, read_trace_text(out.text(h), "converted"));
  }
}

TEST(ConvertWorkload, SameSeedSameRowsOtherSeedOtherArrivals) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"vllm-bench-random", "vllm-random.yaml", "request-rate: 10"},
      {"vllm-bench-sharegpt", "sharegpt.json", "{num-prompts: 2000, request-rate: 10}"},
      {"guidellm-synthetic", "guidellm-synthetic.yaml",
       "{profile: {kind: poisson, rate: 5}, constraint: {kind: max_requests, count: 500}}"},
      {"inference-perf", "inference-perf-synthetic.yaml", ""},
  };
  for (const auto& [format, path, options] : cases) {
    SCOPED_TRACE(format);
    const auto a = run(format, path, options, 11).trace;
    expect_same_rows(a, run(format, path, options, 11).trace);
    const auto b = run(format, path, options, 12).trace;
    ASSERT_EQ(a.rows.size(), b.rows.size());
    std::size_t same_time = 0;
    for (std::size_t i = 0; i < a.rows.size(); ++i) same_time += a.rows[i].time_us == b.rows[i].time_us;
    EXPECT_LT(same_time, a.rows.size() / 10);
  }
  // ShareGPT in the file's order: another seed moves the arrivals, not the lengths. (Shuffled or oversampled,
  // the selection is drawn per replication too: ShuffleKeepsTheConversationsAndVariesTheirOrder.)
  const std::string in_order = "{disable-shuffle: true, num-prompts: 5, request-rate: 10}";
  const auto a = run("vllm-bench-sharegpt", "sharegpt.json", in_order, 11).trace;
  const auto b = run("vllm-bench-sharegpt", "sharegpt.json", in_order, 12).trace;
  expect_same_rows(a, run("vllm-bench-sharegpt", "sharegpt.json", in_order, 11).trace);
  EXPECT_EQ(pairs(a), kShareGptPairs);
  EXPECT_EQ(pairs(b), kShareGptPairs);
  for (std::size_t i = 0; i + 1 < a.rows.size(); ++i) EXPECT_NE(a.rows[i].time_us, b.rows[i].time_us) << i;
  EXPECT_EQ(a.rows.back().time_us, 500000);  // the last at num-prompts / request-rate, whatever the seed
}

}  // namespace
}  // namespace blis::sim
