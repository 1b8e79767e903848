/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-experiment.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchExperiment");

namespace mose
{

namespace
{

/// \return a time as the switching run's reports give it: "12.500 ms"
template <typename T>
std::string
Ms(T value)
{
    return FormatDuration(value, DurationStyle::MS);
}

} // namespace

ExperimentConfig
MakeSwitchConfig(const mose::FlowExperimentConfig& scenario)
{
    ExperimentConfig c;
    c.scenario = scenario;
    c.stopTime = Seconds(30);
    c.SetSchedule({{mose::WorkloadMode::INFERENCE_HEAVY, 0.2},
                   {mose::WorkloadMode::TRAINING_HEAVY, 0.2},
                   {mose::WorkloadMode::INFERENCE_HEAVY, 0.2}});
    c.switcher = true;
    c.waitForSwitches = true;
    c.countCircuits = true;
    return c;
}

ExperimentConfig
MakeSwitchConfig(uint32_t nodes, uint64_t flows)
{
    mose::FlowExperimentConfig scenario = mose::PaperScaledConfig(nodes);
    scenario.flows = flows;
    return MakeSwitchConfig(scenario);
}

void
CheckSwitchesFit(const mose::ModeSchedule& periods)
{
    const TypeId tid = MoseModeSwitcher::GetTypeId();
    TypeId::AttributeInformation phases;
    TypeId::AttributeInformation timeout;
    TypeId::AttributeInformation delay;
    if (!tid.LookupAttributeByName("Phases", &phases) ||
        !tid.LookupAttributeByName("DrainTimeout", &timeout) ||
        !tid.LookupAttributeByName("ReconfigurationDelay", &delay))
    {
        throw mose::Error("MoseModeSwitcher lacks Phases, DrainTimeout or ReconfigurationDelay");
    }
    // the defaults as Config::SetDefault() (the command line) left them
    const uint64_t k = DynamicCast<const UintegerValue>(phases.initialValue)->Get();
    const Time longest = (DynamicCast<const TimeValue>(timeout.initialValue)->Get() +
                          DynamicCast<const TimeValue>(delay.initialValue)->Get()) *
                         static_cast<int64_t>(k);
    // a period with a switch at its start and at its end
    for (std::size_t i = 1; i + 1 < periods.size(); ++i)
    {
        if (Seconds(periods[i].duration) <= longest)
        {
            mose::ThrowBadParameter(
                "--schedule period " + std::to_string(i + 1) + " duration",
                mose::FormatNumber(periods[i].duration) + " s",
                "every period between two switches must last more than Phases x (DrainTimeout "
                "+ ReconfigurationDelay) = " +
                    mose::FormatNumber(longest.GetSeconds()) +
                    " s, the longest a switch can take (--ns3::MoseModeSwitcher::Phases, "
                    "::DrainTimeout, ::ReconfigurationDelay), so that a switch never starts "
                    "before the previous one ended");
        }
    }
}

void
ValidateSwitchConfig(const ExperimentConfig& config)
{
    config.scenario.Validate();
    MoseTransportHelper{config.transport}; // a mose::Error naming a type that is no transport
    if (config.IsRdma())
    {
        if (config.ecn)
        {
            config.ecn->Validate();
        }
    }
    // the switches: at the start of every period but the first
    const std::vector<Time> times = MoseScheduleTimes(config.schedule);
    for (std::size_t i = 2; i + 1 < times.size(); ++i)
    {
        if (times[i] <= times[i - 1])
        {
            mose::ThrowBadParameter("--schedule",
                                    config.ScheduleShown(),
                                    "boundary times must be strictly increasing (boundary " +
                                        std::to_string(i - 1) + " at " + Ms(times[i]) +
                                        " is not after boundary " + std::to_string(i - 2) + " at " +
                                        Ms(times[i - 1]) + ")");
        }
    }
    if (config.firstStart.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("first start", Ms(config.firstStart), "a time >= 0");
    }
    if (config.schedule.size() > 1 && times[1] <= config.firstStart)
    {
        mose::ThrowBadParameter("--schedule",
                                config.ScheduleShown(),
                                "the first period must last longer than the first transfers' "
                                "start (" +
                                    Ms(config.firstStart) + ")");
    }
    const Time last = config.schedule.size() > 1 ? times[times.size() - 2] : config.firstStart;
    if (config.end <= last)
    {
        mose::ThrowBadParameter("end of the last interval",
                                Ms(config.end),
                                "a time after the last boundary (" + Ms(last) + ")");
    }
    if (config.stopTime <= config.end)
    {
        mose::ThrowBadParameter("--stopTime",
                                config.Shown("--stopTime", config.stopTime),
                                "a time after the end of the last interval (" + Ms(config.end) +
                                    ", the end of --schedule)");
    }
    if (!config.startWindow.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("--startWindow",
                                config.Shown("--startWindow", config.startWindow),
                                "a positive duration");
    }
    if (!config.binWidth.IsStrictlyPositive() ||
        config.stopTime.GetTimeStep() / config.binWidth.GetTimeStep() > 100000000)
    {
        mose::ThrowBadParameter("--binWidth",
                                config.Shown("--binWidth", config.binWidth),
                                "a positive duration, at most 1e8 bins up to --stopTime = " +
                                    config.Shown("--stopTime", config.stopTime));
    }
}

uint64_t
SwitchInterval::GetMaxCircuitBytes() const
{
    return circuitBytes.empty() ? 0 : *std::max_element(circuitBytes.begin(), circuitBytes.end());
}

double
SwitchInterval::GetMeanCircuitBytes() const
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
SwitchInterval::GetFct(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? kv : training;
}

SwitchExperiment::SwitchExperiment(const ExperimentConfig& config,
                                   std::shared_ptr<const mose::Scenario> scenario)
    : m_experiment(config)
{
    NS_LOG_FUNCTION(this);
    ValidateSwitchConfig(config);
    if (scenario)
    {
        SetScenario(std::move(scenario));
    }
}

void
SwitchExperiment::SetScenario(std::shared_ptr<const mose::Scenario> scenario)
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("SwitchExperiment::SetScenario after Build()");
    }
    m_experiment.SetScenario(std::move(scenario), "SwitchExperiment");
}

