/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-routing-protocol.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/loopback-net-device.h"
#include "ns3/mose-error.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tag.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRoutingProtocol");

NS_OBJECT_ENSURE_REGISTERED(MoseRoutingProtocol);

/**
 * \ingroup mose-packet
 * \brief Marks a packet that MoseRoutingProtocol::RouteOutput() sent over the loopback device
 *        to be held until a route exists (AODV's deferred route output).
 */
class MoseHoldTag : public Tag
{
  public:
    /**
     * \brief Register this type.
     * \return The object TypeId.
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::MoseHoldTag")
                                .SetParent<Tag>()
                                .SetGroupName("Mose")
                                .AddConstructor<MoseHoldTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 1;
    }

    void Serialize(TagBuffer buffer) const override
    {
        buffer.WriteU8(1);
    }

    void Deserialize(TagBuffer buffer) override
    {
        buffer.ReadU8();
    }

    void Print(std::ostream& os) const override
    {
        os << "MoseHold";
    }
};

NS_OBJECT_ENSURE_REGISTERED(MoseHoldTag);

namespace
{

constexpr uint8_t PROTO_TCP = 6;  //!< IP protocol number of TCP
constexpr uint8_t PROTO_UDP = 17; //!< IP protocol number of UDP

/// \return true for 127.0.0.0/8
bool
IsLoopbackNet(Ipv4Address a)
{
    return (a.Get() >> 24) == 127;
}

/// \return the address as text
std::string
Text(Ipv4Address a)
{
    std::ostringstream os;
    a.Print(os);
    return os.str();
}

/// \return routing itself if it is a MoseRoutingProtocol, else the first one inside it if it is
///         an Ipv4ListRouting (in priority order, nested lists searched depth-first), else null
Ptr<MoseRoutingProtocol>
FindIn(Ptr<Ipv4RoutingProtocol> routing)
{
    if (auto mose = DynamicCast<MoseRoutingProtocol>(routing))
    {
        return mose;
    }
    if (auto list = DynamicCast<Ipv4ListRouting>(routing))
    {
        int16_t priority = 0;
        for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
        {
            if (auto mose = FindIn(list->GetRoutingProtocol(i, priority)))
            {
                return mose;
            }
        }
    }
    return nullptr;
}

} // namespace

/**
 * \brief What a hooked device's receive callback holds: the protocol, until it is disposed.
 *
 * A device keeps its receive callback as long as it lives and has no way to give back the
 * node's own (Node::NonPromiscReceiveFromDevice is private), so the callback holds this small
 * object instead of the protocol. The protocol clears it when it is disposed or destroyed;
 * from then on packets go up as the node would pass them.
 */
class MoseRoutingProtocol::PortHook : public SimpleRefCount<PortHook>
{
  public:
    /**
     * \param routing the protocol
     * \param interface the device's interface
     */
    PortHook(MoseRoutingProtocol* routing, uint32_t interface)
        : m_routing(routing),
          m_interface(interface)
    {
    }

    /// The protocol is gone: pass every packet up
    void Clear()
    {
        m_routing = nullptr;
    }

    /**
     * \brief The device's receive callback (NetDevice::ReceiveCallback).
     * \param device the device
     * \param p the packet
     * \param protocol the frame's protocol number
     * \param from the sender's address
     * \return whether a handler took it
     */
    bool Receive(Ptr<NetDevice> device, Ptr<const Packet> p, uint16_t protocol, const Address& from)
    {
        if (m_routing)
        {
            return m_routing->ReceiveFromPort(m_interface, device, p, protocol, from);
        }
        Ptr<Node> node = device->GetNode();
        Ptr<TrafficControlLayer> tc = node ? node->GetObject<TrafficControlLayer>() : nullptr;
        if (!tc)
        {
            return false;
        }
        tc->Receive(device, p, protocol, from, device->GetAddress(), NetDevice::PACKET_HOST);
        return true;
    }

