/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-experiment.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/log.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rank-messages.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scale.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseExperiment");

namespace mose
{

std::string
LlmWorkloadConfig::DescribeTraining() const
{
    if (!training)
    {
        return "no training";
    }
    if (trainingPlan)
    {
        return "training trace " + trainingPlan->source + " (" +
               std::to_string(trainingPlan->ranks.size()) + " ranks, " +
               std::to_string(trainingPlan->GetNNodes()) + " nodes)";
    }
    return mose::ToString(collective) + " of " + std::to_string(collectiveBytes) + " B per member";
}

namespace
{

} // namespace

ScaleScope::ScaleScope(uint64_t scale)
    : m_previous(MoseScale::Get())
{
    if (m_previous != 1 && m_previous != scale)
    {
        throw mose::Error("the global value MoseScale = " + std::to_string(m_previous) +
                          " (--MoseScale, NS_GLOBAL_VALUE or Config::SetGlobal) conflicts with "
                          "the experiment's scale " +
                          std::to_string(scale) +
                          " (mose-llm's --scale; the other programs run unscaled): give the "
                          "scale in one place");
    }
    MoseScale::Set(scale);
}

ScaleScope::~ScaleScope()
{
    MoseScale::Set(m_previous);
}

void
ExperimentConfig::Validate() const
{
    scenario.Validate();
    if (!stopTime.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("stopTime",
                                FormatDuration(stopTime, DurationStyle::MS),
                                "a positive time");
    }
    if (scale == 0)
    {
        mose::ThrowBadParameter("scale", "0", "an integer >= 1");
    }
    if (ecn)
    {
        ecn->Validate();
    }
    if (switcher && !graphFile.empty())
    {
        mose::ThrowBadParameter("graph file",
                                mose::QuoteText(graphFile),
                                "no graph file on a run with a switcher (its graphs are the "
                                "policy's templates)");
    }
}

std::vector<mose::BatchFlow>
ToBatchFlows(const std::vector<MoseTransfer>& transfers)
{
    std::vector<mose::BatchFlow> flows;
    flows.reserve(transfers.size());
    for (const MoseTransfer& t : transfers)
    {
        mose::BatchFlow b;
        b.src = t.src;
        b.dst = t.dst;
        b.bytes = t.bytes;
        b.startNs = t.start.GetNanoSeconds();
        b.trafficClass = t.cls;
        b.rail = 0; // MoseTopologyHelper::GetEndpoints(): each group's first host
        flows.push_back(b);
    }
    return flows;
}

TransportDrops
ReadTransportDrops(Ptr<MoseTransport> transport)
{
    TransportDrops drops{};
    Ptr<MoseRdmaTransport> rdma = DynamicCast<MoseRdmaTransport>(transport);
    for (uint8_t r = 0; rdma && r < MoseRdmaTransport::N_DROP_REASONS; ++r)
    {
        drops[r] = rdma->GetNDrops(static_cast<MoseRdmaTransport::DropReason>(r));
    }
    std::vector<uint64_t*> counts;
    for (uint64_t& d : drops)
    {
        counts.push_back(&d);
    }
    MoseDistributed::SumEachOverRanks(counts);
    return drops;
}

bool
IsRdmaTransport(const std::string& typeName)
{
    return typeName == MoseRdmaTransport::GetTypeId().GetName();
}

uint64_t
CountTransportDrops(const TransportDrops& drops)
{
    uint64_t total = 0;
    for (uint64_t d : drops)
    {
        total += d;
    }
    return total;
}

std::string
DescribeTransportDrops(const TransportDrops& drops)
{
    static const char* const names[MoseRdmaTransport::N_DROP_REASONS] = {"out of order",
                                                                         "duplicate",
                                                                         "stale",
                                                                         "malformed",
                                                                         "no route"};
    uint64_t total = 0;
    std::string reasons;
    for (std::size_t r = 0; r < drops.size(); ++r)
    {
        total += drops[r];
        if (drops[r] > 0)
        {
            reasons += (reasons.empty() ? " (" : ", ") + std::string(names[r]) + " " +
                       std::to_string(drops[r]);
        }
    }
    return std::to_string(total) + (reasons.empty() ? "" : reasons + ")");
}

std::string
DescribeTransport(bool rdma, bool packetLevel, const std::optional<EcnMarking>& ecn, bool pfc)
{
    const EcnMarking e = ecn.value_or(EcnMarking());
    if (!rdma)
    {
        return ""; // TCP, the default: the title as before the option
    }
    if (!packetLevel)
    {
        return ", transport rdma"; // the fluid levels have no queues to mark
    }
    return ", transport rdma (RED with ECN: Kmin " + mose::FormatNumber(e.kmin) + ", Kmax " +
           mose::FormatNumber(e.kmax) + " packets, Pmax " + mose::FormatNumber(e.pmax) + ")" +
           (pfc ? " with PFC" : "");
}

std::string
DescribeSwitcher(uint64_t phases, bool drain, Time drainTimeout, Time reconfigurationDelay)
{
    std::ostringstream text;
    text << "K=" << phases << ", drain " << (drain ? "on" : "off") << ", drain timeout "
         << FormatDuration(drainTimeout, DurationStyle::MS) << ", reconfiguration delay "
         << FormatDuration(reconfigurationDelay, DurationStyle::MS);
    return text.str();
}

std::string
DescribePfc(const PfcCounts& pfc)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "PFC: " << pfc.pausesSent << " pauses sent ("
       << pfc.pausesLost << " lost), " << pfc.pausesReceived << " ports paused, " << pfc.nicPauses
       << " NIC pauses, " << pfc.pausedTime.GetSeconds() * 1e3 << " ms paused port-time (longest "
       << pfc.longestPause.GetSeconds() * 1e3 << " ms), " << pfc.storms
       << " storms (paused longer than ns3::MosePfc::StormTimeout)";
    return os.str();
}

