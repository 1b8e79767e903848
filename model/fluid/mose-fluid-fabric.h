/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_FABRIC_H
#define MOSE_FLUID_FABRIC_H

#include "mose-fluid-network.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-switch-planner.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-workload-fabric.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * \brief The fluid level's fabric: the groups' host links and the OCS circuits as fluid links,
 *        transfers as fluid flows on the packet level's routes, mode switches with drain, dark
 *        time and held flows, and the event loop that runs them, in integer nanoseconds.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The fluid fabric's parameters: what MoseTopologyHelper, MoseOcs, MoseSocketTransfers
 *        and MoseModeSwitcher are given at the packet level. Rates in bits per second (as
 *        ns-3's DataRate), times in ns.
 */
struct FluidFabricConfig
{
    uint32_t ports{8};                            //!< d, optical ports per group
    RoutingRule rule{RoutingRule::SHORTEST_PATH}; //!< SHORTEST_PATH or RANDOM_SHORTEST_PATH
    uint64_t routingSeed{0};                      //!< RANDOM_SHORTEST_PATH's hash seed
    double circuitBitRate{400e9};                 //!< one circuit direction (MoseOcs DataRate)
    double hostBitRate{400e9};                    //!< host link, each direction
    /// whether each group's endpoint is a host behind the group node on a link of hostBitRate
    /// (MoseTopologyHelper HostsPerGroup >= 1); false: the group node itself sends and
    /// receives, and a transfer's path is its circuits only
    bool hostLinks{true};
    /// G, hosts per group with hostLinks (MoseTopologyHelper HostsPerGroup; 1 to
    /// MAX_HOSTS_PER_GROUP): each host on its own link of hostBitRate to the group node, a
    /// transfer on rail r sent from host r mod G of its source group to host r mod G of its
    /// destination group (MoseSocketTransfers' rails); 1 without hostLinks
    uint32_t hostsPerGroup{1};
    int64_t circuitDelayNs{1000}; //!< circuit propagation delay (MoseOcs Delay)
    int64_t hostDelayNs{100};     //!< host link delay (HostDelay)
    /// payload bytes per packet (the TCP segment, MoseSocketTransfers SegmentSize)
    uint32_t segmentBytes{1448};
    /// bytes a packet of segmentBytes payload occupies on a link: IPv4 (20) + TCP with
    /// timestamps (32) + the point-to-point header (2). The payload gets segmentBytes /
    /// wireBytesPerSegment of every link's rate
    uint32_t wireBytesPerSegment{1502};
    int64_t noticeDelayNs{0}; //!< MoseSocketTransfers NoticeDelay
    uint32_t phases{1};       //!< MoseModeSwitcher Phases
    bool drain{true};         //!< MoseModeSwitcher Drain
    bool fixedDrain{false};   //!< MoseModeSwitcher FixedDrain: every drain lasts drainTimeoutNs
    int64_t drainTimeoutNs{100000000}; //!< MoseModeSwitcher DrainTimeout
    int64_t darkNs{10000000};          //!< MoseModeSwitcher ReconfigurationDelay
    /// 0: rates are recomputed after every event that starts, ends or reroutes a transfer
    /// (exact); above 0, at most once per this many ns: a transfer started in between waits
    /// for the next computation at rate 0, and a completed one's capacity is shared again only
    /// then (an approximation: its error against the exact computation is the caller's to
    /// measure and state)
    int64_t rateEpochNs{0};

    /**
     * Fluid queues (mose-llm --fluidQueues; false: none, every flow at its max-min rate from
     * its first byte, as before). true: every link is a port with a FIFO backlog, and a
     * transfer starts as RoCEv2 with DCQCN does: at its first link's share (the NIC's line
     * rate, paced per port) whatever lies beyond, until a port on its path marks; it is cut to
     * its max-min rate a reaction time later (see FluidFabric, "Fluid queues"). Needs exact
     * rates (rateEpochNs 0) and single transfers (no StartAggregate()).
     */
    bool queues{false};
    /// with queues: the backlog (payload bytes) at which a port is taken to mark the packets
    /// it queues (the first ECN mark DCQCN reacts to); 0: as soon as it queues
    double markBytes{0};
    /// with queues: a port's buffer, payload bytes (0: no limit); what the backlog would hold
    /// above it is dropped, counted per port, and resent at the tail of its transfer
    double queueLimitBytes{0};
    /// with queues: a port that marked drains its backlog after the cut, as DCQCN's repeated
    /// cuts do: the transfers through it share half its rate (the first cut's factor, alpha = 1)
    /// until it is empty; false: they share its whole rate and the backlog stands while they
    /// fill it
    bool drainOnCut{false};

    /**
     * TCP's start (FluidFabric, "TCP's start"): the packet level's TCP (MoseSocketTransfers,
     * and mose-packet's BulkSend senders) opens a connection with a handshake, starts with a
     * window of InitialCwnd segments that grows in slow start, and never has more in flight
     * than its socket buffers. false: every transfer at its max-min share from its first byte.
     */
    struct TcpStart
    {
        bool enabled{false}; //!< model it (single transfers; not with queues or aggregates)
        /// the first window, payload bytes (TcpSocket InitialCwnd x the segment)
        double initialWindowBytes{14480};
        /// the most in flight, payload bytes (the smaller socket buffer, SndBufSize or
        /// RcvBufSize: the advertised window)
        double maxWindowBytes{4194304};
        /// the window's growth per round trip in slow start: 2 with TcpCubic's byte counting,
        /// 1 + 1 / DelAckCount with ns-3's TcpNewReno slow start (one segment per ACK)
        double growth{2};
        /// the window (payload bytes) from which slow start is over, as TcpCubic's HyStart
        /// ends it (HyStartLowWindow segments: at the fabric's round trips of microseconds its
        /// ACK-train test fires in the first round trip it runs); infinity: never (no loss)
        double slowStartEndBytes{std::numeric_limits<double>::infinity()};
        /// the window's growth per round trip after slow start: 1 + 1 / CntClamp for
        /// TcpCubic before a loss (its cubic term is 0 at these times)
        double avoidanceGrowth{1.05};
        uint32_t synWireBytes{62}; //!< a SYN or SYN-ACK on the wire (IPv4, TCP + options, PPP)
        uint32_t ackWireBytes{54}; //!< an ACK on the wire (IPv4, TCP + timestamps, PPP)
    };

    TcpStart tcp; //!< TCP's start (off by default)

    /// the most hosts per group (a bound on the links it makes: 2 N G host links)
    static constexpr uint32_t MAX_HOSTS_PER_GROUP = 1024;

    /// \brief Throws a mose::Error naming the first invalid field
    void Validate() const;
};

/**
 * \ingroup mose-flow
 * \brief One transfer of the fluid level: bytes from one group's host to another's.
 */
struct FluidTransfer
{
    uint32_t src{0};                    //!< source group
    uint32_t dst{0};                    //!< destination group
    TrafficClass cls{TrafficClass::KV}; //!< traffic class
    uint64_t bytes{0};                  //!< payload bytes
    int64_t startNs{0};                 //!< started
    int64_t endNs{0};                   //!< its last byte arrived (if complete)
    bool complete{false};               //!< its last byte arrived
    bool noticed{false};                //!< its completion was handed on (noticeDelay later)
    uint32_t reroutes{0};               //!< route changes while it ran
    int64_t heldNs{0};                  //!< time it spent without a route
    /// the transfers it stands for: 1, or an aggregate's parts (StartAggregate(); src and dst
    /// are then its first part's, bytes the sum of its parts')
    uint64_t parts{1};
    uint32_t rail{0}; //!< its rail: from host rail mod G of src to host rail mod G of dst
};

/// \ingroup mose-flow
/// One transfer of an aggregate (FluidFabric::StartAggregate()): the workload model's part
using FluidPart = TransferPart;

/**
 * \ingroup mose-flow
 * \brief What one mode switch did in the fluid fabric (MoseSwitchRecord's fluid counterpart).
 */
struct FluidSwitchRecord
{
    uint32_t index{0};         //!< 0 for the first switch
    int64_t startNs{0};        //!< started
    int64_t endNs{0};          //!< the last batch relinked (if done)
    bool done{false};          //!< finished before the run stopped
    uint32_t batches{0};       //!< batches (phases run)
    uint32_t kept{0};          //!< circuits kept
    uint32_t removed{0};       //!< circuits torn down
    uint32_t added{0};         //!< circuits set up
    int64_t drainNs{0};        //!< sum of the batches' drains
    int64_t darkNs{0};         //!< sum of the batches' dark times
    int64_t blackoutNs{0};     //!< time the routed graph was disconnected
    uint64_t transfersHeld{0}; //!< transfers that lost their route during the switch
};

/**
 * \ingroup mose-flow
 * \brief The fluid level's fabric and clock: N groups with G hosts each, the host links and
 *        every circuit direction as fluid links (FluidNetwork), transfers as flows on the
 *        packet level's routes, switches as the packet level's MoseModeSwitcher runs them.
 *
 * Links: each circuit direction at circuitBitRate, a circuit being identified by the port that
 * sends on it (N x d links, whatever the graph); with hostLinks, each host's link up (host ->
 * group node) and down, at hostBitRate: G per group (hostsPerGroup, the rails). A transfer's path
 * is its source host's up link (with hostLinks; the host of its rail), the circuits of the route
 * (the DestinationTree of ShortestPathRouting over the routed graph, hop for hop what
 * MoseRoutingProtocol forwards on), its destination host's down link (with hostLinks). Payload
 * gets segmentBytes / wireBytesPerSegment of every link's rate (headers take the rest).
 *
 * Rates are max-min fair (FluidNetwork) and recomputed after every event that starts, ends
 * or reroutes a transfer; between events every transfer drains its bytes at its rate. A
 * transfer's last byte arrives a path latency after the fluid model has sent it: the
 * propagation delays of its links plus one packet's serialisation on every link after the
 * first (the store-and-forward of the last packet). Its completion is handed to its callback
 * noticeDelayNs later (MoseSocketTransfers NoticeDelay), callbacks of one time in transfer-id
 * order.
 *
 * An aggregate (StartAggregate()) is many transfers run as one weighted flow whose parts
 * progress together: the aggregate level's collectives (TrainingSettings::aggregate).
 *
 * A switch (StartSwitch()) follows MoseModeSwitcher: the target graph is mapped onto ports
 * keeping the circuits that survive (PlanPorts(target, current)), the change split into
 * batches (PlanSwitchBatches()); each batch routes around its circuits (the routed graph is the
 * live matching without them: transfers are rerouted, and those with no route are held at rate
 * 0), drains (0 ns: a fluid link holds no queue; with fixedDrain, drainTimeoutNs as at the
 * packet level), goes dark for darkNs, relinks its new circuits and reroutes every transfer.
 *
 * Fluid queues (FluidFabricConfig::queues; off by default). Every link is then a port with a
 * FIFO backlog B in payload bytes. Its input is the sum of the rates of the transfers whose
 * path crosses it. A port offered more than its rate passes each transfer on at its share of
 * that rate (its output mix is its input mix), so the ports behind it see the transfer slowed:
 * the inputs are found in three passes, each scaling a transfer behind a port by that port's
 * overload in the pass before (an approximation of the FIFO tandem). While the
 * input a exceeds the capacity c, B grows at a - c; while a < c and B > 0 it drains at c - a;
 * above queueLimitBytes the excess is dropped. Rates are constant between rate computations,
 * so B is kept as (B, since, a) and its empty and full times are exact without an event of
 * their own. A transfer starts at its share of its first link alone (the NIC's line rate, paced
 * per port: RoCEv2's start). When a port on its path holds markBytes or more (an event at the
 * exact time the backlog reaches it), its packets are marked; the transfer is cut to its max-
 * min rate on its whole path a reaction time later: the marked byte's wait in that port (B /
 * c) plus the path's round trip (twice its latency: the CNP's way back). Bytes a port drops are
 * owed by the transfers it drops them from, in proportion to their rates, and resent at the
 * tail: when the source has sent its last byte it sends what it owes (at its rate then), until
 * nothing is owed. A transfer's last byte leaves a port after the backlog ahead of it (FIFO):
 * it arrives at its source's last send plus the sum of B / c over its path's ports at that
 * time, plus the path latency. A switch's drain lasts until the backlogs of the batch's
 * circuits are empty (at most drainTimeoutNs; what is left there is dropped and not resent).
 *
 * TCP's start (FluidFabricConfig::tcp; off by default), for the packet level's TCP. A transfer
 * on a new connection sends its first byte a handshake after its start: a SYN's and a
 * SYN-ACK's delays and serialisation along its route and back. Its rate is then capped at
 * window / RTT, by a link of its own on its path. The window starts at initialWindowBytes
 * and grows by `growth` once per RTT (slow start, no loss) up to maxWindowBytes. RTT is the
 * last byte's latency, one segment's serialisation on the first link, and an ACK's delays and
 * serialisation back. Once window / RTT reaches the route's slowest link, the cap is removed
 * for good. So a window-limited transfer gets the average rate of its bursts; the packet level
 * sends each round's window at once. A transfer on a kept connection (keepConnection) skips
 * the handshake after the connection's first transfer. It starts at the window the last one
 * left: its first window grown by (growth - 1) times each byte acknowledged in slow start and
 * (avoidanceGrowth - 1) times each byte after it, at most maxWindowBytes (the window grows by
 * what is acknowledged). A transfer started without a route skips
 * the handshake. Kept connections' transfers run side by side, not one after the other.
 *
 * Events run in time order, events of one time in the order they were scheduled. Everything is
 * deterministic: the same calls give the same results bit for bit.
 */
class FluidFabric
{
  public:
    /// Called when a transfer's completion is noticed, with its id
    using DoneCallback = std::function<void(uint64_t id)>;
    /// An event
    using Event = std::function<void()>;

    /**
     * \param graph the initial circuit graph (N nodes, degree <= ports; Error otherwise)
     * \param config the parameters (validated)
     */
    FluidFabric(const CircuitGraph& graph, const FluidFabricConfig& config);

    /// \return the current time (ns)
    int64_t Now() const;

    /**
     * \brief Schedules an event.
     * \param delayNs from now (>= 0; Error otherwise)
     * \param event the event
     */
    void Schedule(int64_t delayNs, Event event);

    /**
     * \brief Starts a transfer now.
     * \param src source group \param dst destination group (!= src)
     * \param bytes payload bytes (>= 1)
     * \param cls traffic class
     * \param done called noticeDelayNs after its last byte arrived
     * \param rail its rail: from host rail mod G of src to host rail mod G of dst (any value;
     *        0 with one host per group)
     * \param keepConnection with TCP's start (FluidFabricConfig::tcp): over the connection
     *        kept between the two hosts (TransferSpec::keepConnection): the first such
     *        transfer opens it, the next ones start without handshake at the window it reached;
     *        false: a connection of its own
     * \return its id (0, 1, ...)
     */
    uint64_t StartTransfer(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           TrafficClass cls,
                           DoneCallback done,
                           uint32_t rail = 0,
                           bool keepConnection = false);

    /**
     * \brief Closes the kept connections (StartTransfer()'s keepConnection) from or to these
     *        groups: their next transfer opens a new one. Nothing without TCP's start.
     * \param groups the groups
     */
    void CloseConnections(const std::vector<uint32_t>& groups);

    /**
     * \brief Starts transfers that progress together now, as one weighted fluid flow (an
     *        approximation of their separate flows; see the class).
     *
     * Every part is routed as StartTransfer() would route it; the aggregate is one flow whose
     * weight on each link is the bytes its parts send over that link divided by the largest
     * part's bytes, so that every part sends its bytes at its own pace (the largest at the
     * flow's rate) and all end together. Its last byte arrives the longest path latency of its
     * parts after the fluid model has sent it; while any part has no route the whole aggregate
     * is held. The routes of one set of parts are computed once per routed graph (a collective
     * repeated on the same circuits reuses them: pass the same `parts` object).
     *
     * \param parts the transfers (at least one; each of two different groups < N and >= 1 byte)
     * \param cls traffic class
     * \param done called noticeDelayNs after the last byte of every part arrived
     * \return its id (its record has parts = the number of parts)
     */
    uint64_t StartAggregate(std::shared_ptr<const std::vector<FluidPart>> parts,
                            TrafficClass cls,
                            DoneCallback done);

    /// \param id a transfer id \return its record
    const FluidTransfer& GetTransfer(uint64_t id) const;
    /// \return every transfer's record, in id order
    const std::vector<FluidTransfer>& GetTransfers() const;

    /**
     * \brief Starts a switch now to a target graph (Error if one is under way or the graph
     *        does not fit N and d).
     * \param target the target graph
     */
    void StartSwitch(const CircuitGraph& target);
    /// \return whether a switch is under way
    bool IsSwitching() const;
    /// \return the switches started so far
    const std::vector<FluidSwitchRecord>& GetSwitchRecords() const;
    /// \return the circuit graph routed on now
    const CircuitGraph& GetRoutedGraph() const;

    /**
     * \brief Runs events and transfers until no event is left and no transfer runs, or
     *        `stop` returns true after an event, or the time would pass untilNs.
     * \param untilNs the latest time
     * \param stop checked after every event time (may be empty)
     */
    void Run(int64_t untilNs, const std::function<bool()>& stop = {});

    /// \return events run
    uint64_t GetNEvents() const;
    /// \return rate computations (FluidNetwork::GetNComputations())
    uint64_t GetNRateComputations() const;
    /// \return the largest number of transfers in flight at once
    uint64_t GetMaxConcurrent() const;
    /// \return bytes delivered from group src to group dst (complete transfers)
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
    /// \return the payload bytes each circuit direction carried, per sending flat port
    ///         (group * d + port), up to now
    std::vector<double> GetPortBytes() const;
    /// \return GetPortBytes() up to Now() (each link's bytes since the flows were last drained
    ///         added at its current rate): what an event of this time sees
    std::vector<double> GetPortBytesNow() const;
    /// \return the live matching as a port plan (the circuits lit; during a switch, the batch
    ///         under way's old circuits until it relinks)
    PortPlan GetPortPlan() const;
    /// \param id a transfer (not an aggregate's parts) \return the payload bytes the fluid model
    ///         has sent of it up to Now() (its bytes once complete)
    double GetBytesSent(uint64_t id) const;

    /// \return with queues, every link's backlog now (payload bytes; links as numbered in the
    ///         class: the circuits by sending flat port, then the host links up, then down);
    ///         without queues, zeros
    std::vector<double> GetBacklogs() const;
    /// \return with queues, the payload bytes every link dropped up to now (links as in
    ///         GetBacklogs()); without queues, zeros
    std::vector<double> GetDroppedBytes() const;
    /// \return with queues, the payload bytes resent (owed for drops) up to now
    double GetResentBytes() const;
    /// \return with queues, the transfers cut from their start-up rate so far
    uint64_t GetNCuts() const;
    /// \return with TCP's start, the round trips after which a window grew, so far
    uint64_t GetNTcpRounds() const;

  private:
    /// \brief Routes every transfer in flight on the current matching
    void Reroute();
    /// \brief The links of a path from src to dst on the routed graph, on the hosts of a rail
    ///        (empty: no route)
    std::vector<FluidNetwork::LinkId> PathOf(uint32_t src, uint32_t dst, uint32_t rail);
    /// \return the up link (host -> group node) of group g's host on a rail
    FluidNetwork::LinkId UpLink(uint32_t g, uint32_t rail) const;
    /// \return the down link (group node -> host) of group g's host on a rail
    FluidNetwork::LinkId DownLink(uint32_t g, uint32_t rail) const;
    /// \brief The latency of a path: delays plus the last packet's store and forward
    int64_t LatencyOf(const std::vector<FluidNetwork::LinkId>& path) const;

    /// An aggregate's route on the routed graph
    struct AggregateRoute
    {
        std::vector<FluidNetwork::LinkId> path; //!< the links its parts cross (empty: held)
        std::vector<double> weights;            //!< per link, bytes over it / the largest part's
        int64_t latencyNs{0};                   //!< the longest latency of its parts' paths
    };

    /// \return the route of an aggregate's parts on the routed graph (cached per graph)
    const AggregateRoute& RouteOf(const std::shared_ptr<const std::vector<FluidPart>>& parts);
    /// \brief Drains the transfers from the time they were last drained up to now at their
    ///        rates, completing those that finish (flows are drained only before a change, a
    ///        completion or the end, not at every event)
    void Sync();
    /// \return the time of the next completion at the current rates (drained up to now)
    int64_t NextCompletion() const;
    /// \brief Runs batch b of the switch under way
    void StartBatch(uint32_t b);
    /// \brief The batch under way goes dark
    void GoDark();
    /// \brief The batch under way relinks
    void Relink();

    /// One scheduled event
    struct Scheduled
    {
        int64_t at;   //!< time
        uint64_t seq; //!< scheduling order
        Event event;  //!< what

        /// \return whether this runs after o
        bool operator>(const Scheduled& o) const
        {
            return at > o.at || (at == o.at && seq > o.seq);
        }
    };

    /// A transfer in flight
    struct Running
    {
        uint64_t id{0};                                //!< transfer id
        FluidNetwork::FlowId flow{FluidNetwork::NONE}; //!< its fluid flow
        DoneCallback done;                             //!< its callback
        int64_t heldSince{-1};                         //!< held since (ns), -1: has a route
        /// an aggregate's parts (null: a single transfer)
        std::shared_ptr<const std::vector<FluidPart>> parts;
        int64_t latencyNs{0}; //!< an aggregate's last-byte latency on its current route
        /// with queues: its route (the flow's path is its first link until the cut)
        std::vector<FluidNetwork::LinkId> path;
        bool converged{true};     //!< with queues: cut to its max-min rate (or never above it)
        bool cutScheduled{false}; //!< with queues: a port marked it; the cut is scheduled
        double owed{0};           //!< with queues: bytes dropped and not yet resent
        /// with TCP's start: the window (payload bytes) of this round trip
        double window{0};
        /// with TCP's start: the link that caps its rate at window / round trip while the
        /// window binds (NONE: the window no longer binds; the path is the route alone)
        FluidNetwork::LinkId cap{FluidNetwork::NONE};
        int64_t rttNs{0};         //!< with TCP's start: its round trip on its route
        bool tcp{false};          //!< with TCP's start: it runs on a TCP connection
        bool kept{false};         //!< with TCP's start: on a kept connection
        double firstWindow{0};    //!< with TCP's start: the window it started with
        bool released{false};     //!< with TCP's start: the window no longer binds, for good
        bool roundPending{false}; //!< with TCP's start: a TcpRound() is scheduled
    };

    /// A port's FIFO backlog (queues)
    struct PortQueue
    {
        double backlog{0};         //!< payload bytes at `since`
        int64_t since{0};          //!< when backlog was taken (ns)
        double input{0};           //!< the rate of the transfers crossing it (bytes/s)
        double dropped{0};         //!< bytes dropped up to `since`
        double out{0};             //!< bytes that left it up to `since`
        std::vector<uint64_t> ids; //!< the transfers crossing it at a rate above 0
        std::vector<double> rates; //!< their rates into it (slowed by the ports before it)
        double previous{0};        //!< RefreshQueues(): the input of the pass before
        double capacity{0};        //!< its rate (the rate computation's is halved to drain)
        bool draining{false};      //!< drainOnCut: it drains at half its rate to the rates
    };

    /// \brief A port's backlog, drops and departures from `since` to a time, exactly
    /// \param l the link \param at the time (>= since) \param dropped set to the bytes
    ///        dropped meanwhile \param out set to the bytes that left meanwhile
    /// \return the backlog at `at`
    double QueueAt(FluidNetwork::LinkId l, int64_t at, double& dropped, double& out) const;
    /// \brief Brings every backlog up to now, handing the bytes dropped to their transfers
    void SettleQueues();
    /// \brief After a rate computation: the ports' inputs, their mark events, the cuts due
    void RefreshQueues();
    /// \brief A port's backlog reached markBytes (if its inputs are still those of gen)
    void OnMark(FluidNetwork::LinkId l, uint64_t gen);
    /// \brief Schedules the cut of a transfer whose packets port l marks now
    void ScheduleCut(uint64_t id, FluidNetwork::LinkId l);
    /**
     * \brief Schedules a queue event ns from now, rounded up to a whole ns; an event at or past
     *        the end of time (NEVER), or at no finite time, is not scheduled: a backlog that
     *        drains or grows by a rounding sliver of its port's rate would otherwise reach it
     *        only after int64_t's range.
     * \param ns the delay (ns; below 0 counts as 0)
     * \param event the event
     */
    void ScheduleQueueEvent(double ns, Event event);
    /// \brief A transfer's start-up ends: it is rated on its whole path; with drainOnCut, the
    ///        port that marked it starts draining \param id it \param l the port
    void Cut(uint64_t id, FluidNetwork::LinkId l);
    /// \brief A draining port's backlog is empty (if its inputs are still those of gen)
    void OnEmpty(FluidNetwork::LinkId l, uint64_t gen);
    /// \return the path the rate computation sees: the route, or its first link until the cut
    static std::vector<FluidNetwork::LinkId> RatedPath(const std::vector<FluidNetwork::LinkId>& p,
                                                       bool converged);

    /// \brief Registers a transfer whose flow was added (held if it has no path) \param r it
    void Launch(Running r);

    /// a kept TCP connection's key: source group, destination group, source host
    using ConnectionKey = std::tuple<uint32_t, uint32_t, uint32_t>;
    /**
     * \brief TCP's start: the handshake (unless on an open kept connection), then the
     *        transfer's flow (LaunchTcp()).
     * \param id the transfer \param done its callback \param keep on a kept connection
     */
    void StartTcp(uint64_t id, DoneCallback done, bool keep);
    /**
     * \brief TCP's start: adds the transfer's flow with its first window.
     * \param id the transfer \param window its first window (payload bytes)
     * \param kept on a kept connection \param done its callback
     */
    void LaunchTcp(uint64_t id, double window, bool kept, DoneCallback done);
    /// \brief TCP's start: a round trip ended; the window grows \param id the transfer
    void TcpRound(uint64_t id);
    /**
     * \brief TCP's start: caps the rate at window / round trip while that is below the
     *        route's slowest link, or releases the cap for good (and sets the flow's path:
     *        none while it is held)
     * \param r the transfer
     * \return whether the window binds (the cap is on its path)
     */
    bool SetTcpCap(Running& r);
    /// \brief TCP's start: the next TcpRound() a round trip from now, while the window binds
    ///        and grows and the transfer has a route \param r the transfer
    void ScheduleTcpRound(Running& r);
    /// \brief Gives a TCP transfer's cap link back \param r the transfer
    void ReleaseTcpCap(Running& r);
    /// \param path a route \param wireBytes a packet's bytes on the wire \return the time one
    ///        packet of that size takes along the route: delays and serialisation on every link
    int64_t PacketTimeOf(const std::vector<FluidNetwork::LinkId>& path, uint32_t wireBytes) const;
    /// \param t a transfer \param path its route \return its data's round trip: the last
    ///        byte's latency, one segment's serialisation on the first link, the ACK's way back
    int64_t TcpRttOf(const FluidTransfer& t, const std::vector<FluidNetwork::LinkId>& path);
    /// \param t a transfer \return its connection's key
    ConnectionKey ConnectionOf(const FluidTransfer& t) const;

    FluidFabricConfig m_config;                          //!< parameters
    uint32_t m_n{0};                                     //!< N
    int64_t m_now{0};                                    //!< the clock
    uint64_t m_seq{0};                                   //!< events scheduled
    std::vector<Scheduled> m_events;                     //!< heap of events
    FluidNetwork m_net;                                  //!< the links and flows
    double m_segmentSerialNsCircuit{0};                  //!< one packet on a circuit (ns)
    double m_segmentSerialNsHost{0};                     //!< one packet on a host link (ns)
    std::vector<uint32_t> m_peers;                       //!< the live matching (OCS)
    std::vector<uint32_t> m_routedPeers;                 //!< the matching routed on
    PortPlan m_routedPlan;                               //!< its plan
    std::shared_ptr<const CircuitGraph> m_routedGraph;   //!< its graph
    std::unique_ptr<ShortestPathRouting> m_routing;      //!< on m_routedGraph
    std::vector<std::optional<DestinationTree>> m_trees; //!< per destination, lazily
    /// the aggregates' routes on the routed graph, by their parts (cleared at every reroute)
    /// (the parts are kept alive while cached: a key is never another object's address)
    std::map<const std::vector<FluidPart>*,
             std::pair<std::shared_ptr<const std::vector<FluidPart>>, AggregateRoute>>
        m_aggregateRoutes;
    std::vector<FluidTransfer> m_transfers; //!< records
    std::map<uint64_t, Running> m_running;  //!< in flight, by transfer id
    std::vector<uint64_t> m_flowTransfer;   //!< per flow id, its transfer id
    bool m_dirty{false};                    //!< rates need recomputing
    int64_t m_drainedNs{0};                 //!< the flows are drained up to here
    int64_t m_nextCompletion{0};            //!< the next completion at the current rates
    int64_t m_lastComputeNs{-1};            //!< the last rate computation (rateEpochNs)
    bool m_staleCompletion{false};          //!< flows completed since m_nextCompletion was computed
    bool m_rerouted{false};                 //!< routes changed since the last rate computation
    uint64_t m_nEvents{0};                  //!< events run
    uint64_t m_maxConcurrent{0};            //!< most transfers at once
    mutable std::vector<uint64_t> m_pairBytes; //!< N x N delivered bytes
    /// completed aggregates not yet in m_pairBytes: their parts and how many times they ended
    mutable std::map<const std::vector<FluidPart>*,
                     std::pair<std::shared_ptr<const std::vector<FluidPart>>, uint64_t>>
        m_pendingParts;
    std::shared_ptr<const std::vector<FluidPart>> m_checkedParts; //!< the parts last checked
    uint64_t m_checkedTotal{0};                                   //!< their bytes
    double m_checkedLargest{0};                                   //!< their largest part's
    std::vector<FluidSwitchRecord> m_switches;                    //!< switch records
    bool m_switching{false};                                      //!< a switch is under way
    std::vector<SwitchBatchPlan> m_batches;                       //!< its batches
    uint32_t m_batch{0};                                          //!< the batch under way
    int64_t m_drainStart{0};                                      //!< its drain started
    int64_t m_darkStart{0};                                       //!< it went dark
    std::vector<PortQueue> m_queues;                              //!< per link, with queues
    uint64_t m_queueGen{0}; //!< RefreshQueues() calls (stale mark events)
    double m_resent{0};     //!< bytes resent
    uint64_t m_cuts{0};     //!< start-ups cut
    /// with TCP's start: the kept connections and their windows (payload bytes)
    std::map<ConnectionKey, double> m_connections;
    std::vector<FluidNetwork::LinkId> m_freeCaps; //!< cap links not in use (TCP's start)
    uint64_t m_tcpRounds{0};                      //!< TCP round trips that grew a window
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_FABRIC_H */
