/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-experiment.h"

#include "mose-program.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchExperiment");

namespace
{

/// \return a time in ms with 3 decimals and the unit
std::string
Ms(double seconds)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(3) << seconds * 1e3 << " ms";
    return o.str();
}

/// \return a time in ms with 3 decimals and the unit
std::string
Ms(Time t)
{
    // the magnitude's seconds: GetSeconds() of a negative time shifts a negative value
    // (undefined before C++20) in ns-3's int64x64-128.h
    return Ms(t.IsStrictlyNegative() ? -(Time(0) - t).GetSeconds() : t.GetSeconds());
}

/// \return the relative change of b against a in percent, signed, e.g. "-12.3%"
std::string
Percent(double value, double reference)
{
    if (reference == 0)
    {
        return "n/a";
    }
    std::ostringstream o;
    o << std::showpos << std::fixed << std::setprecision(1)
      << (value - reference) / reference * 100.0 << "%";
    return o.str();
}

/// \return "0.45 Gb/s"
std::string
Gbps(double bps)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(2) << bps / 1e9 << " Gb/s";
    return o.str();
}

} // namespace

MoseSwitchExperimentConfig
MoseSwitchExperimentConfig::Scaled(uint32_t nodes, uint64_t flows)
{
    MoseSwitchExperimentConfig c;
    c.scenario = mose::PaperScaledConfig(nodes);
    c.scenario.flows = flows;
    c.scenario.seeds = 1;
    c.SetSchedule({{mose::WorkloadMode::INFERENCE_HEAVY, 0.2},
                   {mose::WorkloadMode::TRAINING_HEAVY, 0.2},
                   {mose::WorkloadMode::INFERENCE_HEAVY, 0.2}});
    return c;
}

void
MoseSwitchExperimentConfig::SetSchedule(const std::vector<mose::SchedulePeriod>& periods)
{
    if (periods.empty())
    {
        mose::ThrowBadParameter("--schedule",
                                "\"\"",
                                "the schedule is empty; " + mose::ScheduleSyntax());
    }
    // ns-3's Time holds up to about 292 years in ns; keep the whole schedule well inside it
    const double maxSeconds = 1e9;
    double total = 0;
    std::vector<MoseModeBoundary> boundaries;
    Time at = Seconds(0);
    for (std::size_t k = 0; k < periods.size(); ++k)
    {
        const std::string where = "--schedule period " + std::to_string(k + 1) + " duration";
        total += periods[k].duration;
        if (!(total <= maxSeconds))
        {
            mose::ThrowBadParameter("--schedule",
                                    optionText.count("--schedule") != 0
                                        ? mose::QuoteText(optionText.at("--schedule"))
                                        : mose::QuoteText(mose::FormatSchedule(periods)),
                                    "the periods must add up to at most " +
                                        mose::FormatNumber(maxSeconds) + " s");
        }
        const Time length = Seconds(periods[k].duration);
        if (!length.IsStrictlyPositive())
        {
            mose::ThrowBadParameter(where,
                                    mose::FormatNumber(periods[k].duration) + " s",
                                    "every period of a switching run must last at least 1 ns");
        }
        if (k > 0)
        {
            boundaries.push_back({at, periods[k].mode});
        }
        at += length;
    }
    initialMode = periods.front().mode;
    schedule = std::move(boundaries);
    end = at;
}

std::vector<mose::SchedulePeriod>
MoseSwitchExperimentConfig::GetSchedulePeriods() const
{
    // seconds of a duration that may be negative (an unsorted schedule being reported): ns-3's
    // Time::GetSeconds() of a negative time left-shifts a negative value in int64x64-128.h
    // (undefined before C++20), so convert its magnitude
    auto seconds = [](Time t) {
        return t.IsStrictlyNegative() ? -(Time(0) - t).GetSeconds() : t.GetSeconds();
    };
    std::vector<mose::SchedulePeriod> periods;
    Time from = Seconds(0);
    mose::WorkloadMode mode = initialMode;
    for (const MoseModeBoundary& b : schedule)
    {
        periods.push_back({mode, seconds(b.at - from)});
        from = b.at;
        mode = b.mode;
    }
    periods.push_back({mode, seconds(end - from)});
    return periods;
}

std::string
MoseSwitchExperimentConfig::Shown(const std::string& option, Time value) const
{
    auto it = optionText.find(option);
    return it != optionText.end() ? mose::QuoteText(it->second) : Ms(value);
}

std::string
MoseSwitchExperimentConfig::ScheduleShown() const
{
    auto it = optionText.find("--schedule");
    return mose::QuoteText(it != optionText.end() ? it->second
                                                  : mose::FormatSchedule(GetSchedulePeriods()));
}