void
EcnMarking::Validate() const
{
    if (!(kmin >= 0 && std::isfinite(kmin)))
    {
        mose::ThrowBadParameter("ecnKmin",
                                mose::FormatNumber(kmin),
                                "a finite number of packets >= 0");
    }
    if (!(kmax > kmin && std::isfinite(kmax)))
    {
        mose::ThrowBadParameter("ecnKmax",
                                mose::FormatNumber(kmax),
                                "a finite number of packets above ecnKmin = " +
                                    mose::FormatNumber(kmin));
    }
    if (!(pmax > 0 && pmax <= 1))
    {
        mose::ThrowBadParameter("ecnPmax",
                                mose::FormatNumber(pmax),
                                "a probability in (0, 1] (0.01: 1%)");
    }
}

mose::ModeSchedule
RunSchedule(const mose::ModeSchedule& schedule, Time end)
{
    // seconds of a duration that may be negative (an unsorted schedule being reported): ns-3's
    // Time::GetSeconds() of a negative time left-shifts a negative value in int64x64-128.h
    // (undefined before C++20), so convert its magnitude
    auto seconds = [](Time t) {
        return t.IsStrictlyNegative() ? -(Time(0) - t).GetSeconds() : t.GetSeconds();
    };
    const std::vector<Time> times = MoseScheduleTimes(schedule);
    mose::ModeSchedule run;
    const std::size_t n = std::max<std::size_t>(schedule.size(), 1);
    for (std::size_t i = 0; i < n; ++i)
    {
        const Time to = i + 1 < n ? times[i + 1] : end;
        run.Add(schedule.empty() ? schedule.GetInitialMode() : schedule[i].mode,
                seconds(to - times[i]),
                schedule.empty() ? 0.0 : schedule[i].load);
    }
    return run;
}

mose::WorkloadMode
ExperimentConfig::GetInitialMode() const
{
    return schedule.GetInitialMode();
}

void
ExperimentConfig::SetSchedule(const mose::ModeSchedule& periods)
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
        at += length;
    }
    schedule = periods;
    end = at; // MoseScheduleTimes(periods).back()
}

mose::ModeSchedule
ExperimentConfig::GetRunSchedule() const
{
    return RunSchedule(schedule, GetEnd());
}

std::vector<Time>
ExperimentConfig::GetIntervalStarts() const
{
    std::vector<Time> starts = MoseScheduleTimes(schedule);
    starts.resize(std::max<std::size_t>(schedule.size(), 1));
    return starts;
}

MoseModeSwitcherHelper
ExperimentConfig::GetSwitcherHelper() const
{
    MoseModeSwitcherHelper helper = switcherHelper;
    if (darkTime)
    {
        helper.SetSwitcherAttribute("ReconfigurationDelay", TimeValue(*darkTime));
    }
    return helper;
}

void
ExperimentConfig::ResolveHostRate(const std::string& option,
                                  const std::optional<std::string>& text,
                                  DataRate otherwise)
{
    NS_LOG_FUNCTION(this << option);
    // a rate as canonical text (whole bit/s), so that "1.6Tbps" and "1600Gbps" agree
    auto read = [](const std::string& parameter, const std::string& t) {
        DataRateValue rate;
        if (!rate.DeserializeFromString(t, MakeDataRateChecker()) || rate.Get().GetBitRate() == 0)
        {
            mose::ThrowBadParameter(parameter,
                                    mose::QuoteText(t),
                                    mose::DataRateAllowed("1600Gbps"));
        }
        return std::to_string(rate.Get().GetBitRate()) + "bps";
    };
    if (text)
    {
        read("--" + option, *text); // a bad option is reported as the option's, first
    }
    const std::optional<std::string> resolved = mose::ResolveAttributeOption(
        mose::AttributeOption{option, "ns3::MoseTopologyHelper::HostDataRate", read},
        text);
    hostRate = resolved ? DataRate(read("--" + option, *resolved)) : otherwise;
}

std::string
ExperimentConfig::Shown(const std::string& option, Time value) const
{
    auto it = optionText.find(option);
    return it != optionText.end() ? mose::QuoteText(it->second)
                                  : FormatDuration(value, DurationStyle::MS);
}

std::string
ExperimentConfig::ScheduleShown() const
{
    auto it = optionText.find("--schedule");
    return mose::QuoteText(it != optionText.end() ? it->second
                                                  : mose::FormatSchedule(GetRunSchedule()));
}

bool
ExperimentConfig::IsRdma() const
{
    return IsRdmaTransport(transport);
}

void
ExperimentConfig::SetTransport(LlmLevel runLevel,
                               const std::string& typeName,
                               const EcnMarking& marking)
{
    level = runLevel;
    transport = typeName;
    ecn.reset();
    if (IsRdma() && !IsFluid(level))
    {
        ecn = marking; // the queue disc holds the port's buffer, the device queue one packet
        portQueue = RDMA_DEVICE_QUEUE;
    }
}

Time
ExperimentConfig::GetEnd() const
{
    return end.IsZero() ? stopTime : end;
}

Experiment::Experiment(const ExperimentConfig& config)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
}

void
Experiment::SetScenario(std::shared_ptr<const mose::Scenario> scenario, const std::string& who)
{
    NS_LOG_FUNCTION(this);
    if (!scenario || scenario->run != m_config.run ||
        scenario->roles[0].GetN() != m_config.scenario.nodes)
    {
        throw mose::Error(who +
                          "::SetScenario: the scenario must be drawn for this "
                          "experiment's run " +
                          std::to_string(m_config.run) + " and " +
                          std::to_string(m_config.scenario.nodes) + " groups");
    }
    m_scenario = std::move(scenario);
}

Ptr<MoseTopologyHelper>
Experiment::PrepareTopology()
{
    if (!m_topology && !m_ran)
    {
        m_topology = CreateObject<MoseTopologyHelper>();
    }
    return m_topology;
}

