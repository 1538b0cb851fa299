// SUB-17's property check over random clusters (chip, nodes, switch groups, oversubscription) and random
// groups of ranks: a group inside one NVLink domain puts no demand on a NIC or an uplink; a group that
// leaves it loads every NIC and uplink its edges cross, and the bytes on NIC egress (and on uplinks) add
// up to the bytes of the edges that cross; demand never falls when the message grows; the bottleneck time
// never falls when an uplink's oversubscription grows; the same inputs give the same bytes in the same order.
//
// The expected edges are computed here from the algorithms' definitions, independently of demand.cpp.
// The demand function under test is named by the file given as the one argument (invariants/SUB-17.yaml):
// `collective_demand` (the real run) or a deliberately wrong variant (the known-bad run, X18).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalog_fixture.h"
#include "cost/topology/demand.h"

namespace blis::cost {
namespace {

using testing::ScenarioSpec;
using units::Bytes;
using units::BytesPerRank;

using DemandFn = CollectiveDemand (*)(const Topology&, Collective, const std::vector<std::int64_t>&, BytesPerRank);

// Known-bad: a ring that forgets the edge from the last rank back to the first.
CollectiveDemand ring_without_wraparound(const Topology& t, Collective c, const std::vector<std::int64_t>& ranks,
                                         BytesPerRank s) {
  if (c == Collective::all_to_all || c == Collective::send_recv) return collective_demand(t, c, ranks, s);
  CollectiveDemand out;
  out.span = t.span(ranks);
  out.per_edge = ring_edge_bytes(c, s, static_cast<std::int64_t>(ranks.size()));
  for (std::size_t i = 0; i + 1 < ranks.size(); ++i) charge(t, t.path(ranks[i], ranks[i + 1]), out.per_edge, out.links);
  out.bottleneck = bottleneck(out.links);
  return out;
}

DemandFn g_demand = &collective_demand;

struct Case {
  ScenarioSpec cluster;
  Collective kind = Collective::all_reduce;
  std::vector<std::int64_t> ranks;
  std::int64_t bytes = 0;
};

// Uniform over [lo, hi) at every test size (RapidCheck scales ranges with the size, which starts small;
// small clusters alone would rarely leave a domain). Shrinks towards lo.
std::int64_t pick(std::int64_t lo, std::int64_t hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::int64_t>(lo, hi));
}
template <class T>
T one_of(const std::vector<T>& xs) {
  return xs[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(xs.size())))];
}

Case random_case() {
  Case k;
  ScenarioSpec& c = k.cluster;
  c.chip = one_of<std::string>({"H100-SXM", "L40S", "GB200-NVL72", "GB300-NVL72"});
  std::int64_t per_node = 4;
  if (c.chip == "H100-SXM" || c.chip == "L40S") {
    c.nodes = pick(1, 7);
    per_node = pick(1, 9);
    c.gpus_per_node = per_node;
    c.fabric = one_of<std::string>({"InfiniBand-NDR", "InfiniBand-XDR", "RoCE-400GbE"});
  } else {
    c.nodes = pick(1, 46);  // up to three racks of 18 trays
    c.fabric = c.chip == "GB300-NVL72" ? std::string("InfiniBand-XDR")
                                       : one_of<std::string>({"InfiniBand-XDR", "InfiniBand-NDR"});
  }
  const std::int64_t groups = pick(1, std::min<std::int64_t>(c.nodes, 4) + 1);
  std::vector<SwitchGroupSpec> g(static_cast<std::size_t>(groups));
  for (std::int64_t n = 0; n < c.nodes; ++n) g[static_cast<std::size_t>(pick(0, groups))].nodes.push_back(n);
  c.switch_groups.emplace();
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (g[i].nodes.empty()) continue;
    g[i].name = "leaf-" + std::to_string(i);
    g[i].uplink_oversubscription = one_of<double>({1.0, 1.5, 2.0, 3.0, 4.0, 8.0});
    c.switch_groups->push_back(g[i]);
  }

  // Ranks: from the whole cluster, or (a third of the time) from one NVLink domain.
  const std::int64_t total = c.nodes * per_node;
  std::int64_t lo = 0;
  std::int64_t hi = total;
  if (pick(0, 3) == 0) {
    const std::int64_t domain = c.chip == "H100-SXM" || c.chip == "L40S" ? per_node : 72;
    lo = pick(0, (total + domain - 1) / domain) * domain;
    hi = std::min(total, lo + domain);
  }
  std::vector<std::int64_t> pool;
  for (std::int64_t r = lo; r < hi; ++r) pool.push_back(r);
  k.kind = one_of<Collective>({Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
                               Collective::all_to_all, Collective::send_recv});
  const std::int64_t size = static_cast<std::int64_t>(pool.size());
  std::int64_t n = k.kind == Collective::send_recv ? 2 : pick(1, std::min<std::int64_t>(size, 12) + 1);
  RC_PRE(n <= size);
  for (std::int64_t i = 0; i < n; ++i)
    std::swap(pool[static_cast<std::size_t>(i)], pool[static_cast<std::size_t>(pick(i, size))]);
  k.ranks.assign(pool.begin(), pool.begin() + n);
  k.bytes = pick(0, std::int64_t{1} << 40);
  return k;
}

