// lint-path: engines/example/clock_fixture.cpp
// Fixture of blis-no-clock (X6): every clock read is flagged; durations, time points passed in and the
// simulated clock are not.
#include <chrono>
#include <ctime>
#include <sys/time.h>

namespace fixture {

using Wall = std::chrono::system_clock;
using Hr = std::chrono::high_resolution_clock;

struct SimClock {  // the simulator's own clock: integer simulated time
  long long now() const { return t; }
  long long t = 0;
};

long long reads() {
  auto a = std::chrono::steady_clock::now();  // expect: simulated code reads the wall clock
  auto b = Wall::now();                       // expect: simulated code reads the wall clock
  auto c = Hr::now();                         // expect: simulated code reads the wall clock
  std::time_t d = std::time(nullptr);         // expect: simulated code reads the wall clock
  std::time_t e = time(nullptr);              // expect: simulated code reads the wall clock
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);        // expect: simulated code reads the wall clock
  timeval tv{};
  gettimeofday(&tv, nullptr);                 // expect: simulated code reads the wall clock
  auto later = &std::chrono::steady_clock::now;  // expect: simulated code reads the wall clock
  std::clock_t f = std::clock();              // expect: simulated code reads the wall clock
  (void)a; (void)b; (void)c; (void)later;
  return static_cast<long long>(d + e + f);
}

long long near_misses(std::chrono::steady_clock::time_point given, const SimClock& sim) {
  auto dur = std::chrono::milliseconds(3);                 // near-miss: a duration is not a clock read
  auto since = given.time_since_epoch();                   // near-miss: a time point handed in
  long long t = sim.now();                                 // near-miss: the simulated clock
  using Steady = std::chrono::steady_clock;                // near-miss: naming the type reads nothing
  std::chrono::steady_clock::duration zero{};              // near-miss: a member type
  return t + dur.count() + since.count() + zero.count() + sizeof(Steady);
}

}  // namespace fixture