void
MoseSwitchExperimentConfig::Validate() const
{
    scenario.Validate();
    for (std::size_t i = 1; i < schedule.size(); ++i)
    {
        if (schedule[i].at <= schedule[i - 1].at)
        {
            mose::ThrowBadParameter("--schedule",
                                    ScheduleShown(),
                                    "boundary times must be strictly increasing (boundary " +
                                        std::to_string(i) + " at " + Ms(schedule[i].at) +
                                        " is not after boundary " + std::to_string(i - 1) + " at " +
                                        Ms(schedule[i - 1].at) + ")");
        }
    }
    if (firstStart.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("first start", Ms(firstStart), "a time >= 0");
    }
    if (!schedule.empty() && schedule.front().at <= firstStart)
    {
        mose::ThrowBadParameter("--schedule",
                                ScheduleShown(),
                                "the first period must last longer than the first transfers' "
                                "start (" +
                                    Ms(firstStart) + ")");
    }
    const Time last = schedule.empty() ? firstStart : schedule.back().at;
    if (end <= last)
    {
        mose::ThrowBadParameter("end of the last interval",
                                Ms(end),
                                "a time after the last boundary (" + Ms(last) + ")");
    }
    if (stopTime <= end)
    {
        mose::ThrowBadParameter("--stopTime",
                                Shown("--stopTime", stopTime),
                                "a time after the end of the last interval (" + Ms(end) +
                                    ", the end of --schedule)");
    }
    if (!startWindow.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("--startWindow",
                                Shown("--startWindow", startWindow),
                                "a positive duration");
    }
    if (!binWidth.IsStrictlyPositive() ||
        stopTime.GetTimeStep() / binWidth.GetTimeStep() > 100000000)
    {
        mose::ThrowBadParameter("--binWidth",
                                Shown("--binWidth", binWidth),
                                "a positive duration, at most 1e8 bins up to --stopTime = " +
                                    Shown("--stopTime", stopTime));
    }
}

uint64_t
MoseSwitchInterval::GetMaxCircuitBytes() const
{
    return circuitBytes.empty() ? 0 : *std::max_element(circuitBytes.begin(), circuitBytes.end());
}

double
MoseSwitchInterval::GetMeanCircuitBytes() const
{
    if (circuitBytes.empty())
    {
        return 0;
    }
    double sum = 0;
    for (uint64_t b : circuitBytes)
    {
        sum += static_cast<double>(b);
    }
    return sum / static_cast<double>(circuitBytes.size());
}

const MoseFctSummary&
MoseSwitchInterval::GetFct(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? kv : training;
}

MoseSwitchExperiment::MoseSwitchExperiment(const MoseSwitchExperimentConfig& config)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
    m_config.Validate();
}

const MoseSwitchExperimentConfig&
MoseSwitchExperiment::GetConfig() const
{
    return m_config;
}

Time
MoseSwitchExperiment::ParseDuration(const std::string& parameter, const std::string& text)
{
    return mose::ParseTimeOption(parameter, text);
}

const mose::MoseScenario&
MoseSwitchExperiment::GetScenario() const
{
    return m_scenario;
}

