// Fixture of blis-no-thread (X6, VLM-5, RTR-6): starting a thread, in any spelling, and blocking on one or
// on real time are flagged; the simulator's own names, mutexes, atomics and durations are not.
#include <pthread.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <execution>
#include <future>
#include <latch>
#include <memory>
#include <mutex>
#include <numeric>
#include <semaphore>
#include <thread>
#include <vector>

#include <unistd.h>

namespace fixture {

using Worker = std::thread;                            // expect: simulated code starts a thread
using std::async;

void* body(void*) { return nullptr; }
int work() { return 1; }

int starts() {
  std::thread t(work);                                   // expect: simulated code starts a thread
  Worker w(work);                                        // expect: simulated code starts a thread
  std::jthread j([] {});                                 // expect: simulated code starts a thread
  std::vector<std::thread> pool;                         // expect: simulated code starts a thread
  auto owned = std::make_unique<std::jthread>([] {});    // expect: simulated code starts a thread
  auto f = std::async(std::launch::async, work);         // expect: simulated code starts a thread
  auto g = async(work);                                  // expect: simulated code starts a thread
  pthread_t id;
  pthread_create(&id, nullptr, body, nullptr);           // expect: simulated code starts a thread
  auto spawn = &pthread_create;                          // expect: simulated code starts a thread
  std::vector<int> v{1, 2, 3};
  int sum = std::reduce(std::execution::par, v.begin(), v.end());  // expect: simulated code starts a thread
#pragma omp parallel for  // expect: simulated code starts a thread
  for (int i = 0; i < 3; ++i) sum += i;
  t.join();
  w.join();
  (void)spawn;
  return sum + f.get() + g.get() + static_cast<int>(pool.size()) + (owned ? 1 : 0);
}

template <class F>
auto later(F fn) {
  return std::async(fn);                                 // expect: simulated code starts a thread
}

void blocks(std::mutex& m) {
  std::condition_variable cv;                            // expect: simulated code blocks on a thread or sleeps
  std::unique_lock lock(m);
  cv.wait_for(lock, std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(1));  // expect: simulated code blocks on a thread or sleeps
  std::this_thread::yield();                             // expect: simulated code blocks on a thread or sleeps
  std::binary_semaphore ready(0);                        // expect: simulated code blocks on a thread or sleeps
  std::latch done(1);                                    // expect: simulated code blocks on a thread or sleeps
  usleep(10);                                            // expect: simulated code blocks on a thread or sleeps
  ready.release();
  done.count_down();
}

// Near-misses: the simulator's own vocabulary and primitives that are inert without a second thread.
namespace sim {
struct thread {  // a request's decode "thread" in the simulator's own words
  int id = 0;
};
struct Clock {
  long long now_us = 0;
  long long sleep_for(long long us) { return now_us += us; }  // simulated time advances; nothing waits
};
struct Batch {
  int async(int x) const { return x; }  // a member that merely shares the name
};
}  // namespace sim

int near_misses(sim::Clock& clock) {
  sim::thread t{7};                                      // near-miss: the project's own type named thread
  long long at = clock.sleep_for(5);                     // near-miss: the simulated clock's sleep_for
  int r = sim::Batch{}.async(2);                         // near-miss: a member named async
  std::mutex m;                                          // near-miss: a mutex starts and waits on nothing alone
  std::lock_guard guard(m);                              // near-miss: locking an uncontended mutex
  std::atomic<int> counter{0};                           // near-miss: an atomic is inert in one thread
  auto pause = std::chrono::milliseconds(3);             // near-miss: a duration is not a sleep
  std::vector<int> v{3, 1, 2};
  int s = std::reduce(std::execution::seq, v.begin(), v.end());  // near-miss: the sequential policy
  std::promise<int> p;                                   // near-miss: a promise runs nothing
  p.set_value(1);
  return t.id + static_cast<int>(at) + r + counter.load() + static_cast<int>(pause.count()) + s +
         p.get_future().get();
}

}  // namespace fixture
