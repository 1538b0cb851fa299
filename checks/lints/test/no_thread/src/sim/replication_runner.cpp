// The declared allowance of blis-no-thread (INTERFACES.md): the replication runner may start threads,
// one per replication, each single-threaded; the same code anywhere else in scope is flagged.
#include <thread>
#include <vector>

namespace fixture {

void run_replications(int n) {
  std::vector<std::thread> workers;  // near-miss: the replication runner is the allowed site
  for (int i = 0; i < n; ++i) workers.emplace_back([] {});  // near-miss: allowed site
  for (auto& w : workers) w.join();
}

}  // namespace fixture
