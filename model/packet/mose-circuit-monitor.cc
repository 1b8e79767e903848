/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-circuit-monitor.h"

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/ppp-header.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseCircuitMonitor");
NS_OBJECT_ENSURE_REGISTERED(MoseCircuitMonitor);

TypeId
MoseCircuitMonitor::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MoseCircuitMonitor")
                            .SetParent<Object>()
                            .SetGroupName("Mose")
                            .AddConstructor<MoseCircuitMonitor>();
    return tid;
}

MoseCircuitMonitor::MoseCircuitMonitor()
{
    NS_LOG_FUNCTION(this);
}

MoseCircuitMonitor::~MoseCircuitMonitor()
{
    NS_LOG_FUNCTION(this);
}

void
MoseCircuitMonitor::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ocs = nullptr;
    Object::DoDispose();
}

void
MoseCircuitMonitor::Install(Ptr<MoseOcs> ocs)
{
    NS_LOG_FUNCTION(this << ocs);
    if (!ocs)
    {
        throw mose::Error("MoseCircuitMonitor::Install: the OCS is null");
    }
    m_ocs = ocs;
    const uint32_t d = ocs->GetNPortsPerGroup();
    m_bytes.assign(static_cast<std::size_t>(ocs->GetNGroups()) * d, 0);
    m_since.assign(m_bytes.size(), 0);
    ocs->TraceConnectWithoutContext("CircuitDisconnected",
                                    MakeCallback(&MoseCircuitMonitor::NotifyDisconnected, this));
    for (uint32_t g = 0; g < ocs->GetNGroups(); ++g)
    {
        for (uint32_t p = 0; p < d; ++p)
        {
            if (!ocs->HasPort(g, p))
            {
                throw mose::Error("MoseCircuitMonitor::Install: OCS port (group " +
                                  std::to_string(g) + ", port " + std::to_string(p) +
                                  ") has no device yet; install the monitor after the ports");
            }
            ocs->GetDevice(g, p)->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&MoseCircuitMonitor::NotifyRx, this).Bind(g * d + p));
        }
    }
}

void
MoseCircuitMonitor::NotifyRx(uint32_t flatPort, Ptr<const Packet> packet)
{
    // The payload is what is left after the point-to-point, IPv4 and transport headers. Packets
    // of other protocols (not IPv4, or neither TCP nor UDP) carry no transport payload here.
    Ptr<Packet> copy = packet->Copy();
    PppHeader ppp;
    copy->RemoveHeader(ppp);
    if (ppp.GetProtocol() != 0x0021) // IPv4
    {
        return;
    }
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetFragmentOffset() != 0 || ip.IsLastFragment() == false)
    {
        // fragments: count the IP payload of each (transport header only in the first)
        m_bytes[flatPort] += copy->GetSize();
        m_since[flatPort] += copy->GetSize();
        return;
    }
    if (ip.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
    {
        TcpHeader tcp;
        copy->RemoveHeader(tcp);
    }
    else if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        UdpHeader udp;
        copy->RemoveHeader(udp);
    }
    else
    {
        return;
    }
    m_bytes[flatPort] += copy->GetSize();
    m_since[flatPort] += copy->GetSize();
}

uint64_t
MoseCircuitMonitor::GetPortBytes(uint32_t group, uint32_t port) const
{
    if (!m_ocs || group >= m_ocs->GetNGroups() || port >= m_ocs->GetNPortsPerGroup())
    {
        throw mose::Error("MoseCircuitMonitor::GetPortBytes: no port (group " +
                          std::to_string(group) + ", port " + std::to_string(port) +
                          ") on the monitored OCS");
    }
    return m_bytes[static_cast<std::size_t>(group) * m_ocs->GetNPortsPerGroup() + port];
}

