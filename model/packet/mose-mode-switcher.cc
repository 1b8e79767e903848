/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-mode-switcher.h"

#include "ns3/boolean.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-switch-planner.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseModeSwitcher");

NS_OBJECT_ENSURE_REGISTERED(MoseModeSwitcher);

namespace
{

/// \return "t s" for messages
std::string
TimeText(Time t)
{
    std::ostringstream os;
    os << t.As(Time::S);
    return os.str();
}

} // namespace

TypeId
MoseModeSwitcher::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseModeSwitcher")
            .SetParent<Application>()
            .SetGroupName("Mose")
            .AddConstructor<MoseModeSwitcher>()
            .AddAttribute("Phases",
                          "K: the change is made in K batches (1 = all at once, as a MEMS "
                          "switch does); each batch is drained, dark and relinked in turn",
                          UintegerValue(1),
                          MakeUintegerAccessor(&MoseModeSwitcher::m_phases),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Drain",
                          "Drain a batch's circuits (route around them, wait until their queues "
                          "and wires are empty) before they go dark; false: they go dark at "
                          "once and their packets are lost (and counted)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&MoseModeSwitcher::m_drain),
                          MakeBooleanChecker())
            .AddAttribute("DrainTimeout",
                          "The longest a batch's drain waits; then the batch goes dark anyway "
                          "and the timeout is recorded",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&MoseModeSwitcher::m_drainTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("FixedDrain",
                          "Every batch's drain lasts exactly DrainTimeout instead of ending at "
                          "the first poll that finds its queues and wires empty; the packets "
                          "still there at its end are recorded as at a timeout. The drain end "
                          "every MPI rank computes alike without messages (a rank sees only "
                          "its own queues): required with Drain on more than one rank",
                          BooleanValue(false),
                          MakeBooleanAccessor(&MoseModeSwitcher::m_fixedDrain),
                          MakeBooleanChecker())
            .AddAttribute("ReconfigurationDelay",
                          "How long the OCS keeps a batch's ports dark while it re-points its "
                          "mirrors (0 allowed)",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MoseModeSwitcher::m_reconfigDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DrainPollInterval",
                          "How often a drain checks whether its queues and wires are empty",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&MoseModeSwitcher::m_pollInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("SwitchStarted",
                            "A mode boundary: a switch starts (index, from mode, to mode)",
                            MakeTraceSourceAccessor(&MoseModeSwitcher::m_startedTrace),
                            "ns3::MoseModeSwitcher::SwitchStartedCallback")
            .AddTraceSource("BatchDrained",
                            "A batch's drain ended (index, batch, duration, timed out)",
                            MakeTraceSourceAccessor(&MoseModeSwitcher::m_drainedTrace),
                            "ns3::MoseModeSwitcher::BatchDrainedCallback")
            .AddTraceSource("CircuitsDark",
                            "A batch's circuits were disconnected (index, batch, circuits)",
                            MakeTraceSourceAccessor(&MoseModeSwitcher::m_darkTrace),
                            "ns3::MoseModeSwitcher::BatchCircuitsCallback")
            .AddTraceSource("CircuitsRelinked",
                            "A batch's new circuits were connected (index, batch, circuits)",
                            MakeTraceSourceAccessor(&MoseModeSwitcher::m_relinkedTrace),
                            "ns3::MoseModeSwitcher::BatchCircuitsCallback")
            .AddTraceSource("SwitchDone",
                            "A switch finished (its record: circuits kept, removed, added; "
                            "drain, dark and total time; packets held, longest hold; drops)",
                            MakeTraceSourceAccessor(&MoseModeSwitcher::m_doneTrace),
                            "ns3::MoseModeSwitcher::SwitchDoneCallback")
            .AddAttribute("LossMonitor",
                          "The loss monitor the switcher snapshots per switch (read-only; "
                          "SetLossMonitor() sets it), e.g. for the Config path "
                          "/NodeList/[n]/ApplicationList/[a]/$ns3::MoseModeSwitcher/LossMonitor/"
                          "Drop",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&MoseModeSwitcher::GetLossMonitor),
                          MakePointerChecker<MoseLossMonitor>());
    return tid;
}

