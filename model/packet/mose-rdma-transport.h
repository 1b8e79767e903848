/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RDMA_TRANSPORT_H
#define MOSE_RDMA_TRANSPORT_H

#include "mose-dcqcn.h"
#include "mose-transport.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class Ipv4;
class Ipv4RoutingProtocol;

/**
 * \ingroup mose-packet
 * \brief RoCEv2 as the workloads' transport: reliable-connected queue pairs (QPs) over UDP port
 *        4791, go-back-N or selective repeat, per-QP DCQCN, the NIC sharing its line rate
 *        between active QPs round-robin (doc/mose.rst, "RoCEv2 transport").
 *
 * A transfer is one RDMA SEND message on a QP. Start() opens a QP of its own (closed when its
 * last packet is acknowledged); StartOnConnection() queues the message on the kept QP of the
 * (source, destination, rails) pair. A QP is set up without handshake packets (both ends live
 * in this object): its QP number indexes the QP, so a packet finds its QP in O(1).
 *
 * Data path: every packet is built when it is sent (payload is never buffered: go-back-N
 * rewinds the next PSN to send) with a MoseRoceBthHeader under a UdpHeader built here (source
 * port per QP, destination port 4791, ECT(0) in the IP header through a SocketIpTosTag), routed
 * by the node's Ipv4RoutingProtocol and handed to Ipv4::Send(). Each endpoint has one UDP
 * socket bound to port 4791 (one endpoint in ns-3's demux per node) with RecvTos on, which reads
 * the ECN CE mark.
 *
 * NIC: per endpoint, a FIFO of the QPs that may send now; every packet time (the frame's
 * serialization at LineRate) the NIC takes the first QP, sends one packet and puts the QP back at
 * the end if it has more and its DCQCN rate lets it send by then (else an event puts it back
 * when it may). O(1) per packet: idle QPs are in no list.
 *
 * Reliability: an ACK per AckInterval packets and at every message's last packet (the BTH's
 * acknowledge-request bit), a NAK (PSN sequence error) at the first packet after a gap, once
 * per expected PSN. Go-back-N: the receiver discards packets after a gap and the sender rewinds
 * to the NAK's PSN. Selective repeat (IRN-style): the receiver keeps which PSNs after the gap
 * arrived, the sender resends only the NAK's PSN. A retransmission timeout resends from the
 * oldest unacknowledged PSN (go-back-N) or that PSN alone (selective repeat).
 *
 * Congestion: the receiver sends a CNP when a data packet arrives with ECN CE, at most one per
 * QP per CnpInterval (DCQCN's notification point); the sender's MoseDcqcn (reaction point) cuts
 * and recovers the QP's rate.
 *
 * Several MPI ranks (MoseRankMessages::IsDistributed()): every rank builds the same transport
 * and keeps every transfer's record and every QP's number. A QP's sender state (its message
 * queue, PSNs, DCQCN, its place in the NIC's FIFO, its timers) is kept and acted on only on the
 * source endpoint's rank, its receiver state only on the destination endpoint's rank; data
 * packets, ACKs, NAKs and CNPs cross ranks on the fabric like any packet. QP numbers are
 * allocated when a transfer starts, which every rank does alike; a QP is closed at its last ACK,
 * which only the sender's rank sees: that rank tells the others (the close time, a message
 * that arrives NoticeDelay later), and every rank frees the number at the close time plus
 * the quarantine (4 x RetransmitTimeout, above NoticeDelay), so the numbering is the same on
 * every rank and on one. The receiver's side lasts until the message arrives; on one process
 * it lasts NoticeDelay after the close too, so a late duplicate is answered alike. The last
 * byte's rank tells the others too, and every rank completes the transfer at the last byte +
 * NoticeDelay (above the lookahead). MosePfc runs on several ranks too.
 */
class MoseRdmaTransport : public MoseTransport
{
  public:
    /// How lost packets are resent
    enum RetxMode
    {
        GO_BACK_N,        //!< RoCEv2: resend from the NAK's PSN on
        SELECTIVE_REPEAT, //!< IRN-style: resend the NAK's PSN only
    };

    /// Why the transport dropped a packet it received
    enum DropReason : uint8_t
    {
        OUT_OF_ORDER = 0,   //!< a data packet after a gap (go-back-N discards it)
        DUPLICATE = 1,      //!< a data packet already received
        STALE = 2,          //!< a packet of a closed or unknown QP, or at the wrong endpoint
        MALFORMED = 3,      //!< not a packet this transport sends
        NO_ROUTE = 4,       //!< a packet this transport could not route (not sent)
        N_DROP_REASONS = 5, //!< the number of reasons
    };