void
MoseSwitchExperiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::MoseError("MoseSwitchExperiment::Build was already called");
    }
    SystemWallClockMs clock;
    clock.Start();
    const mose::MoseScenarioBuilder builder(m_config.scenario);
    m_scenario = builder.Build(m_config.run);
    const mose::MoseScenario& sc = m_scenario;
    const mose::RoutingRule rule = m_config.scenario.routing;

    // the intervals and their flow-level metrics (one evaluation per template and mode)
    std::vector<std::pair<mose::WorkloadMode, Time>> starts{
        {m_config.initialMode, m_config.firstStart}};
    for (const auto& b : m_config.schedule)
    {
        starts.emplace_back(b.mode, b.at);
    }
    std::map<std::pair<const mose::CircuitGraph*, mose::WorkloadMode>, mose::FlowMetrics> cache;
    m_intervals.clear();
    for (std::size_t i = 0; i < starts.size(); ++i)
    {
        MoseSwitchInterval iv;
        iv.index = static_cast<uint32_t>(i);
        iv.mode = starts[i].first;
        iv.start = starts[i].second;
        iv.end = i + 1 < starts.size() ? starts[i + 1].second : m_config.end;
        iv.templateId = mose::SelectTemplate(m_config.policy, iv.mode);
        const mose::CircuitGraph& graph = sc.GetGraph(m_config.policy, iv.mode);
        iv.graph = graph;
        const std::vector<mose::Flow>& flows = sc.flows[static_cast<std::size_t>(iv.mode)];
        iv.flows = flows.size();
        auto it = cache.find({&graph, iv.mode});
        if (it == cache.end())
        {
            const mose::ShortestPathRouting routing(iv.graph, rule, sc.routingSeed);
            it = cache.emplace(std::make_pair(&graph, iv.mode), mose::EvaluateFlows(routing, flows))
                     .first;
        }
        iv.metrics = it->second;
        m_intervals.push_back(std::move(iv));
    }

    // the fabric in the initial mode's template
    m_topology = CreateObject<MoseTopologyHelper>();
    m_topology->SetAttribute("Groups", UintegerValue(m_config.scenario.nodes));
    m_topology->SetAttribute("PortsPerGroup", UintegerValue(m_config.scenario.degree));
    m_topology->SetRoles(sc.roles[static_cast<std::size_t>(m_config.initialMode)]);
    m_topology->SetCircuitGraph(m_intervals.front().graph);
    m_topology->SetRouting(rule, sc.routingSeed);
    m_topology->Install();

    m_circuits = CreateObject<MoseCircuitMonitor>();
    m_circuits->Install(m_topology->GetOcs());
    m_loss = CreateObject<MoseLossMonitor>();
    m_loss->Install(NodeContainer(m_topology->GetGroupNodes(), m_topology->GetAllHosts()),
                    m_topology->GetOcs());

    // the switcher: its attributes are MoseModeSwitcher's defaults (Config::SetDefault)
    MoseModeSwitcherHelper helper;
    helper.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider(m_config.policy, sc));
    helper.SetSchedule(m_config.schedule);
    helper.SetInitialMode(m_config.initialMode);
    helper.SetLossMonitor(m_loss);
    m_switcher = helper.Install(m_topology);
    m_switcher->TraceConnectWithoutContext("SwitchDone",
                                           MakeCallback(&MoseSwitchExperiment::OnSwitchDone, this));
    {
        UintegerValue phases;
        BooleanValue drain;
        TimeValue timeout;
        TimeValue delay;
        m_switcher->GetAttribute("Phases", phases);
        m_switcher->GetAttribute("Drain", drain);
        m_switcher->GetAttribute("DrainTimeout", timeout);
        m_switcher->GetAttribute("ReconfigurationDelay", delay);
        std::ostringstream text;
        text << "K=" << phases.Get() << ", drain " << (drain.Get() ? "on" : "off")
             << ", drain timeout " << Ms(timeout.Get()) << ", reconfiguration delay "
             << Ms(delay.Get());
        m_switcherText = text.str();
    }

    // every interval's transfers
    m_traffic = MoseModeSwitcherHelper::InstallModeTraffic(
        m_switcher,
        m_topology->GetEndpoints(),
        [&sc](mose::WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; },
        m_config.firstStart,
        m_config.end,
        m_config.startWindow,
        mose::MoseStream::TRANSFERS);
    UintegerValue unit;
    m_traffic.front()->GetAttribute("BytesPerUnit", unit);
    m_bytesPerUnit = unit.Get();
    m_nTransfers = 0;
    m_nCompleted = 0;
    for (uint32_t i = 0; i < m_traffic.size(); ++i)
    {
        Ptr<MoseTransferMonitor> monitor = m_traffic[i]->GetMonitor();
        m_nTransfers += monitor->GetNTransfers();
        monitor->TraceConnectWithoutContext(
            "TransferRx",
            Callback<void, uint32_t, uint32_t>(
                [this, i](uint32_t index, uint32_t bytes) { OnRx(i, index, bytes); }));
        monitor->TraceConnectWithoutContext("TransferCompleted",
                                            MakeCallback(&MoseSwitchExperiment::OnCompleted, this));
    }
    // scheduled now, so that at a boundary they run before the switch starts (same time,
    // earlier event)
    for (uint32_t i = 0; i + 1 < m_intervals.size(); ++i)
    {
        Simulator::Schedule(m_intervals[i + 1].start,
                            &MoseSwitchExperiment::CloseInterval,
                            this,
                            i);
    }
    m_dropsAtStart.assign(m_intervals.size() + 1, {});
    m_bins.clear();
    m_built = true;
    m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
    NS_LOG_INFO("built in " << m_buildSeconds << " s: " << m_intervals.size() << " intervals, "
                            << m_nTransfers << " transfers");
}

uint64_t
MoseSwitchExperiment::SumPortBytes() const
{
    uint64_t sum = 0;
    for (uint32_t g = 0; g < m_config.scenario.nodes; ++g)
    {
        for (uint32_t p = 0; p < m_config.scenario.degree; ++p)
        {
            sum += m_circuits->GetPortBytes(g, p);
        }
    }
    return sum;
}

void
MoseSwitchExperiment::CloseInterval(uint32_t interval)
{
    NS_LOG_FUNCTION(this << interval);
    MoseSwitchInterval& iv = m_intervals.at(interval);
    const mose::CircuitGraph live = m_topology->GetOcs()->GetCircuitGraph();
    const std::vector<uint64_t> bytes = m_circuits->GetCircuitBytes();
    iv.graphRealised = live.GetCircuits() == iv.graph.GetCircuits();
    iv.circuitBytes.assign(iv.graph.GetNCircuits(), 0);
    for (std::size_t c = 0; c < live.GetNCircuits() && c < bytes.size(); ++c)
    {
        const mose::Circuit& e = live.GetCircuits()[c];
        const int64_t k = iv.graph.FindCircuit(e.u, e.v);
        if (k >= 0)
        {
            iv.circuitBytes[static_cast<std::size_t>(k)] += bytes[c];
        }
    }
    m_circuits->Reset();
    for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        m_dropsAtStart[interval + 1][p] = m_loss->GetDrops(static_cast<MoseLossMonitor::Point>(p));
    }
}

void
MoseSwitchExperiment::OnSwitchDone(const MoseSwitchRecord& record)
{
    NS_LOG_FUNCTION(this << record.index);
    const uint32_t interval = record.index + 1;
    if (interval < m_intervals.size())
    {
        m_intervals[interval].bytesDuringSwitch = SumPortBytes();
    }
    m_circuits->Reset();
    MaybeStop();
}

