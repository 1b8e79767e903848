/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-rdma-transport.h"

#include "mose-object-list.h"
#include "mose-ocs-channel.h"
#include "mose-rank-messages.h"
#include "mose-roce-header.h"
#include "mose-scale.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/udp-socket.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <exception>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRdmaTransport");
NS_OBJECT_ENSURE_REGISTERED(MoseRdmaTransport);

namespace
{
/// IP ECN codepoints (RFC 3168) in the TOS byte
constexpr uint8_t ECN_MASK = 0x03;
constexpr uint8_t ECT0 = 0x02; //!< ECN-capable transport (0)
constexpr uint8_t CE = 0x03;   //!< congestion experienced
/// IPv4 (20) + UDP (8) bytes
constexpr uint32_t IP_UDP = 28;
/// The bytes of a CNP after the BTH (reserved) and of an ICRC
constexpr uint32_t CNP_RESERVED = 16;
constexpr uint32_t ICRC = 4;
/// Protocol number of UDP
constexpr uint8_t UDP_PROTOCOL = 17;
} // namespace

TypeId
MoseRdmaTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseRdmaTransport")
            .SetParent<MoseTransport>()
            .SetGroupName("Mose")
            .AddConstructor<MoseRdmaTransport>()
            .AddAttribute("PayloadSize",
                          "Payload bytes of a full data packet (the InfiniBand path MTU: 1024 "
                          "on a 1500-byte Ethernet MTU, 4096 on jumbo frames); a data packet "
                          "is this + 44 bytes of IPv4, UDP, BTH and ICRC",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_payload),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckInterval",
                          "The receiver acknowledges every this many packets (the BTH's "
                          "acknowledge-request bit) and every message's last packet",
                          UintegerValue(16),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_ackInterval),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxInFlight",
                          "At most this many packets of a QP sent and not yet acknowledged, as "
                          "IRN's BDP-FC caps them (0: no cap); 0 or at least AckInterval, since "
                          "the receiver acknowledges every AckInterval packets",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_maxInFlight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RetxMode",
                          "How lost packets are resent: GoBackN (RoCEv2) or SelectiveRepeat "
                          "(IRN-style: only the PSN the receiver reports missing)",
                          MOSE_ENUM_VALUE(RetxMode)(MOSE_ENUM_CHECKER_VALUE(RetxMode, GO_BACK_N)),
                          MOSE_ENUM_ACCESSOR(RetxMode, &MoseRdmaTransport::m_retxMode),
                          MakeEnumChecker(MOSE_ENUM_CHECKER_VALUE(RetxMode, GO_BACK_N),
                                          "GoBackN",
                                          MOSE_ENUM_CHECKER_VALUE(RetxMode, SELECTIVE_REPEAT),
                                          "SelectiveRepeat"))
            .AddAttribute("RetransmitTimeout",
                          "Resend when the oldest unacknowledged PSN made no progress for this "
                          "long (multiplied by MoseScale)",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&MoseRdmaTransport::m_rto),
                          MakeTimeChecker())
            .AddAttribute("LineRate",
                          "The NIC's rate (divided by MoseScale); 0 (the default): the sum of "
                          "the DataRate of the endpoint's devices (one host link: its rate)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&MoseRdmaTransport::m_lineRate),
                          MakeDataRateChecker())
            .AddAttribute("DcqcnEnabled",
                          "Whether QPs react to CNPs (DCQCN) and receivers send them; false: "
                          "every QP at line rate",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseRdmaTransport::m_dcqcn),
                          MakeBooleanChecker())
            .AddAttribute("PacePorts",
                          "A NIC sends on each of its node's point-to-point devices at most at "
                          "that device's rate, as a NIC with one port per link: a QP waits in "
                          "the NIC while the port its last packet took is busy. false: the NIC "
                          "sends at its line rate (the sum of its ports) into whichever port "
                          "the route picks, and the port's queue takes the excess",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseRdmaTransport::m_pacePorts),
                          MakeBooleanChecker())
            .AddAttribute("EcnCapableControl",
                          "ACKs, NAKs and CNPs carry ECT(0), so that a queue disc with ECN marks "
                          "them where it marks data (a RoCE switch marks, it does not drop); "
                          "false: not ECN-capable, and ns-3's RED may drop them early",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseRdmaTransport::m_ecnControl),
                          MakeBooleanChecker())
            .AddAttribute("CnpInterval",
                          "DCQCN notification point: at most one CNP per QP per this interval",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&MoseRdmaTransport::m_cnpInterval),
                          MakeTimeChecker())
            .AddAttribute("MinRate",
                          "DCQCN: the lowest rate a cut leaves, not above LineRate (divided by "
                          "MoseScale)",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&MoseRdmaTransport::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("DcqcnG",
                          "DCQCN: alpha's gain g, in (0, 1]",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&MoseRdmaTransport::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaTimer",
                          "DCQCN: alpha decays by (1 - g) once per this interval without a CNP",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&MoseRdmaTransport::m_alphaTimer),
                          MakeTimeChecker())
            .AddAttribute("RateTimer",
                          "DCQCN: a rate-increase event per this interval after a cut",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&MoseRdmaTransport::m_rateTimer),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter",
                          "DCQCN: a rate-increase event per this many bytes sent after a cut "
                          "(divided by MoseScale)",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "DCQCN: F, the increase events of fast recovery after a cut",
                          UintegerValue(5),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "DCQCN: R_AI, the target rate's step in additive increase (divided by "
                          "MoseScale)",
                          DataRateValue(DataRate("40Mb/s")),
                          MakeDataRateAccessor(&MoseRdmaTransport::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncrease",
                          "DCQCN: R_HAI, the target rate's step in hyper increase (divided by "
                          "MoseScale)",
                          DataRateValue(DataRate("400Mb/s")),
                          MakeDataRateAccessor(&MoseRdmaTransport::m_hai),
                          MakeDataRateChecker())
            .AddAttribute("NoticeDelay",
                          "How long after a transfer's last byte the workload learns of it: 0 at "
                          "once; above 0 the completions of one time are handed on in "
                          "transfer-id order. A closed QP's receiver side lasts as long after "
                          "its close (a late duplicate is answered)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&MoseRdmaTransport::m_noticeDelay),
                          MakeTimeChecker())
            .AddAttribute("PartitionKey",
                          "The BTH's P_Key of every packet",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&MoseRdmaTransport::m_pkey),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("TransferDone",
                            "A transfer's completion was noticed (NoticeDelay after its last "
                            "byte arrived; the duration is to the last byte)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_doneTrace),
                            "ns3::MoseTransport::TransferDoneCallback")
            .AddTraceSource("Retransmit",
                            "A data packet was sent again (QP number, PSN)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_retransmitTrace),
                            "ns3::MoseRdmaTransport::PacketCallback")
            .AddTraceSource("Nack",
                            "A receiver sent a NAK for the PSN it expects (QP number, PSN)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_nackTrace),
                            "ns3::MoseRdmaTransport::PacketCallback")
            .AddTraceSource("Timeout",
                            "A sender's retransmission timer fired (QP number, oldest "
                            "unacknowledged PSN)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_timeoutTrace),
                            "ns3::MoseRdmaTransport::PacketCallback")
            .AddTraceSource("Cnp",
                            "A receiver sent a CNP (QP number)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_cnpTrace),
                            "ns3::MoseRdmaTransport::CnpCallback")
            .AddTraceSource("CnpReceived",
                            "A sender received a CNP and cut its rate (QP number)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_cnpReceivedTrace),
                            "ns3::MoseRdmaTransport::CnpCallback")
            .AddTraceSource("RateChange",
                            "A QP's DCQCN rate changed at a CNP (QP number, old, new rate)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_rateTrace),
                            "ns3::MoseRdmaTransport::RateCallback")
            .AddTraceSource("Drop",
                            "The transport dropped a packet it received or could not route "
                            "(QP number, PSN, DropReason)",
                            MakeTraceSourceAccessor(&MoseRdmaTransport::m_dropTrace),
                            "ns3::MoseRdmaTransport::DropCallback");
    return tid;
}