const ExperimentConfig&
SwitchExperiment::GetConfig() const
{
    return m_experiment.GetConfig();
}

const Experiment&
SwitchExperiment::GetExperiment() const
{
    return m_experiment;
}

void
SwitchExperiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("SwitchExperiment::Build was already called");
    }
    SystemWallClockMs clock;
    clock.Start();
    if (IsFluid(GetConfig().level))
    {
        BuildFluid();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }
    // the scenario, the fabric in the initial mode's template, its monitors, the switcher (its
    // attributes are MoseModeSwitcher's defaults, Config::SetDefault) and the interval probe
    m_experiment.Build();
    const mose::Scenario& sc = m_experiment.GetScenario();

    // the intervals and their flow-level metrics (one evaluation per template and mode)
    std::map<std::pair<const mose::CircuitGraph*, mose::WorkloadMode>, mose::FlowMetrics> cache;
    m_intervals.clear();
    for (const ExperimentInterval& probe : m_experiment.GetIntervals())
    {
        SwitchInterval iv;
        iv.index = probe.index;
        iv.mode = probe.mode;
        iv.start = probe.index == 0 ? GetConfig().firstStart : probe.start;
        iv.end = probe.end;
        iv.templateId = mose::SelectTemplate(GetConfig().policy, iv.mode);
        const mose::CircuitGraph& graph = sc.GetGraph(GetConfig().policy, iv.mode);
        iv.graph = graph;
        const std::vector<mose::Flow>& flows = sc.flows[static_cast<std::size_t>(iv.mode)];
        iv.flows = flows.size();
        auto it = cache.find({&graph, iv.mode});
        if (it == cache.end())
        {
            it = cache
                     .emplace(std::make_pair(&graph, iv.mode),
                              m_experiment.EvaluateFlows(iv.graph, flows))
                     .first;
        }
        iv.metrics = it->second;
        m_intervals.push_back(std::move(iv));
    }

    if (GetConfig().IsRdma())
    {
        BuildBatches();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }

    // every interval's transfers
    m_workloads = m_experiment.InstallModeFlows(
        [&sc](mose::WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; },
        GetConfig().firstStart,
        GetConfig().startWindow);
    m_nTransfers = 0;
    for (uint32_t i = 0; i < m_workloads.size(); ++i)
    {
        Ptr<MoseTransferMonitor> monitor = m_workloads[i]->GetMonitor();
        m_nTransfers += monitor->GetNTransfers();
        monitor->TraceConnectWithoutContext(
            "TransferRx",
            Callback<void, uint32_t, uint32_t>(
                [this, i](uint32_t index, uint32_t bytes) { OnRx(i, index, bytes); }));
    }
    m_experiment.SetCollect([this]() { Collect(); });
    m_bins.clear();
    m_built = true;
    m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
    NS_LOG_INFO("built in " << m_buildSeconds << " s: " << m_intervals.size() << " intervals, "
                            << m_nTransfers << " transfers");
}

