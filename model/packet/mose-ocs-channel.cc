/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-ocs-channel.h"

#include "mose-rank-messages.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseOcsChannel");

NS_OBJECT_ENSURE_REGISTERED(MoseOcsCircuitTag);
NS_OBJECT_ENSURE_REGISTERED(MoseOcsChannel);

TypeId
MoseOcsCircuitTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseOcsCircuitTag")
                            .SetParent<Tag>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseOcsCircuitTag>();
    return tid;
}

TypeId
MoseOcsCircuitTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MoseOcsCircuitTag::GetSerializedSize() const
{
    return 4 + 4 + 8;
}

void
MoseOcsCircuitTag::Serialize(TagBuffer i) const
{
    i.WriteU32(node);
    i.WriteU32(ifIndex);
    i.WriteU64(epoch);
}

void
MoseOcsCircuitTag::Deserialize(TagBuffer i)
{
    node = i.ReadU32();
    ifIndex = i.ReadU32();
    epoch = i.ReadU64();
}

void
MoseOcsCircuitTag::Print(std::ostream& os) const
{
    os << "node=" << node << " ifIndex=" << ifIndex << " epoch=" << epoch;
}

Time MoseOcsChannel::s_lookAhead = Time(0);

TypeId
MoseOcsChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseOcsChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("Mose")
            .AddConstructor<MoseOcsChannel>()
            .AddTraceSource("DarkPortDrop",
                            "A packet was sent into the port while it had no peer and was dropped.",
                            MakeTraceSourceAccessor(&MoseOcsChannel::m_darkDropTrace),
                            "ns3::MoseOcsChannel::PortPacketCallback")
            .AddTraceSource("WireDrop",
                            "A packet on the wire was lost because the circuit it was sent on "
                            "changed before its last bit arrived.",
                            MakeTraceSourceAccessor(&MoseOcsChannel::m_wireDropTrace),
                            "ns3::MoseOcsChannel::PortPacketCallback");
    return tid;
}

MoseOcsChannel::MoseOcsChannel()
    : m_group(0),
      m_port(0),
      m_epoch(0),
      m_inFlight(0),
      m_darkDrops(0),
      m_wireDrops(0),
      m_delivered(0)
{
    NS_LOG_FUNCTION(this);
}

MoseOcsChannel::~MoseOcsChannel()
{
    NS_LOG_FUNCTION(this);
}

void
MoseOcsChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_device = nullptr;
    m_peer = nullptr;
    PointToPointChannel::DoDispose();
}

void
MoseOcsChannel::SetPort(uint32_t group, uint32_t port)
{
    NS_LOG_FUNCTION(this << group << port);
    m_group = group;
    m_port = port;
}

uint32_t
MoseOcsChannel::GetGroup() const
{
    return m_group;
}

uint32_t
MoseOcsChannel::GetPort() const
{
    return m_port;
}

void
MoseOcsChannel::AttachPortDevice(Ptr<PointToPointNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    std::string where =
        "OCS port (group " + std::to_string(m_group) + ", port " + std::to_string(m_port) + ")";
    if (!device)
    {
        throw mose::Error("invalid device = null for " + where + ": a PointToPointNetDevice");
    }
    if (m_device || PointToPointChannel::GetNDevices() != 0)
    {
        throw mose::Error("invalid device for " + where +
                          ": the port already has a device; a port channel takes exactly one");
    }
    if (device->GetChannel())
    {
        throw mose::Error("invalid device for " + where +
                          ": the device is already attached to a channel; give the OCS a "
                          "device that is not attached");
    }
    // PointToPointNetDevice::Attach calls the base class's (non-virtual) Attach once: m_link[0].
    device->Attach(this);
    m_device = device;
}

Ptr<PointToPointNetDevice>
MoseOcsChannel::GetPortDevice() const
{
    return m_device;
}

