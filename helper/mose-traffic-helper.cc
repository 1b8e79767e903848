/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-traffic-helper.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rank-messages.h"
#include "ns3/on-off-helper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/socket-factory.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseTrafficHelper");
NS_OBJECT_ENSURE_REGISTERED(MoseTrafficHelper);

TypeId
MoseTrafficHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseTrafficHelper")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddConstructor<MoseTrafficHelper>()
            .AddAttribute("BytesPerUnit",
                          "Bytes a transfer sends per unit of flow-level demand",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&MoseTrafficHelper::m_bytesPerUnit),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MaxFlows",
                          "Install a uniform sample of this many flows (0: all of them)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseTrafficHelper::m_maxFlows),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Aggregation",
                          "One transfer per (source, destination) pair or per flow",
                          EnumValue(MoseTrafficHelper::PER_PAIR),
                          MOSE_ENUM_ACCESSOR(Aggregation, &MoseTrafficHelper::m_aggregation),
                          MakeEnumChecker(MoseTrafficHelper::PER_PAIR,
                                          "per-pair",
                                          MoseTrafficHelper::PER_FLOW,
                                          "per-flow"))
            .AddAttribute("StartMode",
                          "When transfers start: together, uniform over a window, or Poisson",
                          EnumValue(MoseTrafficHelper::START_TOGETHER),
                          MOSE_ENUM_ACCESSOR(StartMode, &MoseTrafficHelper::m_startMode),
                          MakeEnumChecker(MoseTrafficHelper::START_TOGETHER,
                                          "together",
                                          MoseTrafficHelper::START_UNIFORM,
                                          "uniform",
                                          MoseTrafficHelper::START_POISSON,
                                          "poisson"))
            .AddAttribute("StartTime",
                          "The first start time",
                          TimeValue(Seconds(0.1)),
                          MakeTimeAccessor(&MoseTrafficHelper::m_startTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("StartWindow",
                          "Length of the window of uniform start times",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MoseTrafficHelper::m_startWindow),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PoissonRate",
                          "Transfers per second of Poisson start times",
                          DoubleValue(1000.0),
                          MakeDoubleAccessor(&MoseTrafficHelper::m_poissonRate),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("SocketFactory",
                          "The transport: ns3::TcpSocketFactory (BulkSend senders), "
                          "ns3::UdpSocketFactory (OnOff senders at UdpDataRate), or another "
                          "stream socket factory (BulkSend senders)",
                          TypeIdValue(TcpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&MoseTrafficHelper::m_socketFactory),
                          MakeTypeIdChecker())
            .AddAttribute("TcpVariant",
                          "TcpL4Protocol::SocketType set on every endpoint (TCP only)",
                          TypeIdValue(TypeId::LookupByName("ns3::TcpCubic")),
                          MakeTypeIdAccessor(&MoseTrafficHelper::m_tcpVariant),
                          MakeTypeIdChecker())
            .AddAttribute("UdpDataRate",
                          "Sending rate of each UDP transfer",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&MoseTrafficHelper::m_udpRate),
                          MakeDataRateChecker())
            .AddAttribute("SendSize",
                          "Bytes per send call (BulkSend) or per packet (UDP)",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&MoseTrafficHelper::m_sendSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SinkPortBase",
                          "First sink port at each destination; transfer k to a destination "
                          "listens on SinkPortBase + k",
                          UintegerValue(10000),
                          MakeUintegerAccessor(&MoseTrafficHelper::m_sinkPortBase),
                          MakeUintegerChecker<uint16_t>(1));
    return tid;
}

MoseTrafficHelper::MoseTrafficHelper()
    : m_sample(CreateObject<UniformRandomVariable>()),
      m_uniform(CreateObject<UniformRandomVariable>()),
      m_gaps(CreateObject<ExponentialRandomVariable>()),
      m_monitor(CreateObject<MoseTransferMonitor>())
{
    NS_LOG_FUNCTION(this);
}

MoseTrafficHelper::~MoseTrafficHelper()
{
    NS_LOG_FUNCTION(this);
}

void
MoseTrafficHelper::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sample = nullptr;
    m_uniform = nullptr;
    m_gaps = nullptr;
    m_monitor = nullptr;
    m_workload = nullptr;
    Object::DoDispose();
}

Ptr<MoseFlowWorkload>
MoseTrafficHelper::GetWorkload() const
{
    return m_workload;
}

Ptr<MoseTransferMonitor>
MoseTrafficHelper::GetMonitor() const
{
    return m_monitor;
}

