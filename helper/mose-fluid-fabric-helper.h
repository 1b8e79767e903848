/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_FABRIC_HELPER_H
#define MOSE_FLUID_FABRIC_HELPER_H

#include "mose-mode-switcher-helper.h"
#include "mose-topology-helper.h"

#include "ns3/mose-fluid-fabric.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose
 * \brief MoseFluidFabricHelper: the fluid and aggregate levels' fabric read from the helpers
 *        that build the packet level.
 */

namespace ns3
{

/**
 * \ingroup mose
 * \brief Reads the fabric of the fluid and aggregate levels (mose::FluidFabricConfig) from the
 *        objects that build the packet level, so that one setting feeds every level.
 *
 * Each field comes from where the packet level takes it:
 *
 * | field | source |
 * |---|---|
 * | ports | MoseTopologyHelper PortsPerGroup |
 * | rule, routingSeed | MoseTopologyHelper::GetRouting() |
 * | circuitBitRate | MoseOcs DataRate (GetOcsAttribute()), divided by MoseScale |
 * | hostBitRate | MoseTopologyHelper HostDataRate, divided by MoseScale |
 * | hostLinks, hostsPerGroup | MoseTopologyHelper HostsPerGroup (0: the group node sends) |
 * | circuitDelayNs, hostDelayNs | MoseOcs Delay, MoseTopologyHelper HostDelay |
 * | segmentBytes | MoseSocketTransfers SegmentSize (0: TcpSocket's 536); MoseRdmaTransport
 * PayloadSize | | wireBytesPerSegment | TCP: segmentBytes + 54 (IPv4 20, TCP with timestamps 32,
 * PPP 2); RDMA: segmentBytes + 46 (IPv4 20, UDP 8, BTH 12, ICRC 4, PPP 2) | | noticeDelayNs | the
 * transport's NoticeDelay | | phases, drain, fixedDrain, drainTimeoutNs, darkNs | MoseModeSwitcher
 * Phases, Drain, FixedDrain, DrainTimeout, ReconfigurationDelay |
 *
 * | tcp (TCP's start, MoseSocketTransfers only) | initialWindowBytes: TcpSocket InitialCwnd x
 * segmentBytes; maxWindowBytes: MoseSocketTransfers BufferSize (0: the smaller of TcpSocket's
 * SndBufSize and RcvBufSize); growth: 2 for TcpVariant ns3::TcpCubic, 1 + 1 / TcpSocket
 * DelAckCount for ns3::TcpNewReno (another variant is a mose::Error) |
 *
 * rateEpochNs has no packet-level counterpart and keeps its default (0: exact). Nothing is
 * installed: the helpers may be used afterwards to build the packet level of the same run.
 */
class MoseFluidFabricHelper
{
  public:
    /**
     * \brief The fabric the packet level would build.
     * \param topology the topology helper, configured, installed or not
     * \param switcher the mode switcher helper
     * \param transport the transport the workloads would use, installed or not: a
     *        MoseSocketTransfers or a MoseRdmaTransport (another MoseTransport is a mose::Error,
     *        its packet size being unknown)
     * \return the fluid fabric
     * \throws mose::Error for a rate that MoseScale divides to 0, a routing conflict, or a
     *         fabric FluidFabricConfig::Validate() refuses
     */
    static mose::FluidFabricConfig Read(const MoseTopologyHelper& topology,
                                        const MoseModeSwitcherHelper& switcher,
                                        Ptr<const MoseTransport> transport);

    /**
     * \return the ns-3 attributes Read() takes TCP's start from besides the transport's own
     *         (TcpSocket InitialCwnd, SndBufSize, RcvBufSize, DelAckCount; TcpCubic HyStart,
     *         HyStartLowWindow, CntClamp), as "ns3::Type::Attribute": set, they act at the
     *         fluid levels
     */
    static const std::vector<std::string>& GetTcpStartAttributes();

    /**
     * \brief Throws a mose::Error naming the option unless the fluid levels model the slow
     *        start of this TCP variant (ns3::TcpCubic, ns3::TcpNewReno).
     * \param option the option as typed (e.g. "--ns3::MoseTrafficHelper::TcpVariant")
     * \param variant the variant's TypeId name
     */
    static void CheckTcpVariant(const std::string& option, const std::string& variant);
};

} // namespace ns3

#endif /* MOSE_FLUID_FABRIC_HELPER_H */