MoseRdmaTransport::MoseRdmaTransport()
{
    NS_LOG_FUNCTION(this);
}

MoseRdmaTransport::~MoseRdmaTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MoseRdmaTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    NS_LOG_INFO(m_nQps << " QPs opened in " << m_qps.size() << " QP records, " << m_dataPackets
                       << " data packets, " << m_acks << " ACKs");
    for (Nic& nic : m_nics)
    {
        if (nic.socket)
        {
            nic.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            nic.socket->Close();
        }
    }
    m_nics.clear();
    m_qps.clear();
    MoseTransport::DoDispose();
}

void
MoseRdmaTransport::CheckAttributes() const
{
    if (m_payload == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::PayloadSize", "0", "at least 1 byte");
    }
    if (m_ackInterval == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::AckInterval", "0", "at least 1 packet");
    }
    if (m_maxInFlight != 0 && m_maxInFlight < m_ackInterval)
    {
        // a smaller cap waits for an ACK the receiver sends only after AckInterval packets
        mose::ThrowBadParameter(
            "ns3::MoseRdmaTransport::MaxInFlight",
            std::to_string(m_maxInFlight),
            "0 (no cap) or at least AckInterval = " + std::to_string(m_ackInterval) + " packets");
    }
    if (!m_rto.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::RetransmitTimeout",
                                std::to_string(m_rto.GetNanoSeconds()) + " ns",
                                "a time above 0");
    }
    if (m_cnpInterval.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::CnpInterval",
                                std::to_string(m_cnpInterval.GetNanoSeconds()) + " ns",
                                "a time of 0 or more");
    }
    if (m_noticeDelay.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::NoticeDelay",
                                std::to_string(m_noticeDelay.GetNanoSeconds()) + " ns",
                                "a time of 0 or more");
    }
    if (m_minRate.GetBitRate() == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::MinRate",
                                "0bps",
                                "a rate above 0, not above LineRate");
    }
    if (m_lineRate.GetBitRate() != 0 && m_minRate > m_lineRate)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::MinRate",
                                std::to_string(m_minRate.GetBitRate()) + "bps with LineRate " +
                                    std::to_string(m_lineRate.GetBitRate()) + "bps",
                                "MinRate not above LineRate (the pair in order)");
    }
    if (!(m_g > 0 && m_g <= 1))
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::DcqcnG",
                                std::to_string(m_g),
                                "a gain in (0, 1]");
    }
    if (!m_alphaTimer.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::AlphaTimer",
                                std::to_string(m_alphaTimer.GetNanoSeconds()) + " ns",
                                "a time above 0");
    }
    if (!m_rateTimer.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::RateTimer",
                                std::to_string(m_rateTimer.GetNanoSeconds()) + " ns",
                                "a time above 0");
    }
    if (m_byteCounter == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::ByteCounter", "0", "at least 1 byte");
    }
}

uint32_t
MoseRdmaTransport::GetBdpInFlight(const std::vector<PathLink>& path) const
{
    NS_LOG_FUNCTION(this << path.size());
    if (path.empty())
    {
        return m_ackInterval;
    }
    Time rtt(0);
    const PathLink* slowest = &path.front();
    for (const PathLink& link : path)
    {
        if (link.rate.GetBitRate() == 0)
        {
            throw mose::Error("MoseRdmaTransport::GetBdpInFlight: a link of rate 0 bps on the "
                              "path; every link needs a rate above 0");
        }
        // a data frame stored and forwarded, its ACK back the same way
        rtt += link.rate.CalculateBytesTxTime(m_payload + DATA_OVERHEAD + link.frameOverhead) +
               link.rate.CalculateBytesTxTime(ACK_SIZE + link.frameOverhead) + 2 * link.delay;
        if (link.rate < slowest->rate)
        {
            slowest = &link;
        }
    }
    // ceil(rate x rtt / frame bits) in integers: a product of a rate in bit/s and a time in ns
    // overflows 64 bits from about 10 ms at 1 Tb/s
    using Wide = unsigned __int128;
    const Wide bits = static_cast<Wide>(slowest->rate.GetBitRate()) *
                      static_cast<Wide>(std::max<int64_t>(rtt.GetNanoSeconds(), 0));
    const Wide frame =
        static_cast<Wide>(m_payload + DATA_OVERHEAD + slowest->frameOverhead) * 8 * 1000000000;
    const Wide packets = (bits + frame - 1) / frame;
    const Wide cap = std::max<Wide>(m_ackInterval, packets + m_ackInterval - 1);
    const auto result =
        static_cast<uint32_t>(std::min<Wide>(cap, std::numeric_limits<uint32_t>::max()));
    NS_LOG_INFO("BDP-FC: round trip " << rtt.As(Time::US) << " over " << path.size() << " links, "
                                      << static_cast<uint64_t>(packets) << " packets at "
                                      << slowest->rate << ", cap " << result);
    return result;
}

void
MoseRdmaTransport::Install(const std::vector<NodeContainer>& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.size());
    if (IsInstalled())
    {
        throw mose::Error("MoseRdmaTransport::Install was already called");
    }
    CheckAttributes();
    ScaleAttributes();
    const uint32_t nEndpoints = SetEndpoints(endpoints, "MoseRdmaTransport");
    m_nics.resize(nEndpoints);
    m_ccConfig.resize(nEndpoints); // never resized again: the QPs' MoseDcqcn point into it
    for (uint32_t g = 0; g < GetNGroups(); ++g)
    {
        for (uint32_t h = 0; h < endpoints[g].GetN(); ++h)
        {
            InstallNic(GetEndpointNumber(g, h), endpoints[g].Get(h), DescribeEndpoint(g, h));
        }
    }
    RegisterRankMessages(
        MakeCallback(&MoseRdmaTransport::ReceiveRankMessage, Ptr<MoseRdmaTransport>(this)));
    SetInstalled();
    MoseObjectList::Add(MoseObjectList::TRANSPORT, this); // /MoseTransportList/[i]
}