void
Experiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("Experiment::Build was already called");
    }
    SystemWallClockMs clock;
    clock.Start();
    if (IsFluid(m_config.level))
    {
        m_initialGraph = BuildFluidMode();
        BuildIntervals(m_initialGraph); // the fluid run measures them (FluidRunOutput)
    }
    else
    {
        m_config.Validate();
        const ScaleScope scale(m_config.scale); // the topology divides its rates by it
        m_initialGraph = BuildInitialMode();
        BuildIntervals(m_initialGraph);
        BuildFabric(m_initialGraph);
        if (m_config.switcher)
        {
            BuildSwitcher();
        }

        // the probe: scheduled now, so that at a boundary it runs before the switch starts
        // (same time, earlier event)
        m_dropsAtStart.assign(m_intervals.size() + 1, {});
        if (m_circuits)
        {
            for (uint32_t i = 0; i + 1 < m_intervals.size(); ++i)
            {
                Simulator::Schedule(m_intervals[i + 1].start, &Experiment::CloseInterval, this, i);
            }
        }
    }
    m_built = true;
    if (m_install)
    {
        m_install();
    }
    m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
    NS_LOG_INFO("built in " << m_buildSeconds << " s: " << m_intervals.size() << " intervals");
}

void
Experiment::SetInstall(std::function<void()> install)
{
    if (m_built)
    {
        throw mose::Error("Experiment::SetInstall after Build()");
    }
    m_install = std::move(install);
}

void
Experiment::SetFluidRun(std::function<FluidRunOutput()> run)
{
    if (m_ran)
    {
        throw mose::Error("Experiment::SetFluidRun after Run()");
    }
    m_fluidRun = std::move(run);
}

const mose::CircuitGraph&
Experiment::GetInitialGraph() const
{
    if (!m_built)
    {
        throw mose::Error("Experiment::GetInitialGraph needs Build() before it");
    }
    return m_initialGraph;
}

uint64_t
ExperimentInterval::GetMaxCircuitBytes() const
{
    return circuitBytes.empty() ? 0 : *std::max_element(circuitBytes.begin(), circuitBytes.end());
}

double
ExperimentInterval::GetMeanCircuitBytes() const
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

mose::CircuitGraph
Experiment::BuildFluidMode()
{
    NS_LOG_FUNCTION(this);
    if (MoseDistributed::GetNRanks() > 1)
    {
        throw mose::Error("the fluid level runs on one process: give no --distributed, or run "
                          "the packet level (--level=packet)");
    }
    m_config.Validate();
    const ScaleScope scale(m_config.scale);
    return BuildInitialMode();
}

mose::FluidFabricConfig
Experiment::ReadFluidFabric() const
{
    NS_LOG_FUNCTION(this);
    const ScaleScope scale(m_config.scale); // MoseFluidFabricHelper divides the rates by it
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    ConfigureTopology(m_config, *topology);
    topology->SetRouting(m_config.scenario.routing, m_routingSeed);
    MoseTransportHelper helper(m_config.transport);
    if (!m_config.IsRdma())
    {
        // the BulkSend senders' sockets: TcpSocket's segment and buffers, the traffic helper's
        // TCP variant
        helper.SetAttribute("SegmentSize", UintegerValue(0));
        helper.SetAttribute("BufferSize", UintegerValue(0));
        TypeIdValue variant;
        CreateObject<MoseTrafficHelper>()->GetAttribute("TcpVariant", variant);
        helper.SetAttribute("TcpVariant", variant);
    }
    helper.SetAttribute("NoticeDelay", TimeValue(Seconds(0)));
    return MoseFluidFabricHelper::Read(*topology, m_config.GetSwitcherHelper(), helper.Create());
}

mose::CircuitGraph
Experiment::BuildInitialMode()
{
    const mose::ScenarioBuilder builder(m_config.scenario);
    const auto initial = static_cast<std::size_t>(m_config.GetInitialMode());
    mose::CircuitGraph graph;
    if (!m_scenario && m_config.switcher)
    {
        m_scenario = std::make_shared<const mose::Scenario>(builder.Build(m_config.run)); // once
    }
    if (m_scenario)
    {
        const mose::Scenario& sc = *m_scenario;
        m_initial.run = sc.run;
        m_initial.mode = m_config.GetInitialMode();
        m_initial.roles = sc.roles[initial];
        m_initial.assignment = sc.assignment[initial];
        m_initial.flows = sc.flows[initial];
        m_routingSeed = sc.routingSeed;
    }
    else
    {
        // a run without switcher needs its initial mode only
        m_initial = builder.BuildMode(m_config.run, m_config.GetInitialMode());
        m_routingSeed = builder.BuildRoutingSeed(m_config.run);
    }
    if (!m_config.graphFile.empty())
    {
        graph = mose::ReadCircuitGraphCsv(m_config.graphFile,
                                          m_config.scenario.nodes,
                                          std::optional<uint32_t>(m_config.scenario.degree));
    }
    else if (m_scenario)
    {
        graph = m_scenario->GetGraph(m_config.policy, m_config.GetInitialMode());
    }
    else
    {
        graph = builder.BuildCircuitGraph(m_config.run, m_config.GetInitialMode(), m_config.policy);
    }
    return graph;
}

void
Experiment::BuildIntervals(const mose::CircuitGraph& graph)
{
    // the mode intervals: interval 0 from time 0, then one per boundary
    m_intervals.clear();
    const std::vector<Time> times = MoseScheduleTimes(m_config.schedule);
    std::vector<std::pair<mose::WorkloadMode, Time>> starts{{m_config.GetInitialMode(), Time(0)}};
    for (std::size_t i = 1; i < m_config.schedule.size(); ++i)
    {
        starts.emplace_back(m_config.schedule[i].mode, times[i]);
    }
    for (std::size_t i = 0; i < starts.size(); ++i)
    {
        ExperimentInterval iv;
        iv.index = static_cast<uint32_t>(i);
        iv.mode = starts[i].first;
        iv.start = starts[i].second;
        iv.end = i + 1 < starts.size() ? starts[i + 1].second : m_config.GetEnd();
        iv.graph = i == 0 ? graph : m_scenario->GetGraph(m_config.policy, iv.mode);
        m_intervals.push_back(std::move(iv));
    }
}

