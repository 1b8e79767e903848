/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-transport-helper.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-ocs-channel.h"
#include "ns3/mose-ocs.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseTransportHelper");

namespace
{

/// The programs' transport names and their TypeIds, in the order the messages list them
const std::vector<std::pair<std::string, std::string>>&
ProgramNames()
{
    static const std::vector<std::pair<std::string, std::string>> names = {
        {MoseTransportHelper::TCP, "ns3::MoseSocketTransfers"},
        {MoseTransportHelper::RDMA, "ns3::MoseRdmaTransport"},
    };
    return names;
}

/**
 * The longest route a QP of an installed fabric takes, one way, as
 * MoseRdmaTransport::GetBdpInFlight() reads it. Every routing rule takes shortest paths
 * (mose::RoutingRule), so the longest route crosses as many circuits as the largest diameter of
 * the circuit graphs the run installs (the one installed now, and with a switcher every target
 * of its schedule); with hosts, a host link at each end. Each circuit is given the slowest port
 * rate and the longest circuit delay of the fabric (a switch re-pairs the same ports and
 * channels), each host link the slowest host link's rate and the longest host link's delay, so
 * the cap bounds every route of every such graph.
 */
std::vector<MoseRdmaTransport::PathLink>
LongestRoute(const MoseTopologyHelper& topology, Ptr<MoseModeSwitcher> switcher)
{
    const DataRate fastest(std::numeric_limits<uint64_t>::max());
    MoseRdmaTransport::PathLink circuit{fastest, Time(0)};
    for (uint32_t g = 0; g < topology.GetNGroups(); ++g)
    {
        for (uint32_t p = 0; p < topology.GetNPorts(); ++p)
        {
            DataRateValue rate;
            topology.GetPortDevice(g, p)->GetAttribute("DataRate", rate); // divided by MoseScale
            TimeValue delay;
            topology.GetOcs()->GetChannel(g, p)->GetAttribute("Delay", delay);
            circuit.rate = std::min(circuit.rate, rate.Get());
            circuit.delay = std::max(circuit.delay, delay.Get());
        }
    }
    uint32_t hops = mose::SummarizeDistances(topology.GetCircuitGraph()).diameter;
    if (switcher)
    {
        std::vector<mose::WorkloadMode> modes{switcher->GetInitialMode()};
        for (const mose::ModeSchedule::Period& period : switcher->GetSchedule())
        {
            modes.push_back(period.mode);
        }
        std::sort(modes.begin(), modes.end());
        modes.erase(std::unique(modes.begin(), modes.end()), modes.end());
        for (mose::WorkloadMode mode : modes)
        {
            // a mose::Error if the switcher was not prepared (MoseModeSwitcherHelper::Install())
            const uint32_t d = mose::SummarizeDistances(switcher->GetTarget(mode).graph).diameter;
            NS_LOG_INFO("target of " << mose::ToString(mode) << ": diameter " << d);
            hops = std::max(hops, d);
        }
    }
    std::vector<MoseRdmaTransport::PathLink> route(hops, circuit);
    if (topology.GetNHostsPerGroup() > 0)
    {
        MoseRdmaTransport::PathLink host{fastest, Time(0)};
        const NodeContainer hosts = topology.GetAllHosts();
        for (auto node = hosts.Begin(); node != hosts.End(); ++node)
        {
            for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
            {
                Ptr<PointToPointNetDevice> device =
                    DynamicCast<PointToPointNetDevice>((*node)->GetDevice(i));
                if (!device)
                {
                    continue; // the loopback
                }
                DataRateValue rate;
                device->GetAttribute("DataRate", rate);
                TimeValue delay;
                device->GetChannel()->GetAttribute("Delay", delay);
                host.rate = std::min(host.rate, rate.Get());
                host.delay = std::max(host.delay, delay.Get());
            }
        }
        route.insert(route.begin(), host);
        route.push_back(host);
    }
    return route;
}

} // namespace

MoseTransportHelper::MoseTransportHelper(const std::string& typeName)
{
    NS_LOG_FUNCTION(this << typeName);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid) ||
        !tid.IsChildOf(MoseTransport::GetTypeId()) || !tid.HasConstructor())
    {
        mose::ThrowBadParameter("MoseTransportHelper type",
                                mose::QuoteText(typeName),
                                "a MoseTransport type with a constructor: "
                                "ns3::MoseSocketTransfers (TCP) or ns3::MoseRdmaTransport "
                                "(RoCEv2)");
    }
    m_factory.SetTypeId(tid);
}