void
MoseOcsChannel::SetPeer(Ptr<PointToPointNetDevice> peer)
{
    NS_LOG_FUNCTION(this << peer);
    if (!peer)
    {
        NS_FATAL_ERROR("MoseOcsChannel::SetPeer: null peer (use ClearPeer)");
    }
    if (s_lookAhead.IsStrictlyPositive() && IsOnOtherRank(peer) && GetDelay() < s_lookAhead)
    {
        NS_FATAL_ERROR("MoseOcsChannel (group "
                       << m_group << ", port " << m_port << "): a circuit to another MPI rank with "
                       << "Delay = " << GetDelay().As(Time::NS) << ", below the lookahead "
                       << s_lookAhead.As(Time::NS)
                       << " fixed before Run(); allowed: Delay >= the lookahead (set the "
                          "smallest delay before MoseTopologyHelper::PrepareDistributedRun())");
    }
    m_peer = peer;
    ++m_epoch;
}

void
MoseOcsChannel::SetDistributedLookAhead(Time lookAhead)
{
    NS_LOG_FUNCTION(lookAhead);
    s_lookAhead = lookAhead.IsStrictlyPositive() ? lookAhead : Time(0);
}

Time
MoseOcsChannel::GetDistributedLookAhead()
{
    return s_lookAhead;
}

bool
MoseOcsChannel::IsOnOtherRank(Ptr<PointToPointNetDevice> peer)
{
    return peer && !MoseRankMessages::IsLocal(peer->GetNode());
}

void
MoseOcsChannel::ClearPeer()
{
    NS_LOG_FUNCTION(this);
    m_peer = nullptr;
    ++m_epoch;
}

bool
MoseOcsChannel::IsLit() const
{
    return m_peer != nullptr;
}

Ptr<PointToPointNetDevice>
MoseOcsChannel::GetPeerDevice() const
{
    return m_peer;
}

uint64_t
MoseOcsChannel::GetEpoch() const
{
    return m_epoch;
}

uint32_t
MoseOcsChannel::GetPacketsInFlight() const
{
    return m_inFlight;
}

uint64_t
MoseOcsChannel::GetDarkDrops() const
{
    return m_darkDrops;
}

uint64_t
MoseOcsChannel::GetWireDrops() const
{
    return m_wireDrops;
}

uint64_t
MoseOcsChannel::GetDelivered() const
{
    return m_delivered;
}

bool
MoseOcsChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (src != m_device)
    {
        // Only the port's own device holds this channel; anything else is a wiring bug.
        NS_FATAL_ERROR("MoseOcsChannel (group " << m_group << ", port " << m_port
                                                << "): transmission from a foreign device");
    }
    if (!m_peer)
    {
        ++m_darkDrops;
        NS_LOG_LOGIC("dark port (" << m_group << ", " << m_port << "): drop packet "
                                   << p->GetUid());
        m_darkDropTrace(p, m_group, m_port);
        return false;
    }
    ++m_inFlight;
    DeliverToPeer(p, txTime);
    return true;
}

void
MoseOcsChannel::DeliverToPeer(Ptr<const Packet> p, Time txTime)
{
    NS_LOG_FUNCTION(this << p << txTime);
#ifdef NS3_MPI
    if (IsOnOtherRank(m_peer))
    {
        if (!s_lookAhead.IsStrictlyPositive() || GetDelay() < s_lookAhead)
        {
            NS_FATAL_ERROR("MoseOcsChannel (group "
                           << m_group << ", port " << m_port << "): a transmission to another "
                           << "MPI rank with Delay = " << GetDelay().As(Time::NS)
                           << " and lookahead = " << s_lookAhead.As(Time::NS)
                           << "; allowed: a lookahead > 0 fixed by "
                              "MoseTopologyHelper::PrepareDistributedRun() before Run() and "
                              "Delay >= the lookahead");
        }
        Ptr<Packet> copy = p->Copy();
        MoseOcsCircuitTag tag;
        tag.node = m_device->GetNode()->GetId();
        tag.ifIndex = m_device->GetIfIndex();
        tag.epoch = m_epoch;
        copy->AddPacketTag(tag);
        const Time at = txTime + GetDelay();
        MpiInterface::SendPacket(copy,
                                 Simulator::Now() + at,
                                 m_peer->GetNode()->GetId(),
                                 m_peer->GetIfIndex());
        Simulator::Schedule(at, &MoseOcsChannel::LeaveWire, Ptr<MoseOcsChannel>(this));
        return;
    }
#endif
    Simulator::ScheduleWithContext(m_peer->GetNode()->GetId(),
                                   txTime + GetDelay(),
                                   &MoseOcsChannel::Arrive,
                                   Ptr<MoseOcsChannel>(this),
                                   p->Copy(),
                                   m_peer,
                                   m_epoch);
}