void
Experiment::ConfigureTopology(const ExperimentConfig& config, MoseTopologyHelper& topology)
{
    // set on this fabric's OCS and helper only; Install() divides the rates by MoseScale
    if (config.ocsRate)
    {
        topology.SetOcsAttribute("DataRate", DataRateValue(*config.ocsRate));
    }
    if (config.hostRate)
    {
        topology.SetAttribute("HostDataRate", DataRateValue(*config.hostRate));
    }
    if (config.portQueue)
    {
        topology.SetPortQueue("ns3::DropTailQueue<Packet>",
                              "MaxSize",
                              QueueSizeValue(QueueSize(*config.portQueue)));
    }
    if (config.portMtu)
    {
        topology.SetPortDeviceAttribute("Mtu", UintegerValue(*config.portMtu));
        topology.SetAttribute("HostMtu", UintegerValue(*config.portMtu));
    }
    if (config.ecn)
    {
        const EcnMarking& e = *config.ecn;
        topology.SetAttribute("QueueDiscType", TypeIdValue(RedQueueDisc::GetTypeId()));
        topology.SetQueueDiscAttribute("UseEcn", BooleanValue(true));
        topology.SetQueueDiscAttribute("MinTh", DoubleValue(e.kmin));
        topology.SetQueueDiscAttribute("MaxTh", DoubleValue(e.kmax));
        topology.SetQueueDiscAttribute("LInterm", DoubleValue(1.0 / e.pmax));
        topology.SetQueueDiscAttribute("QW", DoubleValue(1)); // the instantaneous queue
        topology.SetQueueDiscAttribute("UseHardDrop", BooleanValue(false)); // above Kmax: mark
        topology.SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize(e.discSize)));
    }
    if (config.hostsPerGroup > 1)
    {
        // else the attribute's: the group node (or the user's 1)
        topology.SetAttribute("HostsPerGroup", UintegerValue(config.hostsPerGroup));
    }
    topology.SetAttribute("Groups", UintegerValue(config.scenario.nodes));
    topology.SetAttribute("PortsPerGroup", UintegerValue(config.scenario.degree));
}

void
Experiment::BuildFabric(const mose::CircuitGraph& graph)
{
    // the fabric in the initial graph
    ConfigureTopology(m_config, *PrepareTopology());
    m_topology->SetRoles(m_initial.roles);
    m_topology->SetCircuitGraph(graph);
    m_topology->SetRouting(m_config.scenario.routing, m_routingSeed);
    m_topology->Install();
    // the study's runs forward transit packets from the device (the same run, less work per hop:
    // doc/mose.rst, Fast transit), unless the user chose
    const NodeContainer groups = m_topology->GetGroupNodes();
    for (uint32_t g = 0; g < groups.GetN(); ++g)
    {
        Ptr<MoseRoutingProtocol> routing = MoseRoutingProtocol::Find(groups.Get(g));
        if (routing && !mose::IsAttributeUserSet(*routing, "FastTransit"))
        {
            routing->SetAttribute("FastTransit", BooleanValue(true));
        }
    }
    if (m_config.countCircuits)
    {
        m_circuits = m_topology->InstallCircuitMonitor();
    }
    m_loss = m_topology->InstallLossMonitor();
    if (m_config.pfc)
    {
        m_pfc = m_topology->InstallPfc(); // before the transport, which listens to it
    }
    if (m_config.ecn)
    {
        AssignEcnStreams();
    }
}

void
Experiment::AssignEcnStreams() const
{
    // RED draws its marks from a random variable per disc: fixed streams make them the same
    // whatever else the run draws
    NodeContainer nodes = m_topology->GetGroupNodes();
    nodes.Add(m_topology->GetAllHosts());
    int64_t stream = mose::Stream::ECN_MARKS;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        for (uint32_t j = 0; tc && j < node->GetNDevices(); ++j)
        {
            Ptr<RedQueueDisc> red =
                DynamicCast<RedQueueDisc>(tc->GetRootQueueDiscOnDevice(node->GetDevice(j)));
            if (red)
            {
                stream += red->AssignStreams(stream);
            }
        }
    }
}

void
Experiment::BuildSwitcher()
{
    MoseModeSwitcherHelper h = m_config.GetSwitcherHelper();
    h.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider(m_config.policy, *m_scenario));
    h.SetSchedule(m_config.schedule);
    h.SetLossMonitor(m_loss);
    m_switcher = h.Install(m_topology);
    m_switcher->TraceConnectWithoutContext("SwitchStarted",
                                           MakeCallback(&Experiment::OnSwitchStarted, this));
    if (m_config.waitForSwitches || m_circuits)
    {
        m_switcher->TraceConnectWithoutContext("SwitchDone",
                                               MakeCallback(&Experiment::OnSwitchDone, this));
    }
    UintegerValue phases;
    BooleanValue drain;
    TimeValue timeout;
    TimeValue delay;
    m_switcher->GetAttribute("Phases", phases);
    m_switcher->GetAttribute("Drain", drain);
    m_switcher->GetAttribute("DrainTimeout", timeout);
    m_switcher->GetAttribute("ReconfigurationDelay", delay);
    m_switcherText = DescribeSwitcher(phases.Get(), drain.Get(), timeout.Get(), delay.Get());
}

void
Experiment::CheckBuilt(const std::string& what) const
{
    if (!m_built || m_ran)
    {
        throw mose::Error("Experiment::" + what + " needs Build() before it and Run() after it");
    }
}

void
Experiment::AddWorkload(Ptr<MoseWorkload> workload)
{
    workload->TraceConnectWithoutContext("WorkDone",
                                         MakeBoundCallback(
                                             +[](Experiment* self, uint32_t) { self->MaybeStop(); },
                                             this));
    m_workloads.push_back(workload);
}

void
Experiment::InstallTransport(Ptr<MoseTransport> transport)
{
    NS_LOG_FUNCTION(this);
    CheckBuilt("InstallTransport");
    if (m_transport || !transport)
    {
        throw mose::Error("Experiment::InstallTransport: one transport per run");
    }
    m_transport = transport;
    m_transport->Install(m_topology->GetGroupEndpoints()); // a group's hosts, one per rail
}