    /// RoCEv2's UDP destination port
    static constexpr uint16_t ROCE_PORT = 4791;
    /// IPv4 (20) + UDP (8) + BTH (12) + ICRC (4) bytes around a data packet's payload
    static constexpr uint32_t DATA_OVERHEAD = 44;
    /// IPv4 (20) + UDP (8) + BTH (12) + AETH (4) + ICRC (4) bytes of an ACK or a NAK
    static constexpr uint32_t ACK_SIZE = 48;

    /// One link of a path, one way, for GetBdpInFlight()
    struct PathLink
    {
        DataRate rate;             //!< its data rate as installed (divided by MoseScale)
        Time delay;                //!< its propagation delay
        uint32_t frameOverhead{2}; //!< its link-layer bytes per frame (PPP: 2)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseRdmaTransport();
    ~MoseRdmaTransport() override;

    using MoseTransport::Install;
    void Install(const std::vector<NodeContainer>& endpoints) override;
    uint64_t Start(uint32_t src,
                   uint32_t dst,
                   uint64_t bytes,
                   DoneCallback done,
                   mose::TrafficClass cls = mose::TrafficClass::KV,
                   uint32_t rail = 0) override;
    uint64_t StartOnConnection(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               DoneCallback done,
                               mose::TrafficClass cls = mose::TrafficClass::KV,
                               uint32_t rail = 0) override;
    uint32_t CloseConnections(const std::vector<uint32_t>& groups) override;
    uint64_t GetNConnections() const override;
    /**
     * \return the QP records held: the most QPs open at once, as a closed QP's record is
     *         reused once its late packets are past (memory per QP is the heap over this)
     */
    uint64_t GetNQueuePairRecords() const;

    /**
     * \brief The in-flight cap of IRN's BDP-FC on a path, for this transport's packets as its
     *        attributes are set now (PayloadSize, AckInterval): the bandwidth-delay product of
     *        the path in data packets, plus AckInterval - 1 packets for the ACKs it coalesces.
     *
     * The round trip is a full data packet stored and forwarded over every link (its
     * serialization at the link's rate, then the link's delay) and an ACK back the same way.
     * The bandwidth-delay product is that time at the slowest link's rate, in data frames of
     * that link, rounded up. A QP alone then sends at the path's rate without waiting for an
     * ACK, and holds no more than that in the network. IRN acknowledges every packet
     * (AckInterval 1: the cap is the product itself); with ACKs every AckInterval packets, the
     * first ACK leaves AckInterval - 1 packets after the one it answers.
     * MoseTransportHelper::Install(topology) sizes MaxInFlight on the fabric's longest route.
     * \param path the links one way (rates as installed: divided by MoseScale)
     * \return the cap in packets: at least AckInterval (a path without links: AckInterval);
     *         a mose::Error for a link of rate 0
     */
    uint32_t GetBdpInFlight(const std::vector<PathLink>& path) const;

    /// \return data packets sent, retransmissions included
    uint64_t GetNDataPackets() const;
    /// \return data packets sent again (a PSN sent before)
    uint64_t GetNRetransmissions() const;

    /**
     * \brief PFC (MosePfc's pause listener): a port of an endpoint's NIC was paused or
     *        resumed. A QP whose last packet took a paused port waits until it resumes (a QP's
     *        first packet still goes: its port is known once it is routed). A null device is
     *        the whole NIC, paused by its own share of its node's buffer. A node that is no
     *        endpoint of this transport is ignored.
     * \param node the node \param device its device, or null for the NIC
     * \param paused paused (true) or resumed (false)
     */
    void SetPortPaused(Ptr<Node> node, Ptr<NetDevice> device, bool paused);
    /// \return the times a NIC or one of its ports was paused (SetPortPaused())
    uint64_t GetNPortPauses() const;
    /// \return ACKs sent
    uint64_t GetNAcks() const;
    /// \return NAKs sent
    uint64_t GetNNacks() const;
    /// \return CNPs sent (notification points)
    uint64_t GetNCnps() const;
    /// \return CNPs received (reaction points: rate cuts)
    uint64_t GetNCnpsReceived() const;
    /// \return data packets that arrived with ECN CE
    uint64_t GetNCeMarked() const;
    /// \return retransmission timeouts
    uint64_t GetNTimeouts() const;
    /// \return packets the transport dropped, all reasons
    uint64_t GetNDrops() const;
    /// \param reason a reason \return packets the transport dropped for it
    uint64_t GetNDrops(DropReason reason) const;
    /// \return the QP a transfer was sent on (its QP number)
    uint32_t GetQpOf(uint64_t id) const;
    /// \param qpn a QP number \return its DCQCN rate now, bit/s (after the timers due by now)
    double GetQpRate(uint32_t qpn);
    /// \param qpn a QP number \return its DCQCN state (read only)
    const MoseDcqcn& GetDcqcn(uint32_t qpn) const;
    /// \param endpoint an endpoint number (groups' endpoints in order) \return its NIC's rate
    DataRate GetNicRate(uint32_t endpoint) const;

