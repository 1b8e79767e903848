/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROUTE_TABLE_H
#define MOSE_ROUTE_TABLE_H

#include "mose-addressing.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-routing.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The packet level's forwarding state of one fabric, shared by every node's
 *        MoseRoutingProtocol.
 *
 * It holds the live port matching (peers: for each flat port g * d + p the flat port it is
 * paired with, UINT32_MAX when dark, the format of MoseOcs::GetPortMatching()), the circuit graph
 * built from it, and for every (node, destination group) the output port towards the destination
 * under the rule (attribute "Rule") and seed (attribute "Seed"). The next hops are the flow
 * level's: they come from mose::ShortestPathRouting on the same graph, so under the single-path
 * rules a packet from s to t crosses exactly ShortestPathRouting::GetPath(s, t) (the circuit
 * graph's node ids are the group ids).
 *
 * Storage: N * N output ports (2 bytes each) and N * N distances (2 bytes each), 4 MB at
 * N = 1024, 64 MB at N = 4096. Lookups are O(1) array reads; under ECMP, GetOutputPort() with a
 * flow hash scans the node's d ports once and picks, among those whose peer is one step closer,
 * the one the (flow, node) hash selects.
 *
 * The table is recomputed on demand only: Update() (new port matching) or Recompute() (after
 * changing Rule or Seed). Each recomputation increments GetVersion() and fires
 * "RoutesRecomputed" with its wall-clock duration.
 *
 * Parallel circuits (two ports of one group paired with two ports of another) are allowed; ECMP
 * then counts each circuit as one choice. A port paired with another port of its own group is a
 * self-loop, kept in the graph and never used as a next hop.
 *
 * Config path: /MoseRouteTableList/[i] (SetAddressing() lists the table, see MoseObjectList), and
 * /NodeList/[n]/$ns3::MoseRoutingProtocol/RouteTable from every node that routes by it.
 */
class MoseRouteTable : public Object
{
  public:
    /// The "none" value: unreachable destination, dark port, unknown node
    static constexpr uint32_t NONE = UINT32_MAX;

    /// A node's next hop towards a destination
    struct NextHop
    {
        uint32_t group; //!< the neighbour group (NONE if unreachable)
        uint32_t port;  //!< the node's own output port (NONE if unreachable)
    };

    /// The 5-tuple that ECMP hashes (ports 0 when the packet carries none)
    struct FlowKey
    {
        uint32_t source{0};          //!< source address (host order)
        uint32_t destination{0};     //!< destination address (host order)
        uint8_t protocol{0};         //!< IP protocol number
        uint16_t sourcePort{0};      //!< L4 source port
        uint16_t destinationPort{0}; //!< L4 destination port
    };

    /**
     * \brief The rule as the attribute "Rule" holds it: mirrors mose::RoutingRule as an unscoped
     *        enum, which ns-3's EnumValue accepts both as int (up to 3.40) and as EnumValue<T>
     *        (from 3.41).
     */
    enum RuleValue
    {
        SHORTEST_PATH = 0,        //!< mose::RoutingRule::SHORTEST_PATH
        RANDOM_SHORTEST_PATH = 1, //!< mose::RoutingRule::RANDOM_SHORTEST_PATH
        ECMP = 2,                 //!< mose::RoutingRule::ECMP
    };

    /**
     * \brief Register this type.
     * \return The object TypeId.
     */
    static TypeId GetTypeId();

    /// Creates an empty table (no addressing, no routes)
    MoseRouteTable();
    /// Destructor
    ~MoseRouteTable() override;

    /**
     * \brief Sets the fabric's address plan, which also fixes N and d. Clears the routes: call
     *        Update() next. Lists the table in this simulation's /MoseRouteTableList
     *        (MoseObjectList).
     * \param addressing the plan
     */
    void SetAddressing(const MoseAddressing& addressing);
    /// \return the address plan
    const MoseAddressing& GetAddressing() const;

    /// \param rule the routing rule (takes effect at the next Update() or Recompute())
    void SetRule(mose::RoutingRule rule);
    /// \return the routing rule (the attribute's value)
    mose::RoutingRule GetRule() const;
    /// \return the rule the current routes were computed with (GetRule() after Recompute())
    mose::RoutingRule GetActiveRule() const;
    /// \param seed RANDOM_SHORTEST_PATH's hash seed (takes effect at the next recomputation)
    void SetSeed(uint64_t seed);
    /// \return RANDOM_SHORTEST_PATH's hash seed
    uint64_t GetSeed() const;

    /**
     * \brief Installs a new port matching and recomputes every route.
     * \param peers N * d entries: entry g * d + p is the flat port paired with port p of group g,
     *        NONE for a dark port. Must be symmetric (peers[peers[i]] == i) with no port paired
     *        with itself; throws a mose::Error naming the offending entry otherwise (the
     *        previous routes stay in place).
     */
    void Update(const std::vector<uint32_t>& peers);

    /**
     * \brief Installs a circuit graph with given circuit ends and recomputes every route.
     * \param graph the circuit graph (N nodes)
     * \param circuitPorts for each circuit index c, the ports (at circuits[c].u, at
     *        circuits[c].v) it uses; two circuits must not share a port
     */
    void Update(const mose::CircuitGraph& graph,
                const std::vector<std::pair<uint32_t, uint32_t>>& circuitPorts);

    /// \brief Recomputes every route on the current graph with the current rule and seed.
    void Recompute();

    /**
     * \brief A deterministic port plan for a circuit graph: circuits in index order, each end
     *        taking its group's lowest free port.
     * \param graph the circuit graph
     * \param portsPerGroup d (throws a mose::Error if a node has more circuit ends)
     * \return the peers vector (N * d) for Update()
     */
    static std::vector<uint32_t> MakePeers(const mose::CircuitGraph& graph, uint32_t portsPerGroup);

    /// \return N (0 before SetAddressing())
    uint32_t GetNGroups() const;
    /// \return d
    uint32_t GetPortsPerGroup() const;
    /// \return the current port matching
    const std::vector<uint32_t>& GetPeers() const;
    /// \param group g \param port p \return the flat port paired with (g, p), NONE if dark
    uint32_t GetPeer(uint32_t group, uint32_t port) const;
    /// \return the live circuit graph (empty before the first Update())
    std::shared_ptr<const mose::CircuitGraph> GetGraph() const;
    /// \return for each circuit index the ports (at u, at v) it uses
    const std::vector<std::pair<uint32_t, uint32_t>>& GetCircuitPorts() const;
    /// \return how many recomputations have been done (0: no routes yet)
    uint64_t GetVersion() const;
    /// \return the wall-clock duration of the last recomputation
    Time GetLastRecomputeDuration() const;

    /**
     * \brief O(1): the output port of node towards dstGroup. Under ECMP this is the lowest-id
     *        next hop's port (use the flow-hash overload to spread).
     * \param node the node's group
     * \param dstGroup the destination group
     * \return the port, NONE if dstGroup is unreachable, equals node, or an id is out of range
     */
    uint32_t GetOutputPort(uint32_t node, uint32_t dstGroup) const
    {
        if (node >= m_n || dstGroup >= m_n)
        {
            return NONE;
        }
        const uint16_t p = m_port[static_cast<std::size_t>(node) * m_n + dstGroup];
        return p == NO_PORT ? NONE : p;
    }

    /**
     * \brief The output port for one flow: under ECMP the flow's choice among the ports whose
     *        peer is one step closer (O(d)); under the single-path rules GetOutputPort(node,
     *        dstGroup).
     * \param node the node's group
     * \param dstGroup the destination group
     * \param flowHash HashFlow() of the packet's 5-tuple
     * \return the port, NONE as for GetOutputPort()
     */
    uint32_t GetOutputPort(uint32_t node, uint32_t dstGroup, uint64_t flowHash) const;

    /// \param node a group \param dstGroup a group \return next hop (group and port), NONE parts
    ///        if unreachable
    NextHop GetNextHop(uint32_t node, uint32_t dstGroup) const;
    /// \param node a group \param dstGroup a group \param flowHash HashFlow() of the 5-tuple
    /// \return next hop for that flow
    NextHop GetNextHop(uint32_t node, uint32_t dstGroup, uint64_t flowHash) const;

    /// \param node a group \param dstGroup a group \return hops from node to dstGroup, NONE if
    ///        unreachable or out of range
    uint32_t GetDistance(uint32_t node, uint32_t dstGroup) const
    {
        if (node >= m_n || dstGroup >= m_n)
        {
            return NONE;
        }
        const uint16_t d = m_distance[static_cast<std::size_t>(node) * m_n + dstGroup];
        return d == NO_DISTANCE ? NONE : d;
    }

    /**
     * \brief ECMP's candidates: the node's ports whose peer is one step closer to dstGroup.
     * \param node a group
     * \param dstGroup a group
     * \return the ports in increasing port order (empty if unreachable or node == dstGroup)
     */
    std::vector<uint32_t> GetCloserPorts(uint32_t node, uint32_t dstGroup) const;

    /**
     * \brief Stateless, deterministic hash of a 5-tuple (SplitMix64 over its fields).
     * \param key the 5-tuple
     * \return the hash; GetOutputPort() mixes the node into it
     */
    static uint64_t HashFlow(const FlowKey& key);

    /**
     * TracedCallback signature for route recomputations.
     * \param duration wall-clock duration of the recomputation
     * \param groups N
     */
    typedef void (*RoutesRecomputedCallback)(Time duration, uint32_t groups);

  protected:
    void DoDispose() override;

  private:
    /// Builds the graph and circuit ports from a validated peers vector and recomputes
    void Install(std::vector<uint32_t> peers);
    /// Throws unless a peers vector fits N, d and is a matching
    void CheckPeers(const std::vector<uint32_t>& peers) const;
    /// Fills m_port and m_distance from the core (the one place that calls ShortestPathRouting)
    void ComputeTables();

    static constexpr uint16_t NO_PORT = 0xFFFF;     //!< m_port's none
    static constexpr uint16_t NO_DISTANCE = 0xFFFF; //!< m_distance's none

    MoseAddressing m_addressing;           //!< the address plan
    uint32_t m_n{0};                       //!< N
    uint32_t m_d{0};                       //!< d
    RuleValue m_rule{SHORTEST_PATH};       //!< the rule (attribute "Rule")
    RuleValue m_activeRule{SHORTEST_PATH}; //!< the rule the current tables were computed with
    uint64_t m_seed{0};                    //!< the hash seed
    std::vector<uint32_t> m_peers;         //!< the port matching
    std::shared_ptr<const mose::CircuitGraph> m_graph;         //!< the live circuit graph
    std::vector<std::pair<uint32_t, uint32_t>> m_circuitPorts; //!< per circuit (port at u, at v)
    std::vector<uint16_t> m_port;                              //!< [node * N + dst] output port
    std::vector<uint16_t> m_distance;                          //!< [node * N + dst] hops
    uint64_t m_version{0};                                     //!< recomputations done
    Time m_lastDuration;                              //!< wall-clock duration of the last one
    TracedCallback<Time, uint32_t> m_recomputedTrace; //!< "RoutesRecomputed"
};

} // namespace ns3

#endif /* MOSE_ROUTE_TABLE_H */
