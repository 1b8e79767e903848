/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-ocs.h"

#include "mose-object-list.h"
#include "mose-rank-messages.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#ifdef NS3_MPI
#include "ns3/mpi-receiver.h"
#endif

#include <string>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseOcs");

NS_OBJECT_ENSURE_REGISTERED(MoseOcs);

TypeId
MoseOcs::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseOcs")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddConstructor<MoseOcs>()
            .AddAttribute("DataRate",
                          "The circuit data rate. AddPort sets it on every port device, so both "
                          "ends of every circuit transmit at it (the paper's transceivers: "
                          "400G or 800G). Changing it later affects only ports added later.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&MoseOcs::m_dataRate),
                          MakeDataRateChecker())
            .AddAttribute("Delay",
                          "The propagation delay of a circuit, port to port through the switch "
                          "(1 us: about 200 m of fibre). AddPort sets it on every port channel; "
                          "changing it later affects only ports added later.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&MoseOcs::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CircuitConnected",
                            "A circuit was connected.",
                            MakeTraceSourceAccessor(&MoseOcs::m_connectedTrace),
                            "ns3::MoseOcs::CircuitCallback")
            .AddTraceSource("CircuitDisconnected",
                            "A circuit was disconnected (first end: the port named in the call).",
                            MakeTraceSourceAccessor(&MoseOcs::m_disconnectedTrace),
                            "ns3::MoseOcs::CircuitCallback")
            .AddTraceSource("DarkPortDrop",
                            "A packet was sent into a port without circuit and was dropped.",
                            MakeTraceSourceAccessor(&MoseOcs::m_darkDropTrace),
                            "ns3::MoseOcsChannel::PortPacketCallback")
            .AddTraceSource("WireDrop",
                            "A packet on the wire was lost because its circuit changed.",
                            MakeTraceSourceAccessor(&MoseOcs::m_wireDropTrace),
                            "ns3::MoseOcsChannel::PortPacketCallback")
            .AddTraceSource("OperationRejected",
                            "A scheduled connect or disconnect was skipped because it had become "
                            "invalid when its event ran.",
                            MakeTraceSourceAccessor(&MoseOcs::m_rejectedTrace),
                            "ns3::MoseOcs::RejectedCallback");
    return tid;
}

MoseOcs::MoseOcs()
    : m_groups(0),
      m_ports(0),
      m_darkDrops(0),
      m_wireDrops(0),
      m_nConnects(0),
      m_nDisconnects(0),
      m_nRejected(0)
{
    NS_LOG_FUNCTION(this);
}

MoseOcs::~MoseOcs()
{
    NS_LOG_FUNCTION(this);
}

void
MoseOcs::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& ch : m_channels)
    {
        if (ch)
        {
            ch->TraceDisconnectWithoutContext("DarkPortDrop",
                                              MakeCallback(&MoseOcs::NotifyDarkDrop, this));
            ch->TraceDisconnectWithoutContext("WireDrop",
                                              MakeCallback(&MoseOcs::NotifyWireDrop, this));
        }
    }
    m_channels.clear();
    Object::DoDispose();
}

std::string
MoseOcs::PortName(uint32_t group, uint32_t port)
{
    return "(group " + std::to_string(group) + ", port " + std::to_string(port) + ")";
}

uint32_t
MoseOcs::CheckIndex(uint32_t group, uint32_t port) const
{
    if (group >= m_groups)
    {
        mose::ThrowBadParameter("group",
                                std::to_string(group),
                                "0 <= group < " + std::to_string(m_groups) + " (OCS groups" +
                                    (m_groups == 0 ? "; call SetSize first)" : ")"));
    }
    if (port >= m_ports)
    {
        mose::ThrowBadParameter("port",
                                std::to_string(port),
                                "0 <= port < " + std::to_string(m_ports) +
                                    " (OCS ports per group) at group " + std::to_string(group));
    }
    return group * m_ports + port;
}

