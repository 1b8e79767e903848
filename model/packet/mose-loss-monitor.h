/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LOSS_MONITOR_H
#define MOSE_LOSS_MONITOR_H

#include "mose-ocs.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief Counts every packet the fabric drops, by drop point, so that "zero loss" is a count.
 *
 * The drop points, each hooked through its own trace:
 *  - DEVICE_QUEUE: a device queue was full (the optical ports and the host links): the queue
 *    dropped the packet (Queue "Drop"), or, on a device with flow control and no queue disc,
 *    the traffic-control layer dropped it because the device queue was stopped
 *    (TrafficControlLayer "TcDrop");
 *  - QUEUE_DISC: a root queue disc dropped (QueueDisc "Drop", before enqueue or after dequeue,
 *    its child queue discs' drops included; MoseTopologyHelper installs ns-3's default root
 *    queue disc on every device unless its DefaultQueueDisc is false). Like FlowMonitor, the
 *    monitor hooks the queue discs that exist when Install() runs: install it after
 *    replacing them (TrafficControlHelper::Uninstall() and Install()); a queue disc installed
 *    or replaced after it makes its counts refuse (CheckQueueDiscs()), never read zero;
 *  - IPV4: Ipv4L3Protocol "Drop" for TTL expiry, no route (RouteInput refused), bad checksum,
 *    interface down, fragment timeout or duplicate (GetIpv4Drops(reason) splits them);
 *  - DARK_PORT and WIRE: the OCS's DarkPortDrop and WireDrop (a packet sent into a port without
 *    circuit, or on the wire when its circuit changed); the device's PhyTxDrop for the dark port
 *    is the same packet and is not counted again;
 *  - NO_ROUTE: MoseRoutingProtocol's NoRouteDrop (RouteInput and RouteOutput). When RouteInput
 *    reports it through the error callback, Ipv4L3Protocol fires Drop with DROP_ROUTE_ERROR for
 *    the same packet: such drops are counted here, under NO_ROUTE, and not under IPV4; and when
 *    a locally sent TCP segment finds no route, TcpL4Protocol and Ipv4L3Protocol::Send both ask
 *    the protocol (one NoRouteDrop) and Ipv4L3Protocol fires Drop with DROP_NO_ROUTE for the
 *    same packet in the same event: counted once, under NO_ROUTE;
 *  - HOLD: a packet the routing protocol held for an unreachable destination was dropped on
 *    hold-queue overflow or timeout (reported by the protocol's HoldDrop trace when it has one;
 *    also through DROP_ROUTE_ERROR, not counted twice).
 * GetTotal() is the number of packets lost, each counted once.
 *
 * A queue disc that marks instead of dropping (ECN: RedQueueDisc with UseEcn, the CoDel family's
 * CE threshold, ...) loses nothing; its marks (QueueDisc "Mark", children included) are counted
 * apart: GetMarks().
 * Config path: /MoseLossMonitorList/[i] (Install() lists the monitor, see MoseObjectList).
 */
class MoseLossMonitor : public Object
{
  public:
    /// The drop points
    enum Point
    {
        DEVICE_QUEUE, //!< device queue overflow
        QUEUE_DISC,   //!< queue disc drop
        IPV4,         //!< Ipv4L3Protocol drop (reasons other than DROP_ROUTE_ERROR)
        DARK_PORT,    //!< sent into an OCS port without circuit
        WIRE,         //!< on the wire when the circuit changed
        NO_ROUTE,     //!< no route at the routing protocol
        HOLD,         //!< hold queue overflow or timeout
        N_POINTS,     //!< number of drop points
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a monitor with every count at zero; Install() hooks the drop points
    MoseLossMonitor();
    ~MoseLossMonitor() override;

    /**
     * \brief Hooks the drop points of these nodes (their devices' queues, root queue discs,
     *        Ipv4L3Protocol and MoseRoutingProtocol, where present) and of the OCS (may be null).
     * \param nodes the nodes (group nodes and hosts)
     * \param ocs the switch
     */
    void Install(const NodeContainer& nodes, Ptr<MoseOcs> ocs);

    /// \param point a drop point \return packets dropped there
    uint64_t GetDrops(Point point) const;
    /// \param reason an Ipv4L3Protocol drop reason \return packets dropped for it
    uint64_t GetIpv4Drops(Ipv4L3Protocol::DropReason reason) const;
    /// \return packets lost, each counted once
    uint64_t GetTotal() const;
    /**
     * \brief Checks that every root queue disc the monitor hooked is still the one on its
     *        device, and that no device got one after Install(): a queue disc installed or
     *        replaced later drops unseen, so every count would be false. GetDrops(),
     *        GetTotal() and WriteCsv() check it and throw a mose::Error naming the node and
     *        device; install the monitor after the queue discs (TrafficControlHelper).
     * \return an empty text, or what changed (for callers inside events, which must not throw)
     */
    std::string CheckQueueDiscs() const;
    /// \return packets the root queue discs marked (ECN Congestion Experienced), not lost
    uint64_t GetMarks() const;
    /// \brief Sets every count (drops and marks) to zero
    void Reset();
    /// \param point a drop point \return its name ("device-queue", ...)
    static std::string GetPointName(Point point);
    /// \brief Writes "point,drops" rows, a total and the queue discs' ECN marks
    ///        ("ecn-marks,N"). \param os the stream
    void WriteCsv(std::ostream& os) const;

    /**
     * TracedCallback signature of a counted drop.
     * \param point the drop point
     * \param packet the packet (may be null where the trace gives none)
     */
    typedef void (*DropCallback)(Point point, Ptr<const Packet> packet);

  private:
    /// Counts a drop at a point and fires the trace
    void Count(Point point, Ptr<const Packet> packet);
    /// Ipv4L3Protocol Drop sink
    void Ipv4Drop(const Ipv4Header& header,
                  Ptr<const Packet> packet,
                  Ipv4L3Protocol::DropReason reason,
                  Ptr<Ipv4> ipv4,
                  uint32_t interface);

    std::array<uint64_t, N_POINTS> m_drops{}; //!< per drop point
    std::array<uint64_t, 8> m_ipv4Drops{};    //!< per Ipv4L3Protocol reason
    uint64_t m_lastNoRouteUid{UINT64_MAX};    //!< uid of the last NO_ROUTE drop
    Time m_lastNoRouteAt{Time::Max()};        //!< when it was counted
    uint64_t m_marks{0};                      //!< queue disc ECN marks
    /// every device Install() looked at, with the root queue disc it had (null: none)
    std::vector<std::pair<Ptr<NetDevice>, Ptr<QueueDisc>>> m_discs;
    TracedCallback<Point, Ptr<const Packet>> m_dropTrace; //!< every counted drop
    TracedCallback<Ptr<const Packet>> m_markTrace;        //!< every counted mark
};

} // namespace ns3

#endif /* MOSE_LOSS_MONITOR_H */