void
SwitchExperiment::BuildBatches()
{
    // the transport on each group's endpoints through the helper's topology-aware Install (its
    // attributes' defaults, the fabric's in-flight cap and notice delay unless the user set
    // them); per interval the transfers InstallModeTraffic() would install, as a flow batch on
    // it that the switcher keeps in the fabric's mode
    const mose::Scenario& sc = m_experiment.GetScenario();
    const ScaleScope scale(GetConfig().scale);
    m_experiment.InstallTransport(MoseTransportHelper(GetConfig().transport));
    m_fluidDrawn.clear();
    m_batches.clear();
    m_nTransfers = 0;
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        const SwitchInterval& iv = m_intervals[i];
        m_fluidDrawn.push_back(
            DrawIntervalTransfers(i, iv, sc.flows[static_cast<std::size_t>(iv.mode)]));
        Ptr<MoseBatchWorkload> batch = DynamicCast<MoseBatchWorkload>(
            m_experiment.InstallWorkload(MoseWorkloadHelper("ns3::MoseBatchWorkload")));
        batch->SetFlows(ToBatchFlows(m_fluidDrawn.back()));
        batch->Start(Seconds(0));
        m_batches.push_back(batch);
        m_nTransfers += static_cast<uint32_t>(m_fluidDrawn.back().size());
    }
    m_binReceived = {0, 0};
    SampleBatches();
    m_experiment.SetCollect([this]() { CollectBatches(); });
    m_bins.clear();
}

std::vector<MoseTransfer>
SwitchExperiment::DrawIntervalTransfers(uint32_t i,
                                        const SwitchInterval& iv,
                                        const std::vector<mose::Flow>& flows)
{
    // InstallModeTraffic()'s attributes and streams: the same sample and start times
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("StartMode", StringValue("uniform"));
    traffic->SetAttribute("StartTime", TimeValue(iv.start));
    traffic->SetAttribute("StartWindow",
                          TimeValue(std::min(iv.end - iv.start, GetConfig().startWindow)));
    traffic->AssignStreams(mose::Stream::TRANSFERS + 2 * static_cast<int64_t>(i));
    if (i == 0)
    {
        UintegerValue unit;
        traffic->GetAttribute("BytesPerUnit", unit);
        m_fluidBytesPerUnit = unit.Get();
    }
    std::vector<MoseTransfer> drawn = traffic->MakeStartedTransfers(flows);
    traffic->Dispose();
    return drawn;
}

std::array<uint64_t, 2>
SwitchExperiment::CountBatchBytes() const
{
    // the bytes every started transfer received so far (the transport's record), per class;
    // on several MPI ranks those this rank received, packet by packet (the bins are summed
    // over the ranks at the end)
    std::array<uint64_t, 2> received{0, 0};
    Ptr<MoseTransport> transport = m_experiment.GetTransport();
    for (const Ptr<MoseBatchWorkload>& b : m_batches)
    {
        for (const mose::FlowRecord& r : b->GetBatch().GetRecords())
        {
            if (r.started && transport->IsReceivedHere(r.transfer))
            {
                received[r.flow.trafficClass == mose::TrafficClass::KV ? 0 : 1] +=
                    transport->GetTransfer(r.transfer).received;
            }
        }
    }
    return received;
}