void
MoseSwitchExperiment::OnRx(uint32_t interval, uint32_t index, uint32_t bytes)
{
    const MoseTransfer& t = m_traffic[interval]->GetMonitor()->GetTransfer(index);
    const auto bin =
        static_cast<std::size_t>(Simulator::Now().GetTimeStep() / m_config.binWidth.GetTimeStep());
    if (bin >= m_bins.size())
    {
        m_bins.resize(bin + 1, {0, 0});
    }
    m_bins[bin][t.cls == mose::TrafficClass::KV ? 0 : 1] += bytes;
}

void
MoseSwitchExperiment::OnCompleted(uint32_t, Time)
{
    ++m_nCompleted;
    MaybeStop();
}

void
MoseSwitchExperiment::MaybeStop()
{
    if (m_nCompleted == m_nTransfers && !m_switcher->IsSwitching() &&
        Simulator::Now() >= m_intervals.back().start)
    {
        Simulator::Stop();
    }
}

void
MoseSwitchExperiment::Run()
{
    NS_LOG_FUNCTION(this);
    if (!m_built || m_ran)
    {
        throw mose::MoseError("MoseSwitchExperiment::Run needs one Build() before it, once");
    }
    Simulator::Stop(m_config.stopTime);
    const uint64_t eventsBefore = Simulator::GetEventCount();
    SystemWallClockMs clock;
    clock.Start();
    Simulator::Run();
    m_wallSeconds = static_cast<double>(clock.End()) / 1000.0;
    m_events = Simulator::GetEventCount() - eventsBefore;
    m_simulatedSeconds = Simulator::Now().GetSeconds();

    // the last interval ends with the simulation; intervals whose boundary never came too
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        if (i + 1 == m_intervals.size() || m_intervals[i + 1].start > now)
        {
            CloseInterval(i);
            for (uint32_t j = i + 1; j < m_intervals.size(); ++j)
            {
                m_dropsAtStart[j + 1] = m_dropsAtStart[i + 1];
            }
            break;
        }
    }
    m_records = m_switcher->GetRecords();
    for (const MoseSwitchRecord& r : m_records)
    {
        if (r.index + 1 < m_intervals.size())
        {
            m_intervals[r.index + 1].switchRecord = r;
        }
    }
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        MoseSwitchInterval& iv = m_intervals[i];
        Ptr<MoseTransferMonitor> monitor = m_traffic[i]->GetMonitor();
        iv.transfers = monitor->GetTransfers();
        iv.kv = monitor->Summarize(mose::TrafficClass::KV);
        iv.training = monitor->Summarize(mose::TrafficClass::TRAINING);
        iv.packetsLost = 0;
        for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            iv.drops[p] = m_dropsAtStart[i + 1][p] - m_dropsAtStart[i][p];
            iv.packetsLost += iv.drops[p];
        }
    }
    m_packetsLost = m_loss->GetTotal();
    m_ran = true;
    m_topology = nullptr;
    m_switcher = nullptr;
    m_traffic.clear();
    m_circuits = nullptr;
    m_loss = nullptr;
    Simulator::Destroy();
}

const std::vector<MoseSwitchInterval>&
MoseSwitchExperiment::GetIntervals() const
{
    return m_intervals;
}

const std::vector<MoseSwitchRecord>&
MoseSwitchExperiment::GetSwitchRecords() const
{
    return m_records;
}

const std::vector<std::array<uint64_t, 2>>&
MoseSwitchExperiment::GetGoodputBins() const
{
    return m_bins;
}

const std::string&
MoseSwitchExperiment::GetSwitcherText() const
{
    return m_switcherText;
}

uint64_t
MoseSwitchExperiment::GetPacketsLost() const
{
    return m_packetsLost;
}

double
MoseSwitchExperiment::GetBuildSeconds() const
{
    return m_buildSeconds;
}

double
MoseSwitchExperiment::GetWallSeconds() const
{
    return m_wallSeconds;
}

uint64_t
MoseSwitchExperiment::GetEvents() const
{
    return m_events;
}

MoseSwitchRunSummary
MoseSwitchExperiment::GetSummary() const
{
    MoseSwitchRunSummary s;
    s.policy = m_config.policy;
    std::vector<MoseTransfer> all;
    for (const auto& iv : m_intervals)
    {
        all.insert(all.end(), iv.transfers.begin(), iv.transfers.end());
    }
    s.kv = MoseTransferMonitor::SummarizeTransfers(all, mose::TrafficClass::KV);
    s.training = MoseTransferMonitor::SummarizeTransfers(all, mose::TrafficClass::TRAINING);
    Time first = Time::Max();
    Time last = Time(0);
    double sum = 0;
    for (const auto& t : all)
    {
        ++s.transfers;
        first = std::min(first, t.start);
        if (t.complete)
        {
            ++s.completed;
            sum += t.GetCompletionTime().GetSeconds();
            last = std::max(last, t.end);
        }
    }
    s.meanFctS = s.completed > 0 ? sum / s.completed : 0.0;
    s.makespanS = s.completed > 0 ? (last - first).GetSeconds() : 0.0;
    for (const auto& r : m_records)
    {
        ++s.switches;
        s.circuitsChanged += r.removed + r.added;
        s.switchTime += r.GetDuration();
        s.blackoutTime += r.blackoutTime;
        s.packetsHeld += r.packetsHeld;
        s.longestHold = std::max(s.longestHold, r.longestHold);
    }
    for (const auto& iv : m_intervals)
    {
        double fctSum = 0;
        uint32_t done = 0;
        for (const auto& t : iv.transfers)
        {
            if (t.complete)
            {
                fctSum += t.GetCompletionTime().GetSeconds();
                ++done;
            }
        }
        s.intervalModes.push_back(iv.mode);
        s.intervalMeanFctS.push_back(done > 0 ? fctSum / done : 0.0);
        s.intervalMaxLoad.push_back(iv.metrics.all.maxLoad);
    }
    s.packetsLost = m_packetsLost;
    s.wallSeconds = m_wallSeconds;
    s.simulatedSeconds = m_simulatedSeconds;
    return s;
}