MoseModeSwitcher::MoseModeSwitcher()
{
    NS_LOG_FUNCTION(this);
}

MoseModeSwitcher::~MoseModeSwitcher()
{
    NS_LOG_FUNCTION(this);
}

void
MoseModeSwitcher::SetCircuitMonitor(Ptr<MoseCircuitMonitor> monitor)
{
    m_circuits = monitor;
}

void
MoseModeSwitcher::AddWorkload(Ptr<MoseWorkload> workload)
{
    NS_LOG_FUNCTION(this << workload);
    if (!workload)
    {
        throw mose::Error("MoseModeSwitcher::AddWorkload: no workload (null)");
    }
    if (!m_prepared)
    {
        throw mose::Error("MoseModeSwitcher::AddWorkload: the switcher has no targets yet: "
                          "install it first (MoseModeSwitcherHelper::Install() prepares it)");
    }
    const MoseModeTarget& t = GetTarget(m_mode);
    workload->SetMode(m_mode, t.roles, std::make_shared<const mose::CircuitGraph>(t.graph));
    m_workloads.push_back(workload);
}

const std::vector<Ptr<MoseWorkload>>&
MoseModeSwitcher::GetWorkloads() const
{
    return m_workloads;
}

void
MoseModeSwitcher::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_workloads.clear();
    m_circuits = nullptr;
    for (EventId& e : m_boundaryEvents)
    {
        e.Cancel();
    }
    m_pollEvent.Cancel();
    m_timeoutEvent.Cancel();
    m_stepEvent.Cancel();
    for (auto& r : m_protocols)
    {
        if (r)
        {
            r->TraceDisconnectWithoutContext("HoldRelease",
                                             MakeCallback(&MoseModeSwitcher::OnHoldRelease, this));
        }
    }
    m_protocols.clear();
    m_drainPorts.clear();
    m_ocs = nullptr;
    m_table = nullptr;
    m_loss = nullptr;
    m_nodes = NodeContainer();
    m_provider = nullptr;
    Application::DoDispose();
}

void
MoseModeSwitcher::SetFabric(Ptr<MoseOcs> ocs,
                            Ptr<MoseRouteTable> table,
                            const NodeContainer& groupNodes)
{
    NS_LOG_FUNCTION(this << ocs << table << groupNodes.GetN());
    if (!ocs || !table)
    {
        throw mose::Error("MoseModeSwitcher::SetFabric: the OCS and the route table must not "
                          "be null");
    }
    if (groupNodes.GetN() != ocs->GetNGroups())
    {
        mose::ThrowBadParameter("groupNodes",
                                std::to_string(groupNodes.GetN()) + " nodes",
                                "one node per group, N = " + std::to_string(ocs->GetNGroups()));
    }
    m_ocs = ocs;
    m_table = table;
    m_nodes = groupNodes;
    m_protocols.assign(groupNodes.GetN(), nullptr);
    for (uint32_t g = 0; g < groupNodes.GetN(); ++g)
    {
        m_protocols[g] = MoseRoutingProtocol::Find(groupNodes.Get(g)); // also in a list
        if (m_protocols[g])
        {
            m_protocols[g]->TraceConnectWithoutContext(
                "HoldRelease",
                MakeCallback(&MoseModeSwitcher::OnHoldRelease, this));
        }
    }
    m_prepared = false;
}

void
MoseModeSwitcher::SetTargetProvider(MoseTargetProvider provider)
{
    m_provider = std::move(provider);
    m_prepared = false;
}

std::vector<Time>
MoseScheduleTimes(const mose::ModeSchedule& schedule)
{
    std::vector<Time> times{Time(0)};
    for (const mose::ModeSchedule::Period& p : schedule)
    {
        times.push_back(times.back() + Seconds(p.duration));
    }
    return times;
}

void
MoseModeSwitcher::SetSchedule(const mose::ModeSchedule& schedule)
{
    m_schedule = schedule;
    m_mode = schedule.GetInitialMode();
    m_initialMode = m_mode;
    m_prepared = false;
}