void
SwitchExperiment::SampleBatches()
{
    // the transport reports no per-packet receive trace: the goodput timeline is sampled at
    // every bin's end, each bin getting the bytes received since the previous sample
    const Time now = Simulator::Now();
    if (now.IsStrictlyPositive())
    {
        AddBatchBytes(now - GetConfig().binWidth);
    }
    m_sampler = Simulator::Schedule(GetConfig().binWidth, &SwitchExperiment::SampleBatches, this);
}

void
SwitchExperiment::AddBatchBytes(Time binTime)
{
    const std::array<uint64_t, 2> received = CountBatchBytes();
    const auto bin =
        static_cast<std::size_t>(binTime.GetTimeStep() / GetConfig().binWidth.GetTimeStep());
    if (bin >= m_bins.size())
    {
        m_bins.resize(bin + 1, {0, 0});
    }
    for (std::size_t c = 0; c < 2; ++c)
    {
        m_bins[bin][c] += received[c] - m_binReceived[c];
    }
    m_binReceived = received;
}

void
SwitchExperiment::CollectBatches()
{
    m_sampler.Cancel();
    AddBatchBytes(Simulator::Now()); // the bin the run ends in
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        SwitchInterval& iv = m_intervals[i];
        iv.transfers = Experiment::CollectTransfers(m_batches[i]);
        for (std::size_t k = 0; k < iv.transfers.size() && k < m_fluidDrawn[i].size(); ++k)
        {
            iv.transfers[k].demand = m_fluidDrawn[i][k].demand;
        }
        iv.kv = MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::KV);
        iv.training =
            MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::TRAINING);
        m_batchErrors += m_batches[i]->GetNErrors();
    }
    // each rank runs the batches whole: their errors over the ranks, as the run's errors
    MoseDistributed::SumEachOverRanks({&m_batchErrors});
    m_transportDrops = ReadTransportDrops(m_experiment.GetTransport());
    m_batches.clear();
    SumBinsOverRanks();
}

uint64_t
SwitchExperiment::GetTransportDrops() const
{
    return CountTransportDrops(m_transportDrops);
}

const TransportDrops&
SwitchExperiment::GetTransportDropsByReason() const
{
    return m_transportDrops;
}

uint64_t
SwitchExperiment::GetBatchErrors() const
{
    return m_batchErrors;
}

void
SwitchExperiment::OnRx(uint32_t interval, uint32_t index, uint32_t bytes)
{
    const MoseTransfer& t = m_workloads[interval]->GetMonitor()->GetTransfer(index);
    const auto bin = static_cast<std::size_t>(Simulator::Now().GetTimeStep() /
                                              GetConfig().binWidth.GetTimeStep());
    if (bin >= m_bins.size())
    {
        m_bins.resize(bin + 1, {0, 0});
    }
    m_bins[bin][t.cls == mose::TrafficClass::KV ? 0 : 1] += bytes;
}

void
SwitchExperiment::Collect()
{
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        SwitchInterval& iv = m_intervals[i];
        iv.transfers = Experiment::CollectTransfers(m_workloads[i]);
        iv.kv = MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::KV);
        iv.training =
            MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::TRAINING);
    }
    m_workloads.clear();
    SumBinsOverRanks();
}

void
SwitchExperiment::SumBinsOverRanks()
{
    if (MoseDistributed::GetNRanks() <= 1)
    {
        return;
    }
    // a rank counted only its own sinks: the goodput bins are the sums (first one length on
    // every rank)
    std::vector<int64_t> longest{static_cast<int64_t>(m_bins.size())};
    MoseDistributed::MaxOverRanks(longest);
    m_bins.resize(static_cast<std::size_t>(longest[0]), {0, 0});
    std::vector<uint64_t*> counts;
    for (auto& bin : m_bins)
    {
        for (uint64_t& b : bin)
        {
            counts.push_back(&b);
        }
    }
    MoseDistributed::SumEachOverRanks(counts);
}

