/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROUTING_HELPER_H
#define MOSE_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"

#include <map>

namespace ns3
{

/**
 * \ingroup mose-helpers
 * \brief Installs MoseRoutingProtocol on nodes, all bound to one fabric's MoseRouteTable.
 *
 * Use it with InternetStackHelper::SetRoutingHelper(); then give each node its group and its
 * port -> interface map (SetGroup(), SetPortInterfaces(), or ConfigurePorts(), which also adds
 * the port addresses). The topology helper is meant to do that; tests call it directly.
 */
class MoseRoutingHelper : public Ipv4RoutingHelper
{
  public:
    /**
     * \param table the fabric's shared route table (not null; mose::Error otherwise)
     */
    explicit MoseRoutingHelper(Ptr<MoseRouteTable> table);

    /// \return a copy (InternetStackHelper keeps one)
    MoseRoutingHelper* Copy() const override;

    /**
     * \param node the node
     * \return a MoseRoutingProtocol bound to the shared route table (its group is set later),
     *         aggregated to the node as ns-3's AODV and OLSR helpers do (so that
     *         /NodeList/<n>/$ns3::MoseRoutingProtocol reaches it, also when an
     *         Ipv4ListRoutingHelper creates it); a node that already has one is a mose::Error
     */
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;

    /// \return the shared route table
    Ptr<MoseRouteTable> GetRouteTable() const;

    /**
     * \param node a node with an Ipv4 stack
     * \return its MoseRoutingProtocol (MoseRoutingProtocol::Find(): aggregated, or inside an
     *         Ipv4ListRouting); throws a mose::Error if there is none
     */
    static Ptr<MoseRoutingProtocol> GetRouting(Ptr<Node> node);

    /// \param node an installed node \param group its group (< N)
    static void SetGroup(Ptr<Node> node, uint32_t group);

    /// \param node an installed node \param map port -> Ipv4 interface index (ports < d)
    static void SetPortInterfaces(Ptr<Node> node, const std::map<uint32_t, uint32_t>& map);

    /**
     * \brief Sets a node's group and gives each port device its address: port p's device gets
     *        an Ipv4 interface (added if the device has none) with the address
     *        MoseAddressing::GetPortAddress(group, p) and the block mask, set up, and mapped to
     *        port p. No queue disc is installed (unlike Ipv4AddressHelper::Assign).
     * \param node an installed node
     * \param group its group
     * \param ports the devices of its ports 0 .. d-1 (exactly d; null entries are skipped)
     */
    void ConfigurePorts(Ptr<Node> node, uint32_t group, const NetDeviceContainer& ports) const;

  private:
    Ptr<MoseRouteTable> m_table; //!< the fabric's route table
};

} // namespace ns3

#endif /* MOSE_ROUTING_HELPER_H */
