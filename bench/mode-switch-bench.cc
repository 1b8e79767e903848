/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One mode switch at the paper's scale (N = 1024, d = 4, H^PD -> H^U):
 *  - BM_SwitchPlan: what the ModeSwitcher computes at a boundary, for K batches: the current
 *    port plan from the OCS matching, PlanPorts(target, current), DiffPorts, MakeBatches, and
 *    the two route recomputations of a batch (drain: without its circuits; relink: with the new
 *    ones) per batch;
 *  - BM_SwitchPacketLevel: a whole switch in the simulator on a 1024-group fabric (no traffic):
 *    the boundary event, drain polls, disconnects, dark period, connects, route updates. The
 *    fabric is built outside the timed region.
 *
 *   build/bench/mose-bench-mode-switch-bench --benchmark_min_time=0.5
 */

#include "ns3/mose-addressing.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-random.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <benchmark/benchmark.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The paper's inference-heavy scenario at N = 1024: roles, assignment, H^PD and H^U
struct PaperScale
{
    RoleAssignment roles = RoleAssignment::Contiguous({410, 410, 204});
    PdAssignment assignment;
    CircuitGraph pd;
    CircuitGraph uniform;

    PaperScale()
    {
        Random a = Random::Create(1, Stream::ASSIGNMENT);
        assignment = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, a);
        PdBiasedOptions options;
        options.reservedPorts = 3;
        Random p = Random::Create(1, Stream::PD_BIASED);
        pd = BuildPdBiasedTemplate(roles, 4, assignment, options, p);
        Random u = Random::Create(1, Stream::UNIFORM);
        uniform = BuildUniformTemplate(1024, 4, u);
    }
};

const PaperScale&
Scale()
{
    static const PaperScale s;
    return s;
}

/// The switch's computation; argument: K
void
BM_SwitchPlan(benchmark::State& state)
{
    const PaperScale& s = Scale();
    const auto phases = static_cast<uint32_t>(state.range(0));
    const PortPlan initial = PlanPorts(s.pd, 4);
    auto table = CreateObject<MoseRouteTable>();
    table->SetAddressing(MoseAddressing(1024, 4));
    table->Update(initial.GetPeers());
    std::size_t removed = 0;
    for (auto _ : state)
    {
        const PortPlan current = PortPlan::FromPeers(1024, 4, initial.GetPeers());
        const PortPlan target = PlanPorts(s.uniform, current);
        const PortCircuitDiff diff = DiffPorts(current, target);
        const auto batches = MoseModeSwitcher::MakeBatches(current, diff, phases);
        std::vector<uint32_t> peers = current.GetPeers();
        for (const auto& b : batches)
        {
            for (const auto& c : b.removed)
            {
                peers[c.groupA * 4 + c.portA] = MoseRouteTable::NONE;
                peers[c.groupB * 4 + c.portB] = MoseRouteTable::NONE;
            }
            table->Update(peers); // drain
            for (const auto& c : b.added)
            {
                peers[c.groupA * 4 + c.portA] = c.groupB * 4 + c.portB;
                peers[c.groupB * 4 + c.portB] = c.groupA * 4 + c.portA;
            }
            table->Update(peers); // relink
        }
        removed = diff.removed.size();
        benchmark::DoNotOptimize(table->GetOutputPort(0, 1023));
    }
    state.counters["removed"] = static_cast<double>(removed);
}

/// A whole switch in the simulator; argument: K
void
BM_SwitchPacketLevel(benchmark::State& state)
{
    const PaperScale& s = Scale();
    const auto phases = static_cast<uint32_t>(state.range(0));
    for (auto _ : state)
    {
        state.PauseTiming();
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(1024));
        topo->SetAttribute("PortsPerGroup", UintegerValue(4));
        topo->SetRoles(s.roles);
        topo->SetCircuitGraph(s.pd);
        topo->Install();
        MoseModeSwitcherHelper helper;
        helper.SetSwitcherAttribute("Phases", UintegerValue(phases));
        const CircuitGraph pd = s.pd;
        const CircuitGraph uniform = s.uniform;
        helper.SetTargetProvider([&](WorkloadMode mode) {
            MoseModeTarget t;
            t.roles = s.roles;
            t.graph = mode == WorkloadMode::INFERENCE_HEAVY ? pd : uniform;
            return t;
        });
        helper.SetSchedule(
            {{WorkloadMode::INFERENCE_HEAVY, 0.001}, {WorkloadMode::TRAINING_HEAVY, 0}});
        Ptr<MoseModeSwitcher> switcher = helper.Install(topo);
        state.ResumeTiming();
        Simulator::Run();
        state.PauseTiming();
        state.counters["removed"] = switcher->GetRecords().at(0).removed;
        Simulator::Destroy();
        state.ResumeTiming();
    }
}

} // namespace

BENCHMARK(BM_SwitchPlan)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SwitchPacketLevel)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
