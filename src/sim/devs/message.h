// Messages between components (design §8.1, §8.2). A component sends only from its output function, and
// every message carries that instant's time. A receiver's bag for one instant is sorted by the key
// (time, class, sender, the sender's own count of messages sent); the key holds no global counter, so the
// order depends only on what each sender did. Two messages with one key are a defect that stops the run.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "contracts/engine/request.h"
#include "contracts/engine/scheduling.h"
#include "sim/devs/time.h"

namespace blis::sim {

// A component's index in the coordinator; the build site adds components in one fixed order.
using ComponentId = std::uint32_t;

// The message classes, in the order a bag is sorted by. Each position and its reason is written in
// kClassOrder below; a change to the order is a change to the model (§8.9).
enum class MessageClass : std::uint8_t {
  kTransferDone = 0,   // a link finished a transfer
  kStepRecord = 1,     // an engine's token record of a step that ended
  kRefusal = 2,        // an engine refused a request at admission
  kPublication = 3,    // an engine's published metrics, as delivered
  kKvEvents = 4,       // an engine's KV-event message
  kTransferStart = 5,  // a component puts a transfer on a link
  kAbort = 6,          // a client gave up on a request
  kDispatch = 7,       // the router sends a request to an engine
  kNewRequest = 8,     // a client sends a request
};

struct ClassPosition {
  MessageClass cls;
  std::string_view name;
  std::string_view reason;
};

inline constexpr std::array<ClassPosition, 9> kClassOrder{{
    {MessageClass::kTransferDone, "transfer-done",
     "a finished transfer frees its link share and delivers its KV before anything else at the instant reads "
     "either: outputs of work that ended come before new work"},
    {MessageClass::kStepRecord, "step-record",
     "outputs of work that ended are taken before new work arrives, as an engine's loop processes a step's "
     "output before it reads its input queue, so a client sees its tokens before it sends the next request"},
    {MessageClass::kRefusal, "refusal",
     "a refusal ends a request like a record does, and is ordered beside it"},
    {MessageClass::kPublication, "publication",
     "the router applies the freshest delivered metrics before it decides where a same-instant request goes"},
    {MessageClass::kKvEvents, "kv-events",
     "the router indexes an engine's KV events before it decides where a same-instant request goes, as it "
     "applies metrics"},
    {MessageClass::kTransferStart, "transfer-start",
     "a link takes every transfer starting at the instant before it computes the shares they run at"},
    {MessageClass::kAbort, "abort",
     "a cancellation frees its slot before a new request is admitted at the same instant"},
    {MessageClass::kDispatch, "dispatch", "a routed request reaches its engine before newer requests exist"},
    {MessageClass::kNewRequest, "new-request", "new work comes last: everything that frees capacity is seen first"},
}};

std::string_view class_name(MessageClass cls);

struct MessageKey {
  SimTime time;
  MessageClass cls = MessageClass::kStepRecord;
  ComponentId sender = 0;
  std::uint64_t count = 0;  // the sender's own count of messages sent, from 1

  friend auto operator<=>(const MessageKey&, const MessageKey&) = default;
};

// ---- Payloads -------------------------------------------------------------------------------------------

// A client sends a request; `session` and `round` name its place in a session (0 for single requests).
struct NewRequest {
  engine::Request request;
  ComponentId client = 0;
};

// The router sends a request to an engine instance.
struct Dispatch {
  engine::Request request;
  ComponentId client = 0;
};

// A client gives up on a request (its timeout).
struct Abort {
  std::string request;
};

// An engine's token record of one step (SIM-12), stamped by the engine component.
struct StepRecord {
  std::string pool;
  std::int64_t instance = 0;
  SimTime started;                              // when the step started
  std::vector<std::string> first_scheduled;     // requests that ran for the first time in this step
  engine::StepOutcome outcome;
  std::vector<std::string> aborted;             // aborts the engine applied at this boundary (after the outcome)
};

struct Refusal {
  engine::Refused refused;
};

// An engine's published metrics, with its time and publication sequence (DEV-4).
struct Publication {
  std::int64_t endpoint = 0;  // the router's index of the publishing instance
  SimTime published;
  std::uint64_t sequence = 0;
  engine::Published values;
};

// An engine's KV-event message (design §6.4), delivered to the router at the end of the step whose output
// published it; in each engine's publication order (its sequence numbers).
struct KvEvents {
  std::int64_t endpoint = 0;  // the router's index of the publishing instance
  engine::KvEventMessage message;
};

// A transfer put on a link (SIM-13): `bytes` to move, and who is told when it is done.
struct TransferStart {
  std::string transfer;  // unique among the link's transfers
  std::int64_t bytes = 0;
  ComponentId reply_to = 0;
};

// A link's notice that a transfer finished.
struct TransferDone {
  std::string transfer;
  std::int64_t bytes = 0;
};

using Payload =
    std::variant<NewRequest, Dispatch, Abort, StepRecord, Refusal, Publication, KvEvents, TransferStart, TransferDone>;

struct Message {
  MessageKey key;
  ComponentId to = 0;
  Payload payload;
};

// A message a transition decided to send, held until the component's next output function sends it.
struct Outgoing {
  ComponentId to = 0;
  MessageClass cls = MessageClass::kStepRecord;
  Payload payload;
};

// The messages one component receives at one instant, sorted by key.
using Bag = std::vector<Message>;

}  // namespace blis::sim
