#include "sim/cluster/router_component.h"

#include <stdexcept>
#include <utility>

namespace blis::sim {

RouterComponent::RouterComponent(std::vector<Endpoint> endpoints, Picker& picker, Observations& observations)
    : endpoints_(std::move(endpoints)), picker_(picker), observations_(observations) {
  if (endpoints_.empty()) throw std::invalid_argument("router: no endpoint to route to");
  for (const auto& e : endpoints_) view_.push_back(EndpointView{e.pool, e.instance, std::nullopt, {}, 0, e.engine_kind});
}

SimTime RouterComponent::time_advance() const { return pending_.empty() ? kNever : SimTime{0}; }

void RouterComponent::output(SimTime, Outbox& out) {
  for (const auto& p : pending_) out.send(p.to, p.cls, p.payload);
}

void RouterComponent::internal(SimTime) { pending_.clear(); }

void RouterComponent::take(SimTime now, const Bag& bag) {
  for (const auto& m : bag) {
    if (const auto* p = std::get_if<Publication>(&m.payload)) {
      if (p->endpoint < 0 || static_cast<std::size_t>(p->endpoint) >= view_.size()) {
        throw SimulationError("router: a publication from endpoint " + std::to_string(p->endpoint) + ", which it does not have");
      }
      EndpointView& v = view_[static_cast<std::size_t>(p->endpoint)];
      if (!v.metrics || std::pair(v.published, v.sequence) < std::pair(p->published, p->sequence)) {
        v.metrics = p->values;
        v.published = p->published;
        v.sequence = p->sequence;
      }
    } else if (const auto* k = std::get_if<KvEvents>(&m.payload)) {
      if (k->endpoint < 0 || static_cast<std::size_t>(k->endpoint) >= view_.size()) {
        throw SimulationError("router: KV events from endpoint " + std::to_string(k->endpoint) + ", which it does not have");
      }
      picker_.kv_events(now, view_[static_cast<std::size_t>(k->endpoint)], k->message);
    } else if (const auto* r = std::get_if<NewRequest>(&m.payload)) {
      if (observation_trace_) {
        for (std::size_t k = 0; k < view_.size(); ++k) {
          const EndpointView& v = view_[k];
          observation_trace_->observe(now, static_cast<std::int64_t>(k),
                                      v.metrics ? std::optional(PublishedKey{v.published, v.sequence}) : std::nullopt);
        }
      }
      const std::size_t i = picker_.pick(now, r->request, view_);
      if (i >= endpoints_.size()) {
        throw SimulationError("router: picker '" + std::string(picker_.name()) + "' chose endpoint " +
                              std::to_string(i) + " of " + std::to_string(endpoints_.size()));
      }
      routed_[r->request.id] = Route{i, r->client};
      RequestRecord& rec = observations_.at(r->request.id);
      rec.dispatched = now;
      rec.pool = endpoints_[i].pool;
      rec.instance = endpoints_[i].instance;
      pending_.push_back(Outgoing{endpoints_[i].engine, MessageClass::kDispatch, Dispatch{r->request, r->client}});
    } else if (const auto* a = std::get_if<Abort>(&m.payload)) {
      auto it = routed_.find(a->request);
      if (it != routed_.end()) {
        pending_.push_back(Outgoing{endpoints_[it->second.endpoint].engine, MessageClass::kAbort, *a});
        routed_.erase(it);
        aborted_.insert(a->request);
        end_response(now, a->request);
      }
    } else if (const auto* rec = std::get_if<StepRecord>(&m.payload)) {
      forward(now, *rec);
    } else if (const auto* f = std::get_if<Refusal>(&m.payload)) {
      auto it = routed_.find(f->refused.request);
      if (it == routed_.end()) throw SimulationError("router: a refusal of '" + f->refused.request + "', which it did not route");
      pending_.push_back(Outgoing{it->second.client, MessageClass::kRefusal, *f});
      routed_.erase(it);
      end_response(now, f->refused.request);
    } else {
      throw SimulationError("router: received a " + std::string(class_name(m.key.cls)) + " message");
    }
  }
}

// Tells the picker a routed request's response ended (finished, refused or aborted): with start_of_stream
// too when no output of it passed first.
void RouterComponent::end_response(SimTime now, const std::string& id) {
  picker_.response(now, id, !streaming_.contains(id), true);
  streaming_.erase(id);
}

// Splits an engine's step record by client, keeping batch order, and forgets requests that finished.
void RouterComponent::forward(SimTime now, const StepRecord& record) {
  std::map<ComponentId, StepRecord> per_client;
  // The client of a request, or nullptr for one whose client gave up (its output is dropped, as a gateway
  // drops a response whose connection closed).
  auto part = [&](const std::string& id) -> StepRecord* {
    auto it = routed_.find(id);
    if (it == routed_.end()) {
      if (aborted_.contains(id)) return nullptr;
      throw SimulationError("router: a step record names '" + id + "', which it did not route");
    }
    StepRecord& r = per_client[it->second.client];
    r.pool = record.pool;
    r.instance = record.instance;
    r.started = record.started;
    return &r;
  };
  for (const auto& id : record.first_scheduled) {
    if (auto* r = part(id)) r->first_scheduled.push_back(id);
  }
  for (const auto& e : record.outcome.emitted) {
    if (auto* r = part(e.request)) {
      r->outcome.emitted.push_back(e);
      if (streaming_.insert(e.request).second) picker_.response(now, e.request, true, false);
    }
  }
  for (const auto& id : record.outcome.preempted) {
    if (auto* r = part(id)) r->outcome.preempted.push_back(id);
  }
  for (const auto& f : record.outcome.finished) {
    if (auto* r = part(f.request)) r->outcome.finished.push_back(f);
  }
  for (auto& [client, r] : per_client) pending_.push_back(Outgoing{client, MessageClass::kStepRecord, std::move(r)});
  for (const auto& f : record.outcome.finished) {
    if (routed_.erase(f.request) > 0) {
      end_response(now, f.request);
    }
  }
  for (const auto& id : record.aborted) aborted_.erase(id);  // the engine will not name it again
}

void RouterComponent::external(SimTime now, SimTime, const Bag& bag) { take(now, bag); }

void RouterComponent::confluent(SimTime now, const Bag& bag) {
  pending_.clear();  // sent by this instant's output function
  take(now, bag);
}

}  // namespace blis::sim