    /**
     * TracedCallback signature of a packet event ("Retransmit", "Nack", "Timeout").
     * \param qpn the QP number
     * \param psn the PSN (full, not wrapped to 24 bits)
     */
    typedef void (*PacketCallback)(uint32_t qpn, uint64_t psn);
    /**
     * TracedCallback signature of "Cnp" and "CnpReceived".
     * \param qpn the QP number
     */
    typedef void (*CnpCallback)(uint32_t qpn);
    /**
     * TracedCallback signature of "RateChange".
     * \param qpn the QP number
     * \param oldRate the rate before, bit/s
     * \param newRate the rate after, bit/s
     */
    typedef void (*RateCallback)(uint32_t qpn, double oldRate, double newRate);
    /**
     * TracedCallback signature of "Drop".
     * \param qpn the QP number (0 if unknown)
     * \param psn the packet's 24-bit PSN
     * \param reason a DropReason
     */
    typedef void (*DropCallback)(uint32_t qpn, uint32_t psn, uint8_t reason);

  protected:
    void DoDispose() override;

  private:
    /// One message (transfer) on a QP: its PSN range
    struct Message
    {
        uint64_t id{0};       //!< the transfer
        uint64_t firstPsn{0}; //!< its first PSN
        uint64_t endPsn{0};   //!< one past its last PSN
    };

    /// Messages of a QP in PSN order: a vector and the index of its head, emptied when drained
    struct MessageQueue
    {
        std::vector<Message> items; //!< the messages, those before head gone
        std::size_t head{0};        //!< the first message's index

        /// \return whether empty
        bool Empty() const
        {
            return head == items.size();
        }

        /// \brief Removes the first message
        void Pop()
        {
            if (++head == items.size())
            {
                items.clear();
                head = 0;
            }
        }
    };

    /// One reliable-connected QP: its sender (requester) and receiver (responder) state
    struct Qp
    {
        /// \param config the DCQCN parameters
        explicit Qp(const MoseDcqcnConfig& config)
            : cc(config)
        {
        }

        uint32_t src{0};            //!< sending group
        uint32_t dst{0};            //!< receiving group
        uint32_t srcEp{0};          //!< sending endpoint number
        uint32_t dstEp{0};          //!< receiving endpoint number
        uint16_t port{0};           //!< UDP source port
        uint32_t gen{0};            //!< generation (bumped when closed: stale events ignore it)
        bool open{false};           //!< in use (its sender's side: until its last ACK)
        bool kept{false};           //!< a kept QP (StartOnConnection())
        bool closing{false};        //!< close once every message is acknowledged
        bool inReady{false};        //!< in its NIC's FIFO
        bool waking{false};         //!< an event puts it in its NIC's FIFO
        bool rtoArmed{false};       //!< a retransmission timer event is pending
        bool rtxPending{false};     //!< selective repeat: rtxPsn is to be resent
        bool nackSent{false};       //!< a NAK for ePsn was sent
        bool cnpSent{false};        //!< a CNP was ever sent
        uint32_t lastPort{NO_PORT}; //!< the device its last data packet left by (PacePorts)
        // requester
        MessageQueue send;     //!< messages not yet fully acknowledged
        std::size_t cursor{0}; //!< index in send.items of the message holding sndNxt
        uint64_t sndUna{0};    //!< oldest unacknowledged PSN
        uint64_t sndNxt{0};    //!< next PSN to send
        uint64_t sndMax{0};    //!< one past the highest PSN sent
        uint64_t sndEnd{0};    //!< one past the last PSN queued
        uint64_t rtxPsn{0};    //!< selective repeat: the PSN to resend
        Time nextAvail;        //!< when DCQCN lets it send next
        Time lastProgress;     //!< the last time sndUna moved (or the timer restarted)
        MoseDcqcn cc;          //!< the reaction point
        // responder
        MessageQueue recv;     //!< messages not yet fully received
        uint64_t ePsn{0};      //!< expected PSN
        uint32_t msn{0};       //!< messages completed
        Time lastCnp;          //!< when the last CNP was sent
        std::vector<bool> ooo; //!< selective repeat: PSN ePsn+1+i received (bit i)
        /// its data packets are received before this time (IsReceiving()): from its opening,
        /// until NoticeDelay after its sender closed it
        Time recvUntil;
    };