void
MoseSwitchExperiment::PrintReport(std::ostream& os) const
{
    const auto& c = m_config;
    os << "mose-mode-switch: N=" << c.scenario.nodes << " d=" << c.scenario.degree << ", policy "
       << mose::ToString(c.policy) << ", routing " << mose::ToString(c.scenario.routing) << ", run "
       << c.run << "\n";
    os << "  switcher: " << m_switcherText;
    for (const MoseSwitchRecord& r : m_records)
    {
        if (!r.batches.empty() && r.batches.size() != r.phases)
        {
            os << " (requested; a switch makes at most one batch per removed circuit, so some "
                  "used fewer: see their batches)";
            break;
        }
    }
    os << "; " << m_bytesPerUnit << " bytes per unit of demand\n";
    os << "  timeline:";
    for (const auto& iv : m_intervals)
    {
        os << (iv.index == 0 ? " " : " -> ") << mose::ToString(iv.mode) << " ["
           << iv.start.GetSeconds() * 1e3 << ", " << iv.end.GetSeconds() * 1e3 << ") ms";
    }
    os << "\n";
    for (const auto& iv : m_intervals)
    {
        os << "\ninterval " << iv.index << ": " << mose::ToString(iv.mode) << " [" << Ms(iv.start)
           << ", " << Ms(iv.end) << "), template " << mose::ToString(iv.templateId)
           << (iv.graphRealised ? "" : " (NOT realised)") << "\n";
        if (iv.switchRecord)
        {
            const MoseSwitchRecord& r = *iv.switchRecord;
            os << "  switch " << r.index << ": " << mose::ToString(r.from) << " -> "
               << mose::ToString(r.to) << ", " << Ms(r.start) << " .. "
               << (r.done
                       ? Ms(r.end)
                       : "UNFINISHED (the run stopped at " + Ms(r.until) + "; figures up to then)")
               << ": kept " << r.kept << ", removed " << r.removed << ", added " << r.added;
            if (!r.batches.empty() && r.batches.size() != r.phases)
            {
                os << ", " << r.batches.size() << " batches (K=" << r.phases
                   << " requested: at most one batch per removed circuit)";
            }
            os << "; drain " << Ms(r.drainTime) << ", dark " << Ms(r.darkTime) << ", blackout "
               << Ms(r.blackoutTime) << "; packets held " << r.packetsHeld << " (longest "
               << Ms(r.longestHold) << "), lost " << r.lost << "\n";
        }
        else if (iv.index > 0)
        {
            os << "  switch: none (the simulation ended first)\n";
        }
        const mose::FlowMetrics& m = iv.metrics;
        os << "  flow level (" << iv.flows << " flows): MaxLoad " << m.all.maxLoad << ", P95 load "
           << m.all.p95Load << ", AvgHop " << std::setprecision(4) << m.all.avgHop << ", DirectKV "
           << m.directKv << ", 3+hop " << m.kvThreePlus << "; cost KV avg " << m.kv.avgCost
           << " P95 " << m.kv.p95Cost << ", training avg " << m.training.avgCost << " P95 "
           << m.training.p95Cost << std::setprecision(6) << "\n";
        os << "  " << std::left << std::setw(10) << "class" << std::right << std::setw(10)
           << "transfers" << std::setw(8) << "done" << std::setw(13) << "FCT mean" << std::setw(13)
           << "P50" << std::setw(13) << "P95" << std::setw(13) << "P99" << std::setw(13)
           << "goodput"
           << "\n";
        for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
        {
            const MoseFctSummary& f = iv.GetFct(cls);
            os << "  " << std::left << std::setw(10) << mose::ToString(cls) << std::right
               << std::setw(10) << f.transfers << std::setw(8) << f.completed << std::setw(13)
               << Ms(f.meanS) << std::setw(13) << Ms(f.p50S) << std::setw(13) << Ms(f.p95S)
               << std::setw(13) << Ms(f.p99S) << std::setw(13) << Gbps(f.goodputBps) << "\n";
        }
        os << "  circuits: " << iv.circuitBytes.size() << ", payload bytes max "
           << iv.GetMaxCircuitBytes() << ", mean " << std::fixed << std::setprecision(0)
           << iv.GetMeanCircuitBytes() << std::defaultfloat << std::setprecision(6)
           << " (while in place), " << iv.bytesDuringSwitch
           << " during the switch; packets lost in the interval " << iv.packetsLost;
        if (iv.packetsLost > 0)
        {
            os << " (";
            bool first = true;
            for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
            {
                if (iv.drops[p] > 0)
                {
                    os << (first ? "" : ", ")
                       << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p))
                       << " " << iv.drops[p];
                    first = false;
                }
            }
            os << ")";
        }
        os << "\n";
    }
    const MoseSwitchRunSummary s = GetSummary();
    os << "\nwhole run: " << s.completed << " of " << s.transfers
       << " transfers completed, mean FCT " << Ms(s.meanFctS) << " (KV " << Ms(s.kv.meanS)
       << ", training " << Ms(s.training.meanS) << "), makespan " << Ms(s.makespanS) << "; "
       << s.switches << " switches, " << s.circuitsChanged << " circuits changed, blackout "
       << Ms(s.blackoutTime) << ", packets held " << s.packetsHeld << ", lost " << s.packetsLost
       << "\n";
    os << "  build " << std::fixed << std::setprecision(2) << m_buildSeconds << " s, run "
       << m_wallSeconds << " s wall for " << std::setprecision(4) << m_simulatedSeconds
       << " s simulated, " << m_events << " events" << std::defaultfloat << std::setprecision(6)
       << "\n";
}