void
SwitchExperiment::Run()
{
    NS_LOG_FUNCTION(this);
    if (!m_built || m_ran)
    {
        throw mose::Error("SwitchExperiment::Run needs one Build() before it, once");
    }
    if (IsFluid(GetConfig().level))
    {
        RunFluid();
        m_ran = true;
        return;
    }
    m_experiment.Run();
    m_records = m_experiment.GetSwitchRecords();
    for (const MoseSwitchRecord& r : m_records)
    {
        if (r.index + 1 < m_intervals.size())
        {
            m_intervals[r.index + 1].switchRecord = r;
        }
    }
    const std::vector<ExperimentInterval>& probes = m_experiment.GetIntervals();
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        SwitchInterval& iv = m_intervals[i];
        iv.graphRealised = probes[i].graphRealised;
        iv.circuitBytes = probes[i].circuitBytes;
        iv.bytesDuringSwitch = probes[i].bytesDuringSwitch;
        iv.drops = probes[i].drops;
        iv.packetsLost = probes[i].packetsLost;
    }
    m_ran = true;
}

const std::vector<SwitchInterval>&
SwitchExperiment::GetIntervals() const
{
    return m_intervals;
}

const std::vector<MoseSwitchRecord>&
SwitchExperiment::GetSwitchRecords() const
{
    return m_records;
}

const std::vector<std::array<uint64_t, 2>>&
SwitchExperiment::GetGoodputBins() const
{
    return m_bins;
}

const std::string&
SwitchExperiment::GetSwitcherText() const
{
    return IsFluid(GetConfig().level) ? m_fluidSwitcherText : m_experiment.GetSwitcherText();
}

std::string
SwitchExperiment::GetWorkloadText() const
{
    std::ostringstream o;
    o << "N=" << GetConfig().scenario.nodes << " d=" << GetConfig().scenario.degree << ", run "
      << GetConfig().run << ", schedule " << GetConfig().ScheduleShown() << ", "
      << GetConfig().scenario.flows << " flows per mode interval of " << GetBytesPerUnit()
      << " bytes per unit of demand, " << GetSwitcherText();
    return o.str();
}

uint64_t
SwitchExperiment::GetPacketsLost() const
{
    return IsFluid(GetConfig().level) ? 0 : m_experiment.GetPacketsLost();
}

double
SwitchExperiment::GetBuildSeconds() const
{
    return m_buildSeconds;
}

const RunFigures&
SwitchExperiment::GetRunFigures() const
{
    return IsFluid(GetConfig().level) ? m_fluidFigures : m_experiment.GetRunFigures();
}

double
SwitchExperiment::GetWallSeconds() const
{
    return GetRunFigures().wallSeconds;
}

uint64_t
SwitchExperiment::GetEvents() const
{
    return GetRunFigures().events;
}

double
SwitchExperiment::GetSimulatedSeconds() const
{
    return GetRunFigures().simulatedSeconds;
}

uint64_t
SwitchExperiment::GetBytesPerUnit() const
{
    return IsFluid(GetConfig().level) || GetConfig().IsRdma() ? m_fluidBytesPerUnit
                                                              : m_experiment.GetBytesPerUnit();
}

