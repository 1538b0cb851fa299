// blis-no-unnamed-random (X6, DEV-6, RTR-6): every random draw comes from a named substream, seeded from
// the scenario's seed and the substream's name by the one factory (DEV-6); nothing else makes randomness.
//
// Flagged: a call of or reference to the C library's generators and seeders (rand, srand, rand_r, random,
// srandom, drand48 and its family, arc4random, getrandom, getentropy) and std::random_shuffle (which draws
// from rand); any use of std::random_device (a type that reads the machine's entropy); constructing a
// standard random engine from a seed or by default (std::mt19937, mt19937_64, minstd_rand(0),
// default_random_engine, ranlux*, knuth_b, and any other instance of a std::*_engine template, through
// aliases and in member initialisers); reseeding one (`engine.seed(...)`).
// Not flagged: holding, copying or moving an engine the factory made, drawing from it (`rng()`), and the
// distributions (std::uniform_int_distribution etc.), which only shape the draws of the engine handed in.
// The allowed site is the named-substream factory, src/sim/rng/substreams.{h,cpp} (X6's record).
#pragma once

#include <string>

#include "lint.h"

namespace blis::lint {

class NoUnnamedRandom : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
