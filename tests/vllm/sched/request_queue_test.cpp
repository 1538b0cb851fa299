// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: this port's own unit tests of vllm/v1/core/sched/request_queue.py@6e448d0e where the
// mutation sweep (design T7) showed the scheduler tests leave it unchecked: remove_request, which the
// scheduler itself never calls (it removes through remove_requests), and the heap after remove_requests.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.h"

namespace blis::vllm::testing {

// request_queue.py@6e448d0e FCFSRequestQueue.remove_request (`self.remove(request)`: deque.remove raises
// ValueError for a request not queued) and PriorityRequestQueue.remove_request (`self._heap.remove(request)`
// then heapify: list.remove raises ValueError likewise).
TEST(VllmRequestQueue, RemoveRequest) {
  for (const SchedulingPolicy policy : {SchedulingPolicy::kFcfs, SchedulingPolicy::kPriority}) {
    auto requests = create_requests_with_priority(4, {3, 1, 2, 0});
    auto queue = create_request_queue(policy);
    for (int i = 0; i < 3; ++i) queue->add_request(requests[static_cast<std::size_t>(i)].get());
    queue->remove_request(requests[1].get());
    EXPECT_EQ(queue->size(), 2u);
    const std::vector<std::string> expected =
        policy == SchedulingPolicy::kFcfs ? std::vector<std::string>{"0", "2"} : std::vector<std::string>{"2", "0"};
    EXPECT_EQ(ids_of(*queue), expected);
    EXPECT_EQ(queue->peek_request()->request_id, expected[0]);
    EXPECT_THROW(queue->remove_request(requests[3].get()), std::invalid_argument);
    EXPECT_THROW(queue->remove_request(requests[1].get()), std::invalid_argument);
    EXPECT_EQ(queue->size(), 2u);
    queue->remove_request(requests[0].get());
    queue->remove_request(requests[2].get());
    EXPECT_TRUE(queue->empty());
  }
}

// request_queue.py@6e448d0e PriorityRequestQueue.remove_requests: the heap is rebuilt (heapify) after the
// filter, so removing the front keeps (priority, arrival) order. Pushed in the order 0, 5, 1, 6, 7, 2 the
// heap is [0, 5, 1, 6, 7, 2]; without the 0 the filtered list [5, 1, 6, 7, 2] is no heap.
TEST(VllmRequestQueue, PriorityRemoveRequestsKeepsTheOrder) {
  auto requests = create_requests_with_priority(6, {0, 5, 1, 6, 7, 2});
  PriorityRequestQueue queue;
  for (auto& r : requests) queue.add_request(r.get());
  queue.remove_requests({requests[0].get()});
  std::vector<std::int64_t> popped;
  while (!queue.empty()) popped.push_back(queue.pop_request()->priority);
  EXPECT_EQ(popped, (std::vector<std::int64_t>{1, 2, 5, 6, 7}));
}

}  // namespace blis::vllm::testing
