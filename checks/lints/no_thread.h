// blis-no-thread (X6, VLM-5, RTR-6): engines, the router, the cost model and the event loop start no
// threads and never block on one; simulated time is passed in, so nothing there waits in real time.
//
// Flagged, through aliases, `using` declarations and `auto`:
//   - starting threads: any use of the types std::thread, std::jthread (declared, constructed, held in a
//     container, named in an alias; std::thread::hardware_concurrency too, a machine property no simulated
//     result may depend on); a call of or reference to std::async, pthread_create, thrd_create;
//     std::execution::par / par_unseq (a parallel algorithm starts workers); `#pragma omp`.
//   - blocking: any use of std::condition_variable(_any), std::latch, std::barrier,
//     std::counting_semaphore (so std::binary_semaphore); a call of or reference to
//     std::this_thread::sleep_for / sleep_until / yield, sleep, usleep, nanosleep, clock_nanosleep,
//     thrd_sleep, pthread_cond_wait / pthread_cond_timedwait.
// Not flagged: std::mutex, locks and atomics (inert without a second thread, which this lint forbids),
// std::future and std::promise by themselves (the thread behind a future is what is flagged), and the
// project's own names that happen to read `thread`, `async` or `sleep_for` (a simulated clock's).
// The allowed site (the replication runner, INTERFACES.md) is declared in X6's record.
#pragma once

#include <string>

#include "lint.h"

namespace blis::lint {

class NoThread : public Lint, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  using Lint::Lint;
  void add_matchers(clang::ast_matchers::MatchFinder& finder, Context& ctx) override;
  void begin_unit(clang::CompilerInstance& ci, Context& ctx) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  // Reports once per line and message (the preprocessor callback reports through it too).
  void found(const clang::SourceManager& sm, clang::SourceLocation loc, const char* message);

 private:
  Context* ctx_ = nullptr;
};

}  // namespace blis::lint
