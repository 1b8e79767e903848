/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_MODE_SWITCHER_H
#define MOSE_MODE_SWITCHER_H

#include "mose-circuit-monitor.h"
#include "mose-loss-monitor.h"
#include "mose-ocs.h"
#include "mose-route-table.h"
#include "mose-routing-protocol.h"
#include "mose-workload.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-mode-schedule.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-roles.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose-packet
 * \brief What the fabric becomes in a workload mode: the mode's roles, its P-D assignment and
 *        the circuit graph the policy picks for it (from the flow-level core's templates).
 */
struct MoseModeTarget
{
    mose::RoleAssignment roles;    //!< the mode's roles
    mose::PdAssignment assignment; //!< the mode's P-D assignment
    mose::CircuitGraph graph;      //!< the circuit graph of the mode (N nodes, degree <= d)
};

/**
 * \ingroup mose-packet
 * \brief Gives the target of a workload mode; may throw a mose::Error (it is called before
 *        the simulation runs, by MoseModeSwitcher::Prepare()).
 */
using MoseTargetProvider = std::function<MoseModeTarget(mose::WorkloadMode)>;

/**
 * \ingroup mose-packet
 * \brief The packet level's one conversion of a schedule into simulation times: each period's
 *        duration becomes an ns-3 Time (Seconds(), rounded to the Time resolution) and the
 *        periods follow each other from time 0.
 * \param schedule the schedule
 * \return size() + 1 times: the start of every period, then the end of the last one
 */
std::vector<Time> MoseScheduleTimes(const mose::ModeSchedule& schedule);

/**
 * \ingroup mose-packet
 * \brief One batch (phase) of a switch: drained, dark, relinked.
 */
struct MoseSwitchBatch
{
    std::vector<mose::PortCircuit> removed; //!< circuits torn down in this batch
    std::vector<mose::PortCircuit> added;   //!< circuits set up at its relink
    bool connected{true}; //!< the graph routed on during its drain and dark period was connected
    Time drainStart;      //!< when routes stopped using its circuits
    Time darkStart;       //!< when its circuits were disconnected (end of the drain)
    Time relinkTime;      //!< when its new circuits were connected and routes recomputed
    bool drainTimedOut{false}; //!< the drain ended at DrainTimeout, not empty
    uint32_t packetsLeft{0};   //!< packets still queued or on the wire at the timeout
};

/**
 * \ingroup mose-packet
 * \brief What one mode switch did and cost; MoseModeSwitcher::GetRecords() after the run.
 *
 * A switch still running when the run stops (done false: UNFINISHED, e.g. a stop in the middle
 * of a long ReconfigurationDelay) has its figures up to `until`, the time GetRecords() was
 * called (after Simulator::Run(): the stop time): the drain, dark and blackout time of its
 * batches so far (the open batch's up to `until`), the packets that entered a hold queue, the
 * longest wait (packets still held count their wait so far) and the drops since its start.
 */
struct MoseSwitchRecord
{
    uint32_t index{0};                                            //!< 0 for the first switch
    mose::WorkloadMode from{mose::WorkloadMode::INFERENCE_HEAVY}; //!< mode before
    mose::WorkloadMode to{mose::WorkloadMode::INFERENCE_HEAVY};   //!< mode after
    Time start;                                                   //!< the boundary (switch started)
    Time end;           //!< the last batch relinked (switch done)
    bool done{false};   //!< the switch finished (false: simulation stopped first)
    Time until;         //!< the figures go up to here: end if done, else when the run stopped
    uint32_t phases{1}; //!< Phases (K) requested; batches.size() <= K (a batch per removed circuit)
    uint32_t kept{0};   //!< circuits kept (lit through the switch, same ports)
    uint32_t removed{0};                  //!< circuits torn down
    uint32_t added{0};                    //!< circuits set up
    std::vector<MoseSwitchBatch> batches; //!< the phases, in order
    Time drainTime;                       //!< sum of the batches' drain durations
    Time darkTime;                        //!< sum of the batches' dark durations
    Time blackoutTime;                    //!< time during which the routed graph was disconnected
    uint32_t drainTimeouts{0};            //!< batches whose drain ended at DrainTimeout
    uint64_t packetsHeld{0};              //!< packets that entered a hold queue during the switch
    Time longestHold; //!< the longest wait of a packet held during the switch (released or dropped)
    std::array<uint64_t, MoseLossMonitor::N_POINTS> drops{}; //!< drops per point, start..end
    uint64_t lost{0};                                        //!< total packets lost, start..end

    /// \return until - start: the duration (done), or how long it ran before the stop
    Time GetDuration() const
    {
        return until - start;
    }
};

/**
 * \ingroup mose-packet
 * \brief The ModeSwitcher: at each mode boundary of a schedule, reconfigures the fabric's OCS
 *        from the current circuits to the target circuit graph of the new mode, draining
 *        circuits before they go dark so that nothing is lost.
 *
 * At a boundary (time -> mode) the switcher takes the mode's target (roles, P-D assignment,
 * circuit graph) from its target provider, maps the graph onto ports with
 * mose::PlanPorts(target, current) (circuits that survive keep their ports and stay lit
 * throughout), and diffs the two plans (mose::DiffPorts): kept, removed, added. The change is
 * split into "Phases" batches (K = 1: all at once, as a MEMS switch does). With K > 1 each
 * batch's removed circuits are chosen greedily so that the graph routed on while the batch is
 * drained and dark (kept circuits, circuits added by earlier batches, circuits removed by later
 * ones) stays connected; when that is impossible the batch records connected = false and its
 * drain + dark time counts as blackout. A batch's added circuits are relinked at the end of the
 * batch that frees their last port.
 *
 * Each batch:
 *  1. drain ("Drain" true): the shared MoseRouteTable is updated with the live matching minus
 *     the batch's ports (still lit in the OCS), so no new packet is routed onto them; the
 *     switcher polls every "DrainPollInterval" until the device queues, root queue discs and
 *     the OCS wires (MoseOcs::GetPacketsInFlight(), which counts a packet from the start of its
 *     serialisation to its arrival) of both ends of every batch circuit are empty, or until
 *     "DrainTimeout" (then it records the timeout and the packets left, and goes on);
 *     with "FixedDrain" the drain always lasts DrainTimeout (the drain end all MPI ranks
 *     agree on, since each sees only its own queues), a timeout recorded only if packets
 *     are left;
 *     with "Drain" false the batch goes dark at once (its queued and in-flight packets are lost,
 *     and counted by the loss monitor);
 *  2. dark: the batch's circuits are disconnected for "ReconfigurationDelay";
 *  3. relink: its new circuits are connected and the routes recomputed; the routing protocols'
 *     hold queues release the packets that waited for them.
 * Destinations unreachable meanwhile (every one whose group is cut off, e.g. during a K = 1
 * switch) are served by the routing protocols' hold queues (MoseRoutingProtocol "HoldPackets",
 * which MoseModeSwitcherHelper turns on): packets wait at the node they are on.
 *
 * Errors: Prepare() (called by MoseModeSwitcherHelper::Install()) validates the schedule
 * (strictly increasing, non-negative times; boundaries more than Phases x (DrainTimeout +
 * ReconfigurationDelay) apart, the longest a switch can take, so a boundary never finds the
 * previous switch running) and calls the provider for each mode of the schedule, checking each
 * target graph against the OCS (N, degree <= d); everything throws a mose::Error before the
 * simulation. Inside events nothing throws: a failing OCS operation is logged (NS_LOG_ERROR)
 * and counted (GetNErrors()).
 *
 * Config path: /NodeList/[n]/ApplicationList/[a]/$ns3::MoseModeSwitcher (MoseModeSwitcherHelper
 * installs it on group node 0); its loss monitor also as .../$ns3::MoseModeSwitcher/LossMonitor.
 */
class MoseModeSwitcher : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Creates a switcher without fabric, schedule or targets (MoseModeSwitcherHelper sets them)
    MoseModeSwitcher();
    ~MoseModeSwitcher() override;

    /**
     * \brief The fabric to reconfigure.
     * \param ocs the optical circuit switch
     * \param table the shared route table (its Update() is called with the live matching)
     * \param groupNodes the N group nodes (node g is group g): their devices' queues and queue
     *        discs are drained, their MoseRoutingProtocol hold queues observed
     */
    void SetFabric(Ptr<MoseOcs> ocs, Ptr<MoseRouteTable> table, const NodeContainer& groupNodes);
    /// \param provider gives the target of each mode (called by Prepare())
    void SetTargetProvider(MoseTargetProvider provider);
    /**
     * \brief Sets the workload modes over time: the fabric is in the first period's mode from
     *        time 0, and a switch starts at the start of every later period
     *        (MoseScheduleTimes()); the last period's duration is not used. Validated by
     *        Prepare(): durations finite and >= 0, and every period between two switches
     *        longer than the longest switch.
     * \param schedule the schedule (empty: inference-heavy, no switch)
     */
    void SetSchedule(const mose::ModeSchedule& schedule);
    /// \return the schedule
    const mose::ModeSchedule& GetSchedule() const;
    /// \return the mode before the first switch (the schedule's first period's)
    mose::WorkloadMode GetInitialMode() const;
    /// \param monitor the loss monitor snapshotted per switch (may be null: no drop counts)
    void SetLossMonitor(Ptr<MoseLossMonitor> monitor);
    /**
     * \brief A circuit monitor whose intervals follow the switches: the switcher starts an
     *        interval (MoseCircuitMonitor::StartInterval()) at the start of every switch, so
     *        its GetIntervals() are the mode intervals' per-circuit bytes.
     * \param monitor the monitor (null: none)
     */
    void SetCircuitMonitor(Ptr<MoseCircuitMonitor> monitor);
    /// \return the loss monitor
    Ptr<MoseLossMonitor> GetLossMonitor() const;

    /**
     * \brief Validates the configuration and computes the targets of the schedule's modes.
     *        Throws a mose::Error naming the parameter, the value and what is allowed.
     */
    void Prepare();

    /**
     * \brief The records of the switches started so far, in order. A switch under way (after
     *        the run: one the stop cut short) is returned with done false and its figures up to
     *        Simulator::Now() (MoseSwitchRecord::until): this is how the switcher learns the run
     *        stopped, so read the records after Simulator::Run() and before
     *        Simulator::Destroy().
     * \return the records
     */
    std::vector<MoseSwitchRecord> GetRecords() const;
    /// \return the mode the workload is in now
    mose::WorkloadMode GetCurrentMode() const;
    /// \param mode a mode of the schedule or the initial mode \return its target (mose::Error if
    ///        Prepare() did not compute it)
    const MoseModeTarget& GetTarget(mose::WorkloadMode mode) const;
    /// \return true while a switch is under way
    bool IsSwitching() const;

    /**
     * \brief Keeps a workload in step with the fabric's mode, so that a script need not wire
     *        "SwitchStarted" to MoseWorkload::SetMode() itself: the workload takes the current
     *        mode's roles and graph now, and at the start of every switch the roles and graph of
     *        the mode the fabric is entering (before "SwitchStarted" fires). mose::Error if
     *        Prepare() has not run (MoseModeSwitcherHelper::Install() runs it) or the workload is
     *        null; an error inside a switch's event is counted (GetNErrors()).
     * \param workload the workload
     */
    void AddWorkload(Ptr<MoseWorkload> workload);
    /// \return the workloads kept in step (AddWorkload())
    const std::vector<Ptr<MoseWorkload>>& GetWorkloads() const;
    /// \return OCS or routing operations that failed inside events (0 in a correct set-up)
    uint64_t GetNErrors() const;

    /**
     * \brief Splits a change into batches (the switcher's batch rule, exposed for tests and
     *        benchmarks): mose::PlanSwitchBatches() (mose-switch-planner.h), whose batches
     *        this switcher runs; removed circuits greedily, in chain order, into ceil-balanced
     *        batches whose routed graph stays connected where possible; added circuits to the
     *        batch that frees their last port.
     * \param current the port plan now in place
     * \param diff DiffPorts(current, target plan)
     * \param phases K >= 1
     * \return the batches (none if nothing changes); drain/dark/relink times unset
     */
    static std::vector<MoseSwitchBatch> MakeBatches(const mose::PortPlan& current,
                                                    const mose::PortCircuitDiff& diff,
                                                    uint32_t phases);

    /**
     * TracedCallback signature of "SwitchStarted".
     * \param index the switch
     * \param from the mode before
     * \param to the mode after
     */
    typedef void (*SwitchStartedCallback)(uint32_t index,
                                          mose::WorkloadMode from,
                                          mose::WorkloadMode to);
    /**
     * TracedCallback signature of "BatchDrained".
     * \param index the switch
     * \param batch the batch
     * \param duration how long the drain took
     * \param timedOut whether it ended at DrainTimeout
     */
    typedef void (*BatchDrainedCallback)(uint32_t index,
                                         uint32_t batch,
                                         Time duration,
                                         bool timedOut);
    /**
     * TracedCallback signature of "CircuitsDark" and "CircuitsRelinked".
     * \param index the switch
     * \param batch the batch
     * \param circuits how many circuits went dark / were connected
     */
    typedef void (*BatchCircuitsCallback)(uint32_t index, uint32_t batch, uint32_t circuits);
    /**
     * TracedCallback signature of "SwitchDone".
     * \param record the switch's record
     */
    typedef void (*SwitchDoneCallback)(const MoseSwitchRecord& record);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// The live ports of a batch being drained: device, root queue disc, group, port
    struct DrainPort
    {
        Ptr<PointToPointNetDevice> device; //!< the port's device
        Ptr<QueueDisc> disc;               //!< its root queue disc, or null
        uint32_t group;                    //!< its group
        uint32_t port;                     //!< its port
    };

    /// Event: a boundary \param i its index in the schedule
    void StartSwitch(uint32_t i);
    /// Event: begins batch b of the current switch (or finishes the switch)
    void StartBatch(uint32_t b);
    /// Event: checks whether the batch's ports are empty
    void PollDrain();
    /// Event: the drain took DrainTimeout
    void DrainTimedOut();
    /// Ends the drain of the current batch \param timedOut whether at the timeout
    void EndDrain(bool timedOut);
    /// Disconnects the current batch's circuits and schedules the relink
    void GoDark();
    /// Event: connects the current batch's new circuits and recomputes the routes
    void Relink();
    /// Event: closes the current switch's record
    void FinishSwitch();
    /// Sets a record's held packets, drops and lost packets since the switch started (from the
    /// protocols and the loss monitor now) \param record the current switch's record
    void CountSinceStart(MoseSwitchRecord& record) const;
    /// \param record a copy of the current switch's record, filled in up to Simulator::Now()
    ///        as an unfinished switch
    void CloseOpenRecord(MoseSwitchRecord& record) const;
    /// \return packets in the current batch's queues, discs and wires
    uint32_t PacketsOnDrainingPorts() const;
    /// Updates the route table with a matching, logging failures \param peers the matching
    void UpdateRoutes(const std::vector<uint32_t>& peers);
    /// \return the sum of the routing protocols' GetHoldEntered()
    uint64_t HoldEnteredTotal() const;
    /// Sink of the protocols' "HoldRelease" \param waited the wait
    void OnHoldRelease(const Ipv4Header&, Ptr<const Packet>, Time waited);

    // attributes
    uint32_t m_phases{1};     //!< "Phases" (K)
    bool m_drain{true};       //!< "Drain"
    Time m_drainTimeout;      //!< "DrainTimeout"
    bool m_fixedDrain{false}; //!< "FixedDrain"
    Time m_reconfigDelay;     //!< "ReconfigurationDelay"
    Time m_pollInterval;      //!< "DrainPollInterval"

    Ptr<MoseOcs> m_ocs;                                //!< the switch
    Ptr<MoseRouteTable> m_table;                       //!< the shared routes
    NodeContainer m_nodes;                             //!< group nodes
    std::vector<Ptr<MoseRoutingProtocol>> m_protocols; //!< per group node (null if none)
    MoseTargetProvider m_provider;                     //!< targets
    mose::ModeSchedule m_schedule;                     //!< the schedule
    std::vector<Time> m_boundaries; //!< when each switch starts (MoseScheduleTimes())
    std::map<mose::WorkloadMode, MoseModeTarget> m_targets;         //!< per mode, from Prepare()
    mose::WorkloadMode m_mode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< current mode
    mose::WorkloadMode m_initialMode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< initial mode
    bool m_prepared{false};                                                //!< Prepare() succeeded
    Ptr<MoseLossMonitor> m_loss; //!< per-switch drop snapshots

    std::vector<EventId> m_boundaryEvents;   //!< pending boundaries
    std::vector<MoseSwitchRecord> m_records; //!< one per switch started
    bool m_switching{false};                 //!< a switch is under way
    uint32_t m_batch{0};                     //!< current batch
    /// where the current batch is: draining, dark, or relinked (the next one not started yet)
    enum class Step
    {
        DRAIN,
        DARK,
        RELINKED
    } m_step{Step::RELINKED};
    std::vector<DrainPort> m_drainPorts; //!< ports of the batch being drained
    EventId m_pollEvent;                 //!< next PollDrain()
    EventId m_timeoutEvent;              //!< DrainTimedOut()
    EventId m_stepEvent;                 //!< relink / next batch / finish
    std::array<uint64_t, MoseLossMonitor::N_POINTS> m_dropsAtStart{}; //!< snapshot
    uint64_t m_lostAtStart{0};                                        //!< snapshot of the total
    uint64_t m_heldAtStart{0};                  //!< snapshot of HoldEnteredTotal()
    std::vector<Time> m_longestHoldAtStart;     //!< snapshot of each protocol's GetLongestHold()
    uint64_t m_errors{0};                       //!< failed operations inside events
    std::vector<Ptr<MoseWorkload>> m_workloads; //!< kept in step with the mode (AddWorkload())
    Ptr<MoseCircuitMonitor> m_circuits;         //!< intervals started at every switch (may be null)

    TracedCallback<uint32_t, mose::WorkloadMode, mose::WorkloadMode> m_startedTrace; //!< started
    TracedCallback<uint32_t, uint32_t, Time, bool> m_drainedTrace; //!< "BatchDrained"
    TracedCallback<uint32_t, uint32_t, uint32_t> m_darkTrace;      //!< "CircuitsDark"
    TracedCallback<uint32_t, uint32_t, uint32_t> m_relinkedTrace;  //!< "CircuitsRelinked"
    TracedCallback<const MoseSwitchRecord&> m_doneTrace;           //!< "SwitchDone"
};

} // namespace ns3

#endif /* MOSE_MODE_SWITCHER_H */
