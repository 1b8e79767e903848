/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Speed of the packet level:
 *  - FabricBuild: MoseTopologyHelper::Install() at N=1024, d=4 (nodes, port devices, OCS
 *    circuits, Internet stack, routing, addresses);
 *  - Simulate/mose and Simulate/reference: the same circuit graph and the same transfers (the
 *    inference-heavy flows of run 1, MoSE's template), once on the MoSE fabric (OCS port
 *    devices, MoseRoutingProtocol) and once on what a user would otherwise write: one plain
 *    PointToPointHelper link per circuit (with ns-3's default root queue disc, as the MoSE
 *    ports have) and Ipv4StaticRouting routes towards every group block along the same next
 *    hops. Counters: simulated seconds per wall second, events per
 *    wall second, transfers completed. The MoSE fabric may cost at most 10% more wall time.
 * Route recomputation and lookups are in route-table-bench.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-addressing.h"
#include "ns3/mose-ocs.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/traffic-control-helper.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <map>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The scenario both fabrics carry
struct Workload
{
    uint32_t n;
    uint32_t d;
    RoleAssignment roles;
    CircuitGraph graph;
    std::vector<Flow> flows;
    uint64_t seed;
};

/// The inference-heavy mode of run 1 at N groups, MoSE's template, 2000 flows
const Workload&
GetWorkload(uint32_t n)
{
    static std::map<uint32_t, Workload> cache;
    auto it = cache.find(n);
    if (it == cache.end())
    {
        FlowExperimentConfig config;
        config.nodes = n;
        config.degree = 4;
        config.inferenceRoles = RoleCounts::PaperScaled(n, WorkloadMode::INFERENCE_HEAVY);
        config.trainingRoles = RoleCounts::PaperScaled(n, WorkloadMode::TRAINING_HEAVY);
        config.flows = 2000;
        ScenarioBuilder builder(config);
        ModeScenario mode = builder.BuildMode(1, WorkloadMode::INFERENCE_HEAVY);
        Workload w{n,
                   4,
                   mode.roles,
                   builder.BuildCircuitGraph(1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE),
                   mode.flows,
                   builder.BuildRoutingSeed(1)};
        it = cache.emplace(n, std::move(w)).first;
    }
    return it->second;
}

/// MoseTopologyHelper with the workload's graph
Ptr<MoseTopologyHelper>
BuildMose(const Workload& w)
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(w.n));
    topo->SetAttribute("PortsPerGroup", UintegerValue(w.d));
    topo->SetRoles(w.roles);
    topo->SetCircuitGraph(w.graph);
    topo->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, w.seed);
    topo->Install();
    return topo;
}

/**
 * The reference: a PointToPointHelper link per circuit with the OCS's rate and delay, the same
 * per-group address blocks, and static routes to every other group's block along the flow
 * level's next hops.
 */
NodeContainer
BuildReference(const Workload& w)
{
    NodeContainer nodes;
    nodes.Create(w.n);
    InternetStackHelper stack;
    Ipv4StaticRoutingHelper staticRouting;
    stack.SetRoutingHelper(staticRouting);
    stack.Install(nodes);
    Ptr<MoseOcs> ocsDefaults = CreateObject<MoseOcs>();
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(ocsDefaults->GetDataRate()));
    link.SetChannelAttribute("Delay", TimeValue(ocsDefaults->GetDelay()));
    const MoseAddressing addressing(w.n, w.d);
    std::vector<uint32_t> nextPort(w.n, 0);
    // per circuit, the interface index at each end
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, Ipv4Address>> ends;
    for (const Circuit& c : w.graph.GetCircuits())
    {
        NetDeviceContainer pair = link.Install(nodes.Get(c.u), nodes.Get(c.v));
        // the root queue disc the MoSE fabric's ports have (Ipv4AddressHelper's default)
        TrafficControlHelper::Default().Install(pair);
        for (int side = 0; side < 2; ++side)
        {
            const uint32_t g = side == 0 ? c.u : c.v;
            Ptr<Ipv4> ip = nodes.Get(g)->GetObject<Ipv4>();
            const int32_t i = ip->AddInterface(pair.Get(side));
            const Ipv4Address a = addressing.GetPortAddress(g, nextPort[g]++);
            ip->AddAddress(i, Ipv4InterfaceAddress(a, Ipv4Mask("/32")));
            ip->SetUp(i);
            const uint32_t other = side == 0 ? c.v : c.u;
            ends[{g, other}].first = static_cast<uint32_t>(i);
            ends[{other, g}].second = a;
        }
    }
    const ShortestPathRouting routing(w.graph, RoutingRule::RANDOM_SHORTEST_PATH, w.seed);
    std::vector<NextHop> hops;
    for (uint32_t t = 0; t < w.n; ++t)
    {
        routing.ComputeNextHops(t, hops);
        for (uint32_t u = 0; u < w.n; ++u)
        {
            if (u == t || hops[u].node == DestinationTree::UNREACHABLE)
            {
                continue;
            }
            const auto& e = ends.at({u, hops[u].node});
            staticRouting.GetStaticRouting(nodes.Get(u)->GetObject<Ipv4>())
                ->AddNetworkRouteTo(addressing.GetGroupBlock(t),
                                    addressing.GetBlockMask(),
                                    e.second,
                                    e.first);
        }
    }
    return nodes;
}