mose::WorkloadMode
MoseModeSwitcher::GetInitialMode() const
{
    return m_initialMode;
}

const mose::ModeSchedule&
MoseModeSwitcher::GetSchedule() const
{
    return m_schedule;
}

void
MoseModeSwitcher::SetLossMonitor(Ptr<MoseLossMonitor> monitor)
{
    m_loss = monitor;
}

Ptr<MoseLossMonitor>
MoseModeSwitcher::GetLossMonitor() const
{
    return m_loss;
}

void
MoseModeSwitcher::Prepare()
{
    NS_LOG_FUNCTION(this);
    if (!m_ocs || !m_table)
    {
        throw mose::Error("MoseModeSwitcher::Prepare: call SetFabric() first");
    }
    if (!m_provider)
    {
        throw mose::Error("MoseModeSwitcher::Prepare: no target provider (SetTargetProvider)");
    }
#ifdef NS3_MPI
    if (m_drain && !m_fixedDrain && MpiInterface::IsEnabled() && MpiInterface::GetSize() > 1)
    {
        throw mose::Error("MoseModeSwitcher::FixedDrain = false with Drain = true on " +
                          std::to_string(MpiInterface::GetSize()) +
                          " MPI ranks: a rank sees only its own queues, so the ranks cannot "
                          "agree when a polled drain ends; allowed: FixedDrain = true (the "
                          "drain lasts DrainTimeout on every rank) or Drain = false");
    }
#endif
    const Time longest = (m_drainTimeout + m_reconfigDelay) * static_cast<int64_t>(m_phases);
    for (std::size_t i = 0; i < m_schedule.size(); ++i)
    {
        const std::string period = "schedule period " + std::to_string(i + 1);
        const double d = m_schedule[i].duration;
        if (!std::isfinite(d) || d < 0 || d > 1e9)
        {
            mose::ThrowBadParameter(period + " duration",
                                    mose::FormatNumber(d) + " s",
                                    "a duration from 0 to 1e9 s");
        }
        if (!mose::TryParseEnum<mose::WorkloadMode>(mose::ToString(m_schedule[i].mode)))
        {
            mose::ThrowBadParameter(period + " mode",
                                    std::to_string(static_cast<int>(m_schedule[i].mode)),
                                    mose::AllowedEnumNames<mose::WorkloadMode>());
        }
        // a period between two switches
        if (i > 0 && i + 1 < m_schedule.size() && Seconds(d) <= longest)
        {
            mose::ThrowBadParameter(
                period + " duration",
                TimeText(Seconds(d)),
                "every period between two switches longer than Phases x (DrainTimeout + "
                "ReconfigurationDelay) = " +
                    TimeText(longest) +
                    " (the longest a switch can take), so that a switch never starts before the "
                    "previous one ended");
        }
    }
    // the switches: at the start of every period but the first
    const std::vector<Time> times = MoseScheduleTimes(m_schedule);
    m_boundaries.assign(times.begin() + 1, times.end() - (m_schedule.empty() ? 0 : 1));
    std::map<mose::WorkloadMode, MoseModeTarget> targets;
    std::vector<mose::WorkloadMode> modes;
    for (const auto& p : m_schedule)
    {
        modes.push_back(p.mode);
    }
    if (modes.empty())
    {
        modes.push_back(m_mode);
    }
    const uint32_t n = m_ocs->GetNGroups();
    const uint32_t d = m_ocs->GetNPortsPerGroup();
    for (mose::WorkloadMode mode : modes)
    {
        if (targets.count(mode))
        {
            continue;
        }
        MoseModeTarget target = m_provider(mode); // may throw a mose::Error: before the run
        if (target.graph.GetNNodes() != n)
        {
            mose::ThrowBadParameter("target graph of mode " + mose::ToString(mode),
                                    std::to_string(target.graph.GetNNodes()) + " groups",
                                    "N = " + std::to_string(n) + " groups, as the OCS");
        }
        for (uint32_t g = 0; g < n; ++g)
        {
            if (target.graph.GetDegree(g) > d)
            {
                mose::ThrowBadParameter("target graph of mode " + mose::ToString(mode),
                                        "group " + std::to_string(g) + " of degree " +
                                            std::to_string(target.graph.GetDegree(g)),
                                        "degrees <= d = " + std::to_string(d));
            }
        }
        targets.emplace(mode, std::move(target));
    }
    m_targets = std::move(targets);
    m_prepared = true;
}

