/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A small packet-level fabric for the routing tests (shared by the GoogleTest suite and the ns-3
 * TestSuite): a random d-regular circuit graph realised with ordinary point-to-point links, one
 * link per circuit, an Ipv4 stack with MoseRoutingProtocol and the MoseAddressing addresses.
 */

#ifndef MOSE_ROUTING_TEST_UTIL_H
#define MOSE_ROUTING_TEST_UTIL_H

#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/mose-addressing.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-random.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-routing-helper.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/**
 * \ingroup mose-tests
 * \brief A packet-level fabric over a random regular circuit graph.
 *
 * Port p of group g is the device created for g's p-th circuit in circuit-index order (the
 * order MoseRouteTable::MakePeers() uses); peers is built from those devices.
 */
struct RoutingFabric
{
    std::shared_ptr<const CircuitGraph> graph; //!< the circuit graph
    uint32_t n{0};                             //!< N
    uint32_t d{0};                             //!< d
    NodeContainer nodes;                       //!< node g is group g
    std::vector<NetDeviceContainer> ports;     //!< per group, its d port devices in port order
    std::vector<uint32_t> peers;               //!< flat port -> flat port
    Ptr<MoseRouteTable> table;                 //!< the shared route table

    /**
     * \brief Builds the fabric: nodes, links, stack, addresses, routes.
     * \param groups N
     * \param degree d
     * \param run the ns-3 run of the uniform template
     * \param rule the routing rule
     * \param seed the RANDOM_SHORTEST_PATH seed
     * \param hostsPerGroup H of the address plan
     */
    void Build(uint32_t groups,
               uint32_t degree,
               uint64_t run,
               RoutingRule rule,
               uint64_t seed,
               uint32_t hostsPerGroup = 0)
    {
        Random rng = Random::Create(run, Stream::UNIFORM);
        graph = std::make_shared<const CircuitGraph>(BuildUniformTemplate(groups, degree, rng));
        n = groups;
        d = degree;
        nodes.Create(n);
        ports.assign(n, NetDeviceContainer());
        peers.assign(static_cast<std::size_t>(n) * d, MoseRouteTable::NONE);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1us"));
        for (const Circuit& c : graph->GetCircuits())
        {
            NetDeviceContainer link = p2p.Install(nodes.Get(c.u), nodes.Get(c.v));
            const std::size_t a = static_cast<std::size_t>(c.u) * d + ports[c.u].GetN();
            const std::size_t b = static_cast<std::size_t>(c.v) * d + ports[c.v].GetN();
            ports[c.u].Add(link.Get(0));
            ports[c.v].Add(link.Get(1));
            peers[a] = static_cast<uint32_t>(b);
            peers[b] = static_cast<uint32_t>(a);
        }
        table = CreateObject<MoseRouteTable>();
        table->SetAddressing(MoseAddressing(n, d, hostsPerGroup));
        table->SetRule(rule);
        table->SetSeed(seed);
        table->Update(peers);
        MoseRoutingHelper routing(table);
        InternetStackHelper stack;
        stack.SetRoutingHelper(routing);
        stack.Install(nodes);
        for (uint32_t g = 0; g < n; ++g)
        {
            routing.ConfigurePorts(nodes.Get(g), g, ports[g]);
        }
    }

    /**
     * \brief Follows the route table hop by hop (node -> output port -> peer).
     * \param s source group
     * \param t destination group
     * \param flowHash the ECMP flow hash (ignored by the single-path rules)
     * \return the groups visited from s to t, empty if a hop is missing or the walk loops
     */
    std::vector<uint32_t> Walk(uint32_t s, uint32_t t, uint64_t flowHash = 0) const
    {
        std::vector<uint32_t> path{s};
        uint32_t u = s;
        while (u != t)
        {
            const uint32_t port = table->GetOutputPort(u, t, flowHash);
            if (port == MoseRouteTable::NONE || path.size() > n)
            {
                return {};
            }
            u = peers[static_cast<std::size_t>(u) * d + port] / d;
            path.push_back(u);
        }
        return path;
    }

    /// \param g a group \return the address of its port 0 (a destination address for tests)
    Ipv4Address Address(uint32_t g) const
    {
        return table->GetAddressing().GetPortAddress(g, 0);
    }
};

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_ROUTING_TEST_UTIL_H */
