/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_OCS_CHANNEL_H
#define MOSE_OCS_CHANNEL_H

#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/ptr.h"
#include "ns3/tag.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The circuit a packet crossing MPI ranks was sent on: the sending port's node id and
 *        device index, and the port's circuit epoch at the start of its transmission.
 *
 * Added by MoseOcsChannel to the copy it hands to MpiInterface::SendPacket and removed on the
 * receiving rank (ns-3.37's Packet::Serialize carries packet tags), where the replica of the
 * sending port's channel decides delivery or wire drop exactly as Arrive() does in one process.
 */
class MoseOcsCircuitTag : public Tag
{
  public:
    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint32_t node{0};    //!< the sending port's node id
    uint32_t ifIndex{0}; //!< the sending port's device index on that node
    uint64_t epoch{0};   //!< the sending port's circuit epoch when the packet was sent
};

/**
 * \ingroup mose-packet
 * \brief The channel of one optical circuit switch (OCS) port: it delivers every transmission of
 *        the port's device to the device at the port the OCS currently pairs it with.
 *
 * A PointToPointChannel joins two devices for ever; an OCS port's peer changes. Each OCS port
 * therefore gets its own MoseOcsChannel, attached to exactly one device (the port's own, through
 * the base class's Attach, called once), and the MoseOcs switch tells it its current peer device
 * (SetPeer / ClearPeer). The devices stay ordinary PointToPointNetDevices, so device queues,
 * queue discs, pcap/ascii tracing and FlowMonitor work unchanged.
 *
 * - Lit port: TransmitStart schedules PointToPointNetDevice::Receive on the peer device, in the
 *   peer node's context, txTime + Delay later (as PointToPointChannel does).
 * - Dark port (no peer): TransmitStart drops the packet, counts it and fires "DarkPortDrop", and
 *   returns false (the device stays busy for the transmit time and fires PhyTxDrop, which
 *   FlowMonitor does not hook: hence this trace).
 * - Circuit changed while a packet is on the wire: every SetPeer/ClearPeer starts a new circuit
 *   epoch; a packet whose epoch is no longer current when its last bit would arrive is lost,
 *   counted and fired on "WireDrop", and never reaches the old (or a new) peer.
 *
 * GetNDevices() is 1 while dark and 2 while lit; GetDevice(0) is the port's own device and
 * GetDevice(1) the current peer device, so PointToPointNetDevice::GetRemote(), global routing and
 * nix-vector routing see the live circuit. The "Delay" attribute is the base class's.
 *
 * The base class's TxRxPointToPoint trace (used by NetAnim) is private there and is not fired.
 */
class MoseOcsChannel : public PointToPointChannel
{
  public:
    /**
     * \brief Signature of the "DarkPortDrop" and "WireDrop" traces.
     * \param packet the lost packet
     * \param group the group of the port the packet was sent from
     * \param port the port (0..d-1) within its group
     */
    typedef void (*PortPacketCallback)(Ptr<const Packet> packet, uint32_t group, uint32_t port);

    /**
     * \brief Get the TypeId
     * \return the TypeId for this class
     */
    static TypeId GetTypeId();

    /// A dark channel with no device and port (0, 0)
    MoseOcsChannel();
    ~MoseOcsChannel() override;

    /**
     * \brief Names the OCS port this channel belongs to (used in traces and logs).
     * \param group the group index
     * \param port the port index within the group
     */
    void SetPort(uint32_t group, uint32_t port);
    /// \return the group of this channel's port
    uint32_t GetGroup() const;
    /// \return the port index (within its group) of this channel's port
    uint32_t GetPort() const;

    /**
     * \brief Attaches the port's own device: calls device->Attach(this), which calls the base
     *        class's Attach exactly once.
     *
     * Throws a mose::Error if the device is null, already attached to a channel, or if this
     * channel already has a device (a second base Attach would make a two-device channel, a third
     * writes out of bounds in release builds of ns-3).
     * \param device the port's device
     */
    void AttachPortDevice(Ptr<PointToPointNetDevice> device);

    /// \return the port's own device (null before AttachPortDevice)
    Ptr<PointToPointNetDevice> GetPortDevice() const;

    /**
     * \brief Lights the port: later transmissions go to `peer`. Starts a new circuit epoch.
     *
     * Called by MoseOcs on both ends of a circuit; a null peer is a programming error.
     * \param peer the device at the other end of the circuit
     */
    void SetPeer(Ptr<PointToPointNetDevice> peer);

    /**
     * \brief Darkens the port. Starts a new circuit epoch: packets on the wire are lost when their
     *        delivery time comes ("WireDrop"); later transmissions are refused ("DarkPortDrop").
     */
    void ClearPeer();

    /// \return true if the port has a peer
    bool IsLit() const;
    /// \return the current peer device, or null while dark
    Ptr<PointToPointNetDevice> GetPeerDevice() const;
    /// \return the circuit epoch: the number of SetPeer and ClearPeer calls so far
    uint64_t GetEpoch() const;

    /// \return packets sent from this port whose last bit has not yet arrived (or been lost)
    uint32_t GetPacketsInFlight() const;
    /// \return packets refused because the port was dark
    uint64_t GetDarkDrops() const;
    /// \return packets lost on the wire because the circuit changed during their flight
    uint64_t GetWireDrops() const;
    /// \return packets delivered to a peer device
    uint64_t GetDelivered() const;

    /**
     * \brief Starts a transmission from the port's device (called by PointToPointNetDevice).
     * \param p the packet
     * \param src the sending device; must be the port's own device
     * \param txTime the transmit time of the packet at the device's data rate
     * \return true if the packet was put on the wire, false if the port is dark
     */
    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /// \return 0 before a device is attached, 1 while dark, 2 while lit
    std::size_t GetNDevices() const override;

    /**
     * \param i 0 for the port's own device, 1 for the current peer device
     * \return the device, or null if there is none at that index
     */
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \brief Distributed runs (MPI, more than one rank): fixes the lookahead every circuit
     *        crossing ranks must respect, and makes a dark port report its own device as
     *        GetDevice(1) (GetNDevices() stays 1), so that ns-3's
     *        DistributedSimulatorImpl::CalculateLookAhead, which dereferences GetDevice(1) of
     *        every local point-to-point channel at Run(), sees a local self-loop and skips it.
     *        MoseTopologyHelper::PrepareDistributedRun() calls it; zero turns it off.
     * \param lookAhead the lookahead; a circuit to another rank with a smaller Delay is a fatal
     *        error when it is set up or used
     */
    static void SetDistributedLookAhead(Time lookAhead);
    /// \return the lookahead set by SetDistributedLookAhead (zero: not a distributed run)
    static Time GetDistributedLookAhead();

    /**
     * \brief Receives, on this rank, a packet sent to this port's device from another rank
     *        (the MpiReceiver callback of the port, MoseOcs::AddPort sets it under NS3_MPI):
     *        removes its MoseOcsCircuitTag and lets the replica of the sending port's channel
     *        deliver it or count it as a wire drop.
     * \param p the packet
     */
    void ReceiveFromRank(Ptr<Packet> p);

  protected:
    void DoDispose() override;

    /**
     * \brief Puts a packet of a lit port on the wire towards the current peer: the one place
     *        that decides how a packet reaches the other end.
     *
     * Peer on this rank (always, without MPI): schedules Arrive() in the peer node's context at
     * txTime + Delay. Peer on another rank (NS3_MPI, MpiInterface enabled, the peer node's
     * GetSystemId() differs from this rank's): sends a copy tagged with MoseOcsCircuitTag
     * through MpiInterface::SendPacket for the same time to the peer's node id and device
     * index, and schedules LeaveWire() here at that time (the in-flight count is the sending
     * rank's). The receiving rank's replica of this channel decides delivery or wire drop with
     * the same epoch test (ArriveFromRank()), so each packet is counted once, on one rank.
     *
     * \param p the packet
     * \param txTime its transmit time
     */
    virtual void DeliverToPeer(Ptr<const Packet> p, Time txTime);

    /**
     * \brief The last bit of a packet reaches the far end of the circuit it was sent on: hand it
     *        to `peer` if the circuit is unchanged, otherwise count and trace a wire drop.
     * \param p the packet
     * \param peer the peer device when the packet was sent
     * \param epoch the circuit epoch when the packet was sent
     */
    void Arrive(Ptr<Packet> p, Ptr<PointToPointNetDevice> peer, uint64_t epoch);

    /// \brief The last bit of a packet sent to another rank has arrived there: one fewer in
    ///        flight on the sending rank
    void LeaveWire();

    /**
     * \brief On the receiving rank: a packet sent from this channel's port on another rank
     *        arrives at `peer`; delivered if this (replicated) port's epoch is still `epoch`,
     *        otherwise counted and traced as a wire drop here.
     * \param p the packet, without its tag
     * \param peer the receiving device
     * \param epoch the epoch it was sent in
     */
    void ArriveFromRank(Ptr<Packet> p, Ptr<PointToPointNetDevice> peer, uint64_t epoch);

    /// \return true if `peer` is on another MPI rank (false without NS3_MPI)
    static bool IsOnOtherRank(Ptr<PointToPointNetDevice> peer);

  private:
    uint32_t m_group;                    //!< group of this port
    uint32_t m_port;                     //!< port index within the group
    Ptr<PointToPointNetDevice> m_device; //!< the port's own device
    Ptr<PointToPointNetDevice> m_peer;   //!< current peer device, null while dark
    uint64_t m_epoch;                    //!< incremented on every peer change
    uint32_t m_inFlight;                 //!< packets on the wire
    uint64_t m_darkDrops;                //!< packets refused while dark
    uint64_t m_wireDrops;                //!< packets lost on the wire
    uint64_t m_delivered;                //!< packets handed to a peer

    static Time s_lookAhead; //!< the distributed lookahead (zero: not a distributed run)

    /// fired for a packet refused while dark
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_darkDropTrace;
    /// fired for a packet lost on the wire
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_wireDropTrace;
};

} // namespace ns3

#endif /* MOSE_OCS_CHANNEL_H */
