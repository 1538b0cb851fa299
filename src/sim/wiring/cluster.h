// The build site's wiring of a scenario's cluster into the cost model's topology (SUB-17): the cluster is
// resolved with data::resolve_packaging, the one function that resolves packaging (SUB-3), the catalog
// entries the topology reads are loaded with the generated readers, and the plain ClusterSpec is filled
// from the resolved packaging. src/cost reads no data tree (X7), so this is where the two meet.
#pragma once

#include <utility>

#include "cost/topology/topology.h"
#include "data/data_set.h"
#include "schema/scenario.h"

namespace blis::sim {

// The catalog facts and the resolved cluster of `cluster`; a packaging refusal, or a catalog entry the
// readers refuse, is thrown as a cost::TopologyError carrying the diagnostics.
std::pair<cost::CatalogFacts, cost::ClusterSpec> resolve_cluster(const schema::ScenarioCluster& cluster,
                                                                 const data::DataSet& data);

// The topology of `cluster` (resolve_cluster, then cost::Topology::build).
cost::Topology cluster_topology(const schema::ScenarioCluster& cluster, const data::DataSet& data);

}  // namespace blis::sim