std::vector<MoseSwitchRecord>
MoseModeSwitcher::GetRecords() const
{
    std::vector<MoseSwitchRecord> records = m_records;
    if (m_switching && !records.empty())
    {
        CloseOpenRecord(records.back());
    }
    return records;
}

void
MoseModeSwitcher::CloseOpenRecord(MoseSwitchRecord& record) const
{
    const Time now = Simulator::Now();
    record.done = false;
    record.until = now;
    if (m_batch < record.batches.size() && m_step != Step::RELINKED)
    {
        const MoseSwitchBatch& batch = record.batches[m_batch];
        record.drainTime += (m_step == Step::DRAIN ? now : batch.darkStart) - batch.drainStart;
        if (m_step == Step::DARK)
        {
            record.darkTime += now - batch.darkStart;
        }
        if (!batch.connected)
        {
            record.blackoutTime += now - batch.drainStart;
        }
    }
    CountSinceStart(record);
    // packets still held since the switch started have waited this long so far
    for (const auto& r : m_protocols)
    {
        const Time since = r ? r->GetOldestHeldSince() : Time::Max();
        if (since <= now && since >= record.start)
        {
            record.longestHold = std::max(record.longestHold, now - since);
        }
    }
}

void
MoseModeSwitcher::CountSinceStart(MoseSwitchRecord& record) const
{
    if (m_loss && m_loss->CheckQueueDiscs().empty())
    {
        // (a monitor whose queue discs changed has false counts: the switch's start counted
        // that as an error, and the record keeps no drop count)
        for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            record.drops[p] =
                m_loss->GetDrops(static_cast<MoseLossMonitor::Point>(p)) - m_dropsAtStart[p];
        }
        record.lost = m_loss->GetTotal() - m_lostAtStart;
    }
    record.packetsHeld = HoldEnteredTotal() - m_heldAtStart;
    // a protocol's longest hold that grew since the start: a wait that ended during the switch,
    // released (also seen by OnHoldRelease) or dropped (overflow, HoldTime)
    for (std::size_t g = 0; g < m_protocols.size() && g < m_longestHoldAtStart.size(); ++g)
    {
        if (m_protocols[g] && m_protocols[g]->GetLongestHold() > m_longestHoldAtStart[g])
        {
            record.longestHold = std::max(record.longestHold, m_protocols[g]->GetLongestHold());
        }
    }
}

mose::WorkloadMode
MoseModeSwitcher::GetCurrentMode() const
{
    return m_mode;
}

const MoseModeTarget&
MoseModeSwitcher::GetTarget(mose::WorkloadMode mode) const
{
    auto it = m_targets.find(mode);
    if (it == m_targets.end())
    {
        mose::ThrowBadParameter("mode",
                                mose::ToString(mode),
                                "a mode of the schedule, after Prepare()");
    }
    return it->second;
}

bool
MoseModeSwitcher::IsSwitching() const
{
    return m_switching;
}

uint64_t
MoseModeSwitcher::GetNErrors() const
{
    return m_errors;
}

std::vector<MoseSwitchBatch>
MoseModeSwitcher::MakeBatches(const mose::PortPlan& current,
                              const mose::PortCircuitDiff& diff,
                              uint32_t phases)
{
    std::vector<MoseSwitchBatch> batches;
    for (mose::SwitchBatchPlan& plan : mose::PlanSwitchBatches(current, diff, phases))
    {
        MoseSwitchBatch batch;
        batch.removed = std::move(plan.removed);
        batch.added = std::move(plan.added);
        batch.connected = plan.connected;
        batches.push_back(std::move(batch));
    }
    return batches;
}