void
MoseOcs::SetSize(uint32_t groups, uint32_t ports)
{
    NS_LOG_FUNCTION(this << groups << ports);
    for (const auto& ch : m_channels)
    {
        if (ch)
        {
            throw mose::Error("invalid SetSize(" + std::to_string(groups) + ", " +
                              std::to_string(ports) +
                              "): the OCS already has ports; set its size before AddPort");
        }
    }
    if (groups == 0)
    {
        mose::ThrowBadParameter("groups", "0", "groups >= 1");
    }
    if (ports == 0)
    {
        mose::ThrowBadParameter("ports", "0", "ports >= 1");
    }
    if (uint64_t(groups) * ports >= DARK)
    {
        mose::ThrowBadParameter("groups * ports",
                                std::to_string(uint64_t(groups) * ports),
                                "groups * ports < 4294967295");
    }
    m_groups = groups;
    m_ports = ports;
    m_peers.assign(uint64_t(groups) * ports, DARK);
    m_channels.assign(uint64_t(groups) * ports, nullptr);
    MoseObjectList::Add(MoseObjectList::OCS, this); // /MoseOcsList/[i]
}

uint32_t
MoseOcs::GetNGroups() const
{
    return m_groups;
}

uint32_t
MoseOcs::GetNPortsPerGroup() const
{
    return m_ports;
}

uint32_t
MoseOcs::GetNPorts() const
{
    return m_groups * m_ports;
}

Ptr<MoseOcsChannel>
MoseOcs::AddPort(uint32_t group, uint32_t port, Ptr<PointToPointNetDevice> device)
{
    NS_LOG_FUNCTION(this << group << port << device);
    uint32_t a = CheckIndex(group, port);
    if (m_channels[a])
    {
        throw mose::Error("invalid AddPort for OCS port " + PortName(group, port) +
                          ": the port was already added");
    }
    Ptr<MoseOcsChannel> ch = CreateObject<MoseOcsChannel>();
    ch->SetAttribute("Delay", TimeValue(m_delay));
    ch->SetPort(group, port);
    ch->AttachPortDevice(device); // throws for a null or attached device, before any change
    device->SetDataRate(m_dataRate);
    ch->TraceConnectWithoutContext("DarkPortDrop", MakeCallback(&MoseOcs::NotifyDarkDrop, this));
    ch->TraceConnectWithoutContext("WireDrop", MakeCallback(&MoseOcs::NotifyWireDrop, this));
#ifdef NS3_MPI
    // every port can receive from every rank from the start: a circuit may be re-paired to a
    // node on any rank (MpiInterface::SendPacket delivers to the MpiReceiver of the device)
    if (!device->GetObject<MpiReceiver>())
    {
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(MakeCallback(&MoseOcsChannel::ReceiveFromRank, ch));
        device->AggregateObject(receiver);
    }
    MoseRankMessages::OfferMailbox(device); // ReceiveFromRank hands messages on
#endif
    m_channels[a] = ch;
    return ch;
}

bool
MoseOcs::HasPort(uint32_t group, uint32_t port) const
{
    return group < m_groups && port < m_ports && m_channels[group * m_ports + port];
}

std::string
MoseOcs::ConnectProblem(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB) const
{
    uint32_t a = CheckIndex(groupA, portA);
    uint32_t b = CheckIndex(groupB, portB);
    std::string call = "Connect(" + std::to_string(groupA) + ", " + std::to_string(portA) + ", " +
                       std::to_string(groupB) + ", " + std::to_string(portB) + ")";
    if (a == b)
    {
        return "invalid " + call + ": OCS port " + PortName(groupA, portA) +
               " cannot be connected to itself";
    }
    for (auto [g, p, x] : {std::tuple{groupA, portA, a}, std::tuple{groupB, portB, b}})
    {
        if (!m_channels[x])
        {
            return "invalid " + call + ": OCS port " + PortName(g, p) + " was not added (AddPort)";
        }
        if (m_peers[x] != DARK)
        {
            return "invalid " + call + ": OCS port " + PortName(g, p) + " is lit (connected to " +
                   PortName(m_peers[x] / m_ports, m_peers[x] % m_ports) + "); disconnect it first";
        }
    }
    return "";
}

void
MoseOcs::Connect(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB)
{
    NS_LOG_FUNCTION(this << groupA << portA << groupB << portB);
    std::string problem = ConnectProblem(groupA, portA, groupB, portB);
    if (!problem.empty())
    {
        throw mose::Error(problem);
    }
    DoConnect(groupA * m_ports + portA, groupB * m_ports + portB);
}

void
MoseOcs::DoConnect(uint32_t a, uint32_t b)
{
    m_peers[a] = b;
    m_peers[b] = a;
    m_channels[a]->SetPeer(m_channels[b]->GetPortDevice());
    m_channels[b]->SetPeer(m_channels[a]->GetPortDevice());
    ++m_nConnects;
    NS_LOG_INFO("connect " << PortName(a / m_ports, a % m_ports) << " <-> "
                           << PortName(b / m_ports, b % m_ports));
    m_connectedTrace(a / m_ports, a % m_ports, b / m_ports, b % m_ports);
}