int64_t
MoseTrafficHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_sample->SetStream(stream);
    m_uniform->SetStream(stream + 1);
    m_gaps->SetStream(stream + 1);
    return 2;
}

std::vector<MoseTransfer>
MoseTrafficHelper::MakeTransfers(const std::vector<mose::Flow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    std::vector<std::size_t> chosen(flows.size());
    std::iota(chosen.begin(), chosen.end(), std::size_t{0});
    if (m_maxFlows > 0 && m_maxFlows < flows.size())
    {
        // a uniform sample without replacement: the first MaxFlows of a uniform permutation,
        // then back in the flows' own order
        mose::Random rng(m_sample);
        rng.Shuffle(chosen);
        chosen.resize(m_maxFlows);
        std::sort(chosen.begin(), chosen.end());
    }

    std::vector<MoseTransfer> transfers;
    if (m_aggregation == PER_FLOW)
    {
        transfers.reserve(chosen.size());
        for (std::size_t i : chosen)
        {
            const mose::Flow& f = flows[i];
            MoseTransfer t;
            t.src = f.src;
            t.dst = f.dst;
            t.cls = f.cls;
            t.demand = f.demand;
            transfers.push_back(t);
        }
    }
    else
    {
        // one transfer per (src, dst, class), in order of (src, dst, class)
        std::map<std::tuple<uint32_t, uint32_t, uint8_t>, double> pairs;
        for (std::size_t i : chosen)
        {
            const mose::Flow& f = flows[i];
            pairs[{f.src, f.dst, static_cast<uint8_t>(f.cls)}] += f.demand;
        }
        transfers.reserve(pairs.size());
        for (const auto& [key, demand] : pairs)
        {
            MoseTransfer t;
            t.src = std::get<0>(key);
            t.dst = std::get<1>(key);
            t.cls = static_cast<mose::TrafficClass>(std::get<2>(key));
            t.demand = demand;
            transfers.push_back(t);
        }
    }
    for (auto& t : transfers)
    {
        const double bytes = std::round(t.demand * static_cast<double>(m_bytesPerUnit));
        if (!(bytes >= 1) || bytes > 1e18)
        {
            throw mose::Error("a transfer " + std::to_string(t.src) + "->" + std::to_string(t.dst) +
                              " of demand " + std::to_string(t.demand) +
                              " at BytesPerUnit=" + std::to_string(m_bytesPerUnit) +
                              " would carry " + std::to_string(bytes) +
                              " bytes; allowed: 1 to 1e18 bytes per transfer");
        }
        t.bytes = static_cast<uint64_t>(bytes);
    }
    return transfers;
}

void
MoseTrafficHelper::DrawStartTimes(std::vector<MoseTransfer>& transfers)
{
    Time next = m_startTime;
    for (auto& t : transfers)
    {
        switch (m_startMode)
        {
        case START_TOGETHER:
            t.start = m_startTime;
            break;
        case START_UNIFORM:
            t.start = m_startTime + Seconds(m_uniform->GetValue(0, m_startWindow.GetSeconds()));
            break;
        case START_POISSON:
            next += Seconds(m_gaps->GetValue(1.0 / m_poissonRate, 0));
            t.start = next;
            break;
        }
    }
}

std::vector<MoseTransfer>
MoseTrafficHelper::MakeStartedTransfers(const std::vector<mose::Flow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    std::vector<MoseTransfer> transfers = MakeTransfers(flows);
    DrawStartTimes(transfers);
    return transfers;
}

namespace
{

/// Connects a sink's Rx trace to the monitor with the transfer index bound
void
NotifyTransferRx(Ptr<MoseTransferMonitor> monitor,
                 uint32_t index,
                 Ptr<const Packet> packet,
                 const Address& from)
{
    monitor->NotifyRx(index, packet, from);
}

/// \return the first address of the node's first non-loopback IPv4 interface
Ipv4Address
EndpointAddress(Ptr<Node> node, uint32_t group)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    if (!ipv4)
    {
        throw mose::Error("the endpoint of group " + std::to_string(group) + " (node " +
                          std::to_string(node->GetId()) +
                          ") has no IPv4 stack; install the Internet stack first");
    }
    for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
        {
            Ipv4Address address = ipv4->GetAddress(i, a).GetLocal();
            if (!address.IsLocalhost() && address != Ipv4Address::GetAny())
            {
                return address;
            }
        }
    }
    throw mose::Error("the endpoint of group " + std::to_string(group) + " (node " +
                      std::to_string(node->GetId()) + ") has no IPv4 address");
}

} // namespace

