// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Copyright contributors to the vLLM project
// Changed for BLIS: a C++ port of vllm/v1/core/sched/request_queue.py@6e448d0e (SchedulingPolicy,
// RequestQueue, FCFSRequestQueue, PriorityRequestQueue, create_request_queue). The queues hold pointers to
// requests the scheduler owns.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include "v1/request.h"

namespace blis::vllm {

// request_queue.py@6e448d0e SchedulingPolicy.
enum class SchedulingPolicy : std::uint8_t { kFcfs, kPriority };

// SchedulingPolicy(value): "fcfs" or "priority"; throws std::invalid_argument with upstream's
// "Unknown scheduling policy: <value>" otherwise (scheduler.py@6e448d0e Scheduler.__init__).
SchedulingPolicy scheduling_policy_from(std::string_view value);

// request_queue.py@6e448d0e RequestQueue.
class RequestQueue {
 public:
  virtual ~RequestQueue() = default;
  virtual void add_request(Request* request) = 0;
  virtual Request* pop_request() = 0;
  virtual Request* peek_request() const = 0;
  virtual void prepend_request(Request* request) = 0;
  virtual void prepend_requests(const RequestQueue& requests) = 0;
  virtual void remove_request(Request* request) = 0;
  virtual void remove_requests(const std::set<Request*>& requests) = 0;
  virtual std::size_t size() const = 0;
  bool empty() const { return size() == 0; }
  explicit operator bool() const { return !empty(); }
  // __iter__: the requests in the policy's order.
  virtual std::vector<Request*> in_order() const = 0;
};

// request_queue.py@6e448d0e FCFSRequestQueue (a deque).
class FCFSRequestQueue final : public RequestQueue {
 public:
  void add_request(Request* request) override { q_.push_back(request); }
  Request* pop_request() override;
  Request* peek_request() const override;
  void prepend_request(Request* request) override { q_.push_front(request); }
  // extendleft: the requests land in reverse order of their appearance in `requests`.
  void prepend_requests(const RequestQueue& requests) override;
  void remove_request(Request* request) override;
  void remove_requests(const std::set<Request*>& requests) override;
  std::size_t size() const override { return q_.size(); }
  std::vector<Request*> in_order() const override { return {q_.begin(), q_.end()}; }

 private:
  std::deque<Request*> q_;
};

// request_queue.py@6e448d0e PriorityRequestQueue (a binary heap ordered by Request::operator<; the order
// is total, so pops and iteration match heapq's).
class PriorityRequestQueue final : public RequestQueue {
 public:
  void add_request(Request* request) override;
  Request* pop_request() override;
  Request* peek_request() const override;
  void prepend_request(Request* request) override { add_request(request); }
  void prepend_requests(const RequestQueue& requests) override;
  void remove_request(Request* request) override;
  void remove_requests(const std::set<Request*>& requests) override;
  std::size_t size() const override { return heap_.size(); }
  std::vector<Request*> in_order() const override;

 private:
  std::vector<Request*> heap_;
};

// request_queue.py@6e448d0e create_request_queue.
std::unique_ptr<RequestQueue> create_request_queue(SchedulingPolicy policy);

}  // namespace blis::vllm
