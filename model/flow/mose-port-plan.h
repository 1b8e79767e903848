/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PORT_PLAN_H
#define MOSE_PORT_PLAN_H

#include "mose-circuit-graph.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief One circuit at port level: the OCS joins port portA of group groupA to port portB of
 *        group groupB.
 *
 * Canonical form: (groupA, portA) < (groupB, portB) lexicographically, so groupA <= groupB.
 * Ports are numbered 0 to d - 1 within each group; the flat index of a port is
 * group * d + port.
 */
struct PortCircuit
{
    uint32_t groupA; //!< the group of the smaller end
    uint32_t portA;  //!< its port
    uint32_t groupB; //!< the group of the larger end
    uint32_t portB;  //!< its port

    /// \return true if all four fields are equal
    bool operator==(const PortCircuit& o) const
    {
        return groupA == o.groupA && portA == o.portA && groupB == o.groupB && portB == o.portB;
    }

    /// \return true unless all four fields are equal
    bool operator!=(const PortCircuit& o) const
    {
        return !(*this == o);
    }

    /// \return lexicographic order on (groupA, portA, groupB, portB)
    bool operator<(const PortCircuit& o) const
    {
        if (groupA != o.groupA)
        {
            return groupA < o.groupA;
        }
        if (portA != o.portA)
        {
            return portA < o.portA;
        }
        if (groupB != o.groupB)
        {
            return groupB < o.groupB;
        }
        return portB < o.portB;
    }
};

/**
 * \ingroup mose-flow
 * \brief The ports of one circuit of a CircuitGraph: the port at its end u and at its end v
 *        (Circuit::u <= Circuit::v; for a self-loop, portU < portV).
 */
struct CircuitPorts
{
    uint32_t portU; //!< the port at group u
    uint32_t portV; //!< the port at group v

    /// \return true if both ports are equal
    bool operator==(const CircuitPorts& o) const
    {
        return portU == o.portU && portV == o.portV;
    }
};

/**
 * \ingroup mose-flow
 * \brief An OCS port matching: for N groups with d ports each, which port each port is joined
 *        to (or none).
 *
 * The plan is immutable. Its heart is the peers vector of N * d entries, indexed by flat port
 * index group * d + port, holding the peer's flat index or DARK: exactly what the OCS's live
 * port matching and the routing protocol exchange. Everything else (circuits, the circuit
 * graph, per-circuit ports) is derived from it at construction, in O(N d + E log E).
 *
 * Multigraphs are supported: parallel circuits between two groups use distinct port pairs, and
 * a self-loop joins two distinct ports of one group (a port is never joined to itself).
 *
 * Circuit identity: ToCircuitGraph() returns the graph of the plan; its circuit index c (the
 * rank of the circuit in the (u, v)-sorted list) maps to ports by GetCircuitPorts(). Parallel
 * circuits between u and v take the graph's indices in increasing (portU, portV) order. Ranks
 * shift when circuits change; ports do not: across PlanPorts(target, current) a kept circuit
 * keeps its two ports, so the ports (not the ranks) are the identity that survives a switch.
 */
class PortPlan
{
  public:
    /// peer of an unused (dark) port
    static constexpr uint32_t DARK = UINT32_MAX;

    /// An empty plan: no groups, no ports
    PortPlan();

    /**
     * \brief A plan with every port dark.
     * \param groups N
     * \param ports d, ports per group; N * d must be below DARK (Error naming "ports"
     *        otherwise)
     */
    PortPlan(uint32_t groups, uint32_t ports);

    /**
     * \brief Builds a plan from a peers vector, validating it.
     *
     * Throws a mose::Error naming the first bad port (flat index, group and port) when an entry is
     * neither DARK nor a flat index below N * d, when a port is its own peer, or when the
     * matching is not symmetric (peers[peers[i]] != i); and naming "peers" when the size is not
     * N * d.
     * \param groups N
     * \param ports d
     * \param peers N * d entries: the peer's flat index of each flat port, or DARK
     * \return the plan
     */
    static PortPlan FromPeers(uint32_t groups, uint32_t ports, std::vector<uint32_t> peers);

    /// \return N
    uint32_t GetNGroups() const;
    /// \return d
    uint32_t GetNPorts() const;
    /// \return the number of circuits (joined port pairs)
    uint32_t GetNCircuits() const;

    /**
     * \param group a group (< N) \param port a port (< d); Error otherwise
     * \return the peer's flat index (peerGroup * d + peerPort), or DARK for an unused port
     */
    uint32_t GetPeer(uint32_t group, uint32_t port) const;

    /// \return the peers vector: entry group * d + port = the peer's flat index, or DARK
    const std::vector<uint32_t>& GetPeers() const;

    /// \return the circuits in canonical form, sorted (by their (groupA, portA) end)
    const std::vector<PortCircuit>& GetCircuits() const;

    /**
     * \brief The circuit graph of the plan: one circuit per joined port pair, O(N + E log E).
     * \return the graph on N nodes
     */
    CircuitGraph ToCircuitGraph() const;

    /**
     * \return the circuits of ToCircuitGraph(), in its order (sorted by (u, v), parallel
     *         circuits by their ports), without building the graph
     */
    const std::vector<Circuit>& GetGraphCircuits() const;

    /**
     * \return per circuit index c of ToCircuitGraph(), the ports at its two ends (aligned with
     *         ToCircuitGraph().GetCircuits())
     */
    const std::vector<CircuitPorts>& GetCircuitPorts() const;

