/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PFC_H
#define MOSE_PFC_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/queue.h"
#include "ns3/tag.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class Ipv4Header;
class MoseOcs;
class NetDeviceQueue;
class QueueDisc;
class QueueDiscItem;

/**
 * \ingroup mose-packet
 * \brief The ingress device of a packet at a node with PFC (MosePfc): added when the packet is
 *        received, removed when it leaves the node's egress queue disc.
 */
class MosePfcIngressTag : public Tag
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

    uint32_t node{0};    //!< the node's id
    uint32_t ifIndex{0}; //!< the device it arrived on (its index on the node)
};

/**
 * \ingroup mose-packet
 * \brief Priority flow control (IEEE 802.1Qbb) on a packet-level fabric, one priority: the
 *        nodes that forward count the bytes each ingress device has in their egress queue
 *        discs and pause the sender across that link above XOFF, resume it below XON.
 *
 * Ingress accounting, with no change to ns-3: a packet is tagged with its ingress device when
 * the device receives it (PhyRxEnd), counted at its egress queue disc's Enqueue (and Requeue)
 * and uncounted at Dequeue (and DropAfterDequeue). Packets the node sends itself (its own NIC,
 * MoseRdmaTransport) count against one more ingress, the NIC's: above its XOFF the NIC stops
 * sending at once, as if it sat behind the switch on an internal link.
 *
 * A pause travels the link: it reaches the peer device after the link's delay plus a 64-byte
 * frame's transmission time. The paused device's queue disc stops dequeuing (its
 * NetDeviceQueue is stopped, and stopped again whenever the device wakes it because its own
 * queue has room); the frame on the wire and the one in the device queue still go. The
 * listeners (MoseRdmaTransport::SetPortPaused) hear of it, so a NIC stops pulling from its
 * QPs for that port. A resume undoes it the same way.
 *
 * Thresholds per ingress device: the buffer (BufferBytes, or the smallest egress queue disc's
 * capacity divided by the node's devices plus one for its NIC) holds XOFF plus the headroom.
 * The headroom is what still arrives after XOFF is crossed: twice the link's delay at its rate,
 * the pause frame, and three frames of the device's MTU (the one being received, the one the
 * peer is sending, the one in the peer's device queue). A disc that counts packets charges one
 * MTU per packet. Install() refuses thresholds whose headroom does not fit, naming the
 * attribute.
 *
 * Packets a switch's routing protocol holds for a route (MoseRoutingProtocol's hold queue,
 * during a mode switch) are released to an egress queue disc only while their ingress is at or
 * below its XOFF with them (the protocol's release filter): a release is an arrival from that
 * ingress, so no ingress exceeds its buffer and the discs do not overflow. Held packets do not
 * pause their sender: a pause would stop the very ports the switch is draining.
 *
 * A circuit that goes dark (MoseOcs's CircuitDisconnected) releases the pause of both of its
 * ends; a circuit that is lit while an end's ingress is above XOFF pauses the new peer.
 *
 * Deadlock: pauses along a cycle of routes can wait on each other forever. A port paused for
 * longer than StormTimeout (scaled by MoseScale) is counted and fired on "Storm" once per pause;
 * the run goes on.
 *
 * Several MPI ranks (MoseRankMessages::IsDistributed()): a rank counts the ingress of its own
 * nodes and pauses their egress. A pause to a peer on another rank travels as a message to that
 * rank, arriving after the same link delay and frame time (at least the lookahead, which is the
 * smallest delay of a link between ranks). The counters are each rank's own; the ranks' counts
 * add up to the run's.
 */
class MosePfc : public Object
{
  public:
    /**
     * \brief Signature of the "PauseSent", "PauseReceived" and "Resume" traces.
     * \param nodeId the node of the device
     * \param ifIndex the device's index on its node
     */
    typedef void (*PortCallback)(uint32_t nodeId, uint32_t ifIndex);
    /**
     * \brief Signature of the "Storm" trace.
     * \param nodeId the node of the paused device \param ifIndex the device
     * \param paused how long it has been paused
     */
    typedef void (*StormCallback)(uint32_t nodeId, uint32_t ifIndex, Time paused);

    /// A listener: the node, its device paused (true) or resumed (false); a null device is
    /// the node's own NIC, paused by its own share of the node's buffer
    using PauseListener = Callback<void, Ptr<Node>, Ptr<NetDevice>, bool>;

    /// the bytes of a pause frame (an Ethernet MAC control frame)
    static constexpr uint32_t PAUSE_FRAME_BYTES = 64;

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    MosePfc();
    ~MosePfc() override;

    /**
     * \brief Installs PFC (if Enabled): ingress accounting on the switches' point-to-point
     *        devices, pausable egress on those and on the hosts' devices. Every such device
     *        needs a root queue disc. Lists this object at /MosePfcList/[i]. mose::Error
     *        naming the attribute for thresholds out of range or a headroom that does not fit.
     * \param switches the nodes that forward (a fabric's group nodes)
     * \param hosts nodes behind them that only send and receive (may be empty)
     */
    void Install(const NodeContainer& switches, const NodeContainer& hosts);
    /// \brief Follows an OCS's circuits: a dark circuit releases its ends' pauses, a new one
    ///        is paused at once by an end above XOFF \param ocs the switch
    void ConnectOcs(Ptr<MoseOcs> ocs);
    /// \brief Adds a listener to every pause and resume of a device Install() manages
    /// \param listener the callback
    void AddPauseListener(PauseListener listener);