bool
MoseOcs::Disconnect(uint32_t group, uint32_t port)
{
    NS_LOG_FUNCTION(this << group << port);
    uint32_t a = CheckIndex(group, port);
    if (m_peers[a] == DARK)
    {
        return false;
    }
    DoDisconnect(a);
    return true;
}

void
MoseOcs::DoDisconnect(uint32_t a)
{
    uint32_t b = m_peers[a];
    m_peers[a] = DARK;
    m_peers[b] = DARK;
    m_channels[a]->ClearPeer();
    m_channels[b]->ClearPeer();
    ++m_nDisconnects;
    NS_LOG_INFO("disconnect " << PortName(a / m_ports, a % m_ports) << " <-> "
                              << PortName(b / m_ports, b % m_ports));
    m_disconnectedTrace(a / m_ports, a % m_ports, b / m_ports, b % m_ports);
}

std::string
MoseOcs::MatchingProblem(const std::vector<uint32_t>& peers) const
{
    uint64_t n = uint64_t(m_groups) * m_ports;
    if (peers.size() != n)
    {
        return "invalid matching size = " + std::to_string(peers.size()) +
               ": must be groups * ports = " + std::to_string(n);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t j = peers[i];
        std::string entry = "invalid matching entry peers[" + std::to_string(i) + "] = ";
        if (j == DARK)
        {
            continue;
        }
        if (j >= n)
        {
            return entry + std::to_string(j) + " (port " + PortName(i / m_ports, i % m_ports) +
                   "): must be < " + std::to_string(n) + " or DARK";
        }
        if (j == i)
        {
            return entry + std::to_string(j) + ": port " + PortName(i / m_ports, i % m_ports) +
                   " paired with itself";
        }
        if (peers[j] != i)
        {
            return entry + std::to_string(j) + ": not symmetric, peers[" + std::to_string(j) +
                   "] = " + (peers[j] == DARK ? std::string("DARK") : std::to_string(peers[j])) +
                   ", must be " + std::to_string(i);
        }
        if (!m_channels[i])
        {
            return entry + std::to_string(j) + ": port " + PortName(i / m_ports, i % m_ports) +
                   " was not added (AddPort)";
        }
    }
    return "";
}

void
MoseOcs::ApplyMatching(const std::vector<uint32_t>& peers)
{
    NS_LOG_FUNCTION(this << peers.size());
    std::string problem = MatchingProblem(peers);
    if (!problem.empty())
    {
        throw mose::Error(problem);
    }
    DoApplyMatching(peers);
}

void
MoseOcs::DoApplyMatching(const std::vector<uint32_t>& peers)
{
    uint32_t n = m_groups * m_ports;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_peers[i] != DARK && m_peers[i] != peers[i])
        {
            DoDisconnect(i);
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (peers[i] != DARK && peers[i] > i && m_peers[i] == DARK)
        {
            DoConnect(i, peers[i]);
        }
    }
}

void
MoseOcs::ScheduleConnect(Time delay,
                         uint32_t groupA,
                         uint32_t portA,
                         uint32_t groupB,
                         uint32_t portB)
{
    NS_LOG_FUNCTION(this << delay << groupA << portA << groupB << portB);
    CheckIndex(groupA, portA);
    CheckIndex(groupB, portB);
    Simulator::Schedule(delay,
                        &MoseOcs::ConnectEvent,
                        Ptr<MoseOcs>(this),
                        groupA,
                        portA,
                        groupB,
                        portB);
}

void
MoseOcs::ConnectEvent(uint32_t groupA, uint32_t portA, uint32_t groupB, uint32_t portB)
{
    NS_LOG_FUNCTION(this << groupA << portA << groupB << portB);
    std::string problem;
    try
    {
        problem = ConnectProblem(groupA, portA, groupB, portB);
    }
    catch (const mose::Error& e)
    {
        problem = e.what(); // only if SetSize changed the size after scheduling
    }
    if (!problem.empty())
    {
        ++m_nRejected;
        NS_LOG_ERROR("scheduled connect skipped: " << problem);
        m_rejectedTrace(problem);
        return;
    }
    DoConnect(groupA * m_ports + portA, groupB * m_ports + portB);
}

