/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-routing-helper.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRoutingHelper");

MoseRoutingHelper::MoseRoutingHelper(Ptr<MoseRouteTable> table)
    : m_table(table)
{
    NS_LOG_FUNCTION(this << table);
    if (!table)
    {
        throw mose::Error("MoseRoutingHelper: the route table is null");
    }
}

MoseRoutingHelper*
MoseRoutingHelper::Copy() const
{
    return new MoseRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
MoseRoutingHelper::Create(Ptr<Node> node) const
{
    NS_LOG_FUNCTION(this << node);
    if (node && node->GetObject<MoseRoutingProtocol>())
    {
        throw mose::Error("MoseRoutingHelper::Create: node " + std::to_string(node->GetId()) +
                          " already has a MoseRoutingProtocol (one per node)");
    }
    auto protocol = CreateObject<MoseRoutingProtocol>();
    protocol->SetRouteTable(m_table);
    if (node)
    {
        // as ns-3's AODV and OLSR helpers do: Config paths reach the protocol as
        // /NodeList/<n>/$ns3::MoseRoutingProtocol, also inside an Ipv4ListRouting
        node->AggregateObject(protocol);
    }
    return protocol;
}

Ptr<MoseRouteTable>
MoseRoutingHelper::GetRouteTable() const
{
    return m_table;
}

Ptr<MoseRoutingProtocol>
MoseRoutingHelper::GetRouting(Ptr<Node> node)
{
    NS_LOG_FUNCTION(node);
    if (Ptr<MoseRoutingProtocol> mose = MoseRoutingProtocol::Find(node))
    {
        return mose;
    }
    throw mose::Error("node " + (node ? std::to_string(node->GetId()) : std::string("null")) +
                      " has no MoseRoutingProtocol: install InternetStackHelper with a "
                      "MoseRoutingHelper first");
}

void
MoseRoutingHelper::SetGroup(Ptr<Node> node, uint32_t group)
{
    NS_LOG_FUNCTION(node << group);
    GetRouting(node)->SetGroup(group);
}

void
MoseRoutingHelper::SetPortInterfaces(Ptr<Node> node, const std::map<uint32_t, uint32_t>& map)
{
    NS_LOG_FUNCTION(node << map.size());
    GetRouting(node)->SetPortInterfaces(map);
}

void
MoseRoutingHelper::ConfigurePorts(Ptr<Node> node,
                                  uint32_t group,
                                  const NetDeviceContainer& ports) const
{
    NS_LOG_FUNCTION(this << node << group << ports.GetN());
    Ptr<MoseRoutingProtocol> routing = GetRouting(node);
    routing->SetGroup(group);
    const MoseAddressing& addressing = m_table->GetAddressing();
    if (ports.GetN() != addressing.GetPortsPerGroup())
    {
        mose::ThrowBadParameter("ports.GetN()",
                                std::to_string(ports.GetN()),
                                "exactly d = " + std::to_string(addressing.GetPortsPerGroup()) +
                                    " port devices");
    }
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    for (uint32_t p = 0; p < ports.GetN(); ++p)
    {
        Ptr<NetDevice> device = ports.Get(p);
        if (!device)
        {
            NS_LOG_LOGIC("port " << p << " has no device: skipped");
            continue;
        }
        int32_t interface = ipv4->GetInterfaceForDevice(device);
        if (interface < 0)
        {
            interface = static_cast<int32_t>(ipv4->AddInterface(device));
            NS_LOG_LOGIC("port " << p << ": added Ipv4 interface " << interface);
        }
        const auto i = static_cast<uint32_t>(interface);
        const Ipv4Address address = addressing.GetPortAddress(group, p);
        ipv4->AddAddress(i, Ipv4InterfaceAddress(address, addressing.GetBlockMask()));
        ipv4->SetUp(i);
        routing->SetPortInterface(p, i);
        NS_LOG_INFO("node " << node->GetId() << " group " << group << " port " << p << ": "
                            << address << " on interface " << i);
    }
}

} // namespace ns3