void
MoseRdmaTransport::ScaleAttributes()
{
    // A run at MoseScale S divides every rate and byte count by S and keeps every time. The
    // reaction point follows: its rates and byte counter are divided by S, so the rate, as a
    // share of the (divided) line rate, moves in time as in the full-size fabric; its timers
    // stay. The retransmission timeout is multiplied by S: a packet's serialization, and the
    // drain of every packet queued before it, take S times as long, and so may a round trip.
    const uint64_t scale = MoseScale::Get();
    // 0 stays 0 (LineRate: the devices' rate; an increase step of 0: no such increase)
    auto scaleRate = [](DataRate rate, const std::string& name) {
        return rate.GetBitRate() == 0 ? rate : MoseScale::ScaleRate(rate, name);
    };
    m_scaled.lineRate = scaleRate(m_lineRate, "ns3::MoseRdmaTransport::LineRate");
    m_scaled.minRate = scaleRate(m_minRate, "ns3::MoseRdmaTransport::MinRate");
    m_scaled.additiveRate = scaleRate(m_ai, "ns3::MoseRdmaTransport::AdditiveIncrease");
    m_scaled.hyperRate = scaleRate(m_hai, "ns3::MoseRdmaTransport::HyperIncrease");
    m_scaled.byteCounter = m_byteCounter / scale;
    if (m_scaled.byteCounter == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::ByteCounter",
                                std::to_string(m_byteCounter),
                                "at least MoseScale = " + std::to_string(scale) +
                                    " bytes (it is divided by MoseScale)");
    }
    m_scaled.rto = m_rto * static_cast<int64_t>(scale);
    NS_LOG_INFO("MoseScale " << scale << ": MinRate " << m_scaled.minRate << ", ByteCounter "
                             << m_scaled.byteCounter << " B, RetransmitTimeout "
                             << m_scaled.rto.As(Time::US));
}

void
MoseRdmaTransport::InstallNic(uint32_t ep, Ptr<Node> node, const std::string& which)
{
    Nic& nic = m_nics[ep];
    nic.node = node;
    m_nicOfNode.emplace(node->GetId(), ep);
    nic.ipv4 = node->GetObject<Ipv4>();
    if (!nic.ipv4)
    {
        throw mose::Error(which + " has no IPv4 stack; install the Internet stack first");
    }
    const uint64_t bps = ReadDevices(nic, which);
    // the devices' rates were divided by MoseScale when the topology helper installed them
    nic.rate = m_scaled.lineRate.GetBitRate() != 0 ? m_scaled.lineRate : DataRate(bps);
    if (nic.rate.GetBitRate() == 0)
    {
        mose::ThrowBadParameter("ns3::MoseRdmaTransport::LineRate",
                                "0bps",
                                "a rate above 0 for " + which +
                                    ", whose devices report none (not point-to-point)");
    }
    if (m_scaled.minRate > nic.rate)
    {
        mose::ThrowBadParameter(
            "ns3::MoseRdmaTransport::MinRate",
            std::to_string(m_minRate.GetBitRate()) + "bps" + ScaleNote(m_scaled.minRate),
            "at most the line rate " + std::to_string(nic.rate.GetBitRate()) + "bps of " + which);
    }
    MoseDcqcnConfig& cc = m_ccConfig[ep];
    cc.lineRate = static_cast<double>(nic.rate.GetBitRate());
    cc.minRate = static_cast<double>(m_scaled.minRate.GetBitRate());
    cc.g = m_g;
    cc.alphaTimer = m_alphaTimer;
    cc.rateTimer = m_rateTimer;
    cc.byteCounter = m_scaled.byteCounter;
    cc.fastRecovery = m_fastRecovery;
    cc.additiveRate = static_cast<double>(m_scaled.additiveRate.GetBitRate());
    cc.hyperRate = static_cast<double>(m_scaled.hyperRate.GetBitRate());

    nic.socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    if (nic.socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), ROCE_PORT)) != 0)
    {
        throw mose::Error(which + " cannot bind UDP port 4791 (already in use?)");
    }
    nic.socket->SetIpRecvTos(true);
    nic.socket->SetRecvCallback(MakeBoundCallback(
        +[](MoseRdmaTransport* self, uint32_t e, Ptr<Socket> s) { self->Receive(e, s); },
        this,
        ep));
}

uint8_t
MoseRdmaTransport::ControlTos() const
{
    return m_ecnControl ? ECT0 : 0;
}

std::string
MoseRdmaTransport::ScaleNote(DataRate scaled)
{
    const uint64_t scale = MoseScale::Get();
    return scale == 1 ? std::string()
                      : " (" + std::to_string(scaled.GetBitRate()) + "bps at MoseScale " +
                            std::to_string(scale) + ")";
}

uint64_t
MoseRdmaTransport::ReadDevices(Nic& nic, const std::string& which) const
{
    bool any = false;
    uint64_t bps = 0;
    bool allP2p = true;
    for (uint32_t i = 0; i < nic.ipv4->GetNInterfaces(); ++i)
    {
        Ptr<NetDevice> device = nic.ipv4->GetNetDevice(i);
        bool loopback = true;
        for (uint32_t a = 0; a < nic.ipv4->GetNAddresses(i); ++a)
        {
            const Ipv4Address address = nic.ipv4->GetAddress(i, a).GetLocal();
            if (!address.IsLocalhost() && address != Ipv4Address::GetAny())
            {
                loopback = false;
                if (!any)
                {
                    nic.address = address;
                    any = true;
                }
            }
        }
        if (loopback)
        {
            continue;
        }
        const uint32_t frame = m_payload + DATA_OVERHEAD;
        if (device->GetMtu() < frame)
        {
            mose::ThrowBadParameter("ns3::MoseRdmaTransport::PayloadSize",
                                    std::to_string(m_payload) + " (a " + std::to_string(frame) +
                                        "-byte IPv4 packet)",
                                    "at most the MTU " + std::to_string(device->GetMtu()) + " of " +
                                        which + " minus 44 bytes of IPv4, UDP, BTH and ICRC");
        }
        if (auto p2p = DynamicCast<PointToPointNetDevice>(device))
        {
            DataRateValue rate;
            p2p->GetAttribute("DataRate", rate);
            bps += rate.Get().GetBitRate();
            const uint32_t index = device->GetIfIndex();
            if (nic.ports.size() <= index)
            {
                nic.ports.resize(index + 1);
            }
            nic.ports[index].rate = rate.Get();
        }
        else
        {
            allP2p = false;
        }
    }
    if (!any)
    {
        throw mose::Error(which + " has no IPv4 address");
    }
    nic.linkOverhead = allP2p ? 2 : 0; // PPP's header on a point-to-point link
    return bps;
}

