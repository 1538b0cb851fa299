// A scenario's distributions as samplers (design §8.5): the schema's family and parameters become an
// rng::Distribution and its truncation bounds. A parameter the family needs and the scenario lacks, and
// a family whose support reaches below the smallest allowed value without a stated min, are refused with
// the field's path, the value and the cause (SIM-9); nothing is defaulted or clamped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "schema/scenario.h"
#include "sim/rng/distributions.h"

namespace blis::sim {

// A token count: a uniform family draws a whole number in [min, max], both ends with the same weight
// (rng::uniform_int); every other family draws a real, rounds it half to even, and redraws outside its
// bounds (rng::draw_tokens).
struct TokenSampler {
  rng::Distribution distribution = rng::Distribution::constant(1);
  bool integer_uniform = false;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::uint64_t draw(rng::Stream& s) const {
    return integer_uniform ? rng::uniform_int(s, min, max) : rng::draw_tokens(s, distribution, min, max);
  }
  // The count at probability u in (0, 1) by inversion, equal in law to draw() and monotone in u (a copula's
  // marginal): the integer uniform's u-th share of [min, max], else rng::tokens_at.
  std::uint64_t at(double u) const {
    if (!integer_uniform) return rng::tokens_at(distribution, min, max, u);
    const std::uint64_t n = max - min + 1;
    // u < 1, so the product lies below n; the guard keeps a count if rounding met n.
    return min + std::min<std::uint64_t>(static_cast<std::uint64_t>(u * static_cast<double>(n)), n - 1);
  }
};

struct DurationSampler {
  rng::Distribution distribution = rng::Distribution::constant(0);
  double min = 0;
  double max = 0;
  double draw(rng::Stream& s) const { return rng::draw_truncated(s, distribution, min, max); }
};

// `field` names the distribution in messages (e.g. "workload.clients[0].prompt_tokens"); `least` is the
// smallest count the draw may give (1 for output lengths, 0 for a prompt after a shared prefix).
TokenSampler token_sampler(const schema::ScenarioTokenDistribution& d, const std::string& field, std::uint64_t least);
// A whole count (rounds per session), by the rules of token counts.
TokenSampler count_sampler(const schema::ScenarioCountDistribution& d, const std::string& field, std::uint64_t least);
DurationSampler duration_sampler(const schema::ScenarioDurationDistribution& d, const std::string& field);

}  // namespace blis::sim