void
MoseOcs::ScheduleDisconnect(Time delay, uint32_t group, uint32_t port)
{
    NS_LOG_FUNCTION(this << delay << group << port);
    CheckIndex(group, port);
    Simulator::Schedule(delay, &MoseOcs::DisconnectEvent, Ptr<MoseOcs>(this), group, port);
}

void
MoseOcs::DisconnectEvent(uint32_t group, uint32_t port)
{
    NS_LOG_FUNCTION(this << group << port);
    if (group >= m_groups || port >= m_ports)
    {
        ++m_nRejected;
        std::string problem =
            "scheduled disconnect of OCS port " + PortName(group, port) + " skipped: out of range";
        NS_LOG_ERROR(problem);
        m_rejectedTrace(problem);
        return;
    }
    uint32_t a = group * m_ports + port;
    if (m_peers[a] != DARK)
    {
        DoDisconnect(a);
    }
}

void
MoseOcs::ScheduleMatching(Time delay, const std::vector<uint32_t>& peers)
{
    NS_LOG_FUNCTION(this << delay << peers.size());
    std::string problem = MatchingProblem(peers);
    if (!problem.empty())
    {
        throw mose::Error(problem);
    }
    Simulator::Schedule(delay, &MoseOcs::DoApplyMatching, Ptr<MoseOcs>(this), peers);
}

bool
MoseOcs::IsLit(uint32_t group, uint32_t port) const
{
    return m_peers[CheckIndex(group, port)] != DARK;
}

uint32_t
MoseOcs::GetPeer(uint32_t group, uint32_t port) const
{
    return m_peers[CheckIndex(group, port)];
}

std::vector<uint32_t>
MoseOcs::GetPortMatching() const
{
    return m_peers;
}

uint32_t
MoseOcs::GetNCircuits() const
{
    uint32_t lit = 0;
    for (uint32_t p : m_peers)
    {
        lit += p != DARK;
    }
    return lit / 2;
}

mose::CircuitGraph
MoseOcs::GetCircuitGraph() const
{
    std::vector<mose::Circuit> circuits;
    for (uint32_t i = 0; i < m_peers.size(); ++i)
    {
        if (m_peers[i] != DARK && m_peers[i] > i)
        {
            circuits.push_back({i / m_ports, m_peers[i] / m_ports});
        }
    }
    return mose::CircuitGraph(m_groups, std::move(circuits));
}

Ptr<PointToPointNetDevice>
MoseOcs::GetDevice(uint32_t group, uint32_t port) const
{
    const Ptr<MoseOcsChannel>& ch = m_channels[CheckIndex(group, port)];
    return ch ? ch->GetPortDevice() : nullptr;
}

Ptr<MoseOcsChannel>
MoseOcs::GetChannel(uint32_t group, uint32_t port) const
{
    return m_channels[CheckIndex(group, port)];
}

DataRate
MoseOcs::GetDataRate() const
{
    return m_dataRate;
}

Time
MoseOcs::GetDelay() const
{
    return m_delay;
}

uint64_t
MoseOcs::GetDarkDrops() const
{
    return m_darkDrops;
}

uint64_t
MoseOcs::GetWireDrops() const
{
    return m_wireDrops;
}

uint32_t
MoseOcs::GetPacketsInFlight(uint32_t group, uint32_t port) const
{
    const Ptr<MoseOcsChannel>& ch = m_channels[CheckIndex(group, port)];
    return ch ? ch->GetPacketsInFlight() : 0;
}

uint64_t
MoseOcs::GetPacketsInFlight() const
{
    uint64_t total = 0;
    for (const auto& ch : m_channels)
    {
        if (ch)
        {
            total += ch->GetPacketsInFlight();
        }
    }
    return total;
}

uint64_t
MoseOcs::GetNConnects() const
{
    return m_nConnects;
}

uint64_t
MoseOcs::GetNDisconnects() const
{
    return m_nDisconnects;
}

uint64_t
MoseOcs::GetNRejected() const
{
    return m_nRejected;
}

void
MoseOcs::NotifyDarkDrop(Ptr<const Packet> p, uint32_t group, uint32_t port)
{
    ++m_darkDrops;
    m_darkDropTrace(p, group, port);
}

void
MoseOcs::NotifyWireDrop(Ptr<const Packet> p, uint32_t group, uint32_t port)
{
    ++m_wireDrops;
    m_wireDropTrace(p, group, port);
}

} // namespace ns3