Ptr<MoseTransport>
Experiment::InstallTransport(const MoseTransportHelper& helper)
{
    NS_LOG_FUNCTION(this);
    CheckBuilt("InstallTransport");
    if (m_transport)
    {
        throw mose::Error("Experiment::InstallTransport: one transport per run");
    }
    // a group's hosts, one per rail; RDMA's in-flight cap on the graph installed first. Sized
    // over every graph of the schedule (Install(topology, switcher)) the cap rose from 299 to 393
    // on mose-mode-switch's 16-group test and a port's RED queue overflowed in the training
    // interval; on the validation's runs the two caps are equal (MoSE's training graph is never
    // the longer one)
    m_transport = helper.Install(m_topology);
    return m_transport;
}

Ptr<MoseWorkload>
Experiment::InstallWorkload(const MoseWorkloadHelper& helper)
{
    NS_LOG_FUNCTION(this);
    CheckBuilt("InstallWorkload");
    Ptr<MoseWorkload> workload = helper.Install(m_transport);
    if (m_switcher)
    {
        // the switcher keeps it in step: the initial mode now, the mode entered at each switch
        m_switcher->AddWorkload(workload);
    }
    else
    {
        workload->SetMode(m_config.GetInitialMode(),
                          m_initial.roles,
                          std::make_shared<const mose::CircuitGraph>(m_intervals[0].graph));
    }
    AddWorkload(workload);
    return workload;
}

Ptr<MoseFlowWorkload>
Experiment::InstallFlows(const std::vector<mose::Flow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    CheckBuilt("InstallFlows");
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(mose::Stream::TRANSFERS);
    if (m_traffic.empty())
    {
        UintegerValue unit;
        traffic->GetAttribute("BytesPerUnit", unit);
        m_bytesPerUnit = unit.Get();
    }
    auto workload =
        DynamicCast<MoseFlowWorkload>(MoseWorkloadHelper("ns3::MoseFlowWorkload")
                                          .Install(traffic, m_topology->GetEndpoints(), flows));
    m_traffic.push_back(traffic);
    AddWorkload(workload);
    return workload;
}

std::vector<Ptr<MoseFlowWorkload>>
Experiment::InstallModeFlows(
    const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
    Time firstStart,
    Time startWindow)
{
    NS_LOG_FUNCTION(this << firstStart << startWindow);
    CheckBuilt("InstallModeFlows");
    if (!m_switcher)
    {
        throw mose::Error("Experiment::InstallModeFlows needs a run with a switcher");
    }
    const std::vector<Ptr<MoseTrafficHelper>> traffic =
        MoseModeSwitcherHelper::InstallModeTraffic(m_switcher,
                                                   m_topology->GetEndpoints(),
                                                   flowsOf,
                                                   firstStart,
                                                   m_config.GetEnd(),
                                                   startWindow,
                                                   mose::Stream::TRANSFERS);
    if (m_traffic.empty() && !traffic.empty())
    {
        UintegerValue unit;
        traffic.front()->GetAttribute("BytesPerUnit", unit);
        m_bytesPerUnit = unit.Get();
    }
    std::vector<Ptr<MoseFlowWorkload>> workloads;
    for (const Ptr<MoseTrafficHelper>& t : traffic)
    {
        m_traffic.push_back(t);
        workloads.push_back(t->GetWorkload());
        AddWorkload(t->GetWorkload());
    }
    return workloads;
}

void
Experiment::StopWorkloadAt(Ptr<MoseWorkload> workload, Time at)
{
    NS_LOG_FUNCTION(this << workload << at);
    CheckBuilt("StopWorkloadAt");
    Simulator::Schedule(
        at,
        +[](Experiment* self, MoseWorkload* w) {
            w->Stop();
            self->MaybeStop();
        },
        this,
        PeekPointer(workload));
}

Ptr<FlowMonitor>
Experiment::InstallFlowMonitor()
{
    NS_LOG_FUNCTION(this);
    CheckBuilt("InstallFlowMonitor");
    if (m_flowMonitor)
    {
        throw mose::Error("Experiment::InstallFlowMonitor was already called");
    }
    if (MoseDistributed::GetNRanks() > 1)
    {
        mose::ThrowBadParameter("--flowMonitor",
                                "true",
                                "false on a distributed run (" +
                                    std::to_string(MoseDistributed::GetNRanks()) +
                                    " MPI ranks): each rank's FlowMonitor sees only the ends "
                                    "of a flow on its own nodes; the loss monitor counts every "
                                    "drop point on every rank");
    }
    m_flowHelper = std::make_shared<FlowMonitorHelper>();
    m_flowMonitor = m_flowHelper->InstallAll();
    return m_flowMonitor;
}

void
Experiment::SetDistributedCheck(std::function<void(Time lookahead)> check)
{
    m_distributedCheck = std::move(check);
}

void
Experiment::SetProgress(Time horizon, std::function<std::string()> describe)
{
    m_horizon = horizon;
    m_describe = std::move(describe);
}

void
Experiment::SetCollect(std::function<void()> collect)
{
    m_collect = std::move(collect);
}

void
Experiment::OnSwitchStarted(uint32_t index, mose::WorkloadMode, mose::WorkloadMode to)
{
    NS_LOG_FUNCTION(this << index << mose::ToString(to));
    ++m_switchesStarted;
    try
    {
        // the workloads the switcher does not keep in step itself (the flow workloads)
        const MoseModeTarget& target = m_switcher->GetTarget(to);
        auto graph = std::make_shared<const mose::CircuitGraph>(target.graph);
        const std::vector<Ptr<MoseWorkload>>& kept = m_switcher->GetWorkloads();
        for (const Ptr<MoseWorkload>& w : m_workloads)
        {
            if (std::find(kept.begin(), kept.end(), w) == kept.end())
            {
                w->SetMode(to, target.roles, graph);
            }
        }
    }
    catch (const std::exception& e)
    {
        ++m_errors;
        NS_LOG_ERROR("switch " << index << ": " << e.what());
    }
}