void
MoseModeSwitcher::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_prepared)
    {
        NS_LOG_ERROR("MoseModeSwitcher: not prepared (call Prepare() or use "
                     "MoseModeSwitcherHelper::Install() before the run); no switch will happen");
        ++m_errors;
        return;
    }
    for (uint32_t i = 0; i < m_boundaries.size(); ++i)
    {
        const Time at = m_boundaries[i];
        if (at < Simulator::Now())
        {
            NS_LOG_ERROR("MoseModeSwitcher: boundary " << i << " at " << at.As(Time::S)
                                                       << " is before the application start");
            ++m_errors;
            continue;
        }
        m_boundaryEvents.push_back(
            Simulator::Schedule(at - Simulator::Now(), &MoseModeSwitcher::StartSwitch, this, i));
    }
}

void
MoseModeSwitcher::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (EventId& e : m_boundaryEvents)
    {
        e.Cancel();
    }
    // a switch under way finishes: cutting it short would leave the fabric half reconfigured
}

void
MoseModeSwitcher::StartSwitch(uint32_t i)
{
    NS_LOG_FUNCTION(this << i);
    if (m_switching)
    {
        // Prepare() spaces the boundaries so that this cannot happen
        NS_LOG_ERROR("MoseModeSwitcher: boundary " << i << " while a switch is under way; "
                                                   << "skipped");
        ++m_errors;
        return;
    }
    const mose::WorkloadMode to = m_schedule[i + 1].mode;
    MoseSwitchRecord record;
    record.index = static_cast<uint32_t>(m_records.size());
    record.from = m_mode;
    record.to = to;
    record.start = Simulator::Now();
    record.until = record.start;
    record.phases = m_phases;
    try
    {
        const mose::PortPlan current = mose::PortPlan::FromPeers(m_ocs->GetNGroups(),
                                                                 m_ocs->GetNPortsPerGroup(),
                                                                 m_ocs->GetPortMatching());
        const mose::PortPlan target = mose::PlanPorts(m_targets.at(to).graph, current);
        const mose::PortCircuitDiff diff = mose::DiffPorts(current, target);
        record.kept = static_cast<uint32_t>(diff.kept.size());
        record.removed = static_cast<uint32_t>(diff.removed.size());
        record.added = static_cast<uint32_t>(diff.added.size());
        record.batches = MakeBatches(current, diff, m_phases);
    }
    catch (const std::exception& e)
    {
        NS_LOG_ERROR("MoseModeSwitcher: switch " << record.index << " failed: " << e.what());
        ++m_errors;
        return;
    }
    m_mode = to;
    m_switching = true;
    if (m_loss)
    {
        try
        {
            for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
            {
                m_dropsAtStart[p] = m_loss->GetDrops(static_cast<MoseLossMonitor::Point>(p));
            }
            m_lostAtStart = m_loss->GetTotal();
        }
        catch (const std::exception& e)
        {
            // the monitor's counts are false (a queue disc replaced after it): counted, and
            // every later read of the monitor refuses too
            NS_LOG_ERROR("MoseModeSwitcher: switch " << m_records.size() << ": " << e.what());
            ++m_errors;
        }
    }
    m_heldAtStart = HoldEnteredTotal();
    m_longestHoldAtStart.assign(m_protocols.size(), Time(0));
    for (std::size_t g = 0; g < m_protocols.size(); ++g)
    {
        m_longestHoldAtStart[g] = m_protocols[g] ? m_protocols[g]->GetLongestHold() : Time(0);
    }
    NS_LOG_INFO("switch " << record.index << " at " << record.start.As(Time::S) << ": "
                          << mose::ToString(record.from) << " -> " << mose::ToString(to)
                          << ", kept " << record.kept << ", removed " << record.removed
                          << ", added " << record.added << ", " << record.batches.size()
                          << " batches");
    m_records.push_back(std::move(record));
    if (!m_workloads.empty())
    {
        // the workloads place and start what comes next on the mode the fabric is entering
        const MoseModeTarget& t = m_targets.at(to);
        auto graph = std::make_shared<const mose::CircuitGraph>(t.graph);
        for (const Ptr<MoseWorkload>& w : m_workloads)
        {
            try
            {
                w->SetMode(to, t.roles, graph);
            }
            catch (const std::exception& e)
            {
                NS_LOG_ERROR("MoseModeSwitcher: switch " << m_records.back().index
                                                         << ": a workload refused mode "
                                                         << mose::ToString(to) << ": " << e.what());
                ++m_errors;
            }
        }
    }
    if (m_circuits)
    {
        m_circuits->StartInterval(); // the new mode's interval starts with its switch
    }
    m_startedTrace(m_records.back().index, m_records.back().from, to);
    StartBatch(0);
}

