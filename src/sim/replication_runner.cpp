#include "sim/replication_runner.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace blis::sim {

std::vector<ReplicationOutput> run_replications(const std::function<ReplicationOutput(std::int64_t index)>& one,
                                                std::int64_t first, std::int64_t count, int threads,
                                                const std::function<void()>& finished) {
  if (threads < 1) throw std::invalid_argument("threads: " + std::to_string(threads) + " is below 1");
  std::vector<std::optional<ReplicationOutput>> slots(static_cast<std::size_t>(count));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(count));
  std::atomic<std::int64_t> next{0};
  std::mutex report;
  auto work = [&] {
    for (std::int64_t k = next++; k < count; k = next++) {
      try {
        slots[static_cast<std::size_t>(k)] = one(first + k);
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
      }
      if (finished) {
        const std::lock_guard<std::mutex> lock(report);
        finished();
      }
    }
  };
  if (threads == 1 || count <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    const auto n = static_cast<std::int64_t>(threads) < count ? threads : static_cast<int>(count);
    for (int t = 0; t < n; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  std::vector<ReplicationOutput> out;
  out.reserve(slots.size());
  for (auto& s : slots) out.push_back(std::move(*s));
  return out;
}

}  // namespace blis::sim