uint64_t
MoseRdmaTransport::NewRdmaTransfer(uint32_t src,
                                   uint32_t dst,
                                   uint64_t bytes,
                                   DoneCallback done,
                                   mose::TrafficClass cls,
                                   uint32_t rail)
{
    const uint64_t id = NewTransfer(src, dst, bytes, done, cls, rail, "MoseRdmaTransport");
    MoseTransfer& t = Record(id);
    t.dstAddress = m_nics[GetEndpointNumber(dst, t.dstHost)].address;
    t.port = ROCE_PORT;
    m_qpOf.push_back(0);
    return id;
}

uint32_t
MoseRdmaTransport::OpenQp(const MoseTransfer& t, bool kept)
{
    const uint32_t srcEp = GetEndpointNumber(t.src, t.srcHost);
    uint32_t qpn;
    // every rank opens the same QPs at the same times and frees the same numbers at the same
    // times (ReleaseSender()), so a number names the same QP on every rank
    if (!m_freeQps.empty() && m_freeQps.begin()->first <= Simulator::Now().GetTimeStep())
    {
        qpn = m_freeQps.begin()->second;
        m_freeQps.erase(m_freeQps.begin());
        Qp fresh(m_ccConfig[srcEp]);
        fresh.gen = m_qps[qpn].gen;
        m_qps[qpn] = std::move(fresh);
    }
    else
    {
        if (m_qps.size() > MoseRoceBthHeader::MASK24)
        {
            throw mose::Error("MoseRdmaTransport: more than 2^24 queue pairs open at once");
        }
        qpn = static_cast<uint32_t>(m_qps.size());
        m_qps.emplace_back(m_ccConfig[srcEp]);
    }
    Qp& q = m_qps[qpn];
    q.src = t.src;
    q.dst = t.dst;
    q.srcEp = srcEp;
    q.dstEp = GetEndpointNumber(t.dst, t.dstHost);
    // RoCEv2's UDP source port: per QP, in the dynamic range (ECMP entropy; a flow per QP)
    q.port = static_cast<uint16_t>(49152 + qpn % 16384);
    q.open = true;
    q.recvUntil = Time::Max();
    q.kept = kept;
    q.lastCnp = Seconds(0);
    if (IsLocalEndpoint(srcEp))
    {
        ++m_nQps; // on its sender's rank: the ranks' counts add up to the run's
    }
    return qpn;
}

void
MoseRdmaTransport::QueueMessage(uint32_t qpn, uint64_t id)
{
    Qp& q = m_qps[qpn];
    const uint64_t bytes = Record(id).bytes;
    Message m;
    m.id = id;
    m.firstPsn = q.sndEnd;
    m.endPsn = q.sndEnd + (bytes + m_payload - 1) / m_payload;
    q.sndEnd = m.endPsn; // on every rank: the receiver's rank needs the message's PSNs too
    m_qpOf[id] = qpn;
    if (IsLocalEndpoint(q.dstEp))
    {
        q.recv.items.push_back(m);
    }
    if (IsLocalEndpoint(q.srcEp))
    {
        q.send.items.push_back(m);
        Activate(qpn);
    }
}

bool
MoseRdmaTransport::IsLocalEndpoint(uint32_t ep) const
{
    return !IsDistributed() || MoseRankMessages::IsLocal(m_nics[ep].node);
}

uint64_t
MoseRdmaTransport::Start(uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         DoneCallback done,
                         mose::TrafficClass cls,
                         uint32_t rail)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << rail);
    const uint64_t id = NewRdmaTransfer(src, dst, bytes, done, cls, rail);
    const uint32_t qpn = OpenQp(Record(id), false);
    NS_LOG_INFO("transfer " << id << ": " << src << "->" << dst << " " << bytes << " B on QP "
                            << qpn);
    QueueMessage(qpn, id);
    return id;
}

uint64_t
MoseRdmaTransport::StartOnConnection(uint32_t src,
                                     uint32_t dst,
                                     uint64_t bytes,
                                     DoneCallback done,
                                     mose::TrafficClass cls,
                                     uint32_t rail)
{
    NS_LOG_FUNCTION(this << src << dst << bytes << rail);
    const uint64_t id = NewRdmaTransfer(src, dst, bytes, done, cls, rail);
    const MoseTransfer& t = Record(id);
    const std::tuple<uint32_t, uint32_t, uint32_t, uint32_t> key{src, dst, t.srcHost, t.dstHost};
    uint32_t qpn;
    const auto open = m_open.find(key);
    if (open == m_open.end())
    {
        qpn = OpenQp(t, true);
        m_open[key] = qpn;
    }
    else
    {
        qpn = open->second;
    }
    NS_LOG_INFO("transfer " << id << ": " << src << "->" << dst << " " << bytes << " B on kept QP "
                            << qpn);
    QueueMessage(qpn, id);
    return id;
}

uint32_t
MoseRdmaTransport::CloseConnections(const std::vector<uint32_t>& groups)
{
    NS_LOG_FUNCTION(this << groups.size());
    return EraseConnections(m_open, groups, [this](uint32_t qpn) {
        m_qps[qpn].closing = true;
        Acknowledged(qpn); // closes it now if nothing is unacknowledged (on the sender's rank)
    });
}

void
MoseRdmaTransport::CloseQp(uint32_t qpn)
{
    NS_LOG_LOGIC("QP " << qpn << " closed");
    const Time now = Simulator::Now();
    ReleaseSender(qpn, now);
    // the receiver keeps its side NoticeDelay longer, on one process as on several ranks,
    // where the close reaches the receiver's rank in a message that takes NoticeDelay: a late
    // duplicate in between is answered alike (its ACK is then stale here)
    if (IsLocalEndpoint(m_qps[qpn].dstEp))
    {
        ReleaseReceiver(qpn, now + m_noticeDelay);
    }
    if (!IsDistributed())
    {
        return;
    }
    // only this rank (the sender's) sees the last ACK: the others close the QP's record when
    // the message arrives, NoticeDelay later, and free its number at the same time as here
    const Time lookAhead = MoseOcsChannel::GetDistributedLookAhead();
    if (4 * m_scaled.rto <= m_noticeDelay || m_noticeDelay <= lookAhead)
    {
        NS_FATAL_ERROR("MoseRdmaTransport: RetransmitTimeout = "
                       << m_scaled.rto.As(Time::NS)
                       << " (at MoseScale), NoticeDelay = " << m_noticeDelay.As(Time::NS)
                       << " with lookahead = " << lookAhead.As(Time::NS)
                       << " on several MPI ranks; allowed: lookahead < NoticeDelay < 4 x "
                          "RetransmitTimeout (a closed QP's number must reach every rank "
                          "before it is reused)");
    }
    try
    {
        MoseRankMessages::SendToOthers(
            GetRankHandler(),
            m_noticeDelay,
            {RANK_QP_CLOSED, qpn, static_cast<uint64_t>(now.GetTimeStep())});
    }
    catch (const std::exception& e)
    {
        // no exception may escape Simulator::Run() (this runs in a packet's callback)
        CountError();
        NS_LOG_ERROR("QP " << qpn << ": the close to the other ranks: " << e.what());
    }
}