  private:
    MoseRoutingProtocol* m_routing; //!< the protocol, null once it is disposed
    uint32_t m_interface;           //!< the device's interface
};

TypeId
MoseRoutingProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseRoutingProtocol")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Mose")
            .AddConstructor<MoseRoutingProtocol>()
            .AddAttribute("HoldPackets",
                          "Hold packets for another group that has no route right now, until a "
                          "route exists or HoldTime passes (AODV's deferred route output), "
                          "instead of dropping them",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MoseRoutingProtocol::m_hold),
                          MakeBooleanChecker())
            .AddAttribute("HoldQueueSize",
                          "How many packets the hold queue of one node keeps (the oldest is "
                          "dropped when a new one arrives at a full queue); the default holds "
                          "what a fabric-wide mode switch cuts off",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&MoseRoutingProtocol::SetHoldQueueSize,
                                               &MoseRoutingProtocol::GetHoldQueueSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HoldTime",
                          "How long a held packet waits for a route before it is dropped (the "
                          "default outlasts a mode switch's drain timeout and dark period)",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&MoseRoutingProtocol::SetHoldTime,
                                           &MoseRoutingProtocol::GetHoldTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HoldRetryInterval",
                          "When released packets find their output device's queue disc or "
                          "device queue full, how long the rest of the hold queue waits before "
                          "it is retried",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&MoseRoutingProtocol::m_holdRetry),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FastTransit",
                          "Forward a packet that passes through this node from its input "
                          "point-to-point device straight to the output device's queue disc, "
                          "skipping ns-3's IPv4 receive and forward path and its traces there "
                          "(same events and outputs; see the class description). Off here, "
                          "as ns-3 forwards; the module's experiments (mose::Experiment) turn "
                          "it on unless it was set",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MoseRoutingProtocol::SetFastTransit,
                                              &MoseRoutingProtocol::GetFastTransit),
                          MakeBooleanChecker())
            .AddTraceSource("FastForward",
                            "Fast transit forwarded a packet (its new IP header, the packet "
                            "without it, the output interface), as Ipv4L3Protocol's "
                            "\"UnicastForward\" fires for the packets it forwards",
                            MakeTraceSourceAccessor(&MoseRoutingProtocol::m_fastForwardTrace),
                            "ns3::Ipv4L3Protocol::SentTracedCallback")
            .AddTraceSource("NoRouteDrop",
                            "A packet found no route (unreachable group, unknown address, "
                            "unmapped or down output interface) and is dropped",
                            MakeTraceSourceAccessor(&MoseRoutingProtocol::m_noRouteTrace),
                            "ns3::MoseRoutingProtocol::NoRouteTracedCallback")
            .AddTraceSource("HoldDrop",
                            "A held packet was dropped: the hold queue was full (the oldest "
                            "packet makes room) or it waited HoldTime without a route",
                            MakeTraceSourceAccessor(&MoseRoutingProtocol::m_holdDropTrace),
                            "ns3::MoseRoutingProtocol::NoRouteTracedCallback")
            .AddTraceSource("HoldRelease",
                            "A held packet found a route and left the hold queue",
                            MakeTraceSourceAccessor(&MoseRoutingProtocol::m_holdReleaseTrace),
                            "ns3::MoseRoutingProtocol::HoldReleaseTracedCallback")
            .AddAttribute("RouteTable",
                          "The fabric's route table this protocol forwards by (read-only; "
                          "SetRouteTable() sets it), e.g. for the Config path "
                          "/NodeList/[n]/$ns3::MoseRoutingProtocol/RouteTable/RoutesRecomputed",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&MoseRoutingProtocol::GetRouteTable),
                          MakePointerChecker<MoseRouteTable>());
    return tid;
}

Ptr<MoseRoutingProtocol>
MoseRoutingProtocol::Find(Ptr<Node> node)
{
    if (!node)
    {
        return nullptr;
    }
    if (Ptr<MoseRoutingProtocol> aggregated = node->GetObject<MoseRoutingProtocol>())
    {
        return aggregated;
    }
    // a protocol installed without MoseRoutingHelper (not aggregated)
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    return ipv4 ? FindIn(ipv4->GetRoutingProtocol()) : nullptr;
}

MoseRoutingProtocol::MoseRoutingProtocol()
{
    NS_LOG_FUNCTION(this);
    m_held.SetDropCallback([this](const MoseHoldQueue::Entry& e) { DropHeld(e); });
}

MoseRoutingProtocol::~MoseRoutingProtocol()
{
    NS_LOG_FUNCTION(this);
    ClearHooks();
}

void
MoseRoutingProtocol::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_purgeEvent.Cancel();
    m_flushEvent.Cancel();
    m_held.Clear();
    m_releaseFilter = ReleaseFilter();
    ClearHooks();
    m_hooks.clear();
    m_tc = nullptr;
    if (m_table)
    {
        m_table->TraceDisconnectWithoutContext(
            "RoutesRecomputed",
            MakeCallback(&MoseRoutingProtocol::OnRoutesRecomputed, this));
    }
    m_ipv4 = nullptr;
    m_table = nullptr;
    m_hosts.clear();
    Ipv4RoutingProtocol::DoDispose();
}

void
MoseRoutingProtocol::SetRouteTable(Ptr<MoseRouteTable> table)
{
    NS_LOG_FUNCTION(this << table);
    if (!table)
    {
        throw mose::Error("MoseRoutingProtocol::SetRouteTable: the route table is null");
    }
    if (m_table)
    {
        m_table->TraceDisconnectWithoutContext(
            "RoutesRecomputed",
            MakeCallback(&MoseRoutingProtocol::OnRoutesRecomputed, this));
    }
    m_table = table;
    // the hold queue retries when the routes change (an O(1) call per node when it is empty)
    m_table->TraceConnectWithoutContext(
        "RoutesRecomputed",
        MakeCallback(&MoseRoutingProtocol::OnRoutesRecomputed, this));
    m_portInterface.assign(table->GetPortsPerGroup(), NONE);
}

Ptr<MoseRouteTable>
MoseRoutingProtocol::GetRouteTable() const
{
    return m_table;
}

void
MoseRoutingProtocol::SetGroup(uint32_t group)
{
    NS_LOG_FUNCTION(this << group);
    if (!m_table)
    {
        throw mose::Error("MoseRoutingProtocol::SetGroup: set the route table first");
    }
    if (group >= m_table->GetNGroups())
    {
        mose::ThrowBadParameter("group",
                                std::to_string(group),
                                "group ids must be < N = " + std::to_string(m_table->GetNGroups()));
    }
    m_group = group;
}

