/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-loss-monitor.h"

#include "mose-object-list.h"
#include "mose-routing-protocol.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLossMonitor");
NS_OBJECT_ENSURE_REGISTERED(MoseLossMonitor);

TypeId
MoseLossMonitor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseLossMonitor")
                            .SetParent<Object>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseLossMonitor>()
                            .AddTraceSource("Drop",
                                            "A packet was lost at one of the fabric's drop points",
                                            MakeTraceSourceAccessor(&MoseLossMonitor::m_dropTrace),
                                            "ns3::MoseLossMonitor::DropCallback")
                            .AddTraceSource("Mark",
                                            "A root queue disc marked a packet (ECN), counted by "
                                            "GetMarks()",
                                            MakeTraceSourceAccessor(&MoseLossMonitor::m_markTrace),
                                            "ns3::Packet::TracedCallback");
    return tid;
}

MoseLossMonitor::MoseLossMonitor()
{
    NS_LOG_FUNCTION(this);
}

MoseLossMonitor::~MoseLossMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
MoseLossMonitor::Count(Point point, Ptr<const Packet> packet)
{
    NS_LOG_FUNCTION(this << GetPointName(point) << packet);
    ++m_drops[point];
    m_dropTrace(point, packet);
}

void
MoseLossMonitor::Ipv4Drop(const Ipv4Header& /* header */,
                          Ptr<const Packet> packet,
                          Ipv4L3Protocol::DropReason reason,
                          Ptr<Ipv4> /* ipv4 */,
                          uint32_t /* interface */)
{
    const auto r = static_cast<std::size_t>(reason);
    if (r < m_ipv4Drops.size())
    {
        ++m_ipv4Drops[r];
    }
    if (reason == Ipv4L3Protocol::DROP_ROUTE_ERROR)
    {
        // reported by the routing protocol itself (NoRouteDrop, HoldDrop): counted there
        return;
    }
    if (reason == Ipv4L3Protocol::DROP_NO_ROUTE && packet && packet->GetUid() == m_lastNoRouteUid &&
        Simulator::Now() == m_lastNoRouteAt)
    {
        // a locally sent packet the routing protocol refused (NoRouteDrop) in this same send:
        // TcpL4Protocol asks for the route, then Ipv4L3Protocol::Send asks again and drops
        return;
    }
    Count(IPV4, packet);
}

void
MoseLossMonitor::Install(const NodeContainer& nodes, Ptr<MoseOcs> ocs)
{
    NS_LOG_FUNCTION(this << nodes.GetN() << ocs);
    MoseObjectList::Add(MoseObjectList::LOSS_MONITOR, this); // /MoseLossMonitorList/[i]
    auto packetSink = [this](Point point) {
        return Callback<void, Ptr<const Packet>>(
            [this, point](Ptr<const Packet> p) { Count(point, p); });
    };
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        if (tc)
        {
            // a device with flow control and no queue disc: the packet its full device queue
            // would have dropped
            tc->TraceConnectWithoutContext("TcDrop", packetSink(DEVICE_QUEUE));
        }
        for (uint32_t j = 0; j < node->GetNDevices(); ++j)
        {
            Ptr<NetDevice> device = node->GetDevice(j);
            Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device);
            if (p2p && p2p->GetQueue())
            {
                p2p->GetQueue()->TraceConnectWithoutContext("Drop", packetSink(DEVICE_QUEUE));
            }
            Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
            if (tc)
            {
                m_discs.emplace_back(device, disc);
            }
            if (disc)
            {
                disc->TraceConnectWithoutContext(
                    "Drop",
                    Callback<void, Ptr<const QueueDiscItem>>([this](Ptr<const QueueDiscItem> item) {
                        Count(QUEUE_DISC, item ? item->GetPacket() : nullptr);
                    }));
                disc->TraceConnectWithoutContext(
                    "Mark",
                    Callback<void, Ptr<const QueueDiscItem>, const char*>(
                        [this](Ptr<const QueueDiscItem> item, const char*) {
                            ++m_marks;
                            m_markTrace(item ? item->GetPacket() : nullptr);
                        }));
            }
        }
        Ptr<Ipv4L3Protocol> ip = node->GetObject<Ipv4L3Protocol>();
        if (ip)
        {
            ip->TraceConnectWithoutContext("Drop", MakeCallback(&MoseLossMonitor::Ipv4Drop, this));
            Ptr<MoseRoutingProtocol> routing = MoseRoutingProtocol::Find(node); // also in a list
            if (routing)
            {
                routing->TraceConnectWithoutContext(
                    "NoRouteDrop",
                    Callback<void, const Ipv4Header&, Ptr<const Packet>>(
                        [this](const Ipv4Header&, Ptr<const Packet> p) {
                            if (p)
                            {
                                m_lastNoRouteUid = p->GetUid();
                                m_lastNoRouteAt = Simulator::Now();
                            }
                            Count(NO_ROUTE, p);
                        }));
                // the hold queue's drops, where the protocol has one
                routing->TraceConnectWithoutContext(
                    "HoldDrop",
                    Callback<void, const Ipv4Header&, Ptr<const Packet>>(
                        [this](const Ipv4Header&, Ptr<const Packet> p) { Count(HOLD, p); }));
            }
        }
    }
    if (ocs)
    {
        ocs->TraceConnectWithoutContext(
            "DarkPortDrop",
            Callback<void, Ptr<const Packet>, uint32_t, uint32_t>(
                [this](Ptr<const Packet> p, uint32_t, uint32_t) { Count(DARK_PORT, p); }));
        ocs->TraceConnectWithoutContext(
            "WireDrop",
            Callback<void, Ptr<const Packet>, uint32_t, uint32_t>(
                [this](Ptr<const Packet> p, uint32_t, uint32_t) { Count(WIRE, p); }));
    }
}