// The sender-receiver pairs of the algorithm and the bytes of each, from its definition.
std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, std::int64_t>> expected_edges(const Case& k) {
  const auto n = static_cast<std::int64_t>(k.ranks.size());
  std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, std::int64_t>> e;
  if (k.kind == Collective::send_recv) {
    e.push_back({{k.ranks[0], k.ranks[1]}, k.bytes});
  } else if (k.kind == Collective::all_to_all) {
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        if (i != j) e.push_back({{k.ranks[i], k.ranks[j]}, k.bytes / n + (j < k.bytes % n ? 1 : 0)});
  } else if (n > 1) {
    const __int128 moved = static_cast<__int128>(k.bytes) * (k.kind == Collective::all_reduce ? 2 : 1) * (n - 1);
    const auto per_edge = static_cast<std::int64_t>((moved + n - 1) / n);
    for (std::int64_t i = 0; i < n; ++i) e.push_back({{k.ranks[i], k.ranks[(i + 1) % n]}, per_edge});
  }
  return e;
}

bool is_nic(const std::string& link) { return link.find("/nic") != std::string::npos; }
bool is_uplink(const std::string& link) { return link.find("/uplink/") != std::string::npos; }
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::int64_t domain_of(const Topology& t, std::int64_t rank) {
  const Placement p = t.place(rank);
  return t.has_rack_tier() ? p.rack : p.node;
}

CollectiveDemand run(const Topology& t, const Case& k) { return g_demand(t, k.kind, k.ranks, BytesPerRank{k.bytes}); }

RC_GTEST_PROP(CostPathProperty, NicAndUplinkDemandIsExactlyTheCrossingEdges, ()) {
  const Case k = random_case();
  const Topology t = testing::build(k.cluster);
  const CollectiveDemand d = run(t, k);
  std::int64_t crossing = 0;
  std::int64_t crossing_groups = 0;
  std::map<std::string, bool> must_carry;
  for (const auto& [edge, bytes] : expected_edges(k)) {
    const auto [a, b] = edge;
    if (domain_of(t, a) == domain_of(t, b)) continue;
    crossing += bytes;
    const Placement pa = t.place(a);
    const Placement pb = t.place(b);
    if (bytes > 0) {
      must_carry[detail::nic_link(pa.node, pa.gpu, true)] = true;
      must_carry[detail::nic_link(pb.node, pb.gpu, false)] = true;
    }
    if (t.group_of(pa.node) != t.group_of(pb.node)) crossing_groups += bytes;
  }
  std::int64_t nic_tx = 0, nic_rx = 0, up_tx = 0, up_rx = 0;
  for (const auto& [link, bytes] : d.links.bytes) {
    if (is_nic(link)) (ends_with(link, "/tx") ? nic_tx : nic_rx) += bytes.value();
    if (is_uplink(link)) (ends_with(link, "/tx") ? up_tx : up_rx) += bytes.value();
  }
  if (nic_tx != crossing || nic_rx != crossing)
    RC_FAIL("sum of NIC egress " + std::to_string(nic_tx) + " (ingress " + std::to_string(nic_rx) +
            ") differs from the bytes of the edges that leave their NVLink domain, " + std::to_string(crossing));
  if (up_tx != crossing_groups || up_rx != crossing_groups)
    RC_FAIL("sum of uplink egress " + std::to_string(up_tx) + " (ingress " + std::to_string(up_rx) +
            ") differs from the bytes of the edges that leave their switch group, " + std::to_string(crossing_groups));
  for (const auto& [link, _] : must_carry)
    if (!d.links.bytes.count(link)) RC_FAIL("an edge crosses NIC link " + link + ", which reports no demand");
  if (crossing == 0)
    for (const auto& [link, _] : d.links.bytes)
      if (is_nic(link) || is_uplink(link)) RC_FAIL("a group inside its NVLink domain loads " + link);
  RC_ASSERT(d.span == t.span(k.ranks));
  RC_TAG(std::string(span_name(d.span)), crossing > 0 ? "crosses" : "stays");
}