uint32_t
MoseRoutingProtocol::GetGroup() const
{
    return m_group;
}

void
MoseRoutingProtocol::SetPortInterface(uint32_t port, uint32_t interface)
{
    NS_LOG_FUNCTION(this << port << interface);
    if (!m_table || !m_ipv4)
    {
        throw mose::Error("MoseRoutingProtocol::SetPortInterface: install the protocol on a "
                          "node and set the route table first");
    }
    if (m_portInterface.size() != m_table->GetPortsPerGroup())
    {
        m_portInterface.assign(m_table->GetPortsPerGroup(), NONE);
    }
    if (port >= m_portInterface.size())
    {
        mose::ThrowBadParameter("port",
                                std::to_string(port),
                                "ports must be < d = " + std::to_string(m_portInterface.size()));
    }
    if (interface >= m_ipv4->GetNInterfaces())
    {
        mose::ThrowBadParameter("interface",
                                std::to_string(interface),
                                "interfaces of this node are < " +
                                    std::to_string(m_ipv4->GetNInterfaces()));
    }
    m_portInterface[port] = interface;
}

void
MoseRoutingProtocol::SetPortInterfaces(const std::map<uint32_t, uint32_t>& map)
{
    for (const auto& [port, interface] : map)
    {
        SetPortInterface(port, interface);
    }
}

uint32_t
MoseRoutingProtocol::GetPortInterface(uint32_t port) const
{
    return port < m_portInterface.size() ? m_portInterface[port] : NONE;
}

void
MoseRoutingProtocol::AddHostRoute(Ipv4Address host, uint32_t interface)
{
    NS_LOG_FUNCTION(this << host << interface);
    if (!m_table || !m_ipv4 || m_group == NONE)
    {
        throw mose::Error("MoseRoutingProtocol::AddHostRoute: install the protocol and set "
                          "the route table and the group first");
    }
    if (m_table->GetAddressing().GetGroupOf(host) != m_group)
    {
        mose::ThrowBadParameter("host",
                                Text(host),
                                "an address in this group's block " +
                                    Text(m_table->GetAddressing().GetGroupBlock(m_group)) + "/" +
                                    std::to_string(m_table->GetAddressing().GetPrefixLength()));
    }
    if (interface >= m_ipv4->GetNInterfaces())
    {
        mose::ThrowBadParameter("interface",
                                std::to_string(interface),
                                "interfaces of this node are < " +
                                    std::to_string(m_ipv4->GetNInterfaces()));
    }
    m_hosts[host.Get()] = interface;
}

bool
MoseRoutingProtocol::RemoveHostRoute(Ipv4Address host)
{
    return m_hosts.erase(host.Get()) > 0;
}

uint64_t
MoseRoutingProtocol::GetNoRouteDrops() const
{
    return m_noRouteDrops;
}

uint32_t
MoseRoutingProtocol::GetHeldPackets() const
{
    return m_held.GetSize();
}

uint64_t
MoseRoutingProtocol::GetHoldEntered() const
{
    return m_held.GetEntered();
}

uint64_t
MoseRoutingProtocol::GetHoldDrops() const
{
    return m_held.GetDrops();
}

Time
MoseRoutingProtocol::GetLongestHold() const
{
    return m_held.GetLongestHold();
}

Time
MoseRoutingProtocol::GetOldestHeldSince() const
{
    return m_held.GetOldestSince();
}

uint64_t
MoseRoutingProtocol::FlowHash(const Ipv4Header& header, Ptr<const Packet> p, bool l4InFront) const
{
    MoseRouteTable::FlowKey key;
    key.source = header.GetSource().Get();
    key.destination = header.GetDestination().Get();
    key.protocol = header.GetProtocol();
    // ports only from unfragmented TCP/UDP packets, so that all fragments of a datagram agree
    if (l4InFront && p && (key.protocol == PROTO_TCP || key.protocol == PROTO_UDP) &&
        header.IsLastFragment() && header.GetFragmentOffset() == 0 && p->GetSize() >= 4)
    {
        uint8_t buffer[4];
        p->CopyData(buffer, 4);
        key.sourcePort = static_cast<uint16_t>((buffer[0] << 8) | buffer[1]);
        key.destinationPort = static_cast<uint16_t>((buffer[2] << 8) | buffer[3]);
    }
    return MoseRouteTable::HashFlow(key);
}