void
MoseRdmaTransport::ReleaseSender(uint32_t qpn, Time closed)
{
    Qp& q = m_qps[qpn];
    q.open = false;
    ++q.gen;
    q.send = MessageQueue();
    // a late packet of this QP (a duplicate still on the wire) must not reach its successor
    m_freeQps.emplace((closed + 4 * m_scaled.rto).GetTimeStep(), qpn);
}

void
MoseRdmaTransport::ReleaseReceiver(uint32_t qpn, Time until)
{
    Qp& q = m_qps[qpn];
    q.recvUntil = std::min(q.recvUntil, until);
    q.recv = MessageQueue();
    q.ooo = std::vector<bool>();
}

bool
MoseRdmaTransport::IsReceiving(const Qp& q)
{
    return Simulator::Now() < q.recvUntil;
}

void
MoseRdmaTransport::ReceiveRankMessage(uint64_t kind, uint64_t a, uint64_t b)
{
    NS_LOG_FUNCTION(this << kind << a << b);
    if (kind == RANK_LAST_BYTE && a < GetNTransfers())
    {
        Record(a).sent = Record(a).bytes; // as on the receiver's rank (LastByte())
        AddNotice(a, TimeStep(static_cast<int64_t>(b)));
        return;
    }
    if (kind == RANK_QP_CLOSED && a < m_qps.size() && m_qps[a].open)
    {
        // NoticeDelay after the close, as on one process: the receiver's rank drops the QP's
        // late packets as stale from now, and every rank frees its number when its sender's did
        const auto qpn = static_cast<uint32_t>(a);
        ReleaseSender(qpn, TimeStep(static_cast<int64_t>(b)));
        ReleaseReceiver(qpn, Simulator::Now());
        return;
    }
    CountError();
    NS_LOG_ERROR("a message from another rank of kind " << kind << " (" << a << ", " << b
                                                        << ") this transport does not know");
}

bool
MoseRdmaTransport::HasToSend(const Qp& q) const
{
    // sndNxt may be behind sndUna: a timeout rewound go-back-N, then an ACK for packets sent
    // before it arrived. The QP resends from sndNxt, as without a cap; sndNxt - sndUna would
    // wrap and hold it forever
    return q.open &&
           (q.rtxPending || (q.sndNxt < q.sndEnd && (m_maxInFlight == 0 || q.sndNxt < q.sndUna ||
                                                     q.sndNxt - q.sndUna < m_maxInFlight)));
}

void
MoseRdmaTransport::Activate(uint32_t qpn)
{
    Qp& q = m_qps[qpn];
    if (q.inReady || q.waking || !HasToSend(q))
    {
        return;
    }
    const Time now = Simulator::Now();
    if (q.nextAvail > now)
    {
        q.waking = true;
        Simulator::Schedule(q.nextAvail - now, &MoseRdmaTransport::Wake, this, qpn, q.gen);
        return;
    }
    q.inReady = true;
    m_nics[q.srcEp].ready.push_back(qpn);
    KickNic(q.srcEp);
}

void
MoseRdmaTransport::Wake(uint32_t qpn, uint32_t gen)
{
    if (qpn >= m_qps.size() || m_qps[qpn].gen != gen)
    {
        return;
    }
    m_qps[qpn].waking = false;
    Activate(qpn);
}

void
MoseRdmaTransport::KickNic(uint32_t ep)
{
    Nic& nic = m_nics[ep];
    if (nic.scheduled)
    {
        return;
    }
    nic.scheduled = true;
    const Time now = Simulator::Now();
    Simulator::Schedule(std::max(nic.freeAt - now, Time(0)), &MoseRdmaTransport::NicSend, this, ep);
}

void
MoseRdmaTransport::NicSend(uint32_t ep)
{
    if (ep >= m_nics.size())
    {
        return; // disposed
    }
    Nic& nic = m_nics[ep];
    nic.scheduled = false;
    if (nic.paused)
    {
        return; // PFC: SetPortPaused() kicks it on resume
    }
    const Time now = Simulator::Now();
    while (!nic.ready.empty())
    {
        const uint32_t qpn = nic.ready.front();
        nic.ready.pop_front();
        Qp& q = m_qps[qpn];
        q.inReady = false;
        if (!HasToSend(q))
        {
            continue; // acknowledged or closed while it waited
        }
        if (q.nextAvail > now)
        {
            Activate(qpn); // its rate was cut while it waited
            continue;
        }
        if (WaitsForPort(ep, nic, qpn, q, now))
        {
            continue;
        }
        SendData(qpn, nic);
        break;
    }
    if (!nic.ready.empty())
    {
        KickNic(ep);
    }
}

bool
MoseRdmaTransport::WaitsForPort(uint32_t ep, Nic& nic, uint32_t qpn, Qp& q, Time now)
{
    if (q.lastPort >= nic.ports.size())
    {
        return false;
    }
    Port& port = nic.ports[q.lastPort];
    if (port.paused)
    {
        q.inReady = true; // in the port's FIFO until SetPortPaused() resumes it
        port.blocked.push_back(qpn);
        return true;
    }
    if (!m_pacePorts || port.freeAt <= now)
    {
        return false;
    }
    q.inReady = true; // in the port's FIFO
    port.blocked.push_back(qpn);
    if (!port.wakeScheduled)
    {
        port.wakeScheduled = true;
        Simulator::Schedule(port.freeAt - now, &MoseRdmaTransport::PortFree, this, ep, q.lastPort);
    }
    return true;
}

void
MoseRdmaTransport::PortFree(uint32_t ep, uint32_t port)
{
    if (ep >= m_nics.size())
    {
        return; // disposed
    }
    Nic& nic = m_nics[ep];
    Port& p = nic.ports[port];
    p.wakeScheduled = false;
    while (!p.blocked.empty())
    {
        nic.ready.push_back(p.blocked.front());
        p.blocked.pop_front();
    }
    KickNic(ep);
}