void
MoseModeSwitcher::StartBatch(uint32_t b)
{
    NS_LOG_FUNCTION(this << b);
    MoseSwitchRecord& record = m_records.back();
    if (b >= record.batches.size())
    {
        // after the flushes the last relink scheduled, so that their hold times are seen
        m_stepEvent = Simulator::ScheduleNow(&MoseModeSwitcher::FinishSwitch, this);
        return;
    }
    m_batch = b;
    m_step = Step::DRAIN;
    MoseSwitchBatch& batch = record.batches[b];
    batch.drainStart = Simulator::Now();
    m_drainPorts.clear();
    const uint32_t d = m_ocs->GetNPortsPerGroup();
    std::vector<uint32_t> peers = m_ocs->GetPortMatching();
    for (const auto& c : batch.removed)
    {
        for (auto [g, p] : {std::make_pair(c.groupA, c.portA), std::make_pair(c.groupB, c.portB)})
        {
            DrainPort dp;
            dp.device = m_ocs->GetDevice(g, p);
            Ptr<TrafficControlLayer> tc =
                dp.device ? dp.device->GetNode()->GetObject<TrafficControlLayer>() : nullptr;
            dp.disc = tc ? tc->GetRootQueueDiscOnDevice(dp.device) : nullptr;
            dp.group = g;
            dp.port = p;
            m_drainPorts.push_back(dp);
            peers[static_cast<std::size_t>(g) * d + p] = MoseRouteTable::NONE;
        }
    }
    if (!m_drain || batch.removed.empty())
    {
        batch.darkStart = Simulator::Now();
        GoDark();
        return;
    }
    UpdateRoutes(peers); // route around the batch; its circuits stay lit until drained
    m_timeoutEvent = Simulator::Schedule(m_drainTimeout, &MoseModeSwitcher::DrainTimedOut, this);
    if (!m_fixedDrain)
    {
        PollDrain();
    }
}

uint32_t
MoseModeSwitcher::PacketsOnDrainingPorts() const
{
    uint32_t packets = 0;
    for (const DrainPort& dp : m_drainPorts)
    {
        if (dp.device && dp.device->GetQueue())
        {
            packets += dp.device->GetQueue()->GetNPackets();
        }
        if (dp.disc)
        {
            packets += dp.disc->GetNPackets();
        }
        packets += m_ocs->GetPacketsInFlight(dp.group, dp.port);
    }
    return packets;
}

void
MoseModeSwitcher::PollDrain()
{
    if (PacketsOnDrainingPorts() == 0)
    {
        m_timeoutEvent.Cancel();
        EndDrain(false);
        return;
    }
    m_pollEvent = Simulator::Schedule(m_pollInterval, &MoseModeSwitcher::PollDrain, this);
}

void
MoseModeSwitcher::DrainTimedOut()
{
    NS_LOG_FUNCTION(this);
    m_pollEvent.Cancel();
    EndDrain(true);
}

void
MoseModeSwitcher::EndDrain(bool timedOut)
{
    MoseSwitchRecord& record = m_records.back();
    MoseSwitchBatch& batch = record.batches[m_batch];
    batch.darkStart = Simulator::Now();
    if (m_fixedDrain)
    {
        // the drain was meant to last DrainTimeout: it timed out only if packets are left (on
        // this rank's side of the batch's ports, the only side it sees)
        timedOut = PacketsOnDrainingPorts() > 0;
    }
    batch.drainTimedOut = timedOut;
    if (timedOut)
    {
        batch.packetsLeft = PacketsOnDrainingPorts();
        ++record.drainTimeouts;
        NS_LOG_WARN("switch " << record.index << " batch " << m_batch << ": drain timed out after "
                              << m_drainTimeout.As(Time::MS) << " with " << batch.packetsLeft
                              << " packets left");
    }
    m_drainedTrace(record.index, m_batch, batch.darkStart - batch.drainStart, timedOut);
    GoDark();
}