MoseRoutingProtocol::Decision
MoseRoutingProtocol::Decide(const Ipv4Header& header,
                            Ptr<const Packet> p,
                            bool l4InFront,
                            uint32_t iif) const
{
    Decision decision;
    const Ipv4Address dst = header.GetDestination();
    const MoseAddressing& addressing = m_table->GetAddressing();
    // 1. multicast and broadcast are never forwarded
    if (dst.IsMulticast() || dst.IsBroadcast() || addressing.IsBlockBroadcast(dst))
    {
        decision.kind = Decision::REFUSED;
        return decision;
    }
    const uint32_t group = addressing.GetGroupOf(dst);
    if (group == m_group || group == MoseAddressing::NONE)
    {
        // 2. this node's own addresses (only looked for in its own block and outside the fabric)
        const bool local =
            IsLoopbackNet(dst) || (iif == NONE ? m_ipv4->GetInterfaceForAddress(dst) >= 0
                                               : m_ipv4->IsDestinationAddress(dst, iif));
        if (local)
        {
            decision.kind = Decision::LOCAL;
            return decision;
        }
        // 3. hosts behind this group
        if (group == m_group)
        {
            auto it = m_hosts.find(dst.Get());
            if (it != m_hosts.end() && m_ipv4->IsUp(it->second))
            {
                decision.kind = Decision::HOST;
                decision.interface = it->second;
            }
        }
        return decision; // NO_ROUTE unless HOST
    }
    if (m_group == NONE)
    {
        return decision;
    }
    // 4. another group: the fabric's next hop
    const uint32_t port =
        m_table->GetActiveRule() == mose::RoutingRule::ECMP
            ? m_table->GetOutputPort(m_group, group, FlowHash(header, p, l4InFront))
            : m_table->GetOutputPort(m_group, group);
    if (port == MoseRouteTable::NONE || port >= m_portInterface.size())
    {
        return decision;
    }
    const uint32_t interface = m_portInterface[port];
    if (interface == NONE || !m_ipv4->IsUp(interface))
    {
        return decision;
    }
    const uint32_t peer = m_table->GetPeer(m_group, port);
    const uint32_t d = m_table->GetPortsPerGroup();
    decision.kind = Decision::FABRIC;
    decision.interface = interface;
    decision.gateway = addressing.GetPortAddress(peer / d, peer % d);
    return decision;
}

Ptr<Ipv4Route>
MoseRoutingProtocol::MakeRoute(const Decision& decision, Ipv4Address dst) const
{
    auto route = Create<Ipv4Route>();
    route->SetDestination(dst);
    route->SetOutputDevice(m_ipv4->GetNetDevice(decision.interface));
    // Ipv4L3Protocol::Send aborts on a route without a gateway (up to 3.46): always set one
    route->SetGateway(decision.kind == Decision::FABRIC ? decision.gateway : dst);
    if (m_ipv4->GetNAddresses(decision.interface) > 0)
    {
        route->SetSource(m_ipv4->GetAddress(decision.interface, 0).GetLocal());
    }
    else if (m_group != NONE)
    {
        route->SetSource(m_table->GetAddressing().GetPortAddress(m_group, 0));
    }
    return route;
}

void
MoseRoutingProtocol::HandleNoRoute(const Ipv4Header& header, Ptr<const Packet> p)
{
    if (!p)
    {
        return; // a route query without a packet (e.g. TCP choosing its source address)
    }
    // One send attempt asks twice (TcpL4Protocol, then Ipv4L3Protocol::Send, in the same
    // event). A retransmission of the same segment keeps its uid but comes later: it is a new
    // attempt and a new loss.
    if (p->GetUid() == m_lastRefusedUid && Simulator::Now() == m_lastRefusedAt)
    {
        return;
    }
    m_lastRefusedUid = p->GetUid();
    m_lastRefusedAt = Simulator::Now();
    CountDrop(header, p);
}

void
MoseRoutingProtocol::CountDrop(const Ipv4Header& header, Ptr<const Packet> p)
{
    ++m_noRouteDrops;
    NS_LOG_LOGIC("group " << m_group << ": no route to " << header.GetDestination());
    m_noRouteTrace(header, p);
}

void
MoseRoutingProtocol::DropHeld(const MoseHoldQueue::Entry& e)
{
    // counted by the queue
    NS_LOG_LOGIC("group " << m_group << ": held packet to " << e.header.GetDestination()
                          << " dropped");
    m_holdDropTrace(e.header, e.packet);
    e.ecb(e.packet, e.header, Socket::ERROR_NOROUTETOHOST);
}

bool
MoseRoutingProtocol::IsAlone() const
{
    return m_ipv4 && PeekPointer(m_ipv4->GetRoutingProtocol()) == this;
}

bool
MoseRoutingProtocol::IsOtherGroup(Ipv4Address dst) const
{
    const uint32_t group = m_table->GetAddressing().GetGroupOf(dst);
    return m_group != NONE && group != MoseAddressing::NONE && group != m_group &&
           !m_table->GetAddressing().IsBlockBroadcast(dst);
}

Ptr<Ipv4Route>
MoseRoutingProtocol::LoopbackRoute(const Ipv4Header& header) const
{
    const int32_t loopback = m_ipv4->GetInterfaceForAddress(Ipv4Address::GetLoopback());
    if (loopback < 0)
    {
        return nullptr;
    }
    auto route = Create<Ipv4Route>();
    route->SetDestination(header.GetDestination());
    route->SetGateway(Ipv4Address::GetLoopback());
    route->SetOutputDevice(m_ipv4->GetNetDevice(static_cast<uint32_t>(loopback)));
    const Ipv4Address source = header.GetSource();
    route->SetSource(source != Ipv4Address::GetAny() && source != Ipv4Address()
                         ? source
                         : m_table->GetAddressing().GetPortAddress(m_group, 0));
    return route;
}

