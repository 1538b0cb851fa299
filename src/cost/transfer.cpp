#include "cost/transfer.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "contracts/engine/errors.h"
#include "cost/topology/demand.h"

namespace blis::cost {

namespace {

using engine::ContractError;

[[noreturn]] void refuse_absent(const std::string& field, const std::string& cause) {
  throw ContractError("transfer demand: move." + field + ": not stated, and " + cause);
}

struct End {
  std::int64_t node = 0;
  std::optional<std::int64_t> rack;
  std::string device = "gpu";
  std::int64_t ranks = 1;  // GPU ranks holding the bytes; 1 for a device
};

End end_of(const std::optional<schema::TransferMoveEndpoint>& e, const std::string& field, std::int64_t per_node) {
  if (!e) refuse_absent(field, "a move is read at one end and written at the other");
  if (!e->node) refuse_absent(field + ".node", "the links a move crosses start at its node");
  if (!e->memory || (!e->memory->gpu && !e->memory->device))
    refuse_absent(field + ".memory", "the move's links depend on whether the bytes are in GPU memory or on a device");
  End out;
  out.node = *e->node;
  out.rack = e->rack;
  if (e->memory->device) {
    out.device = *e->memory->device;
    return out;
  }
  out.ranks = e->memory->gpu->ranks ? e->memory->gpu->ranks->value() : per_node;
  if (out.ranks > per_node)
    throw ContractError("transfer demand: move." + field + ".memory.gpu.ranks = " + std::to_string(out.ranks) +
                        ": the plan places " + std::to_string(per_node) +
                        " rank(s) of the instance on a node (layout.ranks_per_node)");
  return out;
}

}  // namespace

engine::TransferDemand transfer_demand(const Topology& topology, const engine::plan::PoolPlan& plan,
                                       const engine::plan::Transfer& move) {
  if (!move.tokens) refuse_absent("tokens", "the bytes moved are tokens x bytes_per_token");
  if (!move.bytes_per_token) refuse_absent("bytes_per_token", "the bytes moved are tokens x bytes_per_token");
  if (move.tokens->value() < 1)
    throw ContractError("transfer demand: move.tokens = " + units::to_string(*move.tokens) +
                        ": a move carries at least one token");
  const std::int64_t per_node =
      plan.layout && plan.layout->ranks_per_node ? plan.layout->ranks_per_node->value() : 1;
  const End s = end_of(move.source, "source", per_node);
  const End d = end_of(move.destination, "destination", per_node);
  const units::Bytes total = *move.bytes_per_token * move.tokens->value();
  const std::int64_t n = std::max(s.ranks, d.ranks);
  const std::int64_t base = total.value() / n, extra = total.value() % n;
  LinkDemand sum;
  try {
    for (std::int64_t i = 0; i < n; ++i) {
      const units::Bytes share{base + (i < extra ? 1 : 0)};
      if (share.value() == 0) continue;
      const auto endpoint = [&](const End& e, const End& other) {
        Endpoint out{e.node, e.rack, e.device, std::nullopt};
        if (e.device == "gpu") {
          out.gpu = i % e.ranks;
        } else if (e.node != other.node) {
          out.gpu = other.device == "gpu" ? i % other.ranks : 0;
        }
        return out;
      };
      // One share as a one-token move of its bytes (KvTransfer counts tokens x bytes_per_token).
      const LinkDemand part = cost::transfer_demand(topology, KvTransfer{units::Tokens{1}, share, endpoint(s, d), endpoint(d, s)});
      for (const auto& [link, bytes] : part.bytes) sum.bytes[link] += bytes;
    }
  } catch (const TopologyError& e) {
    throw ContractError(std::string("transfer demand: ") + e.what());
  }
  engine::TransferDemand out;
  out.bytes_per_link = std::move(sum.bytes);
  return out;
}

}  // namespace blis::cost