void
MoseRdmaTransport::SetPortPaused(Ptr<Node> node, Ptr<NetDevice> device, bool paused)
{
    NS_LOG_FUNCTION(this << node << device << paused);
    const auto it = node ? m_nicOfNode.find(node->GetId()) : m_nicOfNode.end();
    if (it == m_nicOfNode.end())
    {
        return;
    }
    const uint32_t ep = it->second;
    Nic& nic = m_nics[ep];
    if (!device)
    {
        nic.paused = paused;
    }
    else if (device->GetIfIndex() < nic.ports.size())
    {
        Port& p = nic.ports[device->GetIfIndex()];
        p.paused = paused;
        if (!paused)
        {
            // back in the FIFO; a port still busy holds them again (WaitsForPort)
            while (!p.blocked.empty())
            {
                nic.ready.push_back(p.blocked.front());
                p.blocked.pop_front();
            }
        }
    }
    m_portPauses += paused ? 1 : 0;
    if (!paused && !nic.ready.empty())
    {
        KickNic(ep);
    }
}

uint64_t
MoseRdmaTransport::GetNPortPauses() const
{
    return m_portPauses;
}

uint32_t
MoseRdmaTransport::PayloadOf(const Message& m, uint64_t psn) const
{
    const uint64_t bytes = Record(m.id).bytes;
    const uint64_t offset = (psn - m.firstPsn) * m_payload;
    return static_cast<uint32_t>(std::min<uint64_t>(m_payload, bytes - offset));
}

void
MoseRdmaTransport::SendData(uint32_t qpn, Nic& nic)
{
    Qp& q = m_qps[qpn];
    const Time now = Simulator::Now();
    uint64_t psn;
    if (q.rtxPending)
    {
        psn = q.rtxPsn;
        q.rtxPending = false;
    }
    else
    {
        psn = q.sndNxt++;
    }
    // the message holding psn: at or after the cursor for new data, from the head for a resend
    std::size_t i = psn >= q.send.items[q.cursor].firstPsn ? q.cursor : q.send.head;
    while (psn >= q.send.items[i].endPsn)
    {
        ++i;
    }
    if (psn + 1 == q.sndNxt)
    {
        q.cursor = i;
    }
    const Message& m = q.send.items[i];
    const uint32_t payload = PayloadOf(m, psn);
    const bool first = psn == m.firstPsn;
    const bool last = psn + 1 == m.endPsn;

    MoseRoceBthHeader bth;
    bth.SetOpcode(first && last ? MoseRoceBthHeader::SEND_ONLY
                  : first       ? MoseRoceBthHeader::SEND_FIRST
                  : last        ? MoseRoceBthHeader::SEND_LAST
                                : MoseRoceBthHeader::SEND_MIDDLE);
    bth.SetPartitionKey(m_pkey);
    bth.SetDestQp(qpn);
    bth.SetPsn(static_cast<uint32_t>(psn));
    bth.SetAckRequest(last || (psn + 1) % m_ackInterval == 0);
    Ptr<Packet> packet = Create<Packet>(payload + ICRC); // the ICRC as 4 trailing zero bytes
    packet->AddHeader(bth);

    const uint32_t wire = payload + DATA_OVERHEAD + nic.linkOverhead;
    nic.freeAt = now + nic.rate.CalculateBytesTxTime(wire);
    ++m_dataPackets;
    if (psn < q.sndMax)
    {
        ++m_retransmissions;
        m_retransmitTrace(qpn, psn);
    }
    q.sndMax = std::max(q.sndMax, psn + 1);
    if (m_dcqcn)
    {
        q.cc.BytesSent(wire, now);
        const double rate = q.cc.GetRate();
        if (rate < m_ccConfig[q.srcEp].lineRate)
        {
            q.nextAvail = now + Seconds(wire * 8.0 / rate);
        }
    }
    ArmTimer(qpn);
    const uint32_t out = SendPacket(nic, packet, m_nics[q.dstEp].address, q.port, ECT0, qpn);
    if (out < nic.ports.size() && nic.ports[out].rate.GetBitRate() > 0)
    {
        Port& port = nic.ports[out];
        port.freeAt = std::max(port.freeAt, now) + port.rate.CalculateBytesTxTime(wire);
        q.lastPort = out;
    }
    if (HasToSend(q))
    {
        if (q.nextAvail <= nic.freeAt)
        {
            q.inReady = true;
            nic.ready.push_back(qpn);
        }
        else
        {
            Activate(qpn); // an event puts it back when its rate lets it
        }
    }
}

uint32_t
MoseRdmaTransport::SendPacket(Nic& nic,
                              Ptr<Packet> packet,
                              Ipv4Address dst,
                              uint16_t srcPort,
                              uint8_t tos,
                              uint32_t qpn)
{
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(ROCE_PORT);
    if (Node::ChecksumEnabled())
    {
        udp.EnableChecksums();
        udp.InitializeChecksum(nic.address, dst, UDP_PROTOCOL);
    }
    packet->AddHeader(udp);
    SocketIpTosTag tosTag;
    tosTag.SetTos(tos);
    packet->AddPacketTag(tosTag);
    // the route as UdpSocketImpl finds it: the node's routing protocol, once per packet
    Ipv4Header header;
    header.SetSource(nic.address);
    header.SetDestination(dst);
    header.SetProtocol(UDP_PROTOCOL);
    Socket::SocketErrno error = Socket::ERROR_NOTERROR;
    Ptr<Ipv4RoutingProtocol> routing = nic.ipv4->GetRoutingProtocol();
    Ptr<Ipv4Route> route =
        routing ? routing->RouteOutput(packet, header, nullptr, error) : Ptr<Ipv4Route>();
    if (!route)
    {
        Drop(qpn, 0, NO_ROUTE);
        return NO_PORT;
    }
    nic.ipv4->Send(packet, nic.address, dst, UDP_PROTOCOL, route);
    return route->GetOutputDevice() ? route->GetOutputDevice()->GetIfIndex() : NO_PORT;
}

void
MoseRdmaTransport::ArmTimer(uint32_t qpn)
{
    Qp& q = m_qps[qpn];
    if (q.rtoArmed)
    {
        return;
    }
    q.rtoArmed = true;
    q.lastProgress = Simulator::Now();
    Simulator::Schedule(m_scaled.rto, &MoseRdmaTransport::Timeout, this, qpn, q.gen);
}

void
MoseRdmaTransport::Timeout(uint32_t qpn, uint32_t gen)
{
    if (qpn >= m_qps.size() || m_qps[qpn].gen != gen)
    {
        return;
    }
    Qp& q = m_qps[qpn];
    q.rtoArmed = false;
    if (q.sndUna >= q.sndMax)
    {
        return; // nothing outstanding: the next packet sent arms it again
    }
    const Time now = Simulator::Now();
    if (now - q.lastProgress < m_scaled.rto)
    {
        // progress since it was armed: wait from the last progress (one event, not one per ACK)
        q.rtoArmed = true;
        Simulator::Schedule(q.lastProgress + m_scaled.rto - now,
                            &MoseRdmaTransport::Timeout,
                            this,
                            qpn,
                            gen);
        return;
    }
    ++m_timeouts;
    m_timeoutTrace(qpn, q.sndUna);
    NS_LOG_LOGIC("QP " << qpn << " timeout at PSN " << q.sndUna);
    if (m_retxMode == GO_BACK_N)
    {
        q.sndNxt = q.sndUna;
        q.rtxPending = false;
    }
    else
    {
        q.rtxPsn = q.sndUna;
        q.rtxPending = true;
    }
    ArmTimer(qpn);
    Activate(qpn);
}