void
MoseRoutingProtocol::Hold(Ptr<const Packet> p,
                          const Ipv4Header& header,
                          const UnicastForwardCallback& ucb,
                          const ErrorCallback& ecb)
{
    NS_LOG_FUNCTION(this << p << header);
    m_held.Enqueue(p, header, ucb, ecb, Simulator::Now());
    if (!m_held.IsEmpty() && !MOSE_EVENT_IS_PENDING(m_purgeEvent))
    {
        m_purgeEvent = Simulator::Schedule(m_held.GetNextExpiry() - Simulator::Now(),
                                           &MoseRoutingProtocol::Purge,
                                           this);
    }
}

void
MoseRoutingProtocol::Flush()
{
    NS_LOG_FUNCTION(this << m_held.GetSize());
    if (!m_ipv4 || !m_table)
    {
        return;
    }
    bool retry = false;
    m_held.Release(
        [this, &retry](const MoseHoldQueue::Entry& e, Time waited) {
            const Decision decision = Decide(e.header, e.packet, true, NONE);
            if (decision.kind != Decision::FABRIC && decision.kind != Decision::HOST)
            {
                return false; // still no route: it stays
            }
            if (!HasRoom(decision.interface, e.packet) ||
                (!m_releaseFilter.IsNull() && !m_releaseFilter(e.packet, e.header)))
            {
                retry = true; // its device queue is full, or the filter holds it: it stays
                return false;
            }
            m_holdReleaseTrace(e.header, e.packet, waited);
            e.ucb(MakeRoute(decision, e.header.GetDestination()), e.packet, e.header);
            return true;
        },
        Simulator::Now());
    m_purgeEvent.Cancel();
    if (!m_held.IsEmpty())
    {
        m_purgeEvent = Simulator::Schedule(m_held.GetNextExpiry() - Simulator::Now(),
                                           &MoseRoutingProtocol::Purge,
                                           this);
    }
    if (retry && !MOSE_EVENT_IS_PENDING(m_flushEvent))
    {
        m_flushEvent = Simulator::Schedule(m_holdRetry, &MoseRoutingProtocol::Flush, this);
    }
}

bool
MoseRoutingProtocol::HasRoom(uint32_t interface, Ptr<const Packet> p) const
{
    Ptr<PointToPointNetDevice> device =
        DynamicCast<PointToPointNetDevice>(m_ipv4->GetNetDevice(interface));
    if (!device || !device->GetQueue())
    {
        return true;
    }
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (disc)
    {
        // the queue disc takes it while below its own limit (a disc without one, e.g. a
        // classful one, takes it and counts its own drops)
        QueueSizeValue limit;
        if (!disc->GetAttributeFailSafe("MaxSize", limit))
        {
            return true;
        }
        const QueueSize max = limit.Get();
        if (max.GetUnit() == QueueSizeUnit::PACKETS)
        {
            return disc->GetNPackets() < max.GetValue();
        }
        return disc->GetNBytes() + p->GetSize() + 20 <= max.GetValue(); // + the IP header
    }
    Ptr<NetDeviceQueueInterface> ndqi = device->GetObject<NetDeviceQueueInterface>();
    if (ndqi)
    {
        // flow control: the traffic-control layer drops what a stopped device queue is sent
        return !ndqi->GetTxQueue(0)->IsStopped();
    }
    Ptr<Queue<Packet>> queue = device->GetQueue();
    const QueueSize max = queue->GetMaxSize();
    if (max.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return queue->GetNPackets() < max.GetValue();
    }
    // IP header and the point-to-point header are added below this layer
    return queue->GetNBytes() + p->GetSize() + 20 + 2 <= max.GetValue();
}

void
MoseRoutingProtocol::SetHoldReleaseFilter(ReleaseFilter filter)
{
    m_releaseFilter = filter;
}

void
MoseRoutingProtocol::Purge()
{
    NS_LOG_FUNCTION(this);
    m_held.Expire(Simulator::Now());
    if (!m_held.IsEmpty())
    {
        m_purgeEvent = Simulator::Schedule(m_held.GetNextExpiry() - Simulator::Now(),
                                           &MoseRoutingProtocol::Purge,
                                           this);
    }
}

void
MoseRoutingProtocol::ScheduleFlush()
{
    if (!m_held.IsEmpty() && !MOSE_EVENT_IS_PENDING(m_flushEvent))
    {
        m_flushEvent = Simulator::ScheduleNow(&MoseRoutingProtocol::Flush, this);
    }
}

void
MoseRoutingProtocol::OnRoutesRecomputed(Time /* duration */, uint32_t /* groups */)
{
    ScheduleFlush();
}

void
MoseRoutingProtocol::SetHoldQueueSize(uint32_t limit)
{
    m_held.SetLimit(limit);
}

uint32_t
MoseRoutingProtocol::GetHoldQueueSize() const
{
    return m_held.GetLimit();
}

void
MoseRoutingProtocol::SetHoldTime(Time holdTime)
{
    m_held.SetHoldTime(holdTime);
}

