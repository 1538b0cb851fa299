// The bytes each link carries (SUB-17, design §6.2): a collective's per-link demand during its step, with
// its bottleneck link and span, and a KV move's per-link bytes, which the simulator shares over time (X3).
// Bytes are integers (blis::units::Bytes, overflow refused); rates and times are doubles. Every map is
// ordered by link name, so the same inputs give the same output in the same order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contracts/units.h"
#include "cost/topology/topology.h"

namespace blis::cost {

enum class Collective : std::uint8_t { all_reduce, all_gather, reduce_scatter, all_to_all, send_recv };
const char* collective_name(Collective c);  // the family suffix: all_reduce, ..., send_recv

struct LinkDemand {
  std::map<std::string, units::Bytes> bytes;         // link -> bytes it carries (links with none are absent)
  std::map<std::string, units::BytesPerS> capacity;  // the same links -> capacity per direction
};

// Adds `bytes` to every link of `links` (names of topology's links), recording each link's capacity.
void charge(const Topology& topology, const std::vector<std::string>& links, units::Bytes bytes, LinkDemand& demand);

struct Bottleneck {
  std::string link;
  units::Seconds time;  // bytes / capacity of that link
};
// The link with the largest bytes / capacity (the first by name among equals); nullopt when none carries bytes.
std::optional<Bottleneck> bottleneck(const LinkDemand& demand);

// Bytes one rank sends its ring successor in a ring all-reduce, all-gather or reduce-scatter of n ranks
// with `per_rank` bytes each: the bus bytes of registry/families.yaml, 2(n-1)/n·S and (n-1)/n·S, rounded
// up to a whole byte. Refused for all_to_all and send_recv (they have no ring).
units::Bytes ring_edge_bytes(Collective c, units::BytesPerRank per_rank, std::int64_t n);

struct CollectiveDemand {
  Span span = Span::node;
  // Ring collectives: bytes along each ring edge; all_to_all: the most one rank sends; send_recv: S.
  units::Bytes per_edge;
  std::int64_t cross_domain_edges = 0;  // sender-receiver pairs whose path leaves the NVLink domain
  LinkDemand links;
  std::optional<Bottleneck> bottleneck;
};

// The demand of collective c over `ranks` (global ranks, in the order the layout lists them; that order
// is the ring's) with `per_rank` bytes on each rank:
//   ring (all_reduce, all_gather, reduce_scatter): each rank sends ring_edge_bytes to its successor, the
//     last to the first; an edge that crosses nodes loads the NICs and uplinks on its path.
//   all_to_all: S is split into n chunks (the first S mod n one byte larger); rank i sends chunk j to the
//     j-th rank of the list, for every j != i.
//   send_recv: exactly two ranks; the first sends S to the second.
// Refused: an empty list, a repeated rank, a rank outside the cluster, negative bytes, and send_recv over
// other than two ranks.
CollectiveDemand collective_demand(const Topology& topology, Collective c, const std::vector<std::int64_t>& ranks,
                                   units::BytesPerRank per_rank);

// One end of a KV move, as the design's engine.Transfer Move states it, plus the GPU slot.
struct Endpoint {
  std::int64_t node = 0;
  std::optional<std::int64_t> rack;  // when stated, must be the node's rack (0 without a rack tier)
  std::string device = "gpu";        // "gpu" or a catalog device name among the cluster's storage
  // For device gpu: the GPU on the node. For a storage device: the GPU slot whose NIC carries a move to or
  // from another node. Required where it is used and refused where it is not. The design's Move names only
  // node and rack; which GPU's link carries the move is the caller's to state (blis-substrate#48).
  std::optional<std::int64_t> gpu;
};

// The design's plan.Transfer: one sender, one receiver, one token count.
struct KvTransfer {
  units::Tokens tokens;
  units::Bytes bytes_per_token;
  Endpoint source;
  Endpoint destination;
};

// The bytes (tokens · bytes_per_token) on each link between source and destination:
//   GPU to GPU: the path between their ranks (NVLink domain or fabric);
//   GPU and a storage device on one node: the GPU's host link, then the device's read or write link;
//   two storage devices on one node: the source's read link and the destination's write link;
//   a storage device and anything on another node: its read or write link and the fabric path between
//   the endpoints' NICs (a GPU end's NIC reads or writes GPU memory directly).
LinkDemand transfer_demand(const Topology& topology, const KvTransfer& transfer);

}  // namespace blis::cost
