/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PARTITION_H
#define MOSE_PARTITION_H

#include "mose-circuit-graph.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-mpi
 * \brief How the groups of a circuit graph are placed on R ranks (the MPI system ids of a
 *        distributed run, MoseTopologyHelper's Partition attribute).
 */
enum class PartitionMethod : uint8_t
{
    /// contiguous blocks of ids: node g on rank floor(g R / N)
    BLOCKS,
    /// the fewest circuits cut that METIS finds (recursive bisection and k-way, seed fixed) with
    /// every rank holding floor(N / R) or ceil(N / R) nodes
    MIN_CUT,
};

/// \ingroup mose-mpi
/// Names of PartitionMethod: "blocks", "min-cut" (ToString(), ParseEnum())
template <>
struct EnumTable<PartitionMethod>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<PartitionMethod>>& Get();
};

/**
 * \ingroup mose-mpi
 * \brief A placement of the nodes of a circuit graph on ranks.
 */
struct GraphPartition
{
    std::vector<uint32_t> ranks; //!< per node, its rank (< R)
    uint32_t circuitsCut{0};     //!< circuits whose two ends are on different ranks
    /// MIN_CUT: nodes the balance repair moved off METIS's placement (0: METIS's placement met
    /// the bound as it was); 0 for BLOCKS
    uint32_t nodesRebalanced{0};
};

/**
 * \ingroup mose-mpi
 * \brief The balance bound of a placement: at most ceil(N / R) nodes per rank (and, with N
 *        nodes in all, at least floor(N / R)), as contiguous blocks have.
 * \param nodes N >= 1
 * \param ranks R, 1 <= R <= N (throws a mose::Error naming "ranks" otherwise)
 * \return ceil(N / R)
 */
uint32_t GetMaxNodesPerRank(uint32_t nodes, uint32_t ranks);

/**
 * \ingroup mose-mpi
 * \brief Places the nodes of a circuit graph on R ranks.
 *
 * BLOCKS puts node g on rank floor(g R / N). MIN_CUT minimises the circuits whose ends are on
 * different ranks (the traffic that crosses ranks in a distributed run) with METIS: the graph's
 * circuits become edges weighted by their multiplicity (parallel circuits between one pair count
 * each; self-loops are never cut and are left out), every node weighs 1, and both
 * METIS_PartGraphRecursive and METIS_PartGraphKway partition it (edge-cut objective, fixed seed,
 * ufactor the largest that keeps ceil(N / R) nodes per rank). METIS's balance is a target, not a
 * guarantee: a placement that puts more than ceil(N / R) or fewer than floor(N / R) nodes on a
 * rank is repaired by moving one node at a time, from a rank above the bound to one below it,
 * choosing the move that adds the fewest cut circuits (ties: the smallest node id, then the
 * smallest rank), and the number of nodes moved is reported in nodesRebalanced. The result is
 * the balanced candidate with fewer cut circuits (ties: recursive bisection), checked once more
 * against the bound. The same graph and R give the same placement (METIS with a fixed seed, the
 * same library build). R = 1 puts every node on rank 0 and R = N every node on its own rank,
 * without METIS, as does a graph without circuits between distinct nodes (placed in blocks).
 * \param graph the circuit graph (at least one node; any multigraph)
 * \param ranks R, 1 <= R <= N
 * \param method blocks or min-cut
 * \return the placement, its cut and the repair count
 */
GraphPartition PartitionCircuitGraph(const CircuitGraph& graph,
                                     uint32_t ranks,
                                     PartitionMethod method);

/**
 * \ingroup mose-mpi
 * \brief Counts the circuits of a graph whose two ends are on different ranks (each of several
 *        parallel circuits counts; a self-loop never does).
 * \param graph the circuit graph
 * \param ranks per node, its rank (size N; throws a mose::Error naming "ranks" otherwise)
 * \return the circuits cut
 */
uint32_t CountCircuitsCut(const CircuitGraph& graph, const std::vector<uint32_t>& ranks);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PARTITION_H */
