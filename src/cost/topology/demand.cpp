#include "cost/topology/demand.h"

#include <set>
#include <utility>

namespace blis::cost {
namespace {

using units::Bytes;

std::string num(std::int64_t v) { return std::to_string(v); }

bool is_ring(Collective c) {
  return c == Collective::all_reduce || c == Collective::all_gather || c == Collective::reduce_scatter;
}

// One sender-receiver pair of a collective and the bytes it moves.
struct Edge {
  std::int64_t from;
  std::int64_t to;
  Bytes bytes;
};

std::vector<Edge> edges_of(Collective c, const std::vector<std::int64_t>& ranks, Bytes s, Bytes& per_edge) {
  const auto n = static_cast<std::int64_t>(ranks.size());
  std::vector<Edge> edges;
  if (is_ring(c)) {
    per_edge = ring_edge_bytes(c, units::with_scope<units::Scope::kRank>(s), n);
    if (n > 1)
      for (std::int64_t i = 0; i < n; ++i) edges.push_back({ranks[i], ranks[(i + 1) % n], per_edge});
  } else if (c == Collective::all_to_all) {
    const std::int64_t base = s.value() / n;
    const std::int64_t extra = s.value() % n;  // the first `extra` chunks are one byte larger
    per_edge = s - Bytes{base};                // the rank with a smallest chunk of its own sends the most
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (i != j) edges.push_back({ranks[i], ranks[j], Bytes{base + (j < extra ? 1 : 0)}});
  } else {
    if (n != 2)
      throw TopologyError("send_recv: " + num(n) + " ranks are refused: a send and receive joins exactly two ranks");
    per_edge = s;
    edges.push_back({ranks[0], ranks[1], s});
  }
  return edges;
}

void check_endpoint(const Topology& t, const Endpoint& e, const char* which) {
  const std::string field = std::string("transfer.") + which;
  t.rank_of(e.node, 0);
  const std::int64_t rack = t.place(t.rank_of(e.node, 0)).rack;
  if (e.rack && *e.rack != rack)
    throw TopologyError(field + ".rack: " + num(*e.rack) + " disagrees with node " + num(e.node) +
                        ", which is in rack " + num(rack) + (t.has_rack_tier() ? "" : " (the chip has no rack tier)"));
  if (e.device == "gpu" && !e.gpu)
    throw TopologyError(field + ".gpu: absent, but the endpoint is a GPU: state which GPU of node " + num(e.node));
  if (e.gpu) t.rank_of(e.node, *e.gpu);
}

// The NIC slot of a storage-device endpoint on a move between nodes.
std::int64_t slot(const Endpoint& e, const char* which) {
  if (!e.gpu)
    throw TopologyError(std::string("transfer.") + which + ".gpu: absent, but the move leaves node " + num(e.node) +
                        ": state the GPU slot whose NIC carries it");
  return *e.gpu;
}

}  // namespace

const char* collective_name(Collective c) {
  switch (c) {
    case Collective::all_reduce:
      return "all_reduce";
    case Collective::all_gather:
      return "all_gather";
    case Collective::reduce_scatter:
      return "reduce_scatter";
    case Collective::all_to_all:
      return "all_to_all";
    case Collective::send_recv:
      return "send_recv";
  }
  return "?";
}

void charge(const Topology& topology, const std::vector<std::string>& links, Bytes bytes, LinkDemand& demand) {
  if (bytes < Bytes{}) throw TopologyError("a link cannot carry " + units::to_string(bytes));
  if (bytes == Bytes{}) return;
  for (const auto& link : links) {
    demand.capacity.emplace(link, topology.capacity(link));
    demand.bytes[link] += bytes;
  }
}

std::optional<Bottleneck> bottleneck(const LinkDemand& demand) {
  std::optional<Bottleneck> worst;
  for (const auto& [link, bytes] : demand.bytes) {
    const units::Seconds t = bytes / demand.capacity.at(link);
    if (!worst || t > worst->time) worst = Bottleneck{link, t};
  }
  return worst;
}

Bytes ring_edge_bytes(Collective c, units::BytesPerRank per_rank, std::int64_t n) {
  if (!is_ring(c)) throw TopologyError(std::string(collective_name(c)) + " has no ring edges");
  if (n < 1) throw TopologyError("a ring of " + num(n) + " ranks is refused: at least one");
  if (per_rank < units::BytesPerRank{})
    throw TopologyError("bytes per rank: " + units::to_string(per_rank) + " is refused: negative");
  const std::int64_t factor = c == Collective::all_reduce ? 2 : 1;
  const Bytes moved = units::drop_scope(per_rank) * (factor * (n - 1));
  return Bytes{units::ceil_div(moved, Bytes{n}).value()};
}

CollectiveDemand collective_demand(const Topology& topology, Collective c, const std::vector<std::int64_t>& ranks,
                                   units::BytesPerRank per_rank) {
  if (ranks.empty())
    throw TopologyError(std::string(collective_name(c)) + ": a group of no ranks is refused: name at least one rank");
  std::set<std::int64_t> seen;
  for (const auto r : ranks) {
    topology.place(r);
    if (!seen.insert(r).second)
      throw TopologyError(std::string(collective_name(c)) + ": rank " + num(r) + " appears twice in the group");
  }
  if (per_rank < units::BytesPerRank{})
    throw TopologyError(std::string(collective_name(c)) + ": bytes per rank " + units::to_string(per_rank) +
                        " is refused: negative");
  CollectiveDemand out;
  out.span = topology.span(ranks);
  for (const Edge& e : edges_of(c, ranks, units::drop_scope(per_rank), out.per_edge)) {
    if (!topology.same_domain(e.from, e.to)) ++out.cross_domain_edges;
    charge(topology, topology.path(e.from, e.to), e.bytes, out.links);
  }
  out.bottleneck = bottleneck(out.links);
  return out;
}

LinkDemand transfer_demand(const Topology& topology, const KvTransfer& t) {
  if (t.tokens < units::Tokens{1})
    throw TopologyError("transfer.tokens: " + units::to_string(t.tokens) +
                        " is refused: a move has at least one token");
  if (t.bytes_per_token < Bytes{1})
    throw TopologyError("transfer.bytes_per_token: " + units::to_string(t.bytes_per_token) +
                        " is refused: at least one byte");
  const Endpoint& s = t.source;
  const Endpoint& d = t.destination;
  check_endpoint(topology, s, "source");
  check_endpoint(topology, d, "destination");
  const bool s_gpu = s.device == "gpu";
  const bool d_gpu = d.device == "gpu";
  if (s.node == d.node && s.device == d.device && (!s_gpu || *s.gpu == *d.gpu))
    throw TopologyError("transfer: source and destination are both " + s.device + " of node " + num(s.node) +
                        (s_gpu ? " gpu " + num(*s.gpu) : std::string()) + ": nothing moves");
  const std::string unused_gpu = ".gpu: refused: a storage device's GPU slot is used only on a move between nodes";
  if (s.node == d.node && !s_gpu && s.gpu) throw TopologyError("transfer.source" + unused_gpu);
  if (s.node == d.node && !d_gpu && d.gpu) throw TopologyError("transfer.destination" + unused_gpu);

  std::vector<std::string> links;
  if (s_gpu && d_gpu) {
    links = topology.path(topology.rank_of(s.node, *s.gpu), topology.rank_of(d.node, *d.gpu));
  } else if (s.node == d.node) {
    if (s_gpu) {
      links = {topology.host_link(s.node, *s.gpu, true), topology.device_link(d.node, d.device, false)};
    } else if (d_gpu) {
      links = {topology.device_link(s.node, s.device, true), topology.host_link(d.node, *d.gpu, false)};
    } else {
      links = {topology.device_link(s.node, s.device, true), topology.device_link(d.node, d.device, false)};
    }
  } else {
    if (!s_gpu) links.push_back(topology.device_link(s.node, s.device, true));
    for (auto& l : topology.fabric_path(s.node, slot(s, "source"), d.node, slot(d, "destination")))
      links.push_back(std::move(l));
    if (!d_gpu) links.push_back(topology.device_link(d.node, d.device, false));
  }
  LinkDemand out;
  charge(topology, links, t.bytes_per_token * t.tokens.value(), out);
  return out;
}

}  // namespace blis::cost