ApplicationContainer
MoseTrafficHelper::Install(const NodeContainer& endpoints, const std::vector<mose::Flow>& flows)
{
    return DoInstall(endpoints, flows, nullptr);
}

ApplicationContainer
MoseTrafficHelper::Install(const NodeContainer& endpoints,
                           const std::vector<mose::Flow>& flows,
                           Ptr<MoseFlowWorkload> workload)
{
    if (!workload || m_monitor->GetNTransfers() > 0)
    {
        throw mose::Error("MoseTrafficHelper::Install: a flow workload needs a workload and a "
                          "helper of its own (this helper's monitor holds " +
                          std::to_string(m_monitor->GetNTransfers()) + " transfers)");
    }
    std::vector<ApplicationContainer> senders;
    ApplicationContainer apps = DoInstall(endpoints, flows, &senders);
    workload->SetInstalled(m_monitor, senders);
    m_workload = workload;
    return apps;
}

ApplicationContainer
MoseTrafficHelper::DoInstall(const NodeContainer& endpoints,
                             const std::vector<mose::Flow>& flows,
                             std::vector<ApplicationContainer>* senders)
{
    NS_LOG_FUNCTION(this << endpoints.GetN() << flows.size());
    for (const auto& f : flows)
    {
        if (f.src >= endpoints.GetN() || f.dst >= endpoints.GetN())
        {
            throw mose::Error(
                "a flow " + std::to_string(f.src) + "->" + std::to_string(f.dst) +
                " names a group without endpoint: " + std::to_string(endpoints.GetN()) +
                " endpoints (groups 0 to " + std::to_string(endpoints.GetN() - 1) + ")");
        }
    }
    std::vector<MoseTransfer> transfers = MakeTransfers(flows);
    const std::vector<Ipv4Address> address = PrepareEndpoints(endpoints, transfers);

    ApplicationContainer apps;
    std::vector<uint32_t> sinksAt(endpoints.GetN(), 0);
    DrawStartTimes(transfers);
    const std::string factory = m_socketFactory.GetName();
    for (auto& t : transfers)
    {
        const auto port = static_cast<uint16_t>(m_sinkPortBase + sinksAt[t.dst]++);
        t.port = port;
        t.dstAddress = address[t.dst];
        const uint32_t index = m_monitor->Add(t);
        if (senders)
        {
            senders->emplace_back();
        }

        // distributed runs: every rank records every transfer (same indices and start times)
        // but installs its sink and sender only where their node is on this rank
        if (MoseRankMessages::IsLocal(endpoints.Get(t.dst)))
        {
            PacketSinkHelper sinkHelper(factory, InetSocketAddress(Ipv4Address::GetAny(), port));
            ApplicationContainer sink = sinkHelper.Install(endpoints.Get(t.dst));
            sink.Get(0)->SetStartTime(Seconds(0));
            sink.Get(0)->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(&NotifyTransferRx, m_monitor, index));
            apps.Add(sink);
        }
        if (!MoseRankMessages::IsLocal(endpoints.Get(t.src)))
        {
            continue;
        }

        ApplicationContainer source =
            InstallSender(t, endpoints.Get(t.src), InetSocketAddress(address[t.dst], port));
        apps.Add(source);
        if (senders)
        {
            senders->back() = source;
        }
        NS_LOG_INFO("transfer " << index << ": " << t.src << "->" << t.dst << " "
                                << mose::ToString(t.cls) << " " << t.bytes << " B at "
                                << t.start.As(Time::MS) << ", port " << port);
    }
    return apps;
}