Time
MoseRoutingProtocol::GetHoldTime() const
{
    return m_held.GetHoldTime();
}

Ptr<Ipv4Route>
MoseRoutingProtocol::RouteOutput(Ptr<Packet> p,
                                 const Ipv4Header& header,
                                 Ptr<NetDevice> oif,
                                 Socket::SocketErrno& sockerr)
{
    NS_LOG_FUNCTION(this << p << header << oif);
    sockerr = Socket::ERROR_NOROUTETOHOST;
    if (!m_ipv4 || !m_table)
    {
        return nullptr;
    }
    const Ipv4Address dst = header.GetDestination();
    // TcpL4Protocol adds the TCP header before asking for a route; UdpSocketImpl asks before
    // adding the UDP header, so only TCP's ports are seen at the source
    const bool l4InFront = header.GetProtocol() == PROTO_TCP;
    const Decision decision = Decide(header, p, l4InFront, NONE);
    switch (decision.kind)
    {
    case Decision::LOCAL: {
        const int32_t loopback = m_ipv4->GetInterfaceForAddress(Ipv4Address::GetLoopback());
        if (loopback < 0)
        {
            return nullptr;
        }
        auto route = Create<Ipv4Route>();
        route->SetDestination(dst);
        route->SetGateway(dst);
        route->SetSource(IsLoopbackNet(dst) ? Ipv4Address::GetLoopback() : dst);
        route->SetOutputDevice(m_ipv4->GetNetDevice(static_cast<uint32_t>(loopback)));
        sockerr = Socket::ERROR_NOTERROR;
        return route;
    }
    case Decision::HOST:
    case Decision::FABRIC: {
        if (oif && m_ipv4->GetNetDevice(decision.interface) != oif)
        {
            break; // bound to another device: no route through it
        }
        sockerr = Socket::ERROR_NOTERROR;
        return MakeRoute(decision, dst);
    }
    case Decision::REFUSED:
        return nullptr;
    case Decision::NO_ROUTE:
        if (!p && !m_hold && m_group != NONE && IsOtherGroup(dst))
        {
            // a route query without a packet: TCP's Connect() choosing its source address.
            // "No route" here would fail the Connect() for good without a packet sent (an
            // application such as BulkSend never retries, and no drop point counts it); the
            // source address lets the connection open, and its SYN, still without a route, is
            // dropped and counted below (NoRouteDrop) and retransmitted as any lost packet.
            // With the hold queue the same query gets the deferred route.
            Ptr<Ipv4Route> route = LoopbackRoute(header);
            if (route)
            {
                sockerr = Socket::ERROR_NOTERROR;
                return route;
            }
        }
        if (m_hold && IsOtherGroup(dst))
        {
            // deferred route output: the packet returns through RouteInput() on the loopback
            Ptr<Ipv4Route> route = LoopbackRoute(header);
            if (route)
            {
                if (p)
                {
                    p->AddPacketTag(MoseHoldTag());
                }
                sockerr = Socket::ERROR_NOTERROR;
                return route;
            }
        }
        break;
    }
    if (!IsAlone())
    {
        return nullptr; // inside an Ipv4ListRouting: the next protocol may have a route
    }
    HandleNoRoute(header, p);
    return nullptr;
}

bool
MoseRoutingProtocol::RouteInput(Ptr<const Packet> p,
                                const Ipv4Header& header,
                                Ptr<const NetDevice> idev,
                                MOSE_ROUTE_INPUT_CB(UnicastForwardCallback) ucb,
                                MOSE_ROUTE_INPUT_CB(MulticastForwardCallback) mcb,
                                MOSE_ROUTE_INPUT_CB(LocalDeliverCallback) lcb,
                                MOSE_ROUTE_INPUT_CB(ErrorCallback) ecb)
{
    NS_LOG_FUNCTION(this << p << header << idev);
    if (!m_ipv4 || !m_table)
    {
        return false;
    }
    const int32_t input = m_ipv4->GetInterfaceForDevice(idev);
    if (input < 0)
    {
        return false;
    }
    const auto iif = static_cast<uint32_t>(input);
    (void)mcb; // multicast is never forwarded
    MoseHoldTag tag;
    if (m_hold && p->PeekPacketTag(tag))
    {
        // a packet that RouteOutput() deferred, back from the loopback device
        Ptr<Packet> copy = p->Copy();
        copy->RemovePacketTag(tag);
        const Decision now = Decide(header, copy, true, NONE);
        if (now.kind == Decision::FABRIC || now.kind == Decision::HOST)
        {
            ucb(MakeRoute(now, header.GetDestination()), copy, header);
        }
        else
        {
            Hold(copy, header, ucb, ecb);
        }
        return true;
    }
    const Decision decision = Decide(header, p, true, iif);
    switch (decision.kind)
    {
    case Decision::REFUSED:
        // multicast / broadcast: delivered when addressed to this node, never forwarded
        if (!lcb.IsNull() && (header.GetDestination().IsMulticast() ||
                              m_ipv4->IsDestinationAddress(header.GetDestination(), iif)))
        {
            lcb(p, header, iif);
            return true;
        }
        return false;
    case Decision::LOCAL:
        if (lcb.IsNull())
        {
            return false; // e.g. inside Ipv4ListRouting, which delivers locally itself
        }
        lcb(p, header, iif);
        return true;
    case Decision::HOST:
    case Decision::FABRIC:
        if (!m_ipv4->IsForwarding(iif))
        {
            ecb(p, header, Socket::ERROR_NOROUTETOHOST);
            return true;
        }
        ucb(MakeRoute(decision, header.GetDestination()), p, header);
        return true;
    case Decision::NO_ROUTE:
        if (m_hold && IsOtherGroup(header.GetDestination()) && m_ipv4->IsForwarding(iif))
        {
            Hold(p, header, ucb, ecb); // in transit: wait for the route here
            return true;
        }
        break;
    }
    if (!IsAlone())
    {
        return false; // inside an Ipv4ListRouting: the next protocol may have a route
    }
    HandleNoRoute(header, p);
    ecb(p, header, Socket::ERROR_NOROUTETOHOST);
    return true;
}