    /// No port: a QP that sent nothing yet, a device that is not paced
    static constexpr uint32_t NO_PORT = UINT32_MAX;

    /// One port of a NIC: a point-to-point device of its node (PacePorts)
    struct Port
    {
        DataRate rate;                //!< the device's rate (0: not paced)
        Time freeAt;                  //!< when the NIC's last frame on it is serialized
        std::deque<uint32_t> blocked; //!< QPs waiting for it
        bool wakeScheduled{false};    //!< a PortFree event is pending
        bool paused{false};           //!< PFC paused it (SetPortPaused())
    };

    /// One endpoint's NIC
    struct Nic
    {
        Ptr<Node> node;             //!< the endpoint
        Ptr<Ipv4> ipv4;             //!< its IPv4
        Ptr<Socket> socket;         //!< the UDP socket on port 4791
        Ipv4Address address;        //!< its address
        DataRate rate;              //!< line rate
        uint32_t linkOverhead{0};   //!< link-layer bytes per frame (PPP: 2)
        Time freeAt;                //!< when its current frame is serialized
        bool scheduled{false};      //!< a NicSend event is pending
        std::deque<uint32_t> ready; //!< QPs that may send now
        std::vector<Port> ports;    //!< by the node's device index (PacePorts)
        bool paused{false};         //!< PFC paused the whole NIC (SetPortPaused())
    };

