/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-scale.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseFluidFabricHelper");

namespace
{

/// \param name a TcpSocket attribute \return its default now (Config::SetDefault's)
uint64_t
TcpSocketDefault(const std::string& name)
{
    return mose::ParseUnsigned64(
        "ns3::TcpSocket::" + name,
        mose::GetAttributeDefaultText(TypeId::LookupByName("ns3::TcpSocket"), name));
}

/**
 * \brief TCP's start as the transport's sockets run it (FluidFabricConfig::tcp): the first
 *        window of TcpSocket InitialCwnd segments, the window's bound (BufferSize, or the
 *        smaller of TcpSocket's buffers when it is 0), slow start's growth per round trip
 *        (TcpVariant: TcpCubic counts bytes, TcpNewReno adds a segment per ACK).
 * \param transport a MoseSocketTransfers
 * \param fab the fabric, its segmentBytes read
 */
void
ReadTcpStart(const MoseTransport& transport, mose::FluidFabricConfig& fab)
{
    mose::FluidFabricConfig::TcpStart& tcp = fab.tcp;
    tcp.enabled = true;
    tcp.initialWindowBytes =
        static_cast<double>(TcpSocketDefault("InitialCwnd") * fab.segmentBytes);
    UintegerValue buffer;
    transport.GetAttribute("BufferSize", buffer);
    tcp.maxWindowBytes =
        static_cast<double>(buffer.Get() > 0 ? buffer.Get()
                                             : std::min(TcpSocketDefault("SndBufSize"),
                                                        TcpSocketDefault("RcvBufSize")));
    TypeIdValue variant;
    transport.GetAttribute("TcpVariant", variant);
    if (variant.Get() == TypeId::LookupByName("ns3::TcpCubic"))
    {
        tcp.growth = 2; // TcpCubic::IncreaseWindow: slow start counts the bytes acknowledged
        const TypeId cubic = variant.Get();
        if (mose::GetAttributeDefaultText(cubic, "HyStart") == "true")
        {
            tcp.slowStartEndBytes = static_cast<double>(
                mose::ParseUnsigned64("ns3::TcpCubic::HyStartLowWindow",
                                      mose::GetAttributeDefaultText(cubic, "HyStartLowWindow")) *
                fab.segmentBytes);
        }
        tcp.avoidanceGrowth =
            1 + 1.0 / static_cast<double>(std::max<uint64_t>(
                          1,
                          mose::ParseUnsigned64("ns3::TcpCubic::CntClamp",
                                                mose::GetAttributeDefaultText(cubic, "CntClamp"))));
    }
    else if (variant.Get() == TypeId::LookupByName("ns3::TcpNewReno"))
    {
        // TcpNewReno::SlowStart: one segment per ACK, an ACK per DelAckCount segments
        tcp.growth =
            1 + 1.0 / static_cast<double>(std::max<uint64_t>(1, TcpSocketDefault("DelAckCount")));
    }
    else
    {
        MoseFluidFabricHelper::CheckTcpVariant("--ns3::MoseSocketTransfers::TcpVariant",
                                               variant.Get().GetName());
    }
}

} // namespace

const std::vector<std::string>&
MoseFluidFabricHelper::GetTcpStartAttributes()
{
    // what ReadTcpStart() reads with TcpSocketDefault() and of TcpCubic
    static const std::vector<std::string> attributes{"ns3::TcpSocket::InitialCwnd",
                                                     "ns3::TcpSocket::SndBufSize",
                                                     "ns3::TcpSocket::RcvBufSize",
                                                     "ns3::TcpSocket::DelAckCount",
                                                     "ns3::TcpCubic::HyStart",
                                                     "ns3::TcpCubic::HyStartLowWindow",
                                                     "ns3::TcpCubic::CntClamp"};
    return attributes;
}

void
MoseFluidFabricHelper::CheckTcpVariant(const std::string& option, const std::string& variant)
{
    if (variant != "ns3::TcpCubic" && variant != "ns3::TcpNewReno")
    {
        mose::ThrowBadParameter(option,
                                mose::QuoteText(variant),
                                "ns3::TcpCubic or ns3::TcpNewReno at the fluid levels, whose TCP "
                                "start follows their slow start (--level=packet runs any "
                                "variant)");
    }
}

