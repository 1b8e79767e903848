/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROUTING_PROTOCOL_H
#define MOSE_ROUTING_PROTOCOL_H

#include "mose-hold-queue.h"
#include "mose-route-table.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-control-layer.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief The packet-level routing protocol of one group node: forwards over the fabric's
 *        circuits along the shared MoseRouteTable.
 *
 * Every group node runs one, bound to the fabric's single MoseRouteTable. Forwarding is by
 * destination group: the group comes from the address plan (MoseAddressing::GetGroupOf(), O(1)
 * arithmetic), the output port from the table (O(1); under ECMP plus a 5-tuple hash and a scan
 * of the d ports), the interface from this node's port -> interface map. Returned and forwarded
 * routes always carry a gateway (the peer port's address) and the output interface's address as
 * source.
 *
 * Decision order for a packet towards address a (RouteOutput() and RouteInput() share it):
 *  1. a is multicast, 255.255.255.255 or a group block's broadcast address: never forwarded.
 *     RouteInput() delivers it locally when it is addressed to this node (lcb); RouteOutput()
 *     refuses it (ERROR_NOROUTETOHOST, not counted as a drop).
 *  2. a is one of this node's addresses (Ipv4::IsDestinationAddress): local delivery; RouteOutput
 *     returns a route over the loopback interface.
 *  3. a is a host registered with AddHostRoute(): sent to that host's interface.
 *  4. a lies in another group's block: the table's port towards that group.
 *  5. otherwise (outside the fabric, an unassigned address of this group's block, unreachable
 *     group, unmapped or down output interface): no route. The packet is counted and traced
 *     ("NoRouteDrop"); RouteInput() calls the error callback with ERROR_NOROUTETOHOST
 * (Ipv4L3Protocol then fires Drop with DROP_ROUTE_ERROR), RouteOutput() returns null with
 *     ERROR_NOROUTETOHOST. A packet refused twice in a row (TCP asks, then Ipv4L3Protocol::Send
 *     asks again for the same packet) is counted once. Inside an Ipv4ListRouting the packet is
 *     declined instead (see List routing below).
 *
 * ECMP hashes (source, destination, protocol, source port, destination port) with the node mixed
 * in, so every packet of a flow takes the same path and successive hops choose independently.
 * Ports are read from unfragmented TCP and UDP packets in RouteInput(); at the source,
 * TcpL4Protocol asks RouteOutput() with the TCP header in place, but UdpSocketImpl asks before
 * adding the UDP header, so a UDP flow's first hop depends on its addresses only (later hops
 * see its ports).
 *
 * Hold queue (attribute "HoldPackets", off by default): instead of dropping a packet whose
 * destination is another group of the fabric but has no route right now (a dark or down port, a
 * disconnected graph during a reconfiguration), the node holds it, AODV's deferred route output:
 * RouteOutput() tags the packet and returns a route over the loopback device (a query without a
 * packet, such as TCP choosing its source address, gets the same route), the packet comes back
 * through RouteInput() on the loopback device and waits in a FIFO queue of at most
 * "HoldQueueSize" packets per node; packets in transit without a route wait there too. The queue
 * is retried when the route table is recomputed ("RoutesRecomputed") and when an interface comes
 * up; a packet that waited "HoldTime", or the oldest one when the queue is full, is dropped: it
 * is counted in GetHoldDrops() and fired on "HoldDrop" (not on "NoRouteDrop", so a loss monitor
 * counts it once, at its own drop point), and the error callback reports ERROR_NOROUTETOHOST.
 * Released packets enter their output device only while it has room (below its root queue
 * disc's MaxSize, or, without a queue disc, while its device queue accepts packets): the others
 * stay held, in order, and are retried after "HoldRetryInterval",
 * so that releasing a whole fabric's held packets at once never overflows a device queue.
 * A release filter (SetHoldReleaseFilter(), set by MosePfc) can keep a packet held longer.
 * A packet that leaves the queue with a route fires "HoldRelease" with its waiting time;
 * GetHoldEntered() and GetLongestHold() give the totals (a ModeSwitcher reads them per switch).
 * Unknown addresses are never held. The queue itself, its limit, expiry and counters, is a
 * MoseHoldQueue; the protocol schedules its expiry and retries.
 *
 * Without the hold queue, a query without a packet for another group that has no route right
 * now (TCP's Connect() choosing its source address during a blackout) gets the same loopback
 * route: the connection opens, its SYN is dropped for want of a route and counted
 * ("NoRouteDrop"), and TCP retransmits it. Answered "no route", Connect() would fail for good:
 * no packet sent, nothing counted, and a sender that never retries (BulkSend) stuck at 0 bytes.
 *
 * List routing: the protocol also works inside an Ipv4ListRouting, beside e.g. ns-3's static
 * routing for host-side routes (Ipv4ListRoutingHelper: static routing at priority 0,
 * MoseRoutingHelper at 10; MoseTopologyHelper::SetListRouting() does this for a fabric). Give it
 * the higher priority: the list asks it first. Steps 1-4 and the hold queue are the same
 * (the list delivers local packets itself before asking any protocol; a held packet comes back
 * through the list's RouteInput on the loopback device, whose interface forwards). Step 5
 * differs: a packet without a route here is declined, not dropped, so that the list's next
 * protocol may route it (RouteOutput() returns null, RouteInput() returns false, without the
 * error callback); it is not counted in GetNoRouteDrops() nor fired on "NoRouteDrop". A
 * packet that no protocol of the list routes is dropped by Ipv4L3Protocol ("Drop" with
 * DROP_NO_ROUTE; MoseLossMonitor counts it at its IPV4 point). Held packets are this protocol's
 * alone: their drops are counted and fired on "HoldDrop" as above.
 *
 * Config path: /NodeList/[n]/$ns3::MoseRoutingProtocol (MoseRoutingHelper aggregates the
 * protocol to its node, as ns-3's AODV and OLSR helpers do; also inside an Ipv4ListRouting);
 * Find() is the one lookup from a node. Its table: .../$ns3::MoseRoutingProtocol/RouteTable.
 *
 * Fast transit (attribute "FastTransit", off by default; mose::Experiment, which the module's
 * programs run, turns it on unless the user set it): a packet that only passes through this
 * node skips ns-3's IPv4 receive and forward path. The protocol takes the receive callback of
 * every point-to-point device of its node (the fabric's ports and host links). A packet from
 * such a device that Decide() sends on over another point-to-point device with room in its MTU
 * goes straight to the traffic-control layer's Send() on that device (its queue disc), with
 * its TTL lowered and its priority tag set as Ipv4L3Protocol::IpForward() does. Every other
 * packet (for this node, without a route, to be held, with a TTL of 1, with a bad checksum,
 * over an interface that is down or does not forward, or of another protocol) goes up through
 * the traffic-control layer's Receive() as the node would pass it, and ns-3's path handles it
 * as before. No event is added or removed, so a run writes the same outputs with it and
 * without it (test FastTransit.*). What a forwarded packet no longer passes through: the
 * input node's other protocol handlers on that device (the node passes IPv4 to traffic control
 * only, so only a handler a script registered itself, e.g. a packet socket, misses it), the
 * node's raw IPv4 sockets, and Ipv4L3Protocol's "Rx", "Tx" and "UnicastForward" traces there:
 * FlowMonitor sees the same flows, delays and drops, but its "timesForwarded" stays 0 and its
 * MaxPerHopDelay counts from the packet's send.
 * Each such packet is counted (GetFastForwarded()) and fired on "FastForward", with the
 * signature of "UnicastForward". It is taken only when the protocol is its node's Ipv4 routing
 * protocol (not inside an Ipv4ListRouting) and Node's "ChecksumEnabled" was false when the
 * interface came up. Set it false for ns-3's path throughout.
 *
 * Interface state: a route over an interface that is down (Ipv4::IsUp) counts as no route. The
 * table itself does not change when interfaces go up or down: the OCS / ModeSwitcher updates it
 * with the new port matching. NotifyAddAddress/NotifyRemoveAddress need no action (addresses are
 * read from Ipv4 per packet).
 */
class MoseRoutingProtocol : public Ipv4RoutingProtocol
{
  public:
    /// The "none" value of groups, ports and interfaces
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * \brief Register this type.
     * \return The object TypeId.
     */
    static TypeId GetTypeId();

    /**
     * \brief The one lookup of a node's MoseRoutingProtocol: the protocol aggregated to the node
     *        (MoseRoutingHelper aggregates every protocol it creates, as ns-3's AODV and OLSR
     *        helpers do), else the node's Ipv4 routing protocol itself or one inside its
     *        Ipv4ListRouting (searched in priority order, nested lists included).
     * \param node a node (may be null)
     * \return its protocol, or null if it has none (MoseRoutingHelper::GetRouting() throws
     *         instead)
     */
    static Ptr<MoseRoutingProtocol> Find(Ptr<Node> node);

    /// Creates a protocol with no table, no group and no port map
    MoseRoutingProtocol();
    /// Destructor
    ~MoseRoutingProtocol() override;

    /// \param table the fabric's shared route table
    void SetRouteTable(Ptr<MoseRouteTable> table);
    /// \return the fabric's route table
    Ptr<MoseRouteTable> GetRouteTable() const;

    /// \param group this node's group (< N of the table's addressing; mose::Error otherwise)
    void SetGroup(uint32_t group);
    /// \return this node's group, NONE if unset
    uint32_t GetGroup() const;

    /**
     * \brief Maps an optical port to the Ipv4 interface of its device.
     * \param port the port (< d; mose::Error otherwise)
     * \param interface the interface index (< Ipv4::GetNInterfaces(); mose::Error otherwise)
     */
    void SetPortInterface(uint32_t port, uint32_t interface);
    /// \param map port -> interface for several ports (each checked as SetPortInterface())
    void SetPortInterfaces(const std::map<uint32_t, uint32_t>& map);
    /// \param port a port \return its interface, NONE if unmapped
    uint32_t GetPortInterface(uint32_t port) const;

    /**
     * \brief Routes a host address behind this group to a local interface.
     * \param host the host's address (must lie in this group's block; mose::Error otherwise)
     * \param interface the interface the host hangs off (< Ipv4::GetNInterfaces())
     */
    void AddHostRoute(Ipv4Address host, uint32_t interface);
    /// \param host a host address added with AddHostRoute() \return true if it was there
    bool RemoveHostRoute(Ipv4Address host);

    /// \return how many packets found no route (see the class description)
    uint64_t GetNoRouteDrops() const;
    /// \return how many packets wait in the hold queue
    uint32_t GetHeldPackets() const;
    /// \return how many packets have entered the hold queue so far
    uint64_t GetHoldEntered() const;
    /// \return how many held packets were dropped (queue overflow or HoldTime expiry)
    uint64_t GetHoldDrops() const;
    /// \return the longest time a packet waited in the hold queue (released or dropped) so far
    Time GetLongestHold() const;
    /// \return when the packet waiting longest in the hold queue now entered it (Time::Max()
    ///         if none waits): a switch still running at the end of the run counts its wait
    Time GetOldestHeldSince() const;

    /// A release filter: whether a held packet (its IP header apart) may leave the hold queue now
    using ReleaseFilter = Callback<bool, Ptr<const Packet>, const Ipv4Header&>;
    /**
     * \brief Sets the filter the hold queue asks before it releases a packet that has a route
     *        and room in its output device (MosePfc's: the packet's ingress has room in its share
     *        of the buffer). A packet refused stays held, in order, and is retried after
     *        "HoldRetryInterval". A null callback removes it.
     * \param filter the filter
     */
    void SetHoldReleaseFilter(ReleaseFilter filter);

    /// \return how many packets fast transit forwarded (class description, "FastTransit")
    uint64_t GetFastForwarded() const;

    // Ipv4RoutingProtocol (documented there; the decisions are in the class description)
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    MOSE_ROUTE_INPUT_CB(UnicastForwardCallback) ucb,
                    MOSE_ROUTE_INPUT_CB(MulticastForwardCallback) mcb,
                    MOSE_ROUTE_INPUT_CB(LocalDeliverCallback) lcb,
                    MOSE_ROUTE_INPUT_CB(ErrorCallback) ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    /**
     * \brief Prints, per destination group: its block, the next-hop group, the output port, its
     *        interface and the distance (under ECMP every closer neighbour).
     * \param stream the output stream
     * \param unit the time unit of the header's time stamp
     */
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

    /**
     * TracedCallback signature for packets without a route.
     * \param header the packet's IP header
     * \param packet the packet (may be null for RouteOutput() queries without a packet)
     */
    typedef void (*NoRouteTracedCallback)(const Ipv4Header& header, Ptr<const Packet> packet);

    /**
     * TracedCallback signature for a packet that leaves the hold queue with a route.
     * \param header the packet's IP header
     * \param packet the packet
     * \param waited how long it waited
     */
    typedef void (*HoldReleaseTracedCallback)(const Ipv4Header& header,
                                              Ptr<const Packet> packet,
                                              Time waited);

  protected:
    void DoDispose() override;

  private:
    class PortHook;

    /// What the decision steps give for one destination
    struct Decision
    {
        enum Kind
        {
            LOCAL,        //!< one of this node's addresses
            HOST,         //!< a registered host: interface
            FABRIC,       //!< another group: interface, gateway
            REFUSED,      //!< multicast / broadcast, not forwarded
            NO_ROUTE      //!< nothing matches
        } kind{NO_ROUTE}; //!< the outcome

        uint32_t interface {
            NONE
        };                   //!< output interface (HOST, FABRIC)
        Ipv4Address gateway; //!< next-hop address (FABRIC)
    };

    /**
     * \brief The shared decision of RouteOutput() and RouteInput() (steps 1-5).
     * \param header the IP header
     * \param p the packet (L4 header at the front, or null); read for the ECMP ports only
     * \param l4InFront whether p starts with the L4 header (the ECMP hash reads the ports)
     * \param iif the input interface (for IsDestinationAddress), or NONE at the source
     * \return the decision
     */
    Decision Decide(const Ipv4Header& header,
                    Ptr<const Packet> p,
                    bool l4InFront,
                    uint32_t iif) const;
    /// \return the ECMP flow hash of a packet (ports read only when l4InFront)
    uint64_t FlowHash(const Ipv4Header& header, Ptr<const Packet> p, bool l4InFront) const;
    /// \return a route for a FABRIC or HOST decision towards dst
    Ptr<Ipv4Route> MakeRoute(const Decision& decision, Ipv4Address dst) const;
    /// Step 5: counts and traces a packet without a route, once per packet
    void HandleNoRoute(const Ipv4Header& header, Ptr<const Packet> p);
    /// Counts and traces one dropped packet
    void CountDrop(const Ipv4Header& header, Ptr<const Packet> p);
    /// \return true if this protocol is its node's Ipv4 routing protocol, false if it sits inside
    ///         an Ipv4ListRouting (or any other wrapper), where step 5 declines instead of drops
    bool IsAlone() const;
    /// \return true if dst belongs to another group of the fabric (a packet the queue may hold)
    bool IsOtherGroup(Ipv4Address dst) const;
    /// \return the route over the loopback device that defers a packet (hold queue)
    Ptr<Ipv4Route> LoopbackRoute(const Ipv4Header& header) const;

    /// Counts and traces one held packet dropped (overflow or expiry), then reports it to the
    /// error callback: the hold queue's drop callback \param e the packet
    void DropHeld(const MoseHoldQueue::Entry& e);

    /// Queues a packet (the queue drops the oldest one if it is full) and schedules Purge()
    void Hold(Ptr<const Packet> p,
              const Ipv4Header& header,
              const UnicastForwardCallback& ucb,
              const ErrorCallback& ecb);
    /// Sends the held packets that have a route now
    void Flush();
    /// Drops the held packets whose time is up and schedules the next purge
    void Purge();
    /// Schedules Flush() now if packets are held
    void ScheduleFlush();
    /// \return false if the interface's device queue (without a root queue disc) has no room
    ///         for p: Flush() then keeps p held and retries after HoldRetryInterval
    bool HasRoom(uint32_t interface, Ptr<const Packet> p) const;
    /// Trace sink of the table's "RoutesRecomputed"
    void OnRoutesRecomputed(Time duration, uint32_t groups);
    /// Attribute "FastTransit" \param enable whether transit packets skip IPv4's path
    void SetFastTransit(bool enable);
    /// Attribute "FastTransit" \return whether transit packets skip IPv4's path
    bool GetFastTransit() const;
    /// Takes the receive callback of the interface's device if it is a point-to-point device
    /// and FastTransit is on \param interface the interface
    void HookPort(uint32_t interface);
    /// HookPort() on every interface that is up (when FastTransit is on)
    void HookUpInterfaces();
    /// Clears every hook: then each hooked device's packets go up as the node would pass them
    void ClearHooks();
    /**
     * \brief Receives a packet from a hooked device: forwards it (Forward()) or passes it up
     *        to the traffic-control layer as the node would.
     * \param interface the device's interface
     * \param device the device
     * \param p the packet, its IP header in front
     * \param protocol the frame's protocol number
     * \param from the sender's address
     * \return true (a handler took it)
     */
    bool ReceiveFromPort(uint32_t interface,
                         Ptr<NetDevice> device,
                         Ptr<const Packet> p,
                         uint16_t protocol,
                         const Address& from);
    /**
     * \brief Fast transit of one IPv4 packet (class description).
     * \param interface its input interface
     * \param p the packet, its IP header in front
     * \return true if it was forwarded, false if ns-3's path must handle it
     */
    bool Forward(uint32_t interface, Ptr<const Packet> p);
    /// Attribute "HoldQueueSize" \param limit the hold queue's limit
    void SetHoldQueueSize(uint32_t limit);
    /// Attribute "HoldQueueSize" \return the hold queue's limit
    uint32_t GetHoldQueueSize() const;
    /// Attribute "HoldTime" \param holdTime how long a held packet waits
    void SetHoldTime(Time holdTime);
    /// Attribute "HoldTime" \return how long a held packet waits
    Time GetHoldTime() const;

    Ptr<Ipv4> m_ipv4;                               //!< this node's IPv4
    Ptr<MoseRouteTable> m_table;                    //!< the fabric's table
    uint32_t m_group{NONE};                         //!< this node's group
    std::vector<uint32_t> m_portInterface;          //!< port -> interface (NONE: unmapped)
    std::unordered_map<uint32_t, uint32_t> m_hosts; //!< host address -> interface
    uint32_t m_loopback{NONE};                      //!< the loopback interface
    uint64_t m_noRouteDrops{0};                     //!< packets without a route
    uint64_t m_lastRefusedUid{UINT64_MAX};          //!< uid of the last packet refused (count once)
    Time m_lastRefusedAt{Time::Max()};              //!< when it was refused
    TracedCallback<const Ipv4Header&, Ptr<const Packet>> m_noRouteTrace; //!< "NoRouteDrop"
    bool m_hold{false};            //!< attribute "HoldPackets"
    Time m_holdRetry;              //!< attribute "HoldRetryInterval"
    MoseHoldQueue m_held;          //!< the hold queue (attributes "HoldQueueSize", "HoldTime")
    EventId m_purgeEvent;          //!< next Purge()
    EventId m_flushEvent;          //!< pending Flush()
    ReleaseFilter m_releaseFilter; //!< SetHoldReleaseFilter()
    TracedCallback<const Ipv4Header&, Ptr<const Packet>> m_holdDropTrace;          //!< "HoldDrop"
    TracedCallback<const Ipv4Header&, Ptr<const Packet>, Time> m_holdReleaseTrace; //!< release
    bool m_fastTransit{false};          //!< attribute "FastTransit"
    bool m_checksum{false};             //!< Node::ChecksumEnabled() when hooked
    Ptr<TrafficControlLayer> m_tc;      //!< this node's traffic-control layer
    std::vector<Ptr<PortHook>> m_hooks; //!< interface -> the hook on its device, or null
    uint64_t m_fastForwarded{0};        //!< packets fast transit forwarded
    TracedCallback<const Ipv4Header&, Ptr<const Packet>, uint32_t> m_fastForwardTrace; //!< trace
};

} // namespace ns3

#endif /* MOSE_ROUTING_PROTOCOL_H */
