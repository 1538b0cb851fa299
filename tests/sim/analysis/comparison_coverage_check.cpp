// comparison-coverage-check FILE: DEV-11's procedure-coverage check on the paired comparisons of
// src/sim/analysis/comparison.h, measured over many simulated comparisons and printed. Each line of FILE
// is one cell ('#' starts a comment):
//
//   coverage PAIRS CONFIDENCE TRIALS SEED
//       normal paired differences (true difference 0.3, sd 0.5): the paired interval at CONFIDENCE must
//       cover 0.3 within 1 percentage point of CONFIDENCE over TRIALS (at 20000 trials the binomial
//       standard deviation is at most 0.21 points).
//   family ADJUSTMENT TRUTH MARGIN CLAIM FAMILIES SEED LIMIT
//       families of 10 comparisons of 10 pairs each, every true difference (candidate - baseline, lower is
//       better) exactly TRUTH, sd 1, judged with MARGIN at family confidence 95% under ADJUSTMENT: holm,
//       bonferroni, or none (each comparison decided alone at 95%, the procedure DEV-11 forbids). CLAIM
//       says which outcome is false there: any (better or worse; a null family) or better (at the margin).
//       The fraction of families with a false claim must not exceed LIMIT.
//   power FAMILIES SEED
//       families of 10 where 5 candidates are truly better by 1 sd: the mean number found better under Holm
//       must be at least Bonferroni's (Holm's step-down never decides less).
//
// Exits 1 at the first cell that fails, naming it and its figure; 0 when every cell holds.
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "queues.h"
#include "sim/analysis/comparison.h"

namespace {

using namespace blis::sim::analysis;

double coverage(std::size_t n, double confidence, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int covered = 0;
  std::vector<double> a(n), b(n);
  for (int t = 0; t < trials; ++t) {
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = 5.0 + queues::normal(rng);
      b[i] = a[i] + 0.3 + 0.5 * queues::normal(rng);
    }
    const PairedComparison c = compare_paired(a, b, 0.0, Direction::lower_is_better, confidence);
    covered += c.difference.lower() <= 0.3 && 0.3 <= c.difference.upper();
  }
  return static_cast<double>(covered) / trials;
}

// One family's outcomes under the adjustment named ("none": each comparison alone at the confidence).
std::vector<PairedComparison> decide(const std::vector<PairedSample>& family, const std::string& adjustment) {
  if (adjustment == "holm") return compare_paired_family(family, 0.95, Adjustment::holm);
  if (adjustment == "bonferroni") return compare_paired_family(family, 0.95, Adjustment::bonferroni);
  std::vector<PairedComparison> out;
  for (const PairedSample& s : family) out.push_back(compare_paired(s.baseline, s.candidate, s.margin, s.direction, 0.95));
  return out;
}

// One family's draws: the samples own the numbers PairedSample's spans view, so they outlive the family.
struct Family {
  std::vector<std::vector<double>> base, cand;
  std::vector<PairedSample> samples;
};

Family family_of(std::mt19937_64& rng, const std::vector<double>& truths, double margin) {
  const std::size_t n = 10;
  Family f;
  f.base.assign(truths.size(), std::vector<double>(n));
  f.cand.assign(truths.size(), std::vector<double>(n));
  for (std::size_t k = 0; k < truths.size(); ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      f.base[k][i] = 10.0 + queues::normal(rng);
      f.cand[k][i] = f.base[k][i] + truths[k] + queues::normal(rng);
    }
  }
  for (std::size_t k = 0; k < truths.size(); ++k) f.samples.push_back({f.base[k], f.cand[k], margin, Direction::lower_is_better});
  return f;
}