void
MoseTransportHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    // checked here: ObjectFactory::Set() aborts on an unknown attribute or a bad value
    const TypeId tid = m_factory.GetTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        mose::ThrowBadParameter("MoseTransportHelper attribute",
                                mose::QuoteText(name),
                                "an attribute of " + tid.GetName());
    }
    if (!info.checker->CreateValidValue(value))
    {
        const std::string range = info.checker->HasUnderlyingTypeInformation()
                                      ? " (" + info.checker->GetUnderlyingTypeInformation() + ")"
                                      : std::string();
        mose::ThrowBadParameter(tid.GetName() + "::" + name,
                                mose::QuoteText(value.SerializeToString(info.checker)),
                                "a " + info.checker->GetValueTypeName() + range);
    }
    m_factory.Set(name, value);
    m_set.insert(name);
}

TypeId
MoseTransportHelper::GetTypeId() const
{
    return m_factory.GetTypeId();
}

bool
MoseTransportHelper::HasAttribute(const std::string& name) const
{
    TypeId::AttributeInformation info;
    return m_factory.GetTypeId().LookupAttributeByName(name, &info);
}

Ptr<MoseTransport>
MoseTransportHelper::Create() const
{
    NS_LOG_FUNCTION(this);
    return m_factory.Create<MoseTransport>();
}

Ptr<MoseTransport>
MoseTransportHelper::Install(const std::vector<NodeContainer>& endpoints) const
{
    NS_LOG_FUNCTION(this << endpoints.size());
    Ptr<MoseTransport> transport = Create();
    transport->Install(endpoints);
    return transport;
}

Ptr<MoseTransport>
MoseTransportHelper::Install(Ptr<MoseTopologyHelper> topology) const
{
    return Install(topology, nullptr);
}

Ptr<MoseTransport>
MoseTransportHelper::Install(Ptr<MoseTopologyHelper> topology, Ptr<MoseModeSwitcher> switcher) const
{
    NS_LOG_FUNCTION(this << topology << switcher);
    if (!topology)
    {
        throw mose::Error("MoseTransportHelper::Install: no topology (an installed "
                          "MoseTopologyHelper)");
    }
    const std::vector<NodeContainer> endpoints =
        topology->GetGroupEndpoints(); // Error if the fabric is not installed
    Ptr<MoseTransport> transport = Create();
    const std::string notice = "NoticeDelay";
    if (HasAttribute(notice) && m_set.count(notice) == 0 &&
        !mose::IsAttributeDefaultSet(GetTypeId(), notice))
    {
        // the library's default is the programs' (mose-llm's --noticeDelay)
        transport->SetAttribute(notice, TimeValue(topology->GetSmallestLinkDelay() * 2));
    }
    const std::string cap = "MaxInFlight";
    Ptr<MoseRdmaTransport> rdma = DynamicCast<MoseRdmaTransport>(transport);
    if (rdma && m_set.count(cap) == 0 && !mose::IsAttributeDefaultSet(GetTypeId(), cap))
    {
        // IRN's BDP-FC on the longest route: RoCEv2 NICs send without a cap, but a QP then
        // keeps sending into circuits that a switch drains and holds, and the ports' queues
        // drop what it sent when they return (doc/mose.rst, "Validated against both
        // transports"). A count of packets does not follow MoseScale, so it is derived here
        // from the installed (scaled) rates.
        transport->SetAttribute(
            cap,
            UintegerValue(rdma->GetBdpInFlight(LongestRoute(*topology, switcher))));
    }
    transport->Install(endpoints);
    Ptr<MosePfc> pfc = topology->GetPfc();
    if (rdma && pfc && pfc->IsInstalled())
    {
        // the NICs stop pulling from their QPs while their port (or their share) is paused
        pfc->AddPauseListener(MakeCallback(&MoseRdmaTransport::SetPortPaused, rdma));
    }
    return transport;
}

std::string
MoseTransportHelper::GetTypeName(const std::string& option, const std::string& text)
{
    for (const auto& [name, type] : ProgramNames())
    {
        if (text == name)
        {
            return type;
        }
    }
    mose::ThrowBadParameter(option,
                            mose::QuoteText(text),
                            "tcp (ns-3's TCP, ns3::MoseSocketTransfers) or rdma (RoCEv2 with "
                            "DCQCN, ns3::MoseRdmaTransport)");
}

std::string
MoseTransportHelper::GetProgramName(const std::string& typeName)
{
    for (const auto& [name, type] : ProgramNames())
    {
        if (typeName == type)
        {
            return name;
        }
    }
    return "";
}

} // namespace ns3