ApplicationContainer
MoseTrafficHelper::InstallSender(const MoseTransfer& t,
                                 Ptr<Node> node,
                                 const InetSocketAddress& remote) const
{
    const std::string factory = m_socketFactory.GetName();
    const bool udp = m_socketFactory == UdpSocketFactory::GetTypeId();
    ApplicationContainer source;
    if (udp)
    {
        // OnOff sends whole packets until MaxBytes is reached or passed: the full
        // datagrams from one sender, the remainder as one short datagram from a second
        // sender that starts when the first has sent its last, so that the transfer
        // carries exactly its bytes at the same constant rate
        const uint64_t full = t.bytes / m_sendSize;
        const uint64_t rest = t.bytes % m_sendSize;
        if (full > 0)
        {
            OnOffHelper onoff(factory, remote);
            onoff.SetConstantRate(m_udpRate, m_sendSize);
            onoff.SetAttribute("MaxBytes", UintegerValue(full * m_sendSize));
            source = onoff.Install(node);
            source.Get(0)->SetStartTime(t.start);
        }
        if (rest > 0)
        {
            OnOffHelper tail(factory, remote);
            tail.SetConstantRate(m_udpRate, static_cast<uint32_t>(rest));
            tail.SetAttribute("MaxBytes", UintegerValue(rest));
            ApplicationContainer last = tail.Install(node);
            last.Get(0)->SetStartTime(t.start + m_udpRate.CalculateBytesTxTime(full * m_sendSize));
            source.Add(last);
        }
    }
    else
    {
        BulkSendHelper bulk(factory, remote);
        bulk.SetAttribute("MaxBytes", UintegerValue(t.bytes));
        bulk.SetAttribute("SendSize", UintegerValue(m_sendSize));
        source = bulk.Install(node);
        source.Get(0)->SetStartTime(t.start);
    }
    return source;
}

std::vector<Ipv4Address>
MoseTrafficHelper::PrepareEndpoints(const NodeContainer& endpoints,
                                    const std::vector<MoseTransfer>& transfers)
{
    // every check before anything is installed: addresses, sink ports, the socket factory
    std::vector<Ipv4Address> address(endpoints.GetN());
    std::vector<bool> used(endpoints.GetN(), false);
    std::vector<uint32_t> sinksAt(endpoints.GetN(), 0);
    for (const auto& t : transfers)
    {
        used[t.src] = used[t.dst] = true;
        ++sinksAt[t.dst];
    }
    for (uint32_t g = 0; g < endpoints.GetN(); ++g)
    {
        if (used[g])
        {
            address[g] = EndpointAddress(endpoints.Get(g), g);
        }
        if (sinksAt[g] > 65535u - m_sinkPortBase + 1u)
        {
            throw mose::Error("group " + std::to_string(g) + " receives " +
                              std::to_string(sinksAt[g]) +
                              " transfers but SinkPortBase=" + std::to_string(m_sinkPortBase) +
                              " leaves ports for " + std::to_string(65535u - m_sinkPortBase + 1u) +
                              "; lower SinkPortBase, or use Aggregation=per-pair");
        }
    }

    const bool udp = m_socketFactory == UdpSocketFactory::GetTypeId();
    const bool tcp = m_socketFactory == TcpSocketFactory::GetTypeId();
    // a TypeId that is not a socket factory, or one the endpoints lack, crashes in
    // Socket::CreateSocket when the first sender starts
    if (!m_socketFactory.IsChildOf(SocketFactory::GetTypeId()))
    {
        throw mose::Error(
            "invalid MoseTrafficHelper::SocketFactory = " + m_socketFactory.GetName() +
            ": not a socket factory (a child of ns3::SocketFactory, e.g. "
            "ns3::TcpSocketFactory or ns3::UdpSocketFactory)");
    }
    for (uint32_t g = 0; g < endpoints.GetN(); ++g)
    {
        if (used[g] && !endpoints.Get(g)->GetObject<SocketFactory>(m_socketFactory))
        {
            throw mose::Error(
                "invalid MoseTrafficHelper::SocketFactory = " + m_socketFactory.GetName() +
                ": the endpoint of group " + std::to_string(g) + " (node " +
                std::to_string(endpoints.Get(g)->GetId()) +
                ") has no such socket factory installed");
        }
    }
    if (udp && m_sendSize > MAX_UDP_PAYLOAD)
    {
        throw mose::Error("invalid MoseTrafficHelper::SendSize = " + std::to_string(m_sendSize) +
                          ": a UDP datagram carries at most " + std::to_string(MAX_UDP_PAYLOAD) +
                          " bytes over IPv4");
    }
    if (udp && m_udpRate.GetBitRate() == 0)
    {
        throw mose::Error("invalid MoseTrafficHelper::UdpDataRate = 0bps: a UDP sender needs "
                          "a rate > 0");
    }
    if (tcp)
    {
        for (uint32_t g = 0; g < endpoints.GetN(); ++g)
        {
            Ptr<TcpL4Protocol> l4 =
                used[g] ? endpoints.Get(g)->GetObject<TcpL4Protocol>() : nullptr;
            if (l4)
            {
                l4->SetAttribute("SocketType", TypeIdValue(m_tcpVariant));
            }
        }
    }

    return address;
}

} // namespace ns3