void
SwitchExperiment::BuildFluid()
{
    // the scenario as Experiment::Build() draws it for a run with a switcher (or the one given)
    m_experiment.BuildFluidMode();
    const mose::Scenario& sc = m_experiment.GetScenario();

    // the intervals as Experiment::Build() and Build() make them: interval 0 from time 0 (its
    // transfers from firstStart), then one per boundary; the last ends at `end`
    const std::vector<Time> times = MoseScheduleTimes(GetConfig().schedule);
    const std::size_t n = std::max<std::size_t>(GetConfig().schedule.size(), 1);
    const Time end = m_experiment.GetConfig().GetEnd();
    std::map<std::pair<const mose::CircuitGraph*, mose::WorkloadMode>, mose::FlowMetrics> cache;
    m_intervals.clear();
    m_fluidDrawn.clear();
    mose::FluidFlowConfig f;
    for (std::size_t i = 0; i < n; ++i)
    {
        SwitchInterval iv;
        iv.index = static_cast<uint32_t>(i);
        iv.mode = i == 0 ? GetConfig().GetInitialMode() : GetConfig().schedule[i].mode;
        iv.start = i == 0 ? GetConfig().firstStart : times[i];
        iv.end = i + 1 < n ? times[i + 1] : end;
        iv.templateId = mose::SelectTemplate(GetConfig().policy, iv.mode);
        const mose::CircuitGraph& graph = sc.GetGraph(GetConfig().policy, iv.mode);
        iv.graph = graph;
        const std::vector<mose::Flow>& flows = sc.flows[static_cast<std::size_t>(iv.mode)];
        iv.flows = flows.size();
        auto it = cache.find({&graph, iv.mode});
        if (it == cache.end())
        {
            it = cache
                     .emplace(std::make_pair(&graph, iv.mode),
                              m_experiment.EvaluateFlows(iv.graph, flows))
                     .first;
        }
        iv.metrics = it->second;
        if (iv.end <= iv.start)
        {
            mose::ThrowBadParameter("mode interval " + std::to_string(i),
                                    "[" + std::to_string(iv.start.GetSeconds()) + " s, " +
                                        std::to_string(iv.end.GetSeconds()) + " s)",
                                    "a non-empty interval (firstStart before the first "
                                    "boundary, end after the last)");
        }
        // the transfers MoseModeSwitcherHelper::InstallModeTraffic() would install
        m_fluidDrawn.push_back(DrawIntervalTransfers(static_cast<uint32_t>(i), iv, flows));
        f.batches.push_back(ToBatchFlows(m_fluidDrawn.back()));
        if (i > 0)
        {
            f.boundaries.push_back({times[i].GetNanoSeconds(), iv.mode, graph});
        }
        m_intervals.push_back(std::move(iv));
    }
    m_nTransfers = 0;
    for (const auto& drawn : m_fluidDrawn)
    {
        m_nTransfers += static_cast<uint32_t>(drawn.size());
    }

    // the fabric from the helpers the packet level builds it with (nothing is installed)
    f.fabric = m_experiment.ReadFluidFabric();
    f.graph = m_intervals.front().graph;
    f.initialMode = GetConfig().GetInitialMode();
    f.stopNs = GetConfig().stopTime.GetNanoSeconds();
    f.endNs = end.GetNanoSeconds();
    f.waitForSwitches = true;
    f.sampleNs = GetConfig().binWidth.GetNanoSeconds();
    f.Validate();
    std::ostringstream text;
    text << "K=" << f.fabric.phases << ", drain " << (f.fabric.drain ? "on" : "off")
         << ", drain timeout "
         << FormatDuration(NanoSeconds(f.fabric.drainTimeoutNs), DurationStyle::MS)
         << ", reconfiguration delay "
         << FormatDuration(NanoSeconds(f.fabric.darkNs), DurationStyle::MS);
    m_fluidSwitcherText = text.str();
    m_fluid = std::move(f);
}

void
SwitchExperiment::CloseFluidInterval(const mose::FluidFabric& fabric,
                                     uint32_t i,
                                     const std::vector<double>& now,
                                     const std::vector<double>& inPlace)
{
    SwitchInterval& iv = m_intervals[i];
    const mose::PortPlan plan = fabric.GetPortPlan();
    iv.graphRealised = plan.Matches(iv.graph);
    iv.circuitBytes.assign(iv.graph.GetNCircuits(), 0);
    if (!iv.graphRealised || inPlace.empty())
    {
        return; // its graph was never in place
    }
    const uint32_t d = GetConfig().scenario.degree;
    for (uint32_t c = 0; c < iv.graph.GetNCircuits(); ++c)
    {
        const mose::Circuit& e = iv.graph.GetCircuits()[c];
        const mose::CircuitPorts p = plan.GetCircuitPorts(iv.graph, c);
        const std::size_t a = static_cast<std::size_t>(e.u) * d + p.portU;
        const std::size_t b = static_cast<std::size_t>(e.v) * d + p.portV;
        iv.circuitBytes[c] =
            static_cast<uint64_t>(std::llround(now[a] - inPlace[a] + now[b] - inPlace[b]));
    }
}

