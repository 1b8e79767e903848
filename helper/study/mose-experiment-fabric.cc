/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-experiment-fabric.h"

#include "ns3/flow-monitor-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-random.h"
#include "ns3/simulator.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseExperimentFabric");

namespace mose
{

Ptr<MoseTopologyHelper>
ExperimentFabric::PrepareTopology()
{
    // created here, not with the fabric: where the drivers created it before
    if (!m_topology && !m_finished)
    {
        m_topology = CreateObject<MoseTopologyHelper>();
    }
    return m_topology;
}

Ptr<MoseTopologyHelper>
ExperimentFabric::GetTopology() const
{
    return m_topology;
}

void
ExperimentFabric::Install(const mose::FlowExperimentConfig& scenario,
                          const mose::RoleAssignment& roles,
                          const mose::CircuitGraph& graph,
                          uint64_t routingSeed,
                          bool countCircuits)
{
    NS_LOG_FUNCTION(this << routingSeed << countCircuits);
    if (m_finished)
    {
        throw mose::Error("ExperimentFabric::Install: the fabric was finished (one "
                          "fabric per Simulator lifetime)");
    }
    if (m_loss)
    {
        throw mose::Error("ExperimentFabric::Install: the fabric is installed already");
    }
    PrepareTopology();
    m_topology->SetAttribute("Groups", UintegerValue(scenario.nodes));
    m_topology->SetAttribute("PortsPerGroup", UintegerValue(scenario.degree));
    m_topology->SetRoles(roles);
    m_topology->SetCircuitGraph(graph);
    m_topology->SetRouting(scenario.routing, routingSeed);
    m_topology->Install();

    if (countCircuits)
    {
        m_circuits = CreateObject<MoseCircuitMonitor>();
        m_circuits->Install(m_topology->GetOcs());
    }
    m_loss = CreateObject<MoseLossMonitor>();
    m_loss->Install(NodeContainer(m_topology->GetGroupNodes(), m_topology->GetAllHosts()),
                    m_topology->GetOcs());
}

Ptr<MoseCircuitMonitor>
ExperimentFabric::GetCircuitMonitor() const
{
    return m_circuits;
}

Ptr<MoseLossMonitor>
ExperimentFabric::GetLossMonitor() const
{
    return m_loss;
}

Ptr<MoseTrafficHelper>
ExperimentFabric::InstallTraffic(const std::vector<mose::Flow>& flows)
{
    NS_LOG_FUNCTION(this << flows.size());
    if (!m_loss)
    {
        throw mose::Error("ExperimentFabric::InstallTraffic needs Install() before it");
    }
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(mose::Stream::TRANSFERS);
    if (m_traffic.empty())
    {
        UintegerValue unit;
        traffic->GetAttribute("BytesPerUnit", unit);
        m_bytesPerUnit = unit.Get();
    }
    traffic->Install(m_topology->GetEndpoints(), flows);
    m_traffic.push_back(traffic);
    return traffic;
}

Ptr<MoseModeSwitcher>
ExperimentFabric::InstallSwitcher(const MoseModeSwitcherHelper& helper,
                                  mose::Policy policy,
                                  const mose::Scenario& scenario,
                                  const std::vector<MoseModeBoundary>& schedule,
                                  mose::WorkloadMode initialMode)
{
    NS_LOG_FUNCTION(this);
    if (!m_loss || m_switcher)
    {
        throw mose::Error("ExperimentFabric::InstallSwitcher needs Install() before it, once");
    }
    MoseModeSwitcherHelper h = helper;
    h.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider(policy, scenario));
    h.SetSchedule(schedule);
    h.SetInitialMode(initialMode);
    h.SetLossMonitor(m_loss);
    m_switcher = h.Install(m_topology);
    return m_switcher;
}

const std::vector<Ptr<MoseTrafficHelper>>&
ExperimentFabric::InstallModeTraffic(
    const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
    Time firstStart,
    Time end,
    Time startWindow)
{
    NS_LOG_FUNCTION(this << firstStart << end << startWindow);
    if (!m_switcher)
    {
        throw mose::Error("ExperimentFabric::InstallModeTraffic needs InstallSwitcher() before it");
    }
    const std::vector<Ptr<MoseTrafficHelper>> traffic =
        MoseModeSwitcherHelper::InstallModeTraffic(m_switcher,
                                                   m_topology->GetEndpoints(),
                                                   flowsOf,
                                                   firstStart,
                                                   end,
                                                   startWindow,
                                                   mose::Stream::TRANSFERS);
    if (m_traffic.empty() && !traffic.empty())
    {
        UintegerValue unit;
        traffic.front()->GetAttribute("BytesPerUnit", unit);
        m_bytesPerUnit = unit.Get();
    }
    m_traffic.insert(m_traffic.end(), traffic.begin(), traffic.end());
    return m_traffic;
}

Ptr<MoseModeSwitcher>
ExperimentFabric::GetSwitcher() const
{
    return m_switcher;
}

const std::vector<Ptr<MoseTrafficHelper>>&
ExperimentFabric::GetTraffic() const
{
    return m_traffic;
}