void
MoseOcsChannel::Arrive(Ptr<Packet> p, Ptr<PointToPointNetDevice> peer, uint64_t epoch)
{
    NS_LOG_FUNCTION(this << p << peer << epoch);
    if (m_inFlight > 0)
    {
        --m_inFlight;
    }
    else
    {
        NS_LOG_ERROR("MoseOcsChannel (" << m_group << ", " << m_port
                                        << "): in-flight count underflow");
    }
    if (epoch != m_epoch)
    {
        ++m_wireDrops;
        NS_LOG_LOGIC("port (" << m_group << ", " << m_port << "): circuit changed, packet "
                              << p->GetUid() << " lost on the wire");
        m_wireDropTrace(p, m_group, m_port);
        return;
    }
    ++m_delivered;
    peer->Receive(p);
}

void
MoseOcsChannel::LeaveWire()
{
    NS_LOG_FUNCTION(this);
    if (m_inFlight > 0)
    {
        --m_inFlight;
    }
    else
    {
        NS_LOG_ERROR("MoseOcsChannel (" << m_group << ", " << m_port
                                        << "): in-flight count underflow");
    }
}

void
MoseOcsChannel::ReceiveFromRank(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    if (MoseRankMessages::Receive(p))
    {
        return; // a message between the replicas of a model (the port is its rank's mailbox)
    }
    MoseOcsCircuitTag tag;
    if (!p->RemovePacketTag(tag))
    {
        NS_FATAL_ERROR("MoseOcsChannel (group " << m_group << ", port " << m_port
                                                << "): a packet from another MPI rank without "
                                                   "its MoseOcsCircuitTag");
    }
    Ptr<MoseOcsChannel> sender;
    if (tag.node < NodeList::GetNNodes())
    {
        Ptr<Node> node = NodeList::GetNode(tag.node);
        if (tag.ifIndex < node->GetNDevices())
        {
            sender = DynamicCast<MoseOcsChannel>(node->GetDevice(tag.ifIndex)->GetChannel());
        }
    }
    if (!sender)
    {
        NS_FATAL_ERROR("MoseOcsChannel (group "
                       << m_group << ", port " << m_port << "): a packet from another MPI rank "
                       << "names sender node " << tag.node << " device " << tag.ifIndex
                       << ", which is not an OCS port on this rank (node ids and device "
                          "indexes must be identical on every rank)");
    }
    sender->ArriveFromRank(p, m_device, tag.epoch);
}

void
MoseOcsChannel::ArriveFromRank(Ptr<Packet> p, Ptr<PointToPointNetDevice> peer, uint64_t epoch)
{
    NS_LOG_FUNCTION(this << p << peer << epoch);
    // this channel is the replica, on the receiving rank, of the sending port's channel: every
    // rank applies the same switch schedule, so its epoch here is the sender's at this time
    if (epoch != m_epoch)
    {
        ++m_wireDrops;
        NS_LOG_LOGIC("port (" << m_group << ", " << m_port << "): circuit changed, packet "
                              << p->GetUid() << " from another rank lost on the wire");
        m_wireDropTrace(p, m_group, m_port);
        return;
    }
    ++m_delivered;
    peer->Receive(p);
}

std::size_t
MoseOcsChannel::GetNDevices() const
{
    if (!m_device)
    {
        return 0;
    }
    return m_peer ? 2 : 1;
}

Ptr<NetDevice>
MoseOcsChannel::GetDevice(std::size_t i) const
{
    if (i == 0)
    {
        return m_device;
    }
    if (i == 1)
    {
        if (!m_peer && s_lookAhead.IsStrictlyPositive())
        {
            return m_device; // distributed run: a dark port is a local self-loop (see header)
        }
        return m_peer;
    }
    return nullptr;
}

} // namespace ns3