RC_GTEST_PROP(CostPathProperty, DemandNeverFallsWhenTheMessageGrows, ()) {
  Case k = random_case();
  const Topology t = testing::build(k.cluster);
  const CollectiveDemand small = run(t, k);
  k.bytes += pick(0, std::int64_t{1} << 30);
  const CollectiveDemand large = run(t, k);
  for (const auto& [link, bytes] : small.links.bytes) {
    const auto it = large.links.bytes.find(link);
    if (it == large.links.bytes.end() || it->second < bytes)
      RC_FAIL("demand on " + link + " fell from " + units::to_string(bytes) + " when the message grew");
  }
  if (small.bottleneck) RC_ASSERT(large.bottleneck && large.bottleneck->time >= small.bottleneck->time);
}

RC_GTEST_PROP(CostPathProperty, BottleneckTimeNeverShrinksAsOversubscriptionGrows, ()) {
  Case k = random_case();
  const auto which = static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(k.cluster.switch_groups->size())));
  const CollectiveDemand before = run(testing::build(k.cluster), k);
  (*k.cluster.switch_groups)[which].uplink_oversubscription *= one_of<double>({1.0, 1.25, 2.0, 16.0});
  const CollectiveDemand after = run(testing::build(k.cluster), k);
  RC_ASSERT(before.links.bytes == after.links.bytes);
  RC_ASSERT(before.bottleneck.has_value() == after.bottleneck.has_value());
  if (before.bottleneck && after.bottleneck->time < before.bottleneck->time)
    RC_FAIL("bottleneck time fell from " + units::to_string(before.bottleneck->time) + " to " +
            units::to_string(after.bottleneck->time) + " as an uplink's oversubscription grew");
}

RC_GTEST_PROP(CostPathProperty, SameInputsGiveTheSameBytesInTheSameOrder, ()) {
  const Case k = random_case();
  const CollectiveDemand a = run(testing::build(k.cluster), k);
  const CollectiveDemand b = run(testing::build(k.cluster), k);
  using Ordered = std::vector<std::pair<std::string, Bytes>>;
  const Ordered first(a.links.bytes.begin(), a.links.bytes.end());
  const Ordered second(b.links.bytes.begin(), b.links.bytes.end());
  RC_ASSERT(first == second);
  RC_ASSERT(a.links.capacity == b.links.capacity);
  RC_ASSERT(a.bottleneck.has_value() == b.bottleneck.has_value());
  if (a.bottleneck) RC_ASSERT(a.bottleneck->link == b.bottleneck->link && a.bottleneck->time == b.bottleneck->time);
}

// The variant file: its first line that is neither empty nor a # comment names the demand function.
int select_variant(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cost-path-property: cannot read the variant file " << path << "\n";
    return 2;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line == "collective_demand") {
      g_demand = &collective_demand;
    } else if (line == "ring_without_wraparound") {
      g_demand = &ring_without_wraparound;
    } else {
      std::cerr << "cost-path-property: " << path << " names '" << line
                << "': known are collective_demand and ring_without_wraparound\n";
      return 2;
    }
    std::cout << "cost-path-property: demand function under test: " << line << "\n";
    return 0;
  }
  std::cerr << "cost-path-property: " << path << " names no demand function\n";
  return 2;
}

}  // namespace
}  // namespace blis::cost

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc > 2) {
    std::cerr << "usage: cost-path-property-test [gtest flags] [variant file]\n";
    return 2;
  }
  if (argc == 2)
    if (const int rc = blis::cost::select_variant(argv[1]); rc != 0) return rc;
  return RUN_ALL_TESTS();
}