void
MoseRoutingProtocol::NotifyInterfaceUp(uint32_t interface)
{
    // Decide() reads Ipv4::IsUp per packet; held packets may have a route now
    NS_LOG_FUNCTION(this << interface);
    ScheduleFlush();
    HookPort(interface);
}

void
MoseRoutingProtocol::NotifyInterfaceDown(uint32_t interface)
{
    // nothing to do: a route over a down interface counts as no route (Decide()); the port
    // matching itself changes through MoseRouteTable::Update()
    NS_LOG_FUNCTION(this << interface);
}

void
MoseRoutingProtocol::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    // nothing to do: addresses are read from Ipv4 per packet
    NS_LOG_FUNCTION(this << interface << address);
}

void
MoseRoutingProtocol::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    // nothing to do: addresses are read from Ipv4 per packet
    NS_LOG_FUNCTION(this << interface << address);
}

void
MoseRoutingProtocol::SetIpv4(Ptr<Ipv4> ipv4)
{
    NS_LOG_FUNCTION(this << ipv4);
    m_ipv4 = ipv4;
    HookUpInterfaces();
}

void
MoseRoutingProtocol::SetFastTransit(bool enable)
{
    NS_LOG_FUNCTION(this << enable);
    m_fastTransit = enable;
    HookUpInterfaces();
}

bool
MoseRoutingProtocol::GetFastTransit() const
{
    return m_fastTransit;
}

uint64_t
MoseRoutingProtocol::GetFastForwarded() const
{
    return m_fastForwarded;
}

void
MoseRoutingProtocol::HookUpInterfaces()
{
    for (uint32_t i = 0; m_fastTransit && m_ipv4 && i < m_ipv4->GetNInterfaces(); ++i)
    {
        if (m_ipv4->IsUp(i))
        {
            HookPort(i);
        }
    }
}

void
MoseRoutingProtocol::ClearHooks()
{
    for (auto& hook : m_hooks)
    {
        if (hook)
        {
            hook->Clear();
        }
    }
}

void
MoseRoutingProtocol::HookPort(uint32_t interface)
{
    if (!m_fastTransit || !m_ipv4 || interface >= m_ipv4->GetNInterfaces())
    {
        return;
    }
    Ptr<NetDevice> device = m_ipv4->GetNetDevice(interface);
    Ptr<Node> node = m_ipv4->GetObject<Node>();
    // only point-to-point devices: the node gives them Node::NonPromiscReceiveFromDevice as
    // their receive callback, which passes IPv4 to the traffic-control layer and nothing else of
    // the Internet stack (no ARP); ReceiveFromPort() does the same for what it does not forward
    if (!node || !DynamicCast<PointToPointNetDevice>(device) || device->GetNode() != node)
    {
        return;
    }
    if (!m_tc)
    {
        m_tc = node->GetObject<TrafficControlLayer>();
        if (!m_tc)
        {
            return;
        }
    }
    if (m_hooks.size() <= interface)
    {
        m_hooks.resize(interface + 1);
    }
    m_checksum = Node::ChecksumEnabled();
    if (m_hooks[interface])
    {
        return;
    }
    NS_LOG_LOGIC("node " << node->GetId() << ": fast transit from interface " << interface);
    m_hooks[interface] = Create<PortHook>(this, interface);
    device->SetReceiveCallback(MakeCallback(&PortHook::Receive, m_hooks[interface]));
}

bool
MoseRoutingProtocol::ReceiveFromPort(uint32_t interface,
                                     Ptr<NetDevice> device,
                                     Ptr<const Packet> p,
                                     uint16_t protocol,
                                     const Address& from)
{
    if (protocol == Ipv4L3Protocol::PROT_NUMBER && Forward(interface, p))
    {
        return true;
    }
    // as Node::NonPromiscReceiveFromDevice() passes it to the handler Ipv4L3Protocol registered
    m_tc->Receive(device, p, protocol, from, device->GetAddress(), NetDevice::PACKET_HOST);
    return true;
}

