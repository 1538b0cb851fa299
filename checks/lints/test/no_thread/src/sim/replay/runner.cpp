// The closest place that is not the allowance: another file of src/sim/ with the same code.
#include <thread>
#include <vector>

namespace fixture {

void run_replays(int n) {
  std::vector<std::thread> workers;  // expect: simulated code starts a thread
  for (int i = 0; i < n; ++i) workers.emplace_back([] {});  // near-miss: the container is already reported
  for (auto& w : workers) w.join();
}

}  // namespace fixture