void
SwitchExperiment::RunFluid()
{
    mose::FluidFlowRun run(*m_fluid);
    const mose::FluidFabric* fabric = nullptr;
    std::vector<double> inPlace;    // port bytes when the current interval's graph was in place
    std::vector<double> atBoundary; // port bytes at the start of the switch under way
    uint32_t current = 0;           // the interval under way
    const auto sum = [](const std::vector<double>& v) {
        double total = 0;
        for (double x : v)
        {
            total += x;
        }
        return total;
    };
    // the goodput bins: the bytes the fluid model sent of each transfer, per bin and class
    std::vector<std::vector<double>> sent(m_fluidDrawn.size());
    for (std::size_t i = 0; i < sent.size(); ++i)
    {
        sent[i].assign(m_fluidDrawn[i].size(), 0.0);
    }
    std::vector<std::array<double, 2>> bins;
    const int64_t width = GetConfig().binWidth.GetNanoSeconds();
    const auto sample = [&](int64_t nowNs) {
        // the bytes sent since the last sample go to the bin before this time (the last
        // sample, at the run's end, to the bin it falls in)
        const auto bin = static_cast<std::size_t>(std::max<int64_t>(nowNs - 1, 0) / width);
        if (bin >= bins.size())
        {
            bins.resize(bin + 1, {0.0, 0.0});
        }
        for (std::size_t i = 0; i < sent.size(); ++i)
        {
            for (const mose::FlowRecord& r : run.GetBatches()[i].GetRecords())
            {
                if (r.started)
                {
                    const double s = fabric->GetBytesSent(r.transfer);
                    bins[bin][r.flow.trafficClass == mose::TrafficClass::KV ? 0 : 1] +=
                        s - sent[i][r.index];
                    sent[i][r.index] = s;
                }
            }
        }
    };
    mose::FluidFlowRun::Observers o;
    o.boundary = [&](std::size_t b) {
        fabric = run.GetFabric();
        const std::vector<double> now = fabric->GetPortBytesNow();
        if (current == 0 && inPlace.empty())
        {
            inPlace.assign(now.size(), 0.0); // interval 0's graph from time 0
        }
        CloseFluidInterval(*fabric, current, now, inPlace);
        current = static_cast<uint32_t>(b + 1);
        atBoundary = now;
        inPlace.clear();
    };
    o.switchDone = [&](uint32_t) {
        fabric = run.GetFabric();
        const std::vector<double> now = fabric->GetPortBytesNow();
        m_intervals[current].bytesDuringSwitch =
            static_cast<uint64_t>(std::llround(sum(now) - sum(atBoundary)));
        inPlace = now;
    };
    o.sample = [&]() {
        fabric = run.GetFabric();
        sample(fabric->Now());
    };
    run.SetObservers(o);
    SystemWallClockMs clock;
    clock.Start();
    run.Run();
    const double wallSeconds = static_cast<double>(clock.End()) / 1000.0;
    fabric = run.GetFabric();
    if (inPlace.empty() && current == 0)
    {
        inPlace.assign(fabric->GetPortBytes().size(), 0.0); // interval 0's graph from time 0
    }
    const std::vector<double> now = fabric->GetPortBytesNow();
    if (!atBoundary.empty() && inPlace.empty())
    {
        // the last switch did not end: its bytes up to the end
        m_intervals[current].bytesDuringSwitch =
            static_cast<uint64_t>(std::llround(sum(now) - sum(atBoundary)));
    }
    CloseFluidInterval(*fabric, current, now, inPlace);
    sample(fabric->Now());
    m_bins.assign(bins.size(), {0, 0});
    for (std::size_t b = 0; b < bins.size(); ++b)
    {
        for (int cls = 0; cls < 2; ++cls)
        {
            m_bins[b][cls] = static_cast<uint64_t>(std::llround(std::max(0.0, bins[b][cls])));
        }
    }
    m_fluidFigures = FluidRunFigures(*fabric, run.GetEndNs(), wallSeconds);

    CollectFluidTransfers(run, *fabric);
    CollectFluidSwitches(run, *fabric);
    if (run.GetNErrors() > 0)
    {
        NS_LOG_ERROR(run.GetNErrors() << " errors in the fluid run");
    }
}