void
MoseSwitchExperiment::WriteCsv(const std::string& dir, const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << dir << prefix);
    std::ostringstream intervals;
    intervals << std::setprecision(12);
    intervals
        << "interval,mode,template,start_s,end_s,switch,switch_from,switch_start_s,switch_end_s,"
           "switch_done,switch_until_s,kept,removed,added,batches,drain_s,dark_s,blackout_s,drain_"
           "timeouts,"
           "packets_held,longest_hold_s,switch_lost,flows,max_load,p95_load,avg_hop,direct_kv,"
           "kv_3plus_hop,kv_avg_cost,kv_p95_cost,training_avg_cost,training_p95_cost";
    for (const char* cls : {"kv", "training"})
    {
        intervals << ',' << cls << "_transfers," << cls << "_completed," << cls << "_fct_mean_s,"
                  << cls << "_fct_p50_s," << cls << "_fct_p95_s," << cls << "_fct_p99_s," << cls
                  << "_goodput_bps";
    }
    intervals << ",circuits,graph_realised,circuit_bytes_max,circuit_bytes_mean,"
                 "bytes_during_switch,packets_lost";
    for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        intervals << ",lost_"
                  << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p));
    }
    intervals << '\n';
    for (const auto& iv : m_intervals)
    {
        intervals << iv.index << ',' << mose::ToString(iv.mode) << ','
                  << mose::ToString(iv.templateId) << ',' << iv.start.GetSeconds() << ','
                  << iv.end.GetSeconds() << ',';
        if (iv.switchRecord)
        {
            const MoseSwitchRecord& r = *iv.switchRecord;
            intervals << r.index << ',' << mose::ToString(r.from) << ',' << r.start.GetSeconds()
                      << ',';
            if (r.done)
            {
                intervals << r.end.GetSeconds();
            }
            intervals << ',' << (r.done ? 1 : 0) << ',' << r.until.GetSeconds() << ',' << r.kept
                      << ',' << r.removed << ',' << r.added << ',' << r.batches.size() << ','
                      << r.drainTime.GetSeconds() << ',' << r.darkTime.GetSeconds() << ','
                      << r.blackoutTime.GetSeconds() << ',' << r.drainTimeouts << ','
                      << r.packetsHeld << ',' << r.longestHold.GetSeconds() << ',' << r.lost << ',';
        }
        else
        {
            intervals << ",,,,,,,,,,,,,,,,,";
        }
        const mose::FlowMetrics& m = iv.metrics;
        intervals << iv.flows << ',' << m.all.maxLoad << ',' << m.all.p95Load << ',' << m.all.avgHop
                  << ',' << m.directKv << ',' << m.kvThreePlus << ',' << m.kv.avgCost << ','
                  << m.kv.p95Cost << ',' << m.training.avgCost << ',' << m.training.p95Cost;
        for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
        {
            const MoseFctSummary& f = iv.GetFct(cls);
            intervals << ',' << f.transfers << ',' << f.completed << ',' << f.meanS << ',' << f.p50S
                      << ',' << f.p95S << ',' << f.p99S << ',' << f.goodputBps;
        }
        intervals << ',' << iv.circuitBytes.size() << ',' << (iv.graphRealised ? 1 : 0) << ','
                  << iv.GetMaxCircuitBytes() << ',' << iv.GetMeanCircuitBytes() << ','
                  << iv.bytesDuringSwitch << ',' << iv.packetsLost;
        for (uint64_t d : iv.drops)
        {
            intervals << ',' << d;
        }
        intervals << '\n';
    }

    std::ostringstream circuits;
    circuits << "interval,circuit,u,v,load,expected_bytes,bytes\n";
    for (const auto& iv : m_intervals)
    {
        for (uint32_t k = 0; k < iv.graph.GetNCircuits(); ++k)
        {
            const mose::Circuit& e = iv.graph.GetCircuits()[k];
            const double load = k < iv.metrics.load.size() ? iv.metrics.load[k] : 0.0;
            circuits << iv.index << ',' << k << ',' << e.u << ',' << e.v << ',' << load << ','
                     << load * static_cast<double>(m_bytesPerUnit) << ','
                     << (k < iv.circuitBytes.size() ? iv.circuitBytes[k] : 0) << '\n';
        }
    }

    std::ostringstream goodput;
    const double width = m_config.binWidth.GetSeconds();
    goodput << "time_s,kv_bps,training_bps\n";
    for (std::size_t b = 0; b < m_bins.size(); ++b)
    {
        goodput << static_cast<double>(b) * width << ','
                << static_cast<double>(m_bins[b][0]) * 8.0 / width << ','
                << static_cast<double>(m_bins[b][1]) * 8.0 / width << '\n';
    }

    std::ostringstream transfers;
    transfers << "interval,index,src,dst,class,demand,bytes,received,start_s,end_s,fct_s,"
                 "complete\n";
    for (const auto& iv : m_intervals)
    {
        for (std::size_t i = 0; i < iv.transfers.size(); ++i)
        {
            const auto& t = iv.transfers[i];
            transfers << iv.index << ',' << i << ',' << t.src << ',' << t.dst << ','
                      << mose::ToString(t.cls) << ',' << t.demand << ',' << t.bytes << ','
                      << t.received << ',' << t.start.GetSeconds() << ',';
            if (t.complete)
            {
                transfers << t.end.GetSeconds() << ',' << t.GetCompletionTime().GetSeconds()
                          << ",1\n";
            }
            else
            {
                transfers << ",,0\n";
            }
        }
    }
    SystemPath::MakeDirectories(dir);
    for (const auto& [name, text] : {std::make_pair("intervals.csv", &intervals),
                                     std::make_pair("circuits.csv", &circuits),
                                     std::make_pair("goodput.csv", &goodput),
                                     std::make_pair("transfers.csv", &transfers)})
    {
        const std::string body = text->str();
        mose::WriteTextFile(dir + "/" + prefix + name, [&body](std::ostream& os) { os << body; });
    }
}

