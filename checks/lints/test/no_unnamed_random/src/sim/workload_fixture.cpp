// Fixture of blis-no-unnamed-random (X6, DEV-6, RTR-6): the C library's generators, the machine's entropy,
// and engines seeded anywhere but the named-substream factory are flagged; drawing from an engine the
// factory handed in, copying it and shaping its draws with a distribution are not.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

namespace fixture {

using Rng = std::mt19937_64;
using Entropy = std::random_device;                    // expect: randomness outside a named substream
using std::rand;

struct Seeded {
  std::mt19937 rng{42};                                // expect: randomness outside a named substream
};
struct DefaultSeeded {
  DefaultSeeded() {}                                   // near-miss: the constructor is not the place to fix
  std::minstd_rand rng;                                // expect: randomness outside a named substream
};
struct ImplicitlySeeded {  // the implicit constructor seeds by default
  std::ranlux24 rng;                                   // expect: randomness outside a named substream
};
struct Handed {
  explicit Handed(Rng r) : rng(std::move(r)) {}        // near-miss: initialised from an engine handed in
  Rng rng;                                             // near-miss: a member the constructor fills
};

int draws(std::vector<int>& v) {
  int a = std::rand();                                 // expect: randomness outside a named substream
  int b = rand();                                      // expect: randomness outside a named substream
  std::srand(7);                                       // expect: randomness outside a named substream
  long c = random();                                   // expect: randomness outside a named substream
  double d = drand48();                                // expect: randomness outside a named substream
  auto draw = &std::rand;                              // expect: randomness outside a named substream
  std::random_device dev;                              // expect: randomness outside a named substream
  Rng e(dev());                                        // expect: randomness outside a named substream
  std::mt19937 f;                                      // expect: randomness outside a named substream
  std::default_random_engine g;                        // expect: randomness outside a named substream
  std::minstd_rand h(1);                               // expect: randomness outside a named substream
  std::ranlux48 i;                                     // expect: randomness outside a named substream
  std::knuth_b j;                                      // expect: randomness outside a named substream
  std::linear_congruential_engine<unsigned, 16807, 0, 2147483647> k;  // expect: randomness outside a named substream
  std::shuffle(v.begin(), v.end(), std::mt19937{3});   // expect: randomness outside a named substream
  e.seed(9);                                           // expect: randomness outside a named substream
  Seeded s;
  DefaultSeeded ds;
  ImplicitlySeeded is;
  return a + b + static_cast<int>(c + d) + draw() + static_cast<int>(e() + f() + g() + h() + i() + j() + k() +
                                                                      s.rng() + ds.rng() + is.rng());
}

template <class T>
T later(T x) {
  return x + rand();                                   // expect: randomness outside a named substream
}

// Near-misses: engines made by the factory (here: handed in) and what may be done with them.
namespace rng {
struct Substreams {  // stands for src/sim/rng/substreams.h: the one place engines are seeded
  Rng& stream(const char* name);
};
}  // namespace rng

long long near_misses(rng::Substreams& streams, std::vector<int>& v, Rng given) {
  Rng& arrivals = streams.stream("workload/arrivals/session-1");  // near-miss: a named substream
  Rng copy = arrivals;                                 // near-miss: a copy of a named substream's state
  Rng moved = std::move(given);                        // near-miss: moving an engine handed in
  std::uniform_int_distribution<int> pick(0, 9);       // near-miss: a distribution only shapes draws
  std::exponential_distribution<double> gap(2.0);      // near-miss: a distribution only shapes draws
  std::shuffle(v.begin(), v.end(), arrivals);          // near-miss: shuffling with a named substream
  auto first = arrivals();                             // near-miss: drawing from it
  int random_count = pick(copy);                       // near-miss: a variable named like the C function
  return static_cast<long long>(first) + random_count + static_cast<long long>(gap(moved));
}

}  // namespace fixture
