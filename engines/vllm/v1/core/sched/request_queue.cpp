// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/request_queue.py@6e448d0e; see request_queue.h.
#include "v1/core/sched/request_queue.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace blis::vllm {

namespace {
// heapq's min-heap on Request::operator<, as std::*_heap's max-heap with the comparison reversed.
bool later(const Request* a, const Request* b) { return *b < *a; }
}  // namespace

SchedulingPolicy scheduling_policy_from(std::string_view value) {
  if (value == "fcfs") return SchedulingPolicy::kFcfs;
  if (value == "priority") return SchedulingPolicy::kPriority;
  throw std::invalid_argument("Unknown scheduling policy: " + std::string(value));
}

// request_queue.py@6e448d0e FCFSRequestQueue.pop_request
Request* FCFSRequestQueue::pop_request() {
  if (q_.empty()) throw std::out_of_range("pop from an empty deque");
  Request* r = q_.front();
  q_.pop_front();
  return r;
}

// request_queue.py@6e448d0e FCFSRequestQueue.peek_request
Request* FCFSRequestQueue::peek_request() const {
  if (q_.empty()) throw std::out_of_range("peek from an empty queue");
  return q_.front();
}

// request_queue.py@6e448d0e FCFSRequestQueue.prepend_requests
void FCFSRequestQueue::prepend_requests(const RequestQueue& requests) {
  for (Request* r : requests.in_order()) q_.push_front(r);
}

// request_queue.py@6e448d0e FCFSRequestQueue.remove_request (deque.remove: the first occurrence)
void FCFSRequestQueue::remove_request(Request* request) {
  auto it = std::find(q_.begin(), q_.end(), request);
  if (it == q_.end()) throw std::invalid_argument("deque.remove(x): x not in deque");
  q_.erase(it);
}

// request_queue.py@6e448d0e FCFSRequestQueue.remove_requests
void FCFSRequestQueue::remove_requests(const std::set<Request*>& requests) {
  std::erase_if(q_, [&](Request* r) { return requests.contains(r); });
}

// request_queue.py@6e448d0e PriorityRequestQueue.add_request
void PriorityRequestQueue::add_request(Request* request) {
  heap_.push_back(request);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

// request_queue.py@6e448d0e PriorityRequestQueue.pop_request
Request* PriorityRequestQueue::pop_request() {
  if (heap_.empty()) throw std::out_of_range("pop from empty heap");
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Request* r = heap_.back();
  heap_.pop_back();
  return r;
}

// request_queue.py@6e448d0e PriorityRequestQueue.peek_request
Request* PriorityRequestQueue::peek_request() const {
  if (heap_.empty()) throw std::out_of_range("peek from empty heap");
  return heap_.front();
}

// request_queue.py@6e448d0e PriorityRequestQueue.prepend_requests
void PriorityRequestQueue::prepend_requests(const RequestQueue& requests) {
  for (Request* r : requests.in_order()) add_request(r);
}

// request_queue.py@6e448d0e PriorityRequestQueue.remove_request
void PriorityRequestQueue::remove_request(Request* request) {
  auto it = std::find(heap_.begin(), heap_.end(), request);
  if (it == heap_.end()) throw std::invalid_argument("list.remove(x): x not in list");
  heap_.erase(it);
  std::make_heap(heap_.begin(), heap_.end(), later);
}

// request_queue.py@6e448d0e PriorityRequestQueue.remove_requests
void PriorityRequestQueue::remove_requests(const std::set<Request*>& requests) {
  std::erase_if(heap_, [&](Request* r) { return requests.contains(r); });
  std::make_heap(heap_.begin(), heap_.end(), later);
}

// request_queue.py@6e448d0e PriorityRequestQueue.__iter__ (pops a copy of the heap)
std::vector<Request*> PriorityRequestQueue::in_order() const {
  std::vector<Request*> out(heap_);
  std::sort(out.begin(), out.end(), [](const Request* a, const Request* b) { return *a < *b; });
  return out;
}

// request_queue.py@6e448d0e create_request_queue
std::unique_ptr<RequestQueue> create_request_queue(SchedulingPolicy policy) {
  if (policy == SchedulingPolicy::kPriority) return std::make_unique<PriorityRequestQueue>();
  return std::make_unique<FCFSRequestQueue>();
}

}  // namespace blis::vllm