    /// \return whether Install() installed it (Enabled was true)
    bool IsInstalled() const;

    /// \return pauses sent by all devices (resumes not counted; NIC pauses not counted)
    uint64_t GetNPausesSent() const;
    /// \return pauses received by all devices that paused a running egress
    uint64_t GetNPausesReceived() const;
    /// \return the times a node's NIC was paused by its own share of the buffer
    uint64_t GetNNicPauses() const;
    /// \return pause frames lost: sent into a dark port, or their circuit changed in flight
    uint64_t GetNPausesLost() const;
    /// \return ports paused longer than StormTimeout (once per pause)
    uint64_t GetNStorms() const;
    /// \return errors caught inside simulation events (a pause that could not reach another
    ///         MPI rank, a message naming no device): 0 in a sound run
    uint64_t GetNErrors() const;
    /// \return the sum over devices of the time they were paused (until now)
    Time GetPausedTime() const;
    /// \return the longest single pause of any device (until now)
    Time GetLongestPause() const;

    /// \param device a device Install() manages \return pauses it sent
    uint64_t GetNPausesSent(Ptr<NetDevice> device) const;
    /// \param device a device Install() manages \return pauses that stopped it
    uint64_t GetNPausesReceived(Ptr<NetDevice> device) const;
    /// \param device a device Install() manages \return the time it was paused (until now)
    Time GetPausedTime(Ptr<NetDevice> device) const;
    /// \param device a device \return whether it is paused now
    bool IsPaused(Ptr<NetDevice> device) const;
    /// \param device a switch's device \return its ingress XOFF, bytes
    uint64_t GetXoff(Ptr<NetDevice> device) const;
    /// \param device a switch's device \return its ingress XON, bytes
    uint64_t GetXon(Ptr<NetDevice> device) const;
    /// \param device a switch's device \return its ingress headroom, bytes
    uint64_t GetHeadroom(Ptr<NetDevice> device) const;
    /// \param device a switch's device \return the most bytes its ingress had queued at once
    uint64_t GetPeakIngressBytes(Ptr<NetDevice> device) const;

  protected:
    void DoDispose() override;

  private:
    /// One ingress of a switch: a device, or the node's own NIC
    struct Ingress
    {
        Ptr<NetDevice> device;  //!< null: the node's NIC
        uint64_t bytes{0};      //!< bytes now in the node's egress queue discs
        uint64_t peak{0};       //!< the most bytes at once
        uint64_t xoff{0};       //!< pause above this
        uint64_t xon{0};        //!< resume at or below this
        uint64_t headroom{0};   //!< what may still arrive after a pause
        Time frameDelay;        //!< a pause frame's time to the peer: delay + transmission
        bool pausing{false};    //!< above XOFF, not yet back to XON
        uint64_t pausesSent{0}; //!< pauses it sent
    };

    /// One device's egress: its queue disc, and whether a pause stopped it
    struct Egress
    {
        Ptr<NetDevice> device;         //!< the device
        Ptr<QueueDisc> disc;           //!< its root queue disc
        Ptr<NetDeviceQueue> txq;       //!< its transmission queue (flow control)
        Ptr<Queue<Packet>> devQueue;   //!< the device's own queue
        uint64_t cell{0};              //!< bytes a packet is charged (packet-counting disc)
        uint64_t capacity{0};          //!< the disc's buffer, bytes
        bool paused{false};            //!< a pause stopped it
        Time since;                    //!< when the current pause began
        Time pausedTime;               //!< time paused, closed pauses
        uint64_t pausesReceived{0};    //!< pauses that stopped it
        EventId watchdog;              //!< StormTimeout of the current pause
        Ptr<const QueueDiscItem> last; //!< the item last dequeued (a Requeue gives it back)
        uint32_t lastIngress{0};       //!< its ingress
    };

    /// One node Install() manages
    struct NodeState
    {
        Ptr<Node> node;               //!< the node
        bool forwards{false};         //!< a switch: ingress accounting
        std::vector<Ingress> ingress; //!< by device index; the last one is the NIC
        std::vector<Egress> egress;   //!< by device index (device null: not managed)
        uint64_t holdCell{0};         //!< bytes a held packet is charged (packet-counting discs)
    };