double false_claim_rate(const std::string& adjustment, double truth, double margin, bool better_only, int families,
                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int any = 0;
  for (int f = 0; f < families; ++f) {
    bool claimed = false;
    const Family family = family_of(rng, std::vector<double>(10, truth), margin);
    for (const PairedComparison& c : decide(family.samples, adjustment)) {
      claimed |= better_only ? c.outcome == Outcome::better : c.outcome != Outcome::not_distinguished;
    }
    any += claimed;
  }
  return static_cast<double>(any) / families;
}

std::pair<double, double> power(int families, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> truths(10, 0.0);
  for (std::size_t k = 0; k < 5; ++k) truths[k] = -1.0;
  long holm = 0, bonferroni = 0;
  for (int f = 0; f < families; ++f) {
    const Family family = family_of(rng, truths, 0.0);
    const auto h = decide(family.samples, "holm"), b = decide(family.samples, "bonferroni");
    for (std::size_t k = 0; k < 5; ++k) {
      holm += h[k].outcome == Outcome::better;
      bonferroni += b[k].outcome == Outcome::better;
    }
  }
  return {holm / double(families), bonferroni / double(families)};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: comparison-coverage-check FILE\n", stderr);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "%s: cannot be read\n", argv[1]);
    return 1;
  }
  std::string line;
  int lineno = 0, cells = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string kind;
    if (!(f >> kind)) continue;
    const std::string at = std::string(argv[1]) + ":" + std::to_string(lineno) + ": " + line + ": ";
    if (kind == "coverage") {
      std::size_t pairs = 0;
      double confidence = 0;
      int trials = 0;
      std::uint64_t seed = 0;
      if (!(f >> pairs >> confidence >> trials >> seed) || pairs < 2 || trials < 1) {
        std::printf("%smalformed coverage line\n", at.c_str());
        return 1;
      }
      const double rate = coverage(pairs, confidence, trials, seed);
      if (rate < confidence - 0.01 || rate > confidence + 0.01) {
        std::printf("%scoverage %.4f, more than 1 point from %.2f (DEV-11)\n", at.c_str(), rate, confidence);
        return 1;
      }
      std::printf("%scoverage %.4f\n", at.c_str(), rate);
    } else if (kind == "family") {
      std::string adjustment, claim;
      double truth = 0, margin = 0, limit = 0;
      int families = 0;
      std::uint64_t seed = 0;
      if (!(f >> adjustment >> truth >> margin >> claim >> families >> seed >> limit) || families < 1 ||
          (adjustment != "holm" && adjustment != "bonferroni" && adjustment != "none") ||
          (claim != "any" && claim != "better")) {
        std::printf("%smalformed family line (ADJUSTMENT holm|bonferroni|none, CLAIM any|better)\n", at.c_str());
        return 1;
      }
      const double rate = false_claim_rate(adjustment, truth, margin, claim == "better", families, seed);
      if (rate > limit) {
        std::printf("%sfamilies with a false claim %.4f, above %.4f (DEV-11)\n", at.c_str(), rate, limit);
        return 1;
      }
      std::printf("%sfamilies with a false claim %.4f\n", at.c_str(), rate);
    } else if (kind == "power") {
      int families = 0;
      std::uint64_t seed = 0;
      if (!(f >> families >> seed) || families < 1) {
        std::printf("%smalformed power line\n", at.c_str());
        return 1;
      }
      const auto [holm, bonferroni] = power(families, seed);
      if (holm < bonferroni) {
        std::printf("%sHolm found %.3f per family, fewer than Bonferroni's %.3f (DEV-11)\n", at.c_str(), holm, bonferroni);
        return 1;
      }
      std::printf("%sfound better per family: holm %.3f, bonferroni %.3f\n", at.c_str(), holm, bonferroni);
    } else {
      std::printf("%s'%s' is not coverage, family or power\n", at.c_str(), kind.c_str());
      return 1;
    }
    ++cells;
  }
  if (cells == 0) {
    std::printf("%s: no cell to check\n", argv[1]);
    return 1;
  }
  std::printf("%s: all %d cells hold\n", argv[1], cells);
  return 0;
}