uint64_t
ExperimentFabric::GetBytesPerUnit() const
{
    return m_bytesPerUnit;
}

Ptr<FlowMonitor>
ExperimentFabric::InstallFlowMonitor()
{
    NS_LOG_FUNCTION(this);
    if (m_flowMonitor)
    {
        throw mose::Error("ExperimentFabric::InstallFlowMonitor was already called");
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

std::array<FlowPacketCounts, 2>
ExperimentFabric::CountFlowPackets(const std::vector<MoseTransfer>& transfers) const
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

void
ExperimentFabric::Run(Time stopTime)
{
    NS_LOG_FUNCTION(this << stopTime);
    Simulator::Stop(stopTime);
    if (m_topology && MoseDistributed::GetNRanks() > 1)
    {
        MoseDistributed::BeginSimulation("the packet-level fabric");
        m_topology->PrepareDistributedRun();
        m_circuitsCut = m_topology->GetNCircuitsCut();
    }
    SystemWallClockMs clock;
    RunFigures figures = RunMeasured(clock);
    m_eventsPerRank = std::move(figures.eventsPerRank);
    m_events = figures.events;
    m_wallSeconds = figures.wallSeconds;
    m_simulatedSeconds = figures.simulatedSeconds;
}

ExperimentFabric::RunFigures
ExperimentFabric::RunMeasured(SystemWallClockMs& clock)
{
    const uint64_t eventsBefore = Simulator::GetEventCount();
    clock.Start();
    Simulator::Run();
    const int64_t wallMs = clock.End();
    RunFigures f;
    f.eventsPerRank = MoseDistributed::GatherOverRanks(Simulator::GetEventCount() - eventsBefore);
    f.events = std::accumulate(f.eventsPerRank.begin(), f.eventsPerRank.end(), uint64_t{0});
    std::vector<int64_t> longest{wallMs, Simulator::Now().GetTimeStep()};
    MoseDistributed::MaxOverRanks(longest);
    f.wallSeconds = static_cast<double>(longest[0]) / 1000.0;
    f.simulatedSeconds = TimeStep(longest[1]).GetSeconds();
    return f;
}

std::vector<uint64_t>
ExperimentFabric::CollectCircuitBytes() const
{
    if (!m_circuits)
    {
        throw mose::Error("ExperimentFabric::CollectCircuitBytes needs Install() with a circuit "
                          "monitor");
    }
    std::vector<uint64_t> bytes = m_circuits->GetCircuitBytes();
    MoseDistributed::SumOverRanks(bytes);
    return bytes;
}

std::vector<MoseTransfer>
ExperimentFabric::CollectTransfers(Ptr<MoseTransferMonitor> monitor)
{
    std::vector<MoseTransfer> transfers = monitor->GetTransfers();
    MoseDistributed::MergeTransfers(transfers);
    return transfers;
}

void
ExperimentFabric::Finish()
{
    NS_LOG_FUNCTION(this);
    if (m_loss)
    {
        m_packetsLost = m_loss->GetTotal();
        m_ecnMarks = m_loss->GetMarks();
        for (int p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            m_lostAt[p] = m_loss->GetDrops(static_cast<MoseLossMonitor::Point>(p));
        }
        // a packet is dropped on one rank: the fabric's counts are the sums
        std::vector<uint64_t*> counts{&m_packetsLost, &m_ecnMarks};
        for (uint64_t& n : m_lostAt)
        {
            counts.push_back(&n);
        }
        MoseDistributed::SumEachOverRanks(counts);
    }
    m_topology = nullptr;
    m_switcher = nullptr;
    m_traffic.clear();
    m_circuits = nullptr;
    m_loss = nullptr;
    Simulator::Destroy();
    m_flowMonitor = nullptr;
    m_flowHelper.reset();
    m_finished = true;
}

double
ExperimentFabric::GetWallSeconds() const
{
    return m_wallSeconds;
}

double
ExperimentFabric::GetSimulatedSeconds() const
{
    return m_simulatedSeconds;
}

uint64_t
ExperimentFabric::GetEvents() const
{
    return m_events;
}

const std::vector<uint64_t>&
ExperimentFabric::GetEventsPerRank() const
{
    return m_eventsPerRank;
}

uint32_t
ExperimentFabric::GetCircuitsCut() const
{
    return m_circuitsCut;
}

void
ExperimentFabric::PrintRanks(std::ostream& os) const
{
    PrintRanks(os, m_eventsPerRank, m_circuitsCut);
}

void
ExperimentFabric::PrintRanks(std::ostream& os,
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

uint64_t
ExperimentFabric::GetPacketsLost() const
{
    return m_packetsLost;
}

uint64_t
ExperimentFabric::GetPacketsLost(MoseLossMonitor::Point point) const
{
    if (point >= MoseLossMonitor::N_POINTS)
    {
        throw mose::Error("ExperimentFabric::GetPacketsLost: drop point " +
                          std::to_string(static_cast<int>(point)) + " does not exist");
    }
    return m_lostAt[point];
}

uint64_t
ExperimentFabric::GetEcnMarks() const
{
    return m_ecnMarks;
}

} // namespace mose
} // namespace ns3