std::string
MoseLossMonitor::CheckQueueDiscs() const
{
    for (const auto& [device, disc] : m_discs)
    {
        Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
        const Ptr<QueueDisc> now = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
        if (now != disc)
        {
            return "the root queue disc of node " + std::to_string(device->GetNode()->GetId()) +
                   " device " + std::to_string(device->GetIfIndex()) + " was " +
                   (disc ? "replaced" : "installed") +
                   " after the loss monitor was installed, so its drops are not counted: "
                   "install the monitor (MoseModeSwitcherHelper installs one) after the queue "
                   "discs";
        }
    }
    return "";
}

namespace
{

/// \brief Throws a mose::Error if the queue discs changed (CheckQueueDiscs())
void
RefuseIfChanged(const MoseLossMonitor& monitor, const char* what)
{
    const std::string problem = monitor.CheckQueueDiscs();
    if (!problem.empty())
    {
        throw mose::Error(std::string("MoseLossMonitor::") + what + ": " + problem);
    }
}

} // namespace

uint64_t
MoseLossMonitor::GetDrops(Point point) const
{
    RefuseIfChanged(*this, "GetDrops");
    if (point >= N_POINTS)
    {
        throw mose::Error("MoseLossMonitor::GetDrops: drop point " +
                          std::to_string(static_cast<int>(point)) + " does not exist (0 to " +
                          std::to_string(N_POINTS - 1) + ")");
    }
    return m_drops[point];
}

uint64_t
MoseLossMonitor::GetIpv4Drops(Ipv4L3Protocol::DropReason reason) const
{
    const auto r = static_cast<std::size_t>(reason);
    return r < m_ipv4Drops.size() ? m_ipv4Drops[r] : 0;
}

uint64_t
MoseLossMonitor::GetTotal() const
{
    RefuseIfChanged(*this, "GetTotal");
    uint64_t total = 0;
    for (uint64_t d : m_drops)
    {
        total += d;
    }
    return total;
}

uint64_t
MoseLossMonitor::GetMarks() const
{
    return m_marks;
}

void
MoseLossMonitor::Reset()
{
    NS_LOG_FUNCTION(this);
    m_drops.fill(0);
    m_ipv4Drops.fill(0);
    m_marks = 0;
}

std::string
MoseLossMonitor::GetPointName(Point point)
{
    switch (point)
    {
    case DEVICE_QUEUE:
        return "device-queue";
    case QUEUE_DISC:
        return "queue-disc";
    case IPV4:
        return "ipv4";
    case DARK_PORT:
        return "dark-port";
    case WIRE:
        return "wire";
    case NO_ROUTE:
        return "no-route";
    case HOLD:
        return "hold";
    case N_POINTS:
        break;
    }
    return "unknown";
}

void
MoseLossMonitor::WriteCsv(std::ostream& os) const
{
    RefuseIfChanged(*this, "WriteCsv");
    os << "point,drops\n";
    for (int p = 0; p < N_POINTS; ++p)
    {
        os << GetPointName(static_cast<Point>(p)) << ',' << m_drops[p] << '\n';
    }
    os << "total," << GetTotal() << '\n';
    os << "ecn-marks," << m_marks << '\n';
}

} // namespace ns3
