/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TRANSFERS_H
#define MOSE_LLM_TRANSFERS_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/mose-transfer.h"
#include "ns3/mose-transport.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-llm
 * \brief Moves byte counts between groups over ns-3 stream sockets, one connection per
 *        transfer, started while the simulation runs (the KV-cache and collective transfers of
 *        MoseInferenceWorkload and MoseTrainingWorkload).
 *
 * Each destination group listens on one port (Port) of each of its endpoint nodes; a transfer
 * opens a socket of SocketFactory at its source endpoint, binds it (an ephemeral port), connects
 * and sends exactly its bytes in Send() calls of at most SendSize bytes, then closes. The receiving
 * side recognises the transfer by the sender's (group, port) at Accept, counts every byte it
 * reads, and calls the transfer's callback once, when the last byte has arrived. Bytes received
 * are also summed per ordered (source, destination) pair (GetBytesBetween()).
 *
 * StartOnConnection() instead keeps one connection per ordered (source, destination) pair
 * open and sends its transfers over it one after the other (a collective's chunk of every
 * iteration over the same connection, as NCCL does): the receiver hands the bytes of that
 * connection to its transfers in the order they were started (a stream delivers them in order)
 * and completes each when its own byte count has arrived. CloseConnections() closes the kept
 * connections of some groups (a training job whose member set changed).
 *
 * Hosts per GPU (rails): a group may have G endpoints (Install() with a NodeContainer per
 * group, e.g. MoseTopologyHelper::GetGroupEndpoints(): its G hosts, one per GPU or NIC). A
 * transfer then carries a rail r: host (r mod G_src) of the source group sends it to host
 * (r mod G_dst) of the destination group, as a rail-optimised cluster connects GPU r of every
 * group through rail r; a kept connection belongs to (source, destination, those two hosts).
 * Every host holds only its own connections' endpoints, so ns-3's per-node endpoint lists
 * (Ipv4EndPointDemux, searched linearly for every packet received) are G times shorter. With
 * one endpoint per group every rail is that endpoint. The per-group counts
 * (GetBytesBetween()) add up the group's hosts.
 *
 * NoticeDelay: the workload learns of a transfer's completion (its callback and the
 * TransferDone trace) NoticeDelay after the last byte arrived; MoseTransfer::end is the
 * last byte's time either way. 0 (the default) calls at once. Above 0, the completions
 * noticed at one time are handed on together, in transfer-id order, so that what the workload
 * does next does not depend on the order in which ns-3 ran the simultaneous arrivals.
 *
 * Distributed runs (several MPI ranks, MoseRankMessages::IsDistributed()): every rank keeps
 * every transfer (the workloads run whole on every rank and start the same transfers in the
 * same order), but only the rank of a transfer's source group opens and feeds its socket, and
 * only the rank of its destination group receives it. The source rank tells the destination
 * rank which port the connection comes from (a MoseRankMessages message that arrives the
 * lookahead after the connect, before the connection's first segment can); the destination
 * rank tells every other rank of the last byte (arriving the lookahead after it), and every
 * rank completes the transfer NoticeDelay after the last byte. NoticeDelay must therefore
 * exceed the lookahead: every rank then has every notice of a time before it acts on them.
 * GetBytesReceived(), GetBytesBetween() and GetNConnections() count what this rank's sockets
 * did (sum them over the ranks); GetNCompleted() and the records are the same on every rank.
 *
 * The transport must be a stream socket factory with a listen/accept model (TCP:
 * ns3::TcpSocketFactory, the default); TcpVariant sets TcpL4Protocol::SocketType on the
 * endpoints as MoseTrafficHelper does. A datagram factory (UDP) is rejected: a lost datagram
 * would leave a transfer incomplete for ever and the workloads wait on completion.
 *
 * It is the TCP implementation of MoseTransport (MoseRdmaTransport is the RoCEv2 one).
 */
class MoseSocketTransfers : public MoseTransport
{
  public:
    /// Called once per transfer when its last byte has arrived: (transfer id)
    using DoneCallback = MoseTransport::DoneCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseSocketTransfers();
    ~MoseSocketTransfers() override;

    using MoseTransport::Install;

    /**
     * \brief As Install(const NodeContainer&), with G >= 1 endpoints per group (its hosts,
     *        one per GPU or NIC: MoseTopologyHelper::GetGroupEndpoints()); each listens on
     *        Port, and a transfer on rail r goes from the source group's endpoint r mod G to the
     *        destination group's endpoint r mod G. mose::Error as Install(), or for a group
     *        without endpoints.
     * \param endpoints per group (index g), its endpoints (rail h at index h)
     */
    void Install(const std::vector<NodeContainer>& endpoints) override;

    /**
     * \brief Starts a transfer now.
     * \param src the sending group (< N)
     * \param dst the receiving group (< N, != src)
     * \param bytes the bytes (>= 1)
     * \param done called when the last byte has arrived (may be null)
     * \param cls the traffic class its record (GetTransfer()) is counted in
     * \param rail the rail: from the source group's endpoint rail mod G to the destination
     *        group's endpoint rail mod G (any value; 0 with one endpoint per group)
     * \return the transfer's id (0, 1, 2, ... in call order)
     * mose::Error for a group out of range, src == dst, 0 bytes, or Install() not called.
     */
    uint64_t Start(uint32_t src,
                   uint32_t dst,
                   uint64_t bytes,
                   DoneCallback done,
                   mose::TrafficClass cls = mose::TrafficClass::KV,
                   uint32_t rail = 0) override;

    /**
     * \brief Starts a transfer now over the kept connection of (src, dst) on the rail's hosts,
     *        opening it if there is none: the transfer's bytes follow those of the earlier
     *        transfers on it.
     * \param src the sending group (< N)
     * \param dst the receiving group (< N, != src)
     * \param bytes the bytes (>= 1)
     * \param done called when the last byte has arrived (may be null)
     * \param cls the traffic class its record is counted in
     * \param rail the rail (as Start())
     * \return the transfer's id (shared numbering with Start())
     * mose::Error as Start().
     */
    uint64_t StartOnConnection(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               DoneCallback done,
                               mose::TrafficClass cls = mose::TrafficClass::KV,
                               uint32_t rail = 0) override;

    /**
     * \brief Closes the kept connections (StartOnConnection()) whose source or destination is
     *        one of groups; the next StartOnConnection() of such a pair opens a new one. A
     *        connection with bytes still to hand to its socket closes once they are handed.
     * \param groups the groups
     * \return the number of connections closed
     */
    uint32_t CloseConnections(const std::vector<uint32_t>& groups) override;

    /// \return the number of connections opened so far (Start() and StartOnConnection())
    uint64_t GetNConnections() const override;

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
    void DoDispose() override;

  private:
    /**
     * A first-in first-out list of transfer ids. Written by hand, not a std::deque: a deque
     * allocates a 512-byte block and its map on its first element, about 1.2 kB for the two
     * queues of every kept connection (800 MB for the 671,580 connections of an all-to-all over
     * 820 groups), where a connection holds one or two transfers at a time. A vector and the
     * index of its head: emptied (its capacity kept) whenever the last id leaves.
     */
    class IdQueue
    {
      public:
        /// \return whether no id is queued
        bool empty() const
        {
            return m_head == m_ids.size();
        }

        /// \return the first id (not empty())
        uint64_t front() const
        {
            return m_ids[m_head];
        }

        /// \param id appended
        void push_back(uint64_t id)
        {
            m_ids.push_back(id);
        }

        /// \brief Removes the first id (not empty())
        void pop_front()
        {
            if (++m_head == m_ids.size())
            {
                m_ids.clear();
                m_head = 0;
            }
        }

      private:
        std::vector<uint64_t> m_ids; //!< the ids, those before m_head gone
        std::size_t m_head{0};       //!< the first id's index
    };

    /// A kept connection of one ordered pair (StartOnConnection())
    struct Connection
    {
        uint32_t src{0};       //!< sending group
        uint32_t dst{0};       //!< receiving group
        uint32_t srcHost{0};   //!< the sending group's endpoint
        uint32_t dstHost{0};   //!< the receiving group's endpoint
        Ptr<Socket> sender;    //!< null once closed
        bool connected{false}; //!< the connect callback succeeded
        bool closing{false};   //!< close once the send queue is empty
        IdQueue sendQueue;     //!< transfers with bytes not yet handed to the socket
        IdQueue recvQueue;     //!< transfers with bytes not yet received
    };

    /// What a MoseRankMessages message of this object says (word 0)
    enum Message : uint64_t
    {
        TRANSFER_PORT = 0,   //!< (source endpoint << 16 | port, transfer id): Start()'s socket
        CONNECTION_PORT = 1, //!< (source endpoint << 16 | port, connection): a kept connection's
        LAST_BYTE = 2,       //!< (transfer id, time step of its last byte)
    };

    /// \return whether this rank simulates the endpoint of group g
    bool IsLocal(uint32_t g) const;
    /// \return the rank of the endpoint of group g
    uint32_t GetRankOf(uint32_t g) const;
    /// \brief Tells the destination's rank that (source endpoint, port) carries transfer or
    ///        connection x \param kind which \param endpoint the source endpoint's number
    ///        \param dst the destination group \param port the source port \param x it
    void NotifyPort(Message kind, uint32_t endpoint, uint32_t dst, uint16_t port, uint64_t x);
    /// \brief A MoseRankMessages message from another rank
    void ReceiveMessage(uint64_t kind, uint64_t a, uint64_t b);
    /// \brief The last byte of transfer id arrived here now
    void LastByte(uint64_t id);
    /// \brief Checks Start() arguments and records a new transfer and its sender slot
    /// \return its id
    uint64_t NewSocketTransfer(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               DoneCallback done,
                               mose::TrafficClass cls,
                               uint32_t rail);
    /// \brief Opens connection c's socket
    void OpenConnection(uint64_t c);
    /// \brief Sends what connection c may
    void SendMoreOnConnection(uint64_t c);
    /**
     * \brief Writes what is left of a transfer into a socket, up to its send buffer, in
     *        segments of SendSize bytes at most (SendMore() and SendMoreOnConnection()).
     * \param socket the sending socket \param t the transfer (its sent count grows)
     * \return true if the whole transfer is in the socket, false if the buffer is full or the
     *         socket refused (its send callback calls again when there is room)
     */
    bool FillSocket(Ptr<Socket> socket, MoseTransfer& t);
    /// \brief Adds got received bytes to transfer id; completes it when all have arrived
    void AddReceived(uint64_t id, uint64_t got);
    /// \brief The listening socket of a group accepted a connection
    void HandleAccept(uint32_t group, Ptr<Socket> socket, const Address& from);
    /// \brief Sets SegmentSize and the buffer sizes on a TCP socket (those not 0)
    void ConfigureSocket(Ptr<Socket> socket) const;
    /// \return whether to accept a connection (always)
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    /// \brief Reads everything an accepted socket has \return its bytes
    uint64_t DrainSocket(Ptr<Socket> socket);
    /// \brief Reads what the accepted socket of transfer id has
    void ReadTransfer(uint64_t id, Ptr<Socket> socket);
    /// \brief Reads what the accepted socket of kept connection c has
    void ReadConnection(uint64_t c, Ptr<Socket> socket);
    /// \brief Sends what the sender of a transfer may
    void SendMore(uint64_t id);
    /// \brief A sender connected
    void ConnectionSucceeded(uint64_t id, Ptr<Socket> socket);
    /// \brief A sender failed to connect
    void ConnectionFailed(uint64_t id, Ptr<Socket> socket);
    /// \brief Closes an accepted socket when its peer closes (after its last bytes were read
    ///        and it left m_receivers or m_connectionReceivers)
    void PeerClosed(Ptr<Socket> socket);

    TypeId m_socketFactory;                            //!< "SocketFactory"
    TypeId m_tcpVariant;                               //!< "TcpVariant"
    uint32_t m_sendSize{0};                            //!< "SendSize"
    uint16_t m_port{0};                                //!< "Port"
    uint32_t m_segmentSize{0};                         //!< "SegmentSize" (0: TcpSocket default)
    uint32_t m_bufferSize{0};                          //!< "BufferSize" (0: TcpSocket default)
    double m_msl{0};                                   //!< "MaxSegLifetime" in s (< 0: default)
    std::map<Ipv4Address, uint32_t> m_groupOf;         //!< every endpoint address -> group
    std::map<Ipv4Address, uint32_t> m_endpointOf;      //!< every endpoint address -> number
    std::vector<std::vector<Ipv4Address>> m_addressOf; //!< per group and endpoint, its address
    std::vector<Ptr<Socket>> m_listeners;              //!< per endpoint number
    std::vector<Ptr<Socket>> m_senders;                //!< by id (null once closed)
    /// (source endpoint number, port) -> transfer id
    std::map<std::pair<uint32_t, uint16_t>, uint64_t> m_pending;
    std::map<Ptr<Socket>, uint64_t> m_receivers; //!< accepted socket -> id
    std::vector<Connection> m_connections;       //!< kept connections, by index
    /// (src, dst, source endpoint, destination endpoint) -> the open connection
    std::map<ConnectionKey, uint64_t> m_open;
    /// (source endpoint number, port) -> connection
    std::map<std::pair<uint32_t, uint16_t>, uint64_t> m_pendingConnections;
    std::map<Ptr<Socket>, uint64_t> m_connectionReceivers; //!< accepted socket -> connection
    uint64_t m_nConnections{0};                            //!< connections opened
};

} // namespace ns3

#endif /* MOSE_LLM_TRANSFERS_H */