mose::FluidFabricConfig
MoseFluidFabricHelper::Read(const MoseTopologyHelper& topology,
                            const MoseModeSwitcherHelper& switcher,
                            Ptr<const MoseTransport> transport)
{
    NS_LOG_FUNCTION_NOARGS();
    if (!transport)
    {
        throw mose::Error("MoseFluidFabricHelper::Read: no transport (a MoseSocketTransfers or "
                          "MoseRdmaTransport, installed or not)");
    }
    mose::FluidFabricConfig fab;
    UintegerValue ports;
    topology.GetAttribute("PortsPerGroup", ports);
    fab.ports = static_cast<uint32_t>(ports.Get());
    topology.GetRouting(fab.rule, fab.routingSeed);

    // the rates as MoseTopologyHelper::Install() sets them: divided by MoseScale
    DataRateValue ocsRate;
    topology.GetOcsAttribute("DataRate", ocsRate);
    fab.circuitBitRate = static_cast<double>(
        MoseScale::ScaleRate(ocsRate.Get(), "ns3::MoseOcs::DataRate").GetBitRate());
    DataRateValue hostRate;
    topology.GetAttribute("HostDataRate", hostRate);
    fab.hostBitRate = static_cast<double>(
        MoseScale::ScaleRate(hostRate.Get(), "ns3::MoseTopologyHelper::HostDataRate").GetBitRate());
    UintegerValue hosts;
    topology.GetAttribute("HostsPerGroup", hosts);
    fab.hostLinks = hosts.Get() > 0;
    fab.hostsPerGroup = std::max<uint32_t>(static_cast<uint32_t>(hosts.Get()), 1);
    TimeValue ocsDelay;
    topology.GetOcsAttribute("Delay", ocsDelay);
    fab.circuitDelayNs = ocsDelay.Get().GetNanoSeconds();
    TimeValue hostDelay;
    topology.GetAttribute("HostDelay", hostDelay);
    fab.hostDelayNs = hostDelay.Get().GetNanoSeconds();

    if (DynamicCast<const MoseRdmaTransport>(transport))
    {
        // RoCEv2: a data packet is PayloadSize + IPv4, UDP, BTH and ICRC, in a PPP frame
        UintegerValue payload;
        transport->GetAttribute("PayloadSize", payload);
        fab.segmentBytes = static_cast<uint32_t>(payload.Get());
        fab.wireBytesPerSegment = fab.segmentBytes + MoseRdmaTransport::DATA_OVERHEAD + 2;
    }
    else if (DynamicCast<const MoseSocketTransfers>(transport))
    {
        UintegerValue segment;
        transport->GetAttribute("SegmentSize", segment);
        // MoseSocketTransfers leaves TcpSocket's SegmentSize (by default 536) in place when it
        // is 0
        fab.segmentBytes = static_cast<uint32_t>(
            segment.Get() > 0 ? segment.Get()
                              : mose::ParseUnsigned64("ns3::TcpSocket::SegmentSize",
                                                      mose::GetAttributeDefaultText(
                                                          TypeId::LookupByName("ns3::TcpSocket"),
                                                          "SegmentSize")));
        fab.wireBytesPerSegment = fab.segmentBytes + 54; // IPv4, TCP + timestamps, PPP
        ReadTcpStart(*transport, fab);
    }
    else
    {
        throw mose::Error("MoseFluidFabricHelper::Read: the transport " +
                          transport->GetInstanceTypeId().GetName() +
                          " has no packet size the fluid level knows: give a "
                          "ns3::MoseSocketTransfers (tcp) or ns3::MoseRdmaTransport (rdma)");
    }
    TimeValue notice;
    transport->GetAttribute("NoticeDelay", notice);
    fab.noticeDelayNs = notice.Get().GetNanoSeconds();

    UintegerValue phases;
    switcher.GetSwitcherAttribute("Phases", phases);
    fab.phases = static_cast<uint32_t>(phases.Get());
    BooleanValue drain;
    switcher.GetSwitcherAttribute("Drain", drain);
    fab.drain = drain.Get();
    BooleanValue fixedDrain;
    switcher.GetSwitcherAttribute("FixedDrain", fixedDrain);
    fab.fixedDrain = fixedDrain.Get();
    TimeValue drainTimeout;
    switcher.GetSwitcherAttribute("DrainTimeout", drainTimeout);
    fab.drainTimeoutNs = drainTimeout.Get().GetNanoSeconds();
    TimeValue dark;
    switcher.GetSwitcherAttribute("ReconfigurationDelay", dark);
    fab.darkNs = dark.Get().GetNanoSeconds();
    fab.Validate();
    return fab;
}

} // namespace ns3