Gnuplot
MoseSwitchExperiment::MakeGoodputPlot(const std::string& pngFile) const
{
    Gnuplot plot(pngFile);
    plot.SetTerminal("pngcairo size 1000,500");
    plot.SetTitle("goodput per class, policy " + mose::ToString(m_config.policy) +
                  ", N=" + std::to_string(m_config.scenario.nodes) + " (" + m_switcherText + ")");
    plot.SetLegend("time (ms)", "goodput (Gb/s)");
    plot.AppendExtra("set key top right");
    const double width = m_config.binWidth.GetSeconds();
    for (int cls = 0; cls < 2; ++cls)
    {
        Gnuplot2dDataset data(cls == 0 ? "KV" : "training");
        data.SetStyle(Gnuplot2dDataset::STEPS);
        for (std::size_t b = 0; b < m_bins.size(); ++b)
        {
            data.Add(static_cast<double>(b) * width * 1e3,
                     static_cast<double>(m_bins[b][cls]) * 8.0 / width / 1e9);
        }
        plot.AddDataset(data);
    }
    for (const auto& iv : m_intervals)
    {
        std::ostringstream label;
        label << "set label \"" << mose::ToString(iv.mode) << "\" at "
              << iv.start.GetSeconds() * 1e3 << ", graph 0.97 offset 0.5,0 font \",9\"";
        plot.AppendExtra(label.str());
    }
    for (const auto& r : m_records)
    {
        std::ostringstream start;
        start << "set arrow from " << r.start.GetSeconds() * 1e3 << ", graph 0 to "
              << r.start.GetSeconds() * 1e3 << ", graph 1 nohead lc rgb \"red\" lw 1.5";
        plot.AppendExtra(start.str());
        if (r.done)
        {
            std::ostringstream end;
            end << "set arrow from " << r.end.GetSeconds() * 1e3 << ", graph 0 to "
                << r.end.GetSeconds() * 1e3 << ", graph 1 nohead lc rgb \"red\" dt 2";
            plot.AppendExtra(end.str());
        }
    }
    return plot;
}

void
MoseSwitchComparison::Add(const MoseSwitchRunSummary& summary)
{
    m_runs.push_back(summary);
}

const std::vector<MoseSwitchRunSummary>&
MoseSwitchComparison::GetSummaries() const
{
    return m_runs;
}

const MoseSwitchRunSummary*
MoseSwitchComparison::GetBestStatic() const
{
    const MoseSwitchRunSummary* best = nullptr;
    for (const auto& r : m_runs)
    {
        if (r.policy != mose::Policy::MOSE && (!best || r.meanFctS < best->meanFctS))
        {
            best = &r;
        }
    }
    return best;
}

const MoseSwitchRunSummary*
MoseSwitchComparison::GetMose() const
{
    for (const auto& r : m_runs)
    {
        if (r.policy == mose::Policy::MOSE)
        {
            return &r;
        }
    }
    return nullptr;
}