/// Stops the simulation when every transfer completed
void
StopWhenDone(Ptr<MoseTransferMonitor> monitor, uint32_t, Time)
{
    if (monitor->GetNCompleted() == monitor->GetNTransfers())
    {
        Simulator::Stop();
    }
}

/// Runs the workload's transfers on the endpoints; reports the counters
void
Simulate(benchmark::State& state, const NodeContainer& endpoints, const Workload& w)
{
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(16384));
    traffic->SetAttribute("StartMode", StringValue("uniform"));
    traffic->AssignStreams(Stream::TRANSFERS);
    traffic->Install(endpoints, w.flows);
    Ptr<MoseTransferMonitor> monitor = traffic->GetMonitor();
    monitor->TraceConnectWithoutContext("TransferCompleted",
                                        MakeBoundCallback(&StopWhenDone, monitor));
    Simulator::Stop(Seconds(30));
    const uint64_t events = Simulator::GetEventCount();
    const auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(wall);
    state.counters["sim_s_per_wall_s"] = Simulator::Now().GetSeconds() / wall;
    state.counters["events_per_wall_s"] =
        static_cast<double>(Simulator::GetEventCount() - events) / wall;
    state.counters["events"] = static_cast<double>(Simulator::GetEventCount() - events);
    state.counters["simulated_s"] = Simulator::Now().GetSeconds();
    state.counters["transfers_done"] = monitor->GetNCompleted();
    state.counters["transfers"] = monitor->GetNTransfers();
}

void
BM_FabricBuild(benchmark::State& state)
{
    const Workload& w = GetWorkload(static_cast<uint32_t>(state.range(0)));
    for (auto _ : state)
    {
        Ptr<MoseTopologyHelper> topo = BuildMose(w);
        benchmark::DoNotOptimize(topo);
        state.PauseTiming();
        topo = nullptr;
        Simulator::Destroy();
        state.ResumeTiming();
    }
}

void
BM_SimulateMose(benchmark::State& state)
{
    const Workload& w = GetWorkload(static_cast<uint32_t>(state.range(0)));
    for (auto _ : state)
    {
        Ptr<MoseTopologyHelper> topo = BuildMose(w);
        Simulate(state, topo->GetEndpoints(), w);
        topo = nullptr;
        Simulator::Destroy();
    }
}

void
BM_SimulateReference(benchmark::State& state)
{
    const Workload& w = GetWorkload(static_cast<uint32_t>(state.range(0)));
    for (auto _ : state)
    {
        NodeContainer nodes = BuildReference(w);
        Simulate(state, nodes, w);
        Simulator::Destroy();
    }
}

} // namespace

BENCHMARK(BM_FabricBuild)->Arg(64)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_SimulateMose)
    ->Name("Simulate/mose")
    ->Arg(64)
    ->Arg(1024)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_SimulateReference)
    ->Name("Simulate/reference")
    ->Arg(64)
    ->Arg(1024)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_MAIN();