uint64_t
Experiment::SumPortBytes() const
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
Experiment::OnSwitchDone(const MoseSwitchRecord& record)
{
    NS_LOG_FUNCTION(this << record.index);
    if (m_circuits)
    {
        const uint32_t interval = record.index + 1;
        if (interval < m_intervals.size())
        {
            m_intervals[interval].bytesDuringSwitch = SumPortBytes();
        }
        m_circuits->Reset();
    }
    if (m_config.waitForSwitches)
    {
        MaybeStop();
    }
}

void
Experiment::CloseInterval(uint32_t interval)
{
    NS_LOG_FUNCTION(this << interval);
    ExperimentInterval& iv = m_intervals.at(interval);
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
Experiment::MaybeStop()
{
    for (const Ptr<MoseWorkload>& w : m_workloads)
    {
        if (!w->IsDone())
        {
            return;
        }
    }
    const Time now = Simulator::Now();
    if (m_switcher && m_config.waitForSwitches && m_switcher->IsSwitching())
    {
        return; // the switch in progress belongs to the run
    }
    // the last switch: at the last period's start
    const Time last = m_config.schedule.size() > 1
                          ? MoseScheduleTimes(m_config.schedule)[m_config.schedule.size() - 1]
                          : Time(0);
    if (m_config.schedule.size() > 1 && now < m_config.GetEnd() &&
        (m_config.waitForSwitches ? now < last : now <= last))
    {
        return; // the schedule's switches still belong to the run
    }
    Simulator::Stop();
}

RunFigures
FluidRunFigures(const mose::FluidFabric& fabric, int64_t endNs, double wallSeconds)
{
    RunFigures f;
    f.events = fabric.GetNEvents();
    f.eventsPerRank = {f.events};
    f.wallSeconds = wallSeconds;
    f.simulatedSeconds = static_cast<double>(endNs) * 1e-9;
    return f;
}

std::vector<MoseSwitchRecord>
FluidSwitchRecords(const mose::FluidFabric& fabric,
                   const std::vector<std::pair<int64_t, mose::WorkloadMode>>& boundaries,
                   mose::WorkloadMode initial,
                   uint32_t phases,
                   int64_t endNs)
{
    std::vector<MoseSwitchRecord> records;
    mose::WorkloadMode from = initial;
    std::size_t boundary = 0;
    for (const mose::FluidSwitchRecord& fr : fabric.GetSwitchRecords())
    {
        while (boundary < boundaries.size() && boundaries[boundary].first != fr.startNs)
        {
            ++boundary;
        }
        MoseSwitchRecord r;
        r.index = fr.index;
        r.from = from;
        r.to = boundary < boundaries.size() ? boundaries[boundary].second : from;
        from = r.to;
        r.start = NanoSeconds(fr.startNs);
        r.done = fr.done;
        r.end = fr.done ? NanoSeconds(fr.endNs) : Time(0);
        r.until = fr.done ? r.end : NanoSeconds(endNs);
        r.phases = phases;
        r.kept = fr.kept;
        r.removed = fr.removed;
        r.added = fr.added;
        r.batches.resize(fr.batches);
        r.drainTime = NanoSeconds(fr.drainNs);
        r.darkTime = NanoSeconds(fr.darkNs);
        r.blackoutTime = NanoSeconds(fr.blackoutNs);
        records.push_back(r);
        ++boundary;
    }
    return records;
}

RunFigures
Experiment::RunMeasured(SystemWallClockMs& clock)
{
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const std::clock_t cpuBefore = std::clock();
    clock.Start();
    Simulator::Run();
    const int64_t wallMs = clock.End();
    // the run's processor time, for utils/event-cost.sh (NS_LOG=MoseExperiment=info): unlike the
    // wall time it hardly depends on what else the machine runs
    NS_LOG_INFO("Simulator::Run(): "
                << Simulator::GetEventCount() - eventsBefore << " events, "
                << static_cast<double>(wallMs) / 1000.0 << " s wall, "
                << static_cast<double>(std::clock() - cpuBefore) / CLOCKS_PER_SEC << " s CPU");
    RunFigures f;
    f.eventsPerRank = MoseDistributed::GatherOverRanks(Simulator::GetEventCount() - eventsBefore);
    f.events = std::accumulate(f.eventsPerRank.begin(), f.eventsPerRank.end(), uint64_t{0});
    std::vector<int64_t> longest{wallMs, Simulator::Now().GetTimeStep()};
    MoseDistributed::MaxOverRanks(longest);
    f.wallSeconds = static_cast<double>(longest[0]) / 1000.0;
    f.simulatedSeconds = TimeStep(longest[1]).GetSeconds();
    return f;
}

void
Experiment::ReadCounts()
{
    m_errors += (m_switcher ? m_switcher->GetNErrors() : 0) +
                (m_transport ? m_transport->GetNErrors() : 0) + (m_pfc ? m_pfc->GetNErrors() : 0) +
                MoseRankMessages::GetNErrors();
    for (const Ptr<MoseWorkload>& w : m_workloads)
    {
        m_errors += w->GetNErrors();
    }
    m_packetsLost = m_loss->GetTotal();
    m_ecnMarks = m_loss->GetMarks();
    if (m_pfc && m_pfc->IsInstalled())
    {
        m_pfcCounts.installed = true;
        m_pfcCounts.pausesSent = m_pfc->GetNPausesSent();
        m_pfcCounts.pausesReceived = m_pfc->GetNPausesReceived();
        m_pfcCounts.nicPauses = m_pfc->GetNNicPauses();
        m_pfcCounts.pausesLost = m_pfc->GetNPausesLost();
        m_pfcCounts.storms = m_pfc->GetNStorms();
        m_pfcCounts.pausedTime = m_pfc->GetPausedTime();
        m_pfcCounts.longestPause = m_pfc->GetLongestPause();
    }
    for (int p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        m_lostAt[p] = m_loss->GetDrops(static_cast<MoseLossMonitor::Point>(p));
    }
}

void
Experiment::Run(const std::string& label)
{
    NS_LOG_FUNCTION(this);
    CheckBuilt("Run");
    if (IsFluid(m_config.level))
    {
        if (!m_fluidRun)
        {
            throw mose::Error("Experiment::Run at the " + ToString(m_config.level) +
                              " level needs a fluid run (SetFluidRun())");
        }
        FluidRunOutput output = m_fluidRun();
        m_figures = std::move(output.figures);
        m_circuitBytes = std::move(output.circuitBytes);
        if (!output.intervals.empty())
        {
            m_intervals = std::move(output.intervals);
        }
        m_records = std::move(output.switchRecords);
        m_ran = true;
        return;
    }
    if (m_config.flowMonitor)
    {
        InstallFlowMonitor();
    }
    SystemWallClockMs clock;
    if (m_describe && MoseDistributed::GetRank() == 0) // rank 0 speaks for a distributed run
    {
        const Time step = std::max(m_horizon / 10, MilliSeconds(1));
        for (Time t = step; t <= m_config.stopTime; t += step)
        {
            Simulator::Schedule(t, [this, &clock]() {
                std::cerr << "  t=" << std::fixed << std::setprecision(3)
                          << Simulator::Now().GetSeconds() << " s: " << m_describe() << ", "
                          << Simulator::GetEventCount() << " events, " << std::setprecision(1)
                          << static_cast<double>(clock.End()) / 1000.0 << " s wall" << std::endl;
                std::cerr.unsetf(std::ios_base::floatfield);
            });
        }
    }
    Simulator::Stop(m_config.stopTime);
    if (MoseDistributed::GetNRanks() > 1)
    {
        MoseDistributed::BeginSimulation(label);
        const Time lookahead = m_topology->PrepareDistributedRun();
        m_circuitsCut = m_topology->GetNCircuitsCut();
        if (m_distributedCheck)
        {
            m_distributedCheck(lookahead);
        }
    }
    m_figures = RunMeasured(clock);

    if (m_circuits && !m_switcher)
    {
        m_circuitBytes = m_circuits->GetCircuitBytes(); // the OCS's circuits, in its order
    }
    // the probe: the last interval ends with the simulation; intervals whose boundary never
    // came too
    const Time now = Simulator::Now();
    if (m_circuits)
    {
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
    }
    if (m_switcher)
    {
        m_records = m_switcher->GetRecords();
    }
    if (m_collect)
    {
        m_collect();
    }
    ReadCounts();
    MergeRanks();
    for (ExperimentInterval& iv : m_intervals)
    {
        iv.packetsLost = 0;
        for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            iv.drops[p] = m_dropsAtStart[iv.index + 1][p] - m_dropsAtStart[iv.index][p];
            iv.packetsLost += iv.drops[p];
        }
    }
    m_ran = true;
    m_workloads.clear();
    m_traffic.clear();
    m_transport = nullptr;
    m_switcher = nullptr;
    m_circuits = nullptr;
    m_loss = nullptr;
    m_pfc = nullptr;
    m_topology = nullptr;
    Simulator::Destroy();
    m_flowMonitor = nullptr;
    m_flowHelper.reset();
}