void
SwitchExperiment::CollectFluidTransfers(const mose::FluidFlowRun& run,
                                        const mose::FluidFabric& fabric)
{
    // the batches' records, in each interval's drawn order
    for (uint32_t i = 0; i < m_intervals.size(); ++i)
    {
        SwitchInterval& iv = m_intervals[i];
        iv.transfers = m_fluidDrawn[i];
        for (const mose::FlowRecord& r : run.GetBatches()[i].GetRecords())
        {
            MoseTransfer& t = iv.transfers[r.index];
            t.complete = r.complete;
            t.received = r.complete ? r.received
                                    : (r.started ? static_cast<uint64_t>(
                                                       std::floor(fabric.GetBytesSent(r.transfer)))
                                                 : 0);
            if (r.complete)
            {
                t.end = r.end;
            }
        }
        iv.kv = MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::KV);
        iv.training =
            MoseTransferMonitor::SummarizeTransfers(iv.transfers, mose::TrafficClass::TRAINING);
    }
}

void
SwitchExperiment::CollectFluidSwitches(const mose::FluidFlowRun& run,
                                       const mose::FluidFabric& fabric)
{
    // the switches, as MoseSwitchRecord: what packets alone have (held, lost, drain timeouts)
    // stays 0 and the reports print "n/a"
    m_records.clear();
    mose::WorkloadMode from = GetConfig().GetInitialMode();
    std::size_t boundary = 0;
    for (const mose::FluidSwitchRecord& fr : fabric.GetSwitchRecords())
    {
        // a boundary skipped during a switch started none: the next switch's is the next one
        // that started at its time
        while (boundary < m_fluid->boundaries.size() &&
               m_fluid->boundaries[boundary].atNs != fr.startNs)
        {
            ++boundary;
        }
        MoseSwitchRecord r;
        r.index = fr.index;
        r.from = from;
        r.to = boundary < m_fluid->boundaries.size() ? m_fluid->boundaries[boundary].mode : from;
        from = r.to;
        r.start = NanoSeconds(fr.startNs);
        r.done = fr.done;
        r.end = fr.done ? NanoSeconds(fr.endNs) : Time(0);
        r.until = fr.done ? r.end : NanoSeconds(run.GetEndNs());
        r.phases = m_fluid->fabric.phases;
        r.kept = fr.kept;
        r.removed = fr.removed;
        r.added = fr.added;
        r.batches.resize(fr.batches);
        r.drainTime = NanoSeconds(fr.drainNs);
        r.darkTime = NanoSeconds(fr.darkNs);
        r.blackoutTime = NanoSeconds(fr.blackoutNs);
        m_records.push_back(r);
        if (boundary + 1 < m_intervals.size())
        {
            m_intervals[boundary + 1].switchRecord = r;
        }
        ++boundary;
    }
}

SwitchRunSummary
SwitchExperiment::GetSummary() const
{
    SwitchRunSummary s;
    s.policy = GetConfig().policy;
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
    s.packetsLost = GetPacketsLost();
    s.fluid = IsFluid(GetConfig().level);
    s.wallSeconds = GetWallSeconds();
    s.simulatedSeconds = GetSimulatedSeconds();
    return s;
}

} // namespace mose
} // namespace ns3