    /**
     * \brief The ports of circuit c of a graph with this plan's circuits, O(1).
     * \param graph ToCircuitGraph() of this plan, or a graph with the same circuits (checked:
     *        same circuit count and circuit c joins the same groups; Error otherwise)
     * \param c a circuit index of graph
     * \return the ports at its ends u and v
     */
    CircuitPorts GetCircuitPorts(const CircuitGraph& graph, uint32_t c) const;

    /**
     * \brief The port through which a group reaches circuit c, i.e. where a packet forwarded
     *        over the circuit (NextHop::circuit) leaves the group, O(1).
     * \param graph as for GetCircuitPorts(graph, c)
     * \param c a circuit index of graph
     * \param group one end of circuit c (Error otherwise); at a self-loop, its u end
     * \return the port of circuit c at group
     */
    uint32_t GetLocalPort(const CircuitGraph& graph, uint32_t c, uint32_t group) const;

    /**
     * \param group a group \param port a port (both checked)
     * \return the index in ToCircuitGraph() of the circuit at that port, or DARK
     */
    uint32_t GetCircuitIndex(uint32_t group, uint32_t port) const;

    /**
     * \return true if the graph has exactly this plan's circuits (same N, same sorted circuit
     *         list), O(N + E): then GetCircuitPorts() is aligned with graph.GetCircuits()
     */
    bool Matches(const CircuitGraph& graph) const;

  private:
    /// Derives the circuits, the per-circuit ports and the port-to-circuit map from m_peers
    void Derive();

    /// Throws unless group < N and port < d \param group a group \param port a port
    void CheckPort(uint32_t group, uint32_t port) const;

    uint32_t m_groups{0};                   //!< N
    uint32_t m_ports{0};                    //!< d
    std::vector<uint32_t> m_peers;          //!< peer flat index per flat port, or DARK
    std::vector<PortCircuit> m_circuits;    //!< canonical circuits, sorted
    std::vector<Circuit> m_graphCircuits;   //!< (u, v) per graph circuit index, sorted
    std::vector<CircuitPorts> m_graphPorts; //!< ports per graph circuit index
    std::vector<uint32_t> m_circuitOfPort;  //!< graph circuit index per flat port, or DARK
};

/**
 * \ingroup mose-flow
 * \brief A fresh port plan for a circuit graph: each group's circuits, in increasing
 *        neighbour id order (parallel circuits and a self-loop's two ends consecutively), take
 *        ports 0, 1, 2, ...; ports beyond the group's degree stay dark. Deterministic,
 *        O(N d + E). The same as PlanPorts(graph, PortPlan(N, ports)).
 * \param graph the circuit graph (multigraphs allowed)
 * \param ports d, ports per group; every group's degree must be <= d (Error naming the
 *        group, its degree and d otherwise)
 * \return the plan, whose ToCircuitGraph() has graph's circuits
 */
PortPlan PlanPorts(const CircuitGraph& graph, uint32_t ports);

/**
 * \ingroup mose-flow
 * \brief Maps a new circuit graph onto ports so that the circuits it keeps keep their ports.
 *
 * The circuits of target that current already has (as a multiset of group pairs, see
 * DiffCircuits()) keep both their ports; when current has more parallel circuits between two
 * groups than target, those with the smallest (portU, portV) are kept. Every other port is
 * free; the added circuits, in (u, v) order, each take the lowest free port at u, then the
 * lowest free port at v (a self-loop takes the two lowest). Deterministic; O(N d + E log E).
 * \param target the new circuit graph, on current's N groups (Error naming "target"
 *        otherwise)
 * \param current the plan now in place
 * \return the plan of target; circuits that current and target share have identical
 *         PortCircuit entries in both (DiffPorts() lists them as kept)
 */
PortPlan PlanPorts(const CircuitGraph& target, const PortPlan& current);

/**
 * \ingroup mose-flow
 * \brief The circuits two graphs share and those that differ, as multisets of group pairs.
 */
struct CircuitDiff
{
    std::vector<Circuit> kept;    //!< in both (as many copies as the smaller count), sorted
    std::vector<Circuit> removed; //!< in from only (the surplus copies), sorted
    std::vector<Circuit> added;   //!< in to only (the surplus copies), sorted
};

/**
 * \ingroup mose-flow
 * \brief Diffs two circuit graphs on the same N by one O(E) merge of their sorted circuit
 *        lists, with multiset semantics: a pair joined k times in from and m times in to is kept
 *        min(k, m) times, removed k - min(k, m) times and added m - min(k, m) times.
 * \param from the graph before
 * \param to the graph after (Error naming "to" if its N differs)
 * \return the diff; kept + removed = from's circuits, kept + added = to's
 */
CircuitDiff DiffCircuits(const CircuitGraph& from, const CircuitGraph& to);

/**
 * \ingroup mose-flow
 * \brief The port circuits two plans share and those that differ: what the OCS keeps lit,
 *        tears down and sets up at a switch.
 */
struct PortCircuitDiff
{
    std::vector<PortCircuit> kept;    //!< in both plans (same four fields), sorted
    std::vector<PortCircuit> removed; //!< in from only, sorted
    std::vector<PortCircuit> added;   //!< in to only, sorted
};

/**
 * \ingroup mose-flow
 * \brief Diffs two port plans of the same shape by one O(E) merge of their sorted circuits.
 * \param from the plan before
 * \param to the plan after (Error naming "to" if N or d differ)
 * \return the diff; a circuit whose groups stay joined but on other ports counts as removed
 *         and added
 */
PortCircuitDiff DiffPorts(const PortPlan& from, const PortPlan& to);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PORT_PLAN_H */