void
Experiment::MergeRanks()
{
    if (MoseDistributed::GetNRanks() <= 1)
    {
        return;
    }
    // a packet is dropped on one rank and a rank counts only its own ports: the fabric's
    // counts are the sums
    MoseDistributed::MergeSwitchRecords(m_records);
    std::vector<uint64_t*> counts{&m_packetsLost, &m_ecnMarks, &m_errors};
    for (uint64_t& n : m_lostAt)
    {
        counts.push_back(&n);
    }
    for (ExperimentInterval& iv : m_intervals)
    {
        for (uint64_t& b : iv.circuitBytes)
        {
            counts.push_back(&b);
        }
        counts.push_back(&iv.bytesDuringSwitch);
    }
    for (auto& drops : m_dropsAtStart)
    {
        for (uint64_t& d : drops)
        {
            counts.push_back(&d);
        }
    }
    for (uint64_t& b : m_circuitBytes)
    {
        counts.push_back(&b);
    }
    // each rank's PFC counted its own nodes' pauses: the sums, and the longest pause of any
    uint64_t pausedSteps = m_pfcCounts.pausedTime.GetTimeStep() > 0
                               ? static_cast<uint64_t>(m_pfcCounts.pausedTime.GetTimeStep())
                               : 0;
    for (uint64_t* c : {&m_pfcCounts.pausesSent,
                        &m_pfcCounts.pausesReceived,
                        &m_pfcCounts.nicPauses,
                        &m_pfcCounts.pausesLost,
                        &m_pfcCounts.storms,
                        &pausedSteps})
    {
        counts.push_back(c);
    }
    MoseDistributed::SumEachOverRanks(counts);
    m_pfcCounts.pausedTime = TimeStep(static_cast<int64_t>(pausedSteps));
    std::vector<int64_t> longest{m_pfcCounts.longestPause.GetTimeStep()};
    MoseDistributed::MaxOverRanks(longest);
    m_pfcCounts.longestPause = TimeStep(longest[0]);
}

mose::FlowMetrics
Experiment::EvaluateFlows(const mose::CircuitGraph& graph,
                          const std::vector<mose::Flow>& flows) const
{
    const mose::ShortestPathRouting routing(graph, m_config.scenario.routing, m_routingSeed);
    return mose::EvaluateFlows(routing, flows);
}

