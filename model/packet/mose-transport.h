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
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
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
 *
 * This base keeps what every transport keeps alike: the endpoints per group, the transfer
 * records and their callbacks, the bytes per ordered pair, the counts, and the notice of a
 * completion NoticeDelay after its last byte. An implementation moves the bytes: it calls
 * SetEndpoints() in Install(), NewTransfer() in Start(), CountReceived() per byte count that
 * arrives and LastByte() when a transfer's last byte has arrived.
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
    bool IsInstalled() const;

    /// \param group a group \return its endpoints (rails), G (mose::Error before Install())
    uint32_t GetNRails(uint32_t group) const;

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

    /// \return the number of connections (queue pairs) opened so far; on several MPI ranks,
    ///         those whose source this rank simulates (the ranks' counts add up to the run's)
    virtual uint64_t GetNConnections() const = 0;
    /// \return the number of transfers started
    uint64_t GetNTransfers() const;
    /// \param id a transfer id \return the transfer (mose::Error for an unknown id)
    const MoseTransfer& GetTransfer(uint64_t id) const;
    /// \param ids transfer ids (a workload's) \return their records, in the ids' order
    std::vector<MoseTransfer> GetTransfers(const std::vector<uint64_t>& ids) const;
    /// \return the number of transfers complete
    uint64_t GetNCompleted() const;
    /// \return all payload bytes received so far
    uint64_t GetBytesReceived() const;
    /// \param src a group \param dst a group \return bytes received at dst from src so far
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
    /// \return errors caught inside simulation events (0 in a sound run)
    uint64_t GetNErrors() const;
    /**
     * \param id a transfer id (mose::Error for an unknown id)
     * \return whether this process simulates the transfer's receiving endpoint: always on one
     *         process; on several MPI ranks, on the one rank whose node receives its bytes (its
     *         record's `received` grows packet by packet there only, and becomes its bytes on
     *         every rank once it completes)
     */
    bool IsReceivedHere(uint64_t id) const;

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

  protected:
    /// A kept connection (queue pair) of StartOnConnection(): (source group, destination
    /// group, source endpoint, destination endpoint)
    using ConnectionKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;

    void DoDispose() override;

    /**
     * \brief CloseConnections()'s walk, the same in every implementation: erases each kept
     *        connection whose source or destination group is one of \p groups (a number out of
     *        range matches none), then hands what it held to \p close.
     * \param open the kept connections
     * \param groups the groups closed
     * \param close called once per connection erased, with its value, in key order
     * \return the number of connections erased
     */
    template <typename Value, typename Close>
    uint32_t EraseConnections(std::map<ConnectionKey, Value>& open,
                              const std::vector<uint32_t>& groups,
                              Close close) const
    {
        std::vector<bool> in(GetNGroups(), false);
        for (uint32_t g : groups)
        {
            if (g < in.size())
            {
                in[g] = true;
            }
        }
        uint32_t erased = 0;
        for (auto it = open.begin(); it != open.end();)
        {
            if (!in[std::get<0>(it->first)] && !in[std::get<1>(it->first)])
            {
                ++it;
                continue;
            }
            const Value value = it->second;
            it = open.erase(it);
            ++erased;
            close(value);
        }
        return erased;
    }

    /**
     * \brief Install()'s first step: keeps the endpoints of every group. mose::Error (naming
     *        \p who) on a second call, for no group or a group without endpoints.
     * \param endpoints per group, its endpoints
     * \param who the calling class, for the messages (e.g. "MoseRdmaTransport")
     * \return the number of endpoints over all groups
     */
    uint32_t SetEndpoints(const std::vector<NodeContainer>& endpoints, const std::string& who);

    /// \brief Install()'s last step: Start() is allowed from now on
    void SetInstalled();

    /// \return the number of groups N (0 before SetEndpoints())
    uint32_t GetNGroups() const;

    /// \param group a group \param host its endpoint (rail), unchecked \return the node
    Ptr<Node> GetGroupEndpoint(uint32_t group, uint32_t host) const;

    /**
     * \param group a group \param host its endpoint (rail), unchecked
     * \return the endpoint's number: SetEndpoints() numbers them group by group and, within a
     *         group, rail by rail, from 0
     */
    uint32_t GetEndpointNumber(uint32_t group, uint32_t host) const;

    /// \param group a group \param host its endpoint (rail), unchecked \return the endpoint
    ///        in words, for messages: "the endpoint H of group G (node I)"
    std::string DescribeEndpoint(uint32_t group, uint32_t host) const;

    /**
     * \brief Start()'s first step: checks the arguments and records a new transfer from the
     *        source group's endpoint rail mod G to the destination's, started now.
     *        mose::Error (naming \p who) for Start() before Install(), a group out of range,
     *        src == dst or 0 bytes. The caller fills the record's address and port.
     * \param src the sending group \param dst the receiving group \param bytes its bytes
     * \param done its callback \param cls its class \param rail its rail
     * \param who the calling class, for the messages
     * \return the new transfer's id
     */
    uint64_t NewTransfer(uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         DoneCallback done,
                         mose::TrafficClass cls,
                         uint32_t rail,
                         const std::string& who);

    /// \param id a transfer id (unchecked) \return its record
    MoseTransfer& Record(uint64_t id);
    /// \param id a transfer id (unchecked) \return its record
    const MoseTransfer& Record(uint64_t id) const;

    /// \brief Adds bytes received of transfer t to the totals (all and per pair)
    void CountReceived(const MoseTransfer& t, uint64_t bytes);

    /// \brief Counts an error caught inside a simulation event (GetNErrors())
    void CountError();

    /**
     * \brief Transfer id is to be noticed at end + NoticeDelay: its completion runs then, in
     *        id order with the others noticed at that time. A notice time already past (a
     *        late message from another MPI rank) is counted as an error and runs now.
     * \param id the transfer \param end when its last byte arrived
     */
    void AddNotice(uint64_t id, Time end);

    /**
     * \brief Completes transfer id, whose last byte arrived at end: its record, the callback
     *        (an exception it throws is counted, never passed on) and TransferDone.
     * \param id the transfer \param end its last byte's time
     */
    void Complete(uint64_t id, Time end);
    /**
     * \brief The last byte of transfer id arrived now, on this rank: on one process completes
     *        it now (NoticeDelay 0) or notices it NoticeDelay later (AddNotice()); on several
     *        MPI ranks also tells the other ranks (a message of the lookahead, handled there by
     *        AddNotice() with the same time), so that every rank completes it at the same time.
     *        NoticeDelay must then exceed the lookahead (NS_FATAL_ERROR naming both otherwise:
     *        a rank would act before it has every notice of a time).
     * \param id the transfer
     * \param kind the first word of the message, which the handler given to
     *        RegisterRankMessages() reads as "a last byte"
     * \param who the implementation, for the messages
     */
    void NoticeLastByte(uint64_t id, uint64_t kind, const std::string& who);

    /**
     * \brief Install()'s step for several MPI ranks: registers the implementation's handler
     *        of the other ranks' messages (MoseRankMessages::Register(), in the same order on
     *        every rank); nothing on one process. DoDispose() unregisters it.
     * \param handler the handler
     */
    void RegisterRankMessages(Callback<void, uint64_t, uint64_t, uint64_t> handler);
    /// \return whether Install() ran on several MPI ranks (RegisterRankMessages())
    bool IsDistributed() const;
    /// \return the handler's MoseRankMessages number (RegisterRankMessages(); distributed)
    uint32_t GetRankHandler() const;

    Time m_noticeDelay; //!< "NoticeDelay" (an attribute of each implementation)
    /// "TransferDone" (a trace source of each implementation)
    TracedCallback<uint64_t, uint32_t, uint32_t, uint64_t, Time> m_doneTrace;

  private:
    /// \brief Completes the transfers noticed now, in id order
    void Notice();

    bool m_installed{false};                            //!< SetInstalled() ran
    std::vector<NodeContainer> m_groupEndpoints;        //!< per group, its endpoints (rails)
    std::vector<uint32_t> m_firstEndpoint;              //!< per group, its first endpoint number
    std::vector<MoseTransfer> m_transfers;              //!< by id
    std::vector<DoneCallback> m_done;                   //!< by id
    std::map<int64_t, std::vector<uint64_t>> m_notices; //!< notice time step -> transfer ids
    std::vector<uint64_t> m_pairBytes;                  //!< N x N bytes received
    uint64_t m_completed{0};                            //!< transfers complete
    uint64_t m_bytes{0};                                //!< bytes received
    uint64_t m_errors{0};                               //!< errors inside events
    bool m_distributed{false};                          //!< Install() on several MPI ranks
    uint32_t m_rankHandler{0}; //!< MoseRankMessages::Register() number (distributed)
};

} // namespace ns3

#endif /* MOSE_TRANSPORT_H */