std::string
MoseSwitchComparison::GetVerdict() const
{
    const MoseSwitchRunSummary* mose = GetMose();
    const MoseSwitchRunSummary* best = GetBestStatic();
    if (!mose || !best)
    {
        return "verdict: needs MoSE and at least one static policy on the same run "
               "(--compare=true)";
    }
    std::ostringstream o;
    const bool wins = mose->meanFctS < best->meanFctS;
    o << "verdict: switching " << (wins ? "pays off" : "does not pay off") << ": MoSE's mean FCT "
      << Ms(mose->meanFctS) << " is " << Percent(mose->meanFctS, best->meanFctS)
      << " against the best static policy " << mose::ToString(best->policy) << " ("
      << Ms(best->meanFctS) << "); KV " << Ms(mose->kv.meanS) << " vs " << Ms(best->kv.meanS)
      << " (" << Percent(mose->kv.meanS, best->kv.meanS) << "), training "
      << Ms(mose->training.meanS) << " vs " << Ms(best->training.meanS) << " ("
      << Percent(mose->training.meanS, best->training.meanS) << "), makespan "
      << Ms(mose->makespanS) << " vs " << Ms(best->makespanS) << " ("
      << Percent(mose->makespanS, best->makespanS) << "); MoSE paid " << mose->switches
      << " switches: " << mose->circuitsChanged << " circuits changed, " << Ms(mose->switchTime)
      << " switching, blackout " << Ms(mose->blackoutTime) << ", " << mose->packetsHeld
      << " packets held (longest " << Ms(mose->longestHold) << "), " << mose->packetsLost
      << " lost";
    if (mose->completed < mose->transfers || best->completed < best->transfers)
    {
        o << " [incomplete transfers: MoSE " << mose->transfers - mose->completed << ", "
          << mose::ToString(best->policy) << " " << best->transfers - best->completed << "]";
    }
    return o.str();
}

void
MoseSwitchComparison::Print(std::ostream& os) const
{
    os << std::left << std::setw(8) << "policy" << std::right << std::setw(11) << "done"
       << std::setw(12) << "FCT mean" << std::setw(12) << "KV mean" << std::setw(12) << "KV P99"
       << std::setw(12) << "train mean" << std::setw(12) << "train P99" << std::setw(13)
       << "makespan" << std::setw(10) << "changed" << std::setw(12) << "blackout" << std::setw(8)
       << "held" << std::setw(6) << "lost"
       << "\n";
    for (const auto& r : m_runs)
    {
        os << std::left << std::setw(8) << mose::ToString(r.policy) << std::right << std::setw(11)
           << (std::to_string(r.completed) + "/" + std::to_string(r.transfers)) << std::setw(12)
           << Ms(r.meanFctS) << std::setw(12) << Ms(r.kv.meanS) << std::setw(12) << Ms(r.kv.p99S)
           << std::setw(12) << Ms(r.training.meanS) << std::setw(12) << Ms(r.training.p99S)
           << std::setw(13) << Ms(r.makespanS) << std::setw(10) << r.circuitsChanged
           << std::setw(12) << Ms(r.blackoutTime) << std::setw(8) << r.packetsHeld << std::setw(6)
           << r.packetsLost << "\n";
    }
    if (!m_runs.empty())
    {
        os << "mean FCT per interval (flow-level MaxLoad of its graph and flows):\n";
        os << std::left << std::setw(8) << "policy" << std::right;
        for (std::size_t i = 0; i < m_runs.front().intervalModes.size(); ++i)
        {
            os << std::setw(26)
               << (std::to_string(i) + " " + mose::ToString(m_runs.front().intervalModes[i]));
        }
        os << "\n";
        for (const auto& r : m_runs)
        {
            os << std::left << std::setw(8) << mose::ToString(r.policy) << std::right;
            for (std::size_t i = 0; i < r.intervalMeanFctS.size(); ++i)
            {
                std::ostringstream cell;
                cell << Ms(r.intervalMeanFctS[i]) << " (" << r.intervalMaxLoad[i] << ")";
                os << std::setw(26) << cell.str();
            }
            os << "\n";
        }
    }
    os << GetVerdict() << "\n";
}

void
MoseSwitchComparison::WriteCsv(const std::string& path) const
{
    std::ostringstream csv;
    csv << std::setprecision(12);
    csv << "policy,transfers,completed,fct_mean_s,makespan_s";
    for (const char* cls : {"kv", "training"})
    {
        csv << ',' << cls << "_fct_mean_s," << cls << "_fct_p50_s," << cls << "_fct_p95_s," << cls
            << "_fct_p99_s," << cls << "_goodput_bps";
    }
    csv << ",switches,circuits_changed,switch_time_s,blackout_s,packets_held,longest_hold_s,"
           "packets_lost\n";
    for (const auto& r : m_runs)
    {
        csv << mose::ToString(r.policy) << ',' << r.transfers << ',' << r.completed << ','
            << r.meanFctS << ',' << r.makespanS;
        for (const MoseFctSummary* f : {&r.kv, &r.training})
        {
            csv << ',' << f->meanS << ',' << f->p50S << ',' << f->p95S << ',' << f->p99S << ','
                << f->goodputBps;
        }
        csv << ',' << r.switches << ',' << r.circuitsChanged << ',' << r.switchTime.GetSeconds()
            << ',' << r.blackoutTime.GetSeconds() << ',' << r.packetsHeld << ','
            << r.longestHold.GetSeconds() << ',' << r.packetsLost << '\n';
    }
    const std::string body = csv.str();
    mose::WriteTextFile(path, [&body](std::ostream& os) { os << body; });
}

} // namespace ns3
