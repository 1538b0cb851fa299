// The bytes one KV move puts on each link (design §6.2 "the substrate prices each move", SUB-17): the
// move as the engine reports it (plan::Transfer), priced against the plan of the engine that reports it,
// over the cluster's topology (topology/topology.h). The move becomes topology's KvTransfer as follows:
//   - B = tokens x bytes_per_token, the bytes the move carries over all the ranks that hold them.
//   - A GPU end holds the bytes on memory.gpu.ranks ranks of its node (absent: the plan's
//     layout.ranks_per_node, 1 when absent), each an even share; the instance's ranks fill the node from
//     its first GPU (the layout's rule), so they are GPUs 0 .. ranks-1 of the node. More ranks than the
//     plan places on a node are refused.
//   - The move is split into n = max(ranks of the two ends, a device end counting 1) shares, the first
//     B mod n one byte larger (as an all-to-all splits); share i goes from the source's GPU i mod ranks to
//     the destination's GPU i mod ranks. A storage device end of a move between nodes uses the NIC of the
//     other end's GPU for the share (GPU slot 0 when both ends are devices); on one node it uses none.
//   - Each share's links are topology's transfer_demand of it; the demand is their sum per link.
// direction, kv_group and pages do not change the bytes on a link and are not read here.
// Refusals (engine::ContractError naming the field, the value and the cause): tokens, bytes_per_token,
// source, destination, an end's node or memory not stated; no tokens; and whatever the topology refuses
// (a node outside the cluster, a device the cluster does not hold, a rack that is not the node's).
#pragma once

#include "contracts/engine/plan.h"
#include "contracts/engine/results.h"
#include "cost/topology/topology.h"

namespace blis::cost {

engine::TransferDemand transfer_demand(const Topology& topology, const engine::plan::PoolPlan& plan,
                                       const engine::plan::Transfer& move);

}  // namespace blis::cost
