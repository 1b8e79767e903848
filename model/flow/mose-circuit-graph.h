/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CIRCUIT_GRAPH_H
#define MOSE_CIRCUIT_GRAPH_H

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
/**
 * \ingroup mose-flow
 * \brief The flow-level core of the mose module: plain C++ types and functions that other
 *        contrib modules' generic names (Flow, Circuit, Policy, ...) cannot collide with.
 */
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief One bidirectional optical circuit between two groups, stored with u < v.
 */
struct Circuit
{
    uint32_t u; //!< the endpoint with the smaller node id
    uint32_t v; //!< the endpoint with the larger node id

    /// \return true if both endpoints are equal
    bool operator==(const Circuit& o) const
    {
        return u == o.u && v == o.v;
    }

    /// \return lexicographic order on (u, v)
    bool operator<(const Circuit& o) const
    {
        return u < o.u || (u == o.u && v < o.v);
    }
};

/**
 * \ingroup mose-flow
 * \brief The circuit graph: N groups and the circuits that the OCS currently pairs them with.
 *
 * This is the one structure that templates produce and that routing, the flow-level metrics and
 * (later) the packet-level fabric consume. It is immutable once built. Circuits are kept sorted
 * by (u, v); a circuit's index in that order is its identity everywhere (loads, CSV rows, ns-3
 * channels). The Boost.Graph view is a compressed sparse row graph holding both directions of
 * every circuit, neighbours in increasing id order, with the circuit index as edge bundle.
 *
 * Construction accepts any multigraph so that files can be loaded and then checked; templates
 * and readers call Check() to enforce the fabric's invariants (simple, connected, d-regular).
 */
class CircuitGraph
{
  public:
    /// The Boost.Graph type: directed arcs u->v and v->u per circuit, edge bundle = circuit index
    using Graph = boost::compressed_sparse_row_graph<boost::directedS,
                                                     boost::no_property,
                                                     uint32_t,
                                                     boost::no_property,
                                                     uint32_t,
                                                     uint32_t>;

    /// An empty graph with no nodes
    CircuitGraph();

    /**
     * \param nodes the number of groups N
     * \param circuits the circuits, in any order and orientation; ids must be < nodes
     *        (throws a mose::Error otherwise)
     */
    CircuitGraph(uint32_t nodes, std::vector<Circuit> circuits);

    /// \return N
    uint32_t GetNNodes() const;
    /// \return the number of circuits
    uint32_t GetNCircuits() const;
    /// \return the circuits sorted by (u, v), each with u <= v
    const std::vector<Circuit>& GetCircuits() const;
    /// \return the Boost.Graph view
    const Graph& GetGraph() const;

    /// \param node a node id \return its number of circuit ends (a self-loop counts twice)
    uint32_t GetDegree(uint32_t node) const;
    /// \param node a node id \return the neighbours in increasing id order (with repeats, if any)
    std::vector<uint32_t> GetNeighbours(uint32_t node) const;

    /**
     * \param a a node id
     * \param b a node id
     * \return the index of a circuit between a and b, or -1 if there is none
     */
    int64_t FindCircuit(uint32_t a, uint32_t b) const;
    /// \return true if a circuit joins a and b
    bool HasCircuit(uint32_t a, uint32_t b) const;

    /// \return true if there is no self-loop and no repeated circuit
    bool IsSimple() const;
    /// \return true if every node can reach every other (true for N <= 1)
    bool IsConnected() const;
    /// \return the number of connected components
    uint32_t CountComponents() const;
    /// \param degree d \return true if every node has degree d
    bool IsRegular(uint32_t degree) const;

    /**
     * \brief Describes the first violation of the fabric invariants, if any.
     * \param degree the required degree d
     * \return an empty string if the graph is simple, connected and d-regular; otherwise what is
     *         wrong, naming a node or circuit
     */
    std::string FindProblem(uint32_t degree) const;

  private:
    uint32_t m_nodes;                //!< N
    std::vector<Circuit> m_circuits; //!< sorted circuits
    Graph m_graph;                   //!< Boost.Graph view
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_CIRCUIT_GRAPH_H */
