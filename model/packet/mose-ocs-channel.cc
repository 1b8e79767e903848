/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-ocs-channel.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseOcsChannel");

NS_OBJECT_ENSURE_REGISTERED(MoseOcsChannel);

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
    m_peer = peer;
    ++m_epoch;
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
        return m_peer;
    }
    return nullptr;
}

} // namespace ns3