void
MoseRdmaTransport::Drop(uint32_t qpn, uint32_t psn, DropReason reason)
{
    ++m_drops[reason];
    m_dropTrace(qpn, psn, static_cast<uint8_t>(reason));
}

uint64_t
MoseRdmaTransport::Unwrap(uint32_t psn, uint64_t reference)
{
    const uint64_t span = uint64_t{MoseRoceBthHeader::MASK24} + 1;
    const uint64_t diff = (psn - reference) & MoseRoceBthHeader::MASK24;
    if (diff < span / 2 || reference + diff < span)
    {
        return reference + diff;
    }
    return reference + diff - span; // behind the reference
}

void
MoseRdmaTransport::Receive(uint32_t ep, Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        uint8_t tos = 0;
        SocketIpTosTag tosTag;
        if (packet->RemovePacketTag(tosTag))
        {
            tos = tosTag.GetTos();
        }
        MoseRoceBthHeader bth;
        if (packet->GetSize() < MoseRoceBthHeader::SIZE + ICRC)
        {
            Drop(0, 0, MALFORMED);
            continue;
        }
        packet->RemoveHeader(bth);
        const uint32_t qpn = bth.GetDestQp();
        const uint8_t op = bth.GetOpcode();
        if (qpn >= m_qps.size() || (!m_qps[qpn].open && !IsReceiving(m_qps[qpn])))
        {
            Drop(qpn, bth.GetPsn(), STALE);
            continue;
        }
        Qp& q = m_qps[qpn];
        try
        {
            if (op <= MoseRoceBthHeader::SEND_ONLY && op != 0x03)
            {
                if (q.dstEp != ep || !IsReceiving(q))
                {
                    Drop(qpn, bth.GetPsn(), STALE);
                    continue;
                }
                ReceiveData(qpn,
                            Unwrap(bth.GetPsn(), q.ePsn),
                            packet->GetSize() - ICRC,
                            (tos & ECN_MASK) == CE);
            }
            else if (op == MoseRoceBthHeader::ACKNOWLEDGE)
            {
                MoseRoceAethHeader aeth;
                if (q.srcEp != ep || !q.open || packet->GetSize() < MoseRoceAethHeader::SIZE)
                {
                    Drop(qpn, bth.GetPsn(), q.srcEp != ep || !q.open ? STALE : MALFORMED);
                    continue;
                }
                packet->RemoveHeader(aeth);
                ReceiveAck(qpn, Unwrap(bth.GetPsn(), q.sndUna), aeth.IsNak());
            }
            else if (op == MoseRoceBthHeader::CNP)
            {
                if (q.srcEp != ep || !q.open)
                {
                    Drop(qpn, 0, STALE);
                    continue;
                }
                ++m_cnpsReceived;
                m_cnpReceivedTrace(qpn);
                if (m_dcqcn)
                {
                    const Time now = Simulator::Now();
                    q.cc.Advance(now);
                    const double old = q.cc.GetRate();
                    q.cc.ReceiveCnp(now);
                    m_rateTrace(qpn, old, q.cc.GetRate());
                }
            }
            else
            {
                Drop(qpn, bth.GetPsn(), MALFORMED);
            }
        }
        catch (const std::exception& e)
        {
            // no exception may escape Simulator::Run(): count it, the caller checks
            CountError();
            NS_LOG_ERROR("QP " << qpn << ": " << e.what());
        }
    }
}

void
MoseRdmaTransport::ReceiveData(uint32_t qpn, uint64_t psn, uint32_t payload, bool ce)
{
    Qp& q = m_qps[qpn];
    const Time now = Simulator::Now();
    if (ce)
    {
        ++m_ceMarked;
        if (m_dcqcn && (!q.cnpSent || now - q.lastCnp >= m_cnpInterval))
        {
            q.cnpSent = true;
            q.lastCnp = now;
            SendCnp(qpn);
        }
    }
    if (psn < q.ePsn)
    {
        Drop(qpn, static_cast<uint32_t>(psn & MoseRoceBthHeader::MASK24), DUPLICATE);
        SendAck(qpn, false); // the sender may have missed the ACK
        return;
    }
    if (q.recv.Empty())
    {
        Drop(qpn, static_cast<uint32_t>(psn & MoseRoceBthHeader::MASK24), STALE);
        return;
    }
    if (psn > q.ePsn)
    {
        if (m_retxMode == SELECTIVE_REPEAT)
        {
            const uint64_t bit = psn - q.ePsn - 1;
            if (q.ooo.size() <= bit)
            {
                q.ooo.resize(bit + 1, false);
            }
            if (q.ooo[bit])
            {
                Drop(qpn, static_cast<uint32_t>(psn & MoseRoceBthHeader::MASK24), DUPLICATE);
            }
            q.ooo[bit] = true;
        }
        else
        {
            Drop(qpn, static_cast<uint32_t>(psn & MoseRoceBthHeader::MASK24), OUT_OF_ORDER);
        }
        if (!q.nackSent)
        {
            q.nackSent = true;
            SendAck(qpn, true);
        }
        return;
    }
    // in order
    const Message& m = q.recv.items[q.recv.head];
    if (PayloadOf(m, psn) != payload)
    {
        CountError();
        NS_LOG_ERROR("QP " << qpn << " PSN " << psn << ": " << payload << " bytes, expected "
                           << PayloadOf(m, psn));
    }
    bool ack = (psn + 1) % m_ackInterval == 0 || psn + 1 == m.endPsn;
    Deliver(q, psn); // q stays valid: m_qps is a deque, and a closed QP keeps its slot
    // selective repeat: bit i of ooo is PSN ePsn + 1 + i; each PSN delivered shifts it by one
    bool gap = false;
    while (!q.ooo.empty() && IsReceiving(q))
    {
        ack = true;
        const bool next = q.ooo.front();
        q.ooo.erase(q.ooo.begin());
        if (!next)
        {
            gap = true; // ePsn is missing and later PSNs arrived
            break;
        }
        Deliver(q, q.ePsn);
    }
    if (!IsReceiving(q))
    {
        return; // a completion callback closed it (NoticeDelay 0)
    }
    if (gap)
    {
        q.nackSent = true;
        SendAck(qpn, true); // asks for the next missing PSN at once
        return;
    }
    if (ack)
    {
        SendAck(qpn, false);
    }
}

