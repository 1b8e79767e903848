/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRANSPORT_H
#define MOSE_TRANSPORT_H

#include "mose-transfer.h"

#include "ns3/callback.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The transport the LLM workloads move their bytes on: transfers of a byte count from
 *        one group to another, started while the simulation runs, each completed by a
 *        callback when its last byte has arrived.
 *
 * MoseSimulatorFabric, MoseWorkload::SetTransfers() and MoseWorkloadHelper take this
 * interface, so the transports are interchangeable: MoseSocketTransfers (ns-3's TCP, a
 * connection per transfer or a kept connection per pair) and MoseRdmaTransport (RoCEv2 queue
 * pairs with DCQCN). Every implementation keeps one MoseTransfer record per transfer (ids 0, 1,
 * 2, ... in start order), counts what it received per ordered pair of groups, and fires a
 * "TransferDone" trace source (TransferDoneCallback) when it notices a transfer complete.
 *
 * Groups and rails: Install() takes per group its endpoints (its hosts, one per GPU or NIC,
 * MoseTopologyHelper::GetGroupEndpoints()); a transfer on rail r goes from the source group's
 * endpoint r mod G_src to the destination group's endpoint r mod G_dst.
 */
class MoseTransport : public Object
{
  public:
    /// Called once per transfer when its last byte has arrived: (transfer id)
    using DoneCallback = Callback<void, uint64_t>;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseTransport();
    ~MoseTransport() override;

    /**
     * \brief One endpoint per group (node g runs group g's transfers); the same as
     *        Install(const std::vector<NodeContainer>&) with one node per group.
     * \param endpoints one node per group
     */
    void Install(const NodeContainer& endpoints);

    /**
     * \brief The endpoints of every group; call once, before the first Start(). mose::Error
     *        for a group without endpoints, a node without IPv4, or a second call.
     * \param endpoints per group (index g), its endpoints (rail h at index h)
     */
    virtual void Install(const std::vector<NodeContainer>& endpoints) = 0;

    /// \return whether Install() ran (a workload refuses to start on a transport that did not)
    virtual bool IsInstalled() const = 0;

    /// \param group a group \return its endpoints (rails), G (after Install())
    virtual uint32_t GetNRails(uint32_t group) const = 0;

    /**
     * \brief Starts a transfer now, on a connection (or queue pair) of its own.
     * \param src the sending group (< N)
     * \param dst the receiving group (< N, != src)
     * \param bytes the bytes (>= 1)
     * \param done called when the last byte has arrived (may be null)
     * \param cls the traffic class its record is counted in
     * \param rail the rail (endpoint rail mod G at each end)
     * \return the transfer's id (0, 1, 2, ... in call order)
     * mose::Error for a group out of range, src == dst, 0 bytes, or Install() not called.
     */
    virtual uint64_t Start(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           DoneCallback done,
                           mose::TrafficClass cls = mose::TrafficClass::KV,
                           uint32_t rail = 0) = 0;

    /**
     * \brief Starts a transfer now over the kept connection (queue pair) of (src, dst) on the
     *        rail's endpoints, opening it if there is none: its bytes follow those of the
     *        earlier transfers on it. Arguments, return value and errors as Start().
     */
    virtual uint64_t StartOnConnection(uint32_t src,
                                       uint32_t dst,
                                       uint64_t bytes,
                                       DoneCallback done,
                                       mose::TrafficClass cls = mose::TrafficClass::KV,
                                       uint32_t rail = 0) = 0;

    /**
     * \brief Closes the kept connections whose source or destination is one of groups; the
     *        next StartOnConnection() of such a pair opens a new one.
     * \param groups the groups
     * \return the number of connections closed
     */
    virtual uint32_t CloseConnections(const std::vector<uint32_t>& groups) = 0;

    /// \return the number of connections (queue pairs) opened so far
    virtual uint64_t GetNConnections() const = 0;
    /// \return the number of transfers started
    virtual uint64_t GetNTransfers() const = 0;
    /// \param id a transfer id \return the transfer (mose::Error for an unknown id)
    virtual const MoseTransfer& GetTransfer(uint64_t id) const = 0;
    /// \param ids transfer ids (a workload's) \return their records, in the ids' order
    virtual std::vector<MoseTransfer> GetTransfers(const std::vector<uint64_t>& ids) const;
    /// \return the number of transfers complete
    virtual uint64_t GetNCompleted() const = 0;
    /// \return all payload bytes received so far
    virtual uint64_t GetBytesReceived() const = 0;
    /// \param src a group \param dst a group \return bytes received at dst from src so far
    virtual uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const = 0;
    /// \return errors caught inside simulation events (0 in a sound run)
    virtual uint64_t GetNErrors() const = 0;

    /**
     * TracedCallback signature of "TransferDone".
     * \param id the transfer
     * \param src its sending group
     * \param dst its receiving group
     * \param bytes its bytes
     * \param duration from Start() to its last byte
     */
    typedef void (*TransferDoneCallback)(uint64_t id,
                                         uint32_t src,
                                         uint32_t dst,
                                         uint64_t bytes,
                                         Time duration);
};

} // namespace ns3

#endif /* MOSE_TRANSPORT_H */
