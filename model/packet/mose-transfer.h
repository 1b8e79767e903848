/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRANSFER_H
#define MOSE_TRANSFER_H

#include "ns3/ipv4-address.h"
#include "ns3/mose-traffic.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief One transfer of the packet level, the one record every workload keeps of what it
 *        sent: a fixed number of bytes from one group to another.
 *
 * A flow-list workload (MoseFlowWorkload, MoseTrafficHelper) makes one of a flow or of a
 * (source, destination) pair's flows and sends it with an ns-3 application; the LLM workloads'
 * transport (MoseSocketTransfers) makes one per KV-cache transfer and per transfer of a
 * collective, started while the simulation runs. Fields a maker does not know stay at their
 * defaults (say so where it matters).
 */
struct MoseTransfer
{
    uint32_t src{0};                                //!< source group
    uint32_t dst{0};                                //!< destination group
    mose::TrafficClass cls{mose::TrafficClass::KV}; //!< traffic class
    double demand{0};       //!< flow-level demand it carries (0: not made from flows)
    uint64_t bytes{0};      //!< bytes to deliver
    uint64_t sent{0};       //!< bytes handed to the sending socket so far (MoseSocketTransfers;
                            //!< an application's sender does not report it: 0)
    uint64_t received{0};   //!< bytes the sink received so far (MoseSocketTransfers on a rank that
                            //!< does not simulate the receiver: 0, bytes once complete)
    Time start;             //!< when it started (its application started, or the socket connected)
    Time end;               //!< when the last byte arrived (or was noticed; if complete)
    bool complete{false};   //!< every byte arrived (MoseSocketTransfers: and was noticed)
    Ipv4Address dstAddress; //!< the address the bytes are sent to
    uint32_t srcHost{0};    //!< the source group's endpoint (host, rail) it is sent from
    uint32_t dstHost{0};    //!< the destination group's endpoint (host, rail) it is sent to
    uint16_t port{0};       //!< the receiver's port

    /// \return end - start (only meaningful when complete)
    Time GetCompletionTime() const
    {
        return end - start;
    }
};

} // namespace ns3

#endif /* MOSE_TRANSFER_H */