    /// \brief Checks the attributes (mose::Error naming a bad one)
    void CheckAttributes() const;
    /// \brief Install(): the attributes as this run uses them, rates and bytes divided by
    ///        MoseScale, the retransmission timeout multiplied by it (mose::Error for a value
    ///        that MoseScale would bring to 0)
    void ScaleAttributes();
    /// \return the TOS byte of ACKs, NAKs and CNPs: ECT(0) with EcnCapableControl, else 0
    uint8_t ControlTos() const;
    /// \param scaled a rate divided by MoseScale \return " (R at MoseScale S)", or "" at 1
    static std::string ScaleNote(DataRate scaled);
    /**
     * \brief Install() for endpoint number ep: its NIC (line rate, DCQCN configuration) and
     *        its UDP socket on port 4791. mose::Error naming the endpoint (which) and the
     *        attribute at fault.
     * \param ep the endpoint number \param node its node \param which its name in messages
     */
    void InstallNic(uint32_t ep, Ptr<Node> node, const std::string& which);
    /**
     * \brief Reads a NIC's devices: its address, its link-layer overhead and the MTU check.
     * \param nic the NIC (node and IPv4 set) \param which its name in messages
     * \return the sum of its point-to-point devices' rates (bit/s)
     */
    uint64_t ReadDevices(Nic& nic, const std::string& which) const;
    /// \brief Checks Start() arguments and records a new transfer and its QP slot
    /// \return its id
    uint64_t NewRdmaTransfer(uint32_t src,
                             uint32_t dst,
                             uint64_t bytes,
                             DoneCallback done,
                             mose::TrafficClass cls,
                             uint32_t rail);
    /// \brief Opens a QP for transfer id's endpoints \return its number
    uint32_t OpenQp(const MoseTransfer& t, bool kept);
    /// \brief Queues transfer id on QP qpn as a message and wakes the QP
    void QueueMessage(uint32_t qpn, uint64_t id);
    /// \brief Closes QP qpn (its number is reused after a quarantine)
    void CloseQp(uint32_t qpn);
    /// \return whether QP q has a packet to send (within MaxInFlight)
    bool HasToSend(const Qp& q) const;
    /// \brief Puts QP qpn in its NIC's FIFO, now or when DCQCN lets it
    void Activate(uint32_t qpn);
    /// \brief The event that puts a waiting QP in its NIC's FIFO
    void Wake(uint32_t qpn, uint32_t gen);
    /// \brief Makes sure endpoint ep's NIC sends when it is free
    void KickNic(uint32_t ep);
    /// \brief Endpoint ep's NIC sends one packet of its first QP
    void NicSend(uint32_t ep);
    /**
     * \brief PacePorts: whether QP qpn waits for the port its last packet took (then queued
     *        there, and a PortFree event scheduled)
     * \param ep its NIC's endpoint (for the PortFree event) \param nic that NIC
     * \param qpn the QP \param q that QP \param now the time
     * \return true if it waits
     */
    bool WaitsForPort(uint32_t ep, Nic& nic, uint32_t qpn, Qp& q, Time now);
    /// \brief The event at which a port of endpoint ep's NIC is free: its QPs back in the FIFO
    void PortFree(uint32_t ep, uint32_t port);
    /// \brief Sends QP qpn's next packet on its NIC
    void SendData(uint32_t qpn, Nic& nic);
    /**
     * \brief Routes and sends a packet (UDP header added here)
     * \return the index of the node's device it left by, NO_PORT if no route
     */
    uint32_t SendPacket(Nic& nic,
                        Ptr<Packet> packet,
                        Ipv4Address dst,
                        uint16_t srcPort,
                        uint8_t tos,
                        uint32_t qpn);
    /// \brief Sends an ACK or NAK of QP qpn from its receiver
    void SendAck(uint32_t qpn, bool nak);
    /// \brief Sends a CNP for QP qpn from its receiver
    void SendCnp(uint32_t qpn);
    /// \brief Endpoint ep's socket has packets
    void Receive(uint32_t ep, Ptr<Socket> socket);
    /// \brief A data packet of QP qpn arrived at its receiver
    void ReceiveData(uint32_t qpn, uint64_t psn, uint32_t payload, bool ce);
    /// \brief Delivers PSN psn (in order) to QP q's messages
    void Deliver(Qp& q, uint64_t psn);
    /// \brief An ACK or NAK of QP qpn arrived at its sender
    void ReceiveAck(uint32_t qpn, uint64_t psn, bool nak);
    /// \brief Drops messages acknowledged; closes a drained QP that should close
    void Acknowledged(uint32_t qpn);
    /// \brief The retransmission timer of QP qpn fires
    void Timeout(uint32_t qpn, uint32_t gen);
    /// \brief Arms the retransmission timer of QP qpn if it is not
    void ArmTimer(uint32_t qpn);
    /// \brief Counts and traces a drop
    void Drop(uint32_t qpn, uint32_t psn, DropReason reason);
    /// \return the full PSN of the 24-bit psn nearest to reference
    static uint64_t Unwrap(uint32_t psn, uint64_t reference);
    /// \return the payload bytes of PSN psn of message m
    uint32_t PayloadOf(const Message& m, uint64_t psn) const;
    /// \brief The last byte of transfer id arrived now
    void LastByte(uint64_t id);
    /// \param ep an endpoint number \return whether this rank simulates it (always on one)
    bool IsLocalEndpoint(uint32_t ep) const;
    /// \brief Drops QP qpn's sender's state (its late ACKs and CNPs are stale from now on)
    ///        and frees its number at closed + the quarantine (4 x RetransmitTimeout)
    void ReleaseSender(uint32_t qpn, Time closed);
    /**
     * \brief Ends QP qpn's receiver's side at a time: its data packets are stale from then on.
     *        Its messages were all received (the sender saw every ACK), so their storage is
     *        freed now; the expected PSN stays, and a late duplicate before that time is
     *        answered (its ACK is stale at the sender).
     * \param qpn the QP \param until the time
     */
    void ReleaseReceiver(uint32_t qpn, Time until);
    /// \return whether QP q receives data packets now (its recvUntil is later)
    static bool IsReceiving(const Qp& q);
    /**
     * \brief A message from another MPI rank (MoseRankMessages::Register())
     * \param kind a RankMessage \param a transfer id or QP number \param b a time step
     */
    void ReceiveRankMessage(uint64_t kind, uint64_t a, uint64_t b);

    /// What the ranks tell each other
    enum RankMessage : uint64_t
    {
        RANK_LAST_BYTE = 0, //!< (transfer id, time step of its last byte)
        RANK_QP_CLOSED = 1, //!< (QP number, time step it closed at its sender)
    };