std::array<FlowPacketCounts, 2>
Experiment::CountFlowPackets(const std::vector<MoseTransfer>& transfers) const
{
    std::array<FlowPacketCounts, 2> counts{};
    if (!m_flowMonitor)
    {
        return counts;
    }
    std::map<std::pair<uint32_t, uint16_t>, mose::TrafficClass> sinks;
    for (const auto& t : transfers)
    {
        sinks[{t.dstAddress.Get(), t.port}] = t.cls;
    }
    m_flowMonitor->CheckForLostPackets();
    auto classifier = DynamicCast<Ipv4FlowClassifier>(m_flowHelper->GetClassifier());
    for (const auto& [id, stats] : m_flowMonitor->GetFlowStats())
    {
        const Ipv4FlowClassifier::FiveTuple tuple = classifier->FindFlow(id);
        auto it = sinks.find({tuple.destinationAddress.Get(), tuple.destinationPort});
        if (it == sinks.end())
        {
            it = sinks.find({tuple.sourceAddress.Get(), tuple.sourcePort});
        }
        if (it == sinks.end())
        {
            continue;
        }
        FlowPacketCounts& c = counts[it->second == mose::TrafficClass::KV ? 0 : 1];
        c.lost += stats.lostPackets;
        c.sent += stats.txPackets;
    }
    return counts;
}

std::vector<MoseTransfer>
Experiment::CollectTransfers(Ptr<MoseWorkload> workload)
{
    std::vector<MoseTransfer> transfers = workload->GetTransfers();
    MoseDistributed::MergeTransfers(transfers);
    return transfers;
}

const ExperimentConfig&
Experiment::GetConfig() const
{
    return m_config;
}

const mose::Scenario&
Experiment::GetScenario() const
{
    if (!m_scenario)
    {
        throw mose::Error("Experiment::GetScenario: no scenario (Build() of a run with a "
                          "switcher draws one, SetScenario() gives one)");
    }
    return *m_scenario;
}

std::shared_ptr<const mose::Scenario>
Experiment::GetSharedScenario() const
{
    return m_built ? m_scenario : nullptr;
}

const mose::ModeScenario&
Experiment::GetInitialModeScenario() const
{
    return m_initial;
}

uint64_t
Experiment::GetRoutingSeed() const
{
    return m_routingSeed;
}

Ptr<MoseTopologyHelper>
Experiment::GetTopology() const
{
    return m_topology;
}

Ptr<MoseCircuitMonitor>
Experiment::GetCircuitMonitor() const
{
    return m_circuits;
}

Ptr<MoseLossMonitor>
Experiment::GetLossMonitor() const
{
    return m_loss;
}

Ptr<MoseModeSwitcher>
Experiment::GetSwitcher() const
{
    return m_switcher;
}

Ptr<MoseTransport>
Experiment::GetTransport() const
{
    return m_transport;
}

const std::vector<Ptr<MoseWorkload>>&
Experiment::GetWorkloads() const
{
    return m_workloads;
}

const std::vector<Ptr<MoseTrafficHelper>>&
Experiment::GetTraffic() const
{
    return m_traffic;
}

uint64_t
Experiment::GetBytesPerUnit() const
{
    return m_bytesPerUnit;
}

const std::string&
Experiment::GetSwitcherText() const
{
    return m_switcherText;
}

const std::vector<ExperimentInterval>&
Experiment::GetIntervals() const
{
    return m_intervals;
}

uint32_t
Experiment::GetNSwitchesStarted() const
{
    return m_switchesStarted;
}

const std::vector<uint64_t>&
Experiment::GetCircuitBytes() const
{
    return m_circuitBytes;
}

const std::vector<MoseSwitchRecord>&
Experiment::GetSwitchRecords() const
{
    return m_records;
}

const MoseSwitchRecord*
Experiment::GetIntervalSwitch(uint32_t interval) const
{
    if (interval == 0 || interval >= m_intervals.size())
    {
        return nullptr;
    }
    // a switch starts at its boundary, the interval's start (a boundary skipped during a
    // switch started none)
    for (const MoseSwitchRecord& r : m_records)
    {
        if (r.start == m_intervals[interval].start)
        {
            return &r;
        }
    }
    return nullptr;
}

double
Experiment::GetBuildSeconds() const
{
    return m_buildSeconds;
}

const RunFigures&
Experiment::GetRunFigures() const
{
    return m_figures;
}

double
Experiment::GetWallSeconds() const
{
    return m_figures.wallSeconds;
}

double
Experiment::GetSimulatedSeconds() const
{
    return m_figures.simulatedSeconds;
}

uint64_t
Experiment::GetEvents() const
{
    return m_figures.events;
}

const std::vector<uint64_t>&
Experiment::GetEventsPerRank() const
{
    return m_figures.eventsPerRank;
}

uint32_t
Experiment::GetCircuitsCut() const
{
    return m_circuitsCut;
}

uint64_t
Experiment::GetPacketsLost() const
{
    return m_packetsLost;
}

uint64_t
Experiment::GetPacketsLost(MoseLossMonitor::Point point) const
{
    if (point >= MoseLossMonitor::N_POINTS)
    {
        throw mose::Error("Experiment::GetPacketsLost: drop point " +
                          std::to_string(static_cast<int>(point)) + " does not exist");
    }
    return m_lostAt[point];
}

uint64_t
Experiment::GetEcnMarks() const
{
    return m_ecnMarks;
}

const PfcCounts&
Experiment::GetPfcCounts() const
{
    return m_pfcCounts;
}

uint64_t
Experiment::GetNErrors() const
{
    return m_errors;
}

void
Experiment::PrintRanks(std::ostream& os,
                       const std::vector<uint64_t>& eventsPerRank,
                       uint32_t circuitsCut)
{
    if (eventsPerRank.size() <= 1)
    {
        return;
    }
    uint64_t busiest = 0;
    uint64_t events = 0;
    os << "  " << eventsPerRank.size() << " MPI ranks: events";
    const char* sep = " ";
    for (uint64_t e : eventsPerRank)
    {
        os << sep << e;
        sep = " + ";
        busiest = std::max(busiest, e);
        events += e;
    }
    const double mean = static_cast<double>(events) / static_cast<double>(eventsPerRank.size());
    std::ostringstream balance;
    balance << std::fixed << std::setprecision(3)
            << (mean > 0 ? static_cast<double>(busiest) / mean : 0.0);
    os << " (busiest / mean " << balance.str() << "), " << circuitsCut
       << " circuits of the initial graph cut\n";
}

} // namespace mose
} // namespace ns3