std::vector<uint64_t>
MoseCircuitMonitor::GetCircuitBytes() const
{
    if (!m_ocs)
    {
        throw mose::Error("MoseCircuitMonitor::GetCircuitBytes: call Install() first");
    }
    const mose::CircuitGraph graph = m_ocs->GetCircuitGraph();
    const std::vector<uint32_t> peers = m_ocs->GetPortMatching();
    const uint32_t d = m_ocs->GetNPortsPerGroup();
    std::vector<uint64_t> bytes(graph.GetNCircuits(), 0);
    for (std::size_t q = 0; q < peers.size(); ++q)
    {
        if (peers[q] == MoseOcs::DARK)
        {
            continue;
        }
        const int64_t c = graph.FindCircuit(static_cast<uint32_t>(q / d), peers[q] / d);
        if (c >= 0)
        {
            bytes[static_cast<std::size_t>(c)] += m_bytes[q];
        }
    }
    return bytes;
}

void
MoseCircuitMonitor::NotifyDisconnected(uint32_t groupA,
                                       uint32_t portA,
                                       uint32_t groupB,
                                       uint32_t portB)
{
    const uint32_t d = m_ocs->GetNPortsPerGroup();
    Credit(groupA * d + portA, groupB * d + portB, m_open);
}

void
MoseCircuitMonitor::Credit(uint32_t a, uint32_t b, std::map<uint64_t, uint64_t>& into)
{
    const uint64_t key = (static_cast<uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
    into[key] += m_since[a] + m_since[b];
    m_since[a] = 0;
    m_since[b] = 0;
}

std::vector<MoseCircuitBytes>
MoseCircuitMonitor::ToList(const std::map<uint64_t, uint64_t>& interval) const
{
    const uint32_t d = m_ocs->GetNPortsPerGroup();
    std::vector<MoseCircuitBytes> list;
    list.reserve(interval.size());
    for (const auto& [key, bytes] : interval)
    {
        const auto a = static_cast<uint32_t>(key >> 32);
        const auto b = static_cast<uint32_t>(key & 0xffffffffU);
        list.push_back({a / d, a % d, b / d, b % d, bytes});
    }
    return list;
}

void
MoseCircuitMonitor::StartInterval()
{
    NS_LOG_FUNCTION(this);
    if (!m_ocs)
    {
        throw mose::Error("MoseCircuitMonitor::StartInterval: call Install() first");
    }
    const std::vector<uint32_t> peers = m_ocs->GetPortMatching();
    for (uint32_t q = 0; q < peers.size(); ++q)
    {
        if (peers[q] != MoseOcs::DARK && q < peers[q])
        {
            Credit(q, peers[q], m_open);
        }
    }
    m_intervals.push_back(ToList(m_open));
    m_open.clear();
}

const std::vector<std::vector<MoseCircuitBytes>>&
MoseCircuitMonitor::GetIntervals() const
{
    return m_intervals;
}

std::vector<MoseCircuitBytes>
MoseCircuitMonitor::GetCurrentInterval() const
{
    if (!m_ocs)
    {
        throw mose::Error("MoseCircuitMonitor::GetCurrentInterval: call Install() first");
    }
    std::map<uint64_t, uint64_t> open = m_open;
    const std::vector<uint32_t> peers = m_ocs->GetPortMatching();
    for (uint32_t q = 0; q < peers.size(); ++q)
    {
        if (peers[q] != MoseOcs::DARK && q < peers[q])
        {
            open[(static_cast<uint64_t>(q) << 32) | peers[q]] += m_since[q] + m_since[peers[q]];
        }
    }
    return ToList(open);
}

void
MoseCircuitMonitor::Reset()
{
    NS_LOG_FUNCTION(this);
    std::fill(m_bytes.begin(), m_bytes.end(), 0);
}

void
MoseCircuitMonitor::WriteCsv(std::ostream& os) const
{
    const mose::CircuitGraph graph = m_ocs->GetCircuitGraph();
    const std::vector<uint64_t> bytes = GetCircuitBytes();
    os << "circuit,u,v,bytes\n";
    for (uint32_t c = 0; c < graph.GetNCircuits(); ++c)
    {
        const auto& circuit = graph.GetCircuits()[c];
        os << c << ',' << circuit.u << ',' << circuit.v << ',' << bytes[c] << '\n';
    }
}

} // namespace ns3