    /// \brief The thresholds of every ingress of node n (mose::Error naming the attribute)
    void SetThresholds(NodeState& n);
    /// \brief Hooks device i of node n (index k): egress, and ingress if n forwards
    void HookDevice(uint32_t k, NodeState& n, uint32_t i);
    /// \brief The device queue of device i of node k let a packet go: keeps its queue disc
    ///        stopped while paused (the device wakes it when its own queue has room)
    void DeviceDequeued(uint32_t k, uint32_t i);
    /// \brief PhyRxEnd of device i of node k: tags the packet with its ingress
    void Received(uint32_t k, uint32_t i, Ptr<const Packet> packet);
    /// \brief Sets the release filter of node k's routing protocol (MayRelease())
    void HookHoldQueue(uint32_t k);
    /// \return whether node k's hold queue may release a packet: its ingress stays at or
    ///         below XOFF with it
    bool MayRelease(uint32_t k, Ptr<const Packet> packet, const Ipv4Header& header) const;
    /// \return the ingress of node k that a packet counts against: the device its tag names,
    ///         or the node's NIC
    uint32_t IngressIndex(uint32_t k, Ptr<const Packet> packet) const;
    /// \brief Enqueue or Requeue at device i's disc of node k
    void Enqueued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item);
    /// \brief Dequeue or DropAfterDequeue at device i's disc of node k
    void Dequeued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item);
    /// \brief Requeue at device i's disc of node k (the item last dequeued)
    void Requeued(uint32_t k, uint32_t i, Ptr<const QueueDiscItem> item);
    /// \brief Adds (or takes) bytes at ingress j of node k; pauses or resumes on a threshold
    void Count(uint32_t k, uint32_t j, int64_t bytes);
    /// \brief Ingress j of node k sends a pause (or a resume) to its peer
    void SendPause(uint32_t k, uint32_t j, bool pause);
    /// \brief A pause (or resume) from `from` arrives at `to`
    void PauseArrives(Ptr<NetDevice> from, Ptr<NetDevice> to, bool pause);
    /// \brief A pause (or resume) from another MPI rank (MoseRankMessages::Register()):
    ///        pause 1 or 0, then each device as its node id << 32 | its index on the node
    void ReceiveRankMessage(uint64_t pause, uint64_t from, uint64_t to);
    /// \brief Stops device i's egress of node k
    void Pause(uint32_t k, uint32_t i);
    /// \brief Restarts device i's egress of node k
    void Resume(uint32_t k, uint32_t i);
    /// \brief StormTimeout of device i's pause of node k
    void Storm(uint32_t k, uint32_t i);
    /// \brief A circuit of the OCS went dark (release) or was lit (lit)
    void CircuitChanged(Ptr<MoseOcs> ocs,
                        bool lit,
                        uint32_t ga,
                        uint32_t pa,
                        uint32_t gb,
                        uint32_t pb);
    /// \brief Tells the listeners
    void Notify(Ptr<Node> node, Ptr<NetDevice> device, bool paused);
    /// \return the device at the other end of device's channel, or null (dark, not a link)
    static Ptr<NetDevice> Peer(Ptr<NetDevice> device);
    /// \return the state of a managed device's node and its index, or nullptr
    const NodeState* Find(Ptr<NetDevice> device) const;
    /// \return the egress of a managed device (mose::Error if it is not one)
    const Egress& EgressOf(Ptr<NetDevice> device) const;
    /// \return the ingress of a switch's device (mose::Error if it is not one)
    const Ingress& IngressOf(Ptr<NetDevice> device) const;

    // attributes
    bool m_enabled{true}; //!< "Enabled"
    uint64_t m_buffer{0}; //!< "BufferBytes" (0: derived)
    uint64_t m_xoff{0};   //!< "XoffBytes" (0: derived)
    uint64_t m_xon{0};    //!< "XonBytes" (0: derived)
    Time m_stormTimeout;  //!< "StormTimeout", before MoseScale
    Time m_scaledStorm;   //!< StormTimeout x MoseScale

    bool m_installed{false};                  //!< Install() ran
    std::vector<NodeState> m_nodes;           //!< the nodes, in Install() order
    std::map<uint32_t, uint32_t> m_nodeIndex; //!< node id -> index in m_nodes
    std::vector<PauseListener> m_listeners;   //!< AddPauseListener()
    uint64_t m_pausesSent{0};                 //!< see GetNPausesSent()
    uint64_t m_pausesReceived{0};             //!< see GetNPausesReceived()
    uint64_t m_nicPauses{0};                  //!< see GetNNicPauses()
    uint64_t m_pausesLost{0};                 //!< see GetNPausesLost()
    uint64_t m_storms{0};                     //!< see GetNStorms()
    uint64_t m_errors{0};                     //!< see GetNErrors()
    bool m_distributed{false};                //!< Install() on several MPI ranks
    uint32_t m_rankHandler{0};                //!< MoseRankMessages number (distributed)
    Time m_longest;                           //!< longest closed pause

    TracedCallback<uint32_t, uint32_t> m_pauseSentTrace;     //!< "PauseSent"
    TracedCallback<uint32_t, uint32_t> m_pauseReceivedTrace; //!< "PauseReceived"
    TracedCallback<uint32_t, uint32_t> m_resumeTrace;        //!< "Resume"
    TracedCallback<uint32_t, uint32_t, Time> m_stormTrace;   //!< "Storm"
};

} // namespace ns3

#endif /* MOSE_PFC_H */