void
MoseModeSwitcher::GoDark()
{
    NS_LOG_FUNCTION(this);
    MoseSwitchRecord& record = m_records.back();
    MoseSwitchBatch& batch = record.batches[m_batch];
    m_step = Step::DARK;
    for (const auto& c : batch.removed)
    {
        try
        {
            if (!m_ocs->Disconnect(c.groupA, c.portA))
            {
                NS_LOG_ERROR("MoseModeSwitcher: circuit (" << c.groupA << "," << c.portA
                                                           << ") was already dark");
                ++m_errors;
            }
        }
        catch (const std::exception& e)
        {
            NS_LOG_ERROR("MoseModeSwitcher: disconnect failed: " << e.what());
            ++m_errors;
        }
    }
    if (!m_drain || batch.removed.empty())
    {
        // without a drain the routes learn of the change only now
        UpdateRoutes(m_ocs->GetPortMatching());
    }
    m_drainPorts.clear();
    m_darkTrace(record.index, m_batch, static_cast<uint32_t>(batch.removed.size()));
    m_stepEvent = Simulator::Schedule(m_reconfigDelay, &MoseModeSwitcher::Relink, this);
}

void
MoseModeSwitcher::Relink()
{
    NS_LOG_FUNCTION(this);
    MoseSwitchRecord& record = m_records.back();
    MoseSwitchBatch& batch = record.batches[m_batch];
    for (const auto& c : batch.added)
    {
        try
        {
            m_ocs->Connect(c.groupA, c.portA, c.groupB, c.portB);
        }
        catch (const std::exception& e)
        {
            NS_LOG_ERROR("MoseModeSwitcher: connect failed: " << e.what());
            ++m_errors;
        }
    }
    batch.relinkTime = Simulator::Now();
    UpdateRoutes(m_ocs->GetPortMatching());
    record.drainTime += batch.darkStart - batch.drainStart;
    record.darkTime += batch.relinkTime - batch.darkStart;
    if (!batch.connected)
    {
        record.blackoutTime += batch.relinkTime - batch.drainStart;
    }
    m_step = Step::RELINKED;
    m_relinkedTrace(record.index, m_batch, static_cast<uint32_t>(batch.added.size()));
    StartBatch(m_batch + 1);
}

void
MoseModeSwitcher::FinishSwitch()
{
    NS_LOG_FUNCTION(this);
    MoseSwitchRecord& record = m_records.back();
    record.end = Simulator::Now();
    record.until = record.end;
    record.done = true;
    CountSinceStart(record);
    m_switching = false;
    NS_LOG_INFO("switch " << record.index << " done at " << record.end.As(Time::S) << ": drain "
                          << record.drainTime.As(Time::US) << ", dark "
                          << record.darkTime.As(Time::MS) << ", held " << record.packetsHeld
                          << ", lost " << record.lost);
    m_doneTrace(record);
}

void
MoseModeSwitcher::UpdateRoutes(const std::vector<uint32_t>& peers)
{
    try
    {
        m_table->Update(peers);
    }
    catch (const std::exception& e)
    {
        NS_LOG_ERROR("MoseModeSwitcher: route update failed: " << e.what());
        ++m_errors;
    }
}

uint64_t
MoseModeSwitcher::HoldEnteredTotal() const
{
    uint64_t total = 0;
    for (const auto& r : m_protocols)
    {
        total += r ? r->GetHoldEntered() : 0;
    }
    return total;
}

void
MoseModeSwitcher::OnHoldRelease(const Ipv4Header&, Ptr<const Packet>, Time waited)
{
    if (m_records.empty())
    {
        return;
    }
    MoseSwitchRecord& record = m_records.back();
    // a packet held during the last switch (released at its end or soon after)
    if (Simulator::Now() - waited >= record.start)
    {
        record.longestHold = std::max(record.longestHold, waited);
    }
}

} // namespace ns3
