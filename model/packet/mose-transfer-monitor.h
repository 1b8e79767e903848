/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRANSFER_MONITOR_H
#define MOSE_TRANSFER_MONITOR_H

#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-transfer.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief Flow completion time statistics of one traffic class.
 */
struct MoseFctSummary
{
    uint32_t transfers{0}; //!< transfers of the class
    uint32_t completed{0}; //!< how many completed
    double meanS{0};       //!< mean FCT of the completed ones, seconds
    double p50S{0};        //!< median FCT, seconds (type-7 percentile, as the flow level)
    double p95S{0};        //!< 95th percentile FCT, seconds
    double p99S{0};        //!< 99th percentile FCT, seconds
    double maxS{0};        //!< largest FCT, seconds
    uint64_t bytes{0};     //!< bytes delivered
    /// aggregate goodput, bits per second: bytes delivered * 8 / (last completion - first start)
    double goodputBps{0};
};

/**
 * \ingroup mose-packet
 * \brief Records the transfers that MoseTrafficHelper installs and when each completes.
 *
 * The sink of every transfer listens on a port of its own, so its PacketSink "Rx" trace counts
 * exactly that transfer's bytes; a transfer completes when all its bytes arrived. Works for any
 * transport whose sink is a PacketSink (TCP, UDP).
 *
 * Config path: /MoseTransferMonitorList/[i] (its first transfer lists the monitor, see
 * MoseObjectList).
 */
class MoseTransferMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a monitor without transfers
    MoseTransferMonitor();
    ~MoseTransferMonitor() override;

    /**
     * \brief Registers a transfer (MoseTrafficHelper calls it).
     * \param transfer the transfer, with src, dst, cls, demand, bytes and start set
     * \return its index
     */
    uint32_t Add(const MoseTransfer& transfer);

    /**
     * \brief Moves every registered transfer's start later by a delay (MoseFlowWorkload::Start()
     *        delays their applications before the simulation runs).
     * \param delay the delay
     */
    void Delay(Time delay);

    /**
     * \brief Counts bytes received for a transfer; connect a PacketSink's "Rx" trace here with
     *        the transfer index bound.
     * \param index the transfer
     * \param packet the packet received
     * \param from the sender's address
     */
    void NotifyRx(uint32_t index, Ptr<const Packet> packet, const Address& from);

    /// \return the number of transfers
    uint32_t GetNTransfers() const;
    /// \param index a transfer index \return the transfer
    const MoseTransfer& GetTransfer(uint32_t index) const;
    /// \return all transfers
    const std::vector<MoseTransfer>& GetTransfers() const;
    /// \return how many transfers completed
    uint32_t GetNCompleted() const;
    /// \return the bytes received by all sinks
    uint64_t GetBytesReceived() const;

    /**
     * \param cls a traffic class
     * \return its FCT statistics over the completed transfers
     */
    MoseFctSummary Summarize(mose::TrafficClass cls) const;

    /**
     * \brief The statistics of Summarize() over any transfers (e.g. those of several
     *        monitors together).
     * \param transfers the transfers
     * \param cls a traffic class
     * \return its FCT statistics over the completed transfers of the class
     */
    static MoseFctSummary SummarizeTransfers(const std::vector<MoseTransfer>& transfers,
                                             mose::TrafficClass cls);

    /**
     * \brief Writes one CSV row per transfer: index, src, dst, class, demand, bytes, received,
     *        start_s, end_s, fct_s, complete.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * TracedCallback signature for a completed transfer.
     * \param index the transfer's index
     * \param fct its flow completion time
     */
    typedef void (*TransferCompletedCallback)(uint32_t index, Time fct);

    /**
     * TracedCallback signature for bytes received by a transfer's sink.
     * \param index the transfer's index
     * \param bytes the payload bytes of the packet received
     */
    typedef void (*TransferRxCallback)(uint32_t index, uint32_t bytes);

  private:
    std::vector<MoseTransfer> m_transfers; //!< the transfers
    uint32_t m_completed{0};               //!< completed transfers
    uint64_t m_bytes{0};                   //!< bytes received
    /// fired when a transfer's last byte arrives
    TracedCallback<uint32_t, Time> m_completedTrace;
    /// fired for every packet a transfer's sink receives
    TracedCallback<uint32_t, uint32_t> m_rxTrace;
};

} // namespace ns3

#endif /* MOSE_TRANSFER_MONITOR_H */