void
MoseRdmaTransport::Deliver(Qp& q, uint64_t psn)
{
    const Message m = q.recv.items[q.recv.head];
    const uint32_t payload = PayloadOf(m, psn);
    q.ePsn = psn + 1;
    q.nackSent = false;
    MoseTransfer& t = Record(m.id);
    t.received += payload;
    CountReceived(t, payload);
    if (q.ePsn == m.endPsn)
    {
        ++q.msn;
        q.recv.Pop(); // before the callback, which may queue the next message
        LastByte(m.id);
    }
}

void
MoseRdmaTransport::SendAck(uint32_t qpn, bool nak)
{
    Qp& q = m_qps[qpn];
    MoseRoceBthHeader bth;
    bth.SetOpcode(MoseRoceBthHeader::ACKNOWLEDGE);
    bth.SetPartitionKey(m_pkey);
    bth.SetDestQp(qpn);
    bth.SetPsn(static_cast<uint32_t>(nak ? q.ePsn : q.ePsn - 1));
    MoseRoceAethHeader aeth;
    aeth.SetSyndrome(nak ? MoseRoceAethHeader::NAK_SEQUENCE : MoseRoceAethHeader::ACK);
    aeth.SetMsn(q.msn);
    Ptr<Packet> packet = Create<Packet>(ICRC);
    packet->AddHeader(aeth);
    packet->AddHeader(bth);
    if (nak)
    {
        ++m_nacks;
        m_nackTrace(qpn, q.ePsn);
    }
    else
    {
        ++m_acks;
    }
    SendPacket(m_nics[q.dstEp], packet, m_nics[q.srcEp].address, q.port, ControlTos(), qpn);
}

void
MoseRdmaTransport::SendCnp(uint32_t qpn)
{
    Qp& q = m_qps[qpn];
    MoseRoceBthHeader bth;
    bth.SetOpcode(MoseRoceBthHeader::CNP);
    bth.SetPartitionKey(m_pkey);
    bth.SetDestQp(qpn);
    Ptr<Packet> packet = Create<Packet>(CNP_RESERVED + ICRC);
    packet->AddHeader(bth);
    ++m_cnps;
    m_cnpTrace(qpn);
    SendPacket(m_nics[q.dstEp], packet, m_nics[q.srcEp].address, q.port, ControlTos(), qpn);
}

void
MoseRdmaTransport::ReceiveAck(uint32_t qpn, uint64_t psn, bool nak)
{
    Qp& q = m_qps[qpn];
    const uint64_t una = nak ? psn : psn + 1; // everything before it arrived
    if (una > q.sndMax)
    {
        CountError();
        NS_LOG_ERROR("QP " << qpn << ": acknowledges PSN " << una << " beyond " << q.sndMax);
        return;
    }
    if (una < q.sndUna)
    {
        return; // an older acknowledgement, overtaken
    }
    if (una > q.sndUna)
    {
        q.sndUna = una;
        q.lastProgress = Simulator::Now();
    }
    if (nak && una < q.sndEnd)
    {
        if (m_retxMode == GO_BACK_N)
        {
            if (q.sndNxt > una)
            {
                q.sndNxt = una; // rewind: the packets are built again when sent
                q.cursor = q.send.head;
            }
        }
        else
        {
            q.rtxPsn = una;
            q.rtxPending = true;
        }
    }
    Acknowledged(qpn);
    if (m_qps[qpn].open)
    {
        Activate(qpn);
    }
}

void
MoseRdmaTransport::Acknowledged(uint32_t qpn)
{
    Qp& q = m_qps[qpn];
    if (!IsLocalEndpoint(q.srcEp))
    {
        return; // the sender's rank closes it, and tells the others (CloseQp())
    }
    while (!q.send.Empty() && q.send.items[q.send.head].endPsn <= q.sndUna)
    {
        q.send.Pop();
        if (q.send.Empty())
        {
            q.cursor = 0;
        }
        else if (q.cursor < q.send.head)
        {
            q.cursor = q.send.head;
        }
    }
    if (q.sndUna == q.sndEnd && (!q.kept || q.closing))
    {
        CloseQp(qpn);
    }
}

void
MoseRdmaTransport::LastByte(uint64_t id)
{
    Record(id).sent = Record(id).bytes; // the receiver has it all: nothing is left to send
    NoticeLastByte(id, RANK_LAST_BYTE, "MoseRdmaTransport");
}

uint64_t
MoseRdmaTransport::GetNConnections() const
{
    return m_nQps;
}

uint64_t
MoseRdmaTransport::GetNQueuePairRecords() const
{
    return m_qps.size();
}

uint64_t
MoseRdmaTransport::GetNDataPackets() const
{
    return m_dataPackets;
}

uint64_t
MoseRdmaTransport::GetNRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
MoseRdmaTransport::GetNAcks() const
{
    return m_acks;
}

uint64_t
MoseRdmaTransport::GetNNacks() const
{
    return m_nacks;
}

uint64_t
MoseRdmaTransport::GetNCnps() const
{
    return m_cnps;
}

uint64_t
MoseRdmaTransport::GetNCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
MoseRdmaTransport::GetNCeMarked() const
{
    return m_ceMarked;
}

uint64_t
MoseRdmaTransport::GetNTimeouts() const
{
    return m_timeouts;
}

uint64_t
MoseRdmaTransport::GetNDrops() const
{
    uint64_t n = 0;
    for (uint64_t d : m_drops)
    {
        n += d;
    }
    return n;
}

uint64_t
MoseRdmaTransport::GetNDrops(DropReason reason) const
{
    if (reason >= N_DROP_REASONS)
    {
        mose::ThrowBadParameter("drop reason",
                                std::to_string(static_cast<int>(reason)),
                                "0 (OUT_OF_ORDER) to 4 (NO_ROUTE)");
    }
    return m_drops[reason];
}

uint32_t
MoseRdmaTransport::GetQpOf(uint64_t id) const
{
    GetTransfer(id); // checks the id
    return m_qpOf[id];
}

double
MoseRdmaTransport::GetQpRate(uint32_t qpn)
{
    if (qpn >= m_qps.size())
    {
        mose::ThrowBadParameter("QP number",
                                std::to_string(qpn),
                                "below " + std::to_string(m_qps.size()));
    }
    m_qps[qpn].cc.Advance(Simulator::Now());
    return m_qps[qpn].cc.GetRate();
}

const MoseDcqcn&
MoseRdmaTransport::GetDcqcn(uint32_t qpn) const
{
    if (qpn >= m_qps.size())
    {
        mose::ThrowBadParameter("QP number",
                                std::to_string(qpn),
                                "below " + std::to_string(m_qps.size()));
    }
    return m_qps[qpn].cc;
}

DataRate
MoseRdmaTransport::GetNicRate(uint32_t endpoint) const
{
    if (endpoint >= m_nics.size())
    {
        mose::ThrowBadParameter("endpoint",
                                std::to_string(endpoint),
                                "below " + std::to_string(m_nics.size()));
    }
    return m_nics[endpoint].rate;
}

} // namespace ns3