bool
MoseRoutingProtocol::Forward(uint32_t interface, Ptr<const Packet> p)
{
    // Ipv4L3Protocol::Receive() and IpForward() in one: every check that could fail there
    // leaves the packet to them, so that they drop, hold or deliver it and count it
    if (!m_fastTransit || m_checksum || !m_table || !m_ipv4->IsUp(interface) ||
        !m_ipv4->IsForwarding(interface) || !IsAlone())
    {
        return false;
    }
    Ipv4Header header;
    if (p->GetSize() < header.GetSerializedSize())
    {
        return false; // shorter than an IP header: Receive() deals with it
    }
    p->PeekHeader(header);
    if (header.GetTtl() <= 1)
    {
        return false; // IpForward() drops it (DROP_TTL_EXPIRED) and answers with ICMP
    }
    if (m_hosts.empty() && m_table->GetAddressing().GetGroupOf(header.GetDestination()) == m_group)
    {
        return false; // this node's or no one's (Decide() steps 1-3): up, without a copy
    }
    Ptr<Packet> packet = p->Copy();
    packet->RemoveHeader(header);
    if (packet->GetSize() != header.GetPayloadSize())
    {
        return false; // frame padding: Receive() trims it
    }
    const Decision decision = Decide(header, packet, true, interface);
    if (decision.kind != Decision::FABRIC && decision.kind != Decision::HOST)
    {
        return false;
    }
    Ptr<NetDevice> out = m_ipv4->GetNetDevice(decision.interface);
    if (out->NeedsArp() || packet->GetSize() + header.GetSerializedSize() > out->GetMtu())
    {
        return false; // SendRealOut() fragments it
    }
    header.SetTtl(header.GetTtl() - 1);
    // IpForward(): a priority tag from the packet's TOS replaces the one it may carry
    SocketPriorityTag priorityTag;
    packet->RemovePacketTag(priorityTag);
    if (const uint8_t priority = Socket::IpTos2Priority(header.GetTos()))
    {
        priorityTag.SetPriority(priority);
        packet->AddPacketTag(priorityTag);
    }
    ++m_fastForwarded;
    m_fastForwardTrace(header, packet, decision.interface);
    // Ipv4Interface::Send() for a device without ARP
    m_tc->Send(out,
               Create<Ipv4QueueDiscItem>(packet,
                                         out->GetBroadcast(),
                                         Ipv4L3Protocol::PROT_NUMBER,
                                         header));
    return true;
}

void
MoseRoutingProtocol::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit unit) const
{
    std::ostream& os = *stream->GetStream();
    const std::ios::fmtflags flags(os.flags());
    Ptr<Node> node = m_ipv4 ? m_ipv4->GetObject<Node>() : nullptr;
    os << "Node: " << (node ? static_cast<int64_t>(node->GetId()) : -1)
       << ", Time: " << Now().As(unit);
    if (node)
    {
        os << ", Local time: " << node->GetLocalTime().As(unit);
    }
    os << ", MoseRoutingProtocol, group ";
    if (m_group == NONE)
    {
        os << "unset\n";
        os.flags(flags);
        return;
    }
    os << m_group;
    if (!m_table || m_table->GetVersion() == 0)
    {
        os << ", no routes\n";
        os.flags(flags);
        return;
    }
    const MoseAddressing& addressing = m_table->GetAddressing();
    os << ", rule " << mose::ToString(m_table->GetActiveRule()) << ", table version "
       << m_table->GetVersion() << "\n";
    os << std::left << std::setw(20) << "Destination" << std::setw(10) << "Group" << std::setw(10)
       << "NextHop" << std::setw(8) << "Port" << std::setw(11) << "Interface"
       << "Distance\n";
    const bool ecmp = m_table->GetActiveRule() == mose::RoutingRule::ECMP;
    const uint32_t d = m_table->GetPortsPerGroup();
    for (uint32_t t = 0; t < m_table->GetNGroups(); ++t)
    {
        const std::string block =
            Text(addressing.GetGroupBlock(t)) + "/" + std::to_string(addressing.GetPrefixLength());
        const uint32_t distance = m_table->GetDistance(m_group, t);
        auto row = [&](const std::string& hop, const std::string& port, const std::string& iface) {
            os << std::setw(20) << block << std::setw(10) << t << std::setw(10) << hop
               << std::setw(8) << port << std::setw(11) << iface
               << (distance == MoseRouteTable::NONE ? std::string("-") : std::to_string(distance))
               << "\n";
        };
        if (t == m_group)
        {
            row("local", "-", "-");
            continue;
        }
        std::vector<uint32_t> ports;
        if (ecmp)
        {
            ports = m_table->GetCloserPorts(m_group, t);
        }
        else if (m_table->GetOutputPort(m_group, t) != MoseRouteTable::NONE)
        {
            ports.push_back(m_table->GetOutputPort(m_group, t));
        }
        if (ports.empty())
        {
            row("-", "-", "-");
        }
        for (uint32_t p : ports)
        {
            const uint32_t iface = GetPortInterface(p);
            row(std::to_string(m_table->GetPeer(m_group, p) / d),
                std::to_string(p),
                iface == NONE ? std::string("-") : std::to_string(iface));
        }
    }
    os.flags(flags);
}

} // namespace ns3