    // attributes
    uint32_t m_payload{1024};       //!< "PayloadSize"
    uint32_t m_ackInterval{16};     //!< "AckInterval"
    uint32_t m_maxInFlight{0};      //!< "MaxInFlight" (0: no cap)
    RetxMode m_retxMode{GO_BACK_N}; //!< "RetxMode"
    Time m_rto;                     //!< "RetransmitTimeout"
    DataRate m_lineRate;            //!< "LineRate" (0: the endpoint's devices)
    bool m_dcqcn{true};             //!< "DcqcnEnabled"
    bool m_pacePorts{true};         //!< "PacePorts"
    bool m_ecnControl{true};        //!< "EcnCapableControl"
    Time m_cnpInterval;             //!< "CnpInterval"
    DataRate m_minRate;             //!< "MinRate"
    double m_g{1.0 / 256};          //!< "DcqcnG"
    Time m_alphaTimer;              //!< "AlphaTimer"
    Time m_rateTimer;               //!< "RateTimer"
    uint64_t m_byteCounter{0};      //!< "ByteCounter"
    uint32_t m_fastRecovery{5};     //!< "FastRecoverySteps"
    DataRate m_ai;                  //!< "AdditiveIncrease"
    DataRate m_hai;                 //!< "HyperIncrease"
    uint16_t m_pkey{0xffff};        //!< "PartitionKey"

    /// The attributes as this run uses them (ScaleAttributes(); the attributes keep the values
    /// given)
    struct Scaled
    {
        DataRate lineRate;       //!< LineRate / MoseScale (0: the devices')
        DataRate minRate;        //!< MinRate / MoseScale
        DataRate additiveRate;   //!< AdditiveIncrease / MoseScale
        DataRate hyperRate;      //!< HyperIncrease / MoseScale
        uint64_t byteCounter{0}; //!< ByteCounter / MoseScale
        Time rto;                //!< RetransmitTimeout x MoseScale
    };

    Scaled m_scaled; //!< the attributes as this run uses them

    std::vector<Nic> m_nics;                  //!< per endpoint number
    std::map<uint32_t, uint32_t> m_nicOfNode; //!< node id -> endpoint number (SetPortPaused())
    uint64_t m_portPauses{0};                 //!< see GetNPortPauses()
    std::vector<MoseDcqcnConfig> m_ccConfig;  //!< per endpoint (its line rate)
    std::deque<Qp> m_qps; //!< by QP number (a deque: a QP stays put while callbacks open more)
    /// closed QPs: (time step they may be reused at, QP number), the earliest first; in that
    /// order, not in the order closes are learnt, as a rank learns another's close later
    std::set<std::pair<int64_t, uint32_t>> m_freeQps;
    /// (src, dst, source endpoint, destination endpoint) -> the kept QP
    std::map<ConnectionKey, uint32_t> m_open;
    std::vector<uint32_t> m_qpOf;       //!< by id, its QP
    uint64_t m_nQps{0};                 //!< QPs opened (whose sender is on this rank)
    uint64_t m_dataPackets{0};          //!< data packets sent
    uint64_t m_retransmissions{0};      //!< PSNs sent again
    uint64_t m_acks{0};                 //!< ACKs sent
    uint64_t m_nacks{0};                //!< NAKs sent
    uint64_t m_cnps{0};                 //!< CNPs sent
    uint64_t m_cnpsReceived{0};         //!< CNPs received
    uint64_t m_ceMarked{0};             //!< data packets with CE
    uint64_t m_timeouts{0};             //!< retransmission timeouts
    uint64_t m_drops[N_DROP_REASONS]{}; //!< drops by reason

    TracedCallback<uint32_t, uint64_t> m_retransmitTrace;    //!< "Retransmit"
    TracedCallback<uint32_t, uint64_t> m_nackTrace;          //!< "Nack"
    TracedCallback<uint32_t, uint64_t> m_timeoutTrace;       //!< "Timeout"
    TracedCallback<uint32_t> m_cnpTrace;                     //!< "Cnp"
    TracedCallback<uint32_t> m_cnpReceivedTrace;             //!< "CnpReceived"
    TracedCallback<uint32_t, double, double> m_rateTrace;    //!< "RateChange"
    TracedCallback<uint32_t, uint32_t, uint8_t> m_dropTrace; //!< "Drop"
};

} // namespace ns3

#endif /* MOSE_RDMA_TRANSPORT_H */
