/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_SCENARIO_H
#define MOSE_SWITCH_SCENARIO_H

/**
 * \file
 * \ingroup mose-tests
 * \brief A small mode-switch scenario shared by the GoogleTest and ns-3 test cases: 32 groups
 *        (or 16), inference-heavy -> training-heavy (and back), TCP transfers of both modes, one
 *        ModeSwitcher. Framework-free: it returns what the tests check.
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-list-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-transport.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/// Roles, assignments, templates (TemplateId order) and flows of both modes for one run
struct SwitchScenario
{
    std::array<RoleAssignment, 2> roles;     //!< per mode
    std::array<PdAssignment, 2> assignments; //!< per mode
    std::array<CircuitGraph, 3> templates;   //!< H^U, H^PD, H^C
    std::array<std::vector<Flow>, 2> flows;  //!< per mode

    /// \param run the run \param flowCount flows per mode \param groups N, a multiple of 16:
    ///        prefill, decode, training groups N/4, N/4, N/2 (inference-heavy) and N/16, N/16,
    ///        7N/8 (training-heavy)
    explicit SwitchScenario(uint64_t run, uint64_t flowCount = 120, uint32_t groups = 32)
    {
        roles[0] = RoleAssignment::Contiguous({groups / 4, groups / 4, groups / 2});
        roles[1] = RoleAssignment::Contiguous({groups / 16, groups / 16, groups - groups / 8});
        Random a0 = Random::Create(run, Stream::ASSIGNMENT);
        assignments[0] = PdAssignment::Draw(roles[0], PdAssignmentKind::ONE_TO_ONE, 1, a0);
        Random a1 = Random::Create(run, Stream::ASSIGNMENT_TRAINING);
        assignments[1] = PdAssignment::Draw(roles[1], PdAssignmentKind::ONE_TO_ONE, 1, a1);
        Random u = Random::Create(run, Stream::UNIFORM);
        templates[0] = BuildUniformTemplate(groups, 4, u);
        PdBiasedOptions pd;
        pd.reservedPorts = 3;
        Random p = Random::Create(run, Stream::PD_BIASED);
        templates[1] = BuildPdBiasedTemplate(roles[0], 4, assignments[0], pd, p);
        PdBiasedOptions comp;
        comp.reservedPorts = 1;
        Random c = Random::Create(run, Stream::COMPROMISE);
        templates[2] = BuildPdBiasedTemplate(roles[0], 4, assignments[0], comp, c);
        for (std::size_t m = 0; m < 2; ++m)
        {
            TrafficOptions traffic;
            traffic.flows = flowCount;
            traffic.kvShare = m == 0 ? 0.7 : 0.3;
            Random t = Random::Create(run, m == 0 ? Stream::TRAFFIC : Stream::TRAFFIC_TRAINING);
            flows[m] = GenerateTraffic(roles[m], assignments[m], traffic, t);
        }
    }
};

/**
 * \param s the scenario
 * \param graph the circuit graph
 * \param listRouting route the group nodes with an Ipv4ListRouting: ns-3's static routing at
 *        priority 0 and MoseRoutingProtocol at 10 (MoseTopologyHelper::SetListRouting())
 * \param ocsRate if not empty, the circuit rate, set on this fabric's OCS only
 *        (MoseTopologyHelper::SetOcsAttribute(): no attribute default changes)
 * \return a fabric of graph's N groups realising graph (inference-heavy roles)
 */
inline Ptr<MoseTopologyHelper>
BuildSwitchFabric(const SwitchScenario& s,
                  const CircuitGraph& graph,
                  bool listRouting = false,
                  const std::string& ocsRate = "")
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    if (!ocsRate.empty())
    {
        topo->SetOcsAttribute("DataRate", DataRateValue(DataRate(ocsRate)));
    }
    topo->SetAttribute("Groups", UintegerValue(graph.GetNNodes()));
    topo->SetAttribute("PortsPerGroup", UintegerValue(4));
    topo->SetRoles(s.roles[0]);
    topo->SetCircuitGraph(graph);
    topo->SetRouting(RoutingRule::SHORTEST_PATH, 0);
    if (listRouting)
    {
        Ipv4StaticRoutingHelper staticRouting;
        Ipv4ListRoutingHelper list;
        list.Add(staticRouting, 0);
        topo->SetListRouting(list, 10);
    }
    topo->Install();
    return topo;
}

/// The knobs of one scenario run
struct SwitchRunOptions
{
    uint64_t run{1};                             //!< the run
    uint32_t phases{1};                          //!< K
    bool drain{true};                            //!< Drain
    Time drainTimeout{MilliSeconds(100)};        //!< DrainTimeout
    Time reconfigurationDelay{MilliSeconds(10)}; //!< ReconfigurationDelay
    std::string policy{"MoSE"};                  //!< the policy
    /// the schedule: inference-heavy, a switch to training-heavy at 50 ms
    mose::ModeSchedule schedule{{mose::WorkloadMode::INFERENCE_HEAVY, 0.05},
                                {mose::WorkloadMode::TRAINING_HEAVY, 0}};
    Time stop{Seconds(10)};          //!< simulation end
    bool checkKeptTraffic{false};    //!< count packets sent on kept circuits
    std::string dataRate{"100Mbps"}; //!< circuit rate (slow: transfers overlap)
    uint64_t bytesPerUnit{20000};    //!< bytes per unit of demand
    uint32_t holdQueueSize{0};       //!< HoldQueueSize (0: the helper's default)
    /// port queue size: deep enough that the transfers restarting together after a K=1 relink
    /// do not overflow it (with ns-3's default 100 packets they can, depending on the release's
    /// TCP: 9 device-queue drops on ns-3.48, none on 3.37; see doc/mose.rst)
    std::string portQueue{"1000p"};
    bool listRouting{false}; //!< group nodes route with static routing and MoSE in a list
    uint32_t groups{32};     //!< N (a multiple of 16)
    /// "tcp": each mode's flows as MoseTrafficHelper's TCP transfers; "rdma": on a
    /// MoseRdmaTransport (MoseTransportHelper::Install(topology, switcher)), each flow a
    /// transfer of demand x BytesPerUnit bytes, started at evenly spaced times over the same
    /// windows
    std::string transport{"tcp"};
    /// called after everything is installed, just before Simulator::Run() (e.g. to connect
    /// traces or schedule events)
    std::function<void(Ptr<MoseTopologyHelper>, Ptr<MoseModeSwitcher>)> beforeRun;
};

/// What a run gives the tests
struct SwitchRun
{
    std::vector<MoseSwitchRecord> records; //!< the switcher's records
    uint64_t lost{0};                      //!< loss monitor total, whole run
    uint64_t errors{0};                    //!< switcher errors
    uint32_t transfers{0};                 //!< transfers of both modes
    uint32_t completed{0};                 //!< completed
    uint32_t transfersAtBoundary{0};       //!< started before the first boundary, ended after
    CircuitGraph initialGraph;             //!< the OCS before
    CircuitGraph targetGraph;              //!< the first boundary's target
    CircuitGraph finalGraph;               //!< the OCS after the run
    uint64_t keptTxDuringSwitch{0};        //!< packets sent on kept circuits during switch 0
    uint64_t ocsDarkDrops{0};              //!< MoseOcs::GetDarkDrops()
    uint64_t ocsWireDrops{0};              //!< MoseOcs::GetWireDrops()
    uint64_t holdDrops{0};                 //!< sum of MoseRoutingProtocol::GetHoldDrops()
    uint64_t noRouteDrops{0};              //!< sum of MoseRoutingProtocol::GetNoRouteDrops()
    uint64_t holdEntered{0};               //!< sum of MoseRoutingProtocol::GetHoldEntered()
    uint32_t listRouted{0};                //!< group nodes routing with an Ipv4ListRouting
    uint64_t bytesReceived{0};             //!< bytes all transfers' sinks received
    uint64_t ocsRejected{0};               //!< MoseOcs::GetNRejected()
    std::array<uint64_t, MoseLossMonitor::N_POINTS> drops{}; //!< loss monitor, whole run
    std::vector<int64_t> fcts;    //!< per transfer, ns (-1 if incomplete)
    Ptr<MoseTransport> transport; //!< the rdma transport (transport "rdma"), else null
    /// transport "rdma": what this process counted of its own endpoints (QPs opened, data
    /// packets, retransmissions, ACKs, NAKs, CNPs, CE marks, timeouts, drops by reason), by name
    std::vector<std::pair<std::string, uint64_t>> rdmaCounts;
    /// transport "rdma": what every rank must agree on (QP records, errors), by name
    std::vector<std::pair<std::string, uint64_t>> rdmaShared;
};

/**
 * \brief Starts every mode's flows on transport: the initial mode's at evenly spaced times over
 *        [firstStart, first boundary), each boundary's over [boundary, boundary + maxWindow)
 *        (cut at the next boundary or end), the windows of MoseModeSwitcherHelper::
 *        InstallModeTraffic(); a flow of demand x is x x bytesPerUnit bytes (at least 1).
 * \param transport the installed transport \param s the scenario
 * \param schedule the switcher's schedule \param bytesPerUnit bytes per unit of demand
 * \param firstStart the first window's start \param end the run's end
 * \param maxWindow the longest window
 */
inline void
StartModeTransfers(Ptr<MoseTransport> transport,
                   const SwitchScenario& s,
                   const mose::ModeSchedule& schedule,
                   uint64_t bytesPerUnit,
                   Time firstStart,
                   Time end,
                   Time maxWindow)
{
    const std::vector<Time> times = MoseScheduleTimes(schedule);
    for (std::size_t i = 0; i < schedule.size(); ++i)
    {
        const Time start = i == 0 ? firstStart : times[i];
        const Time stop = i + 1 < schedule.size() && i + 1 < times.size() && times[i + 1] > start
                              ? times[i + 1]
                              : end;
        const Time window = i == 0 ? stop - start : std::min(maxWindow, stop - start);
        const std::vector<Flow>& flows = s.flows[static_cast<std::size_t>(schedule[i].mode)];
        for (std::size_t k = 0; k < flows.size(); ++k)
        {
            const Flow f = flows[k];
            const auto bytes = std::max<uint64_t>(
                1,
                static_cast<uint64_t>(f.demand * static_cast<double>(bytesPerUnit)));
            const Time at =
                start + window * static_cast<int64_t>(k) / static_cast<int64_t>(flows.size());
            Simulator::Schedule(at, [transport, f, bytes]() {
                transport->Start(f.src, f.dst, bytes, MoseTransport::DoneCallback(), f.cls);
            });
        }
    }
}

/// Runs the scenario: inference transfers start over [1 ms, boundary], the next mode's over
/// [boundary, boundary + 50 ms]
inline SwitchRun
RunSwitchScenario(const SwitchRunOptions& o)
{
    Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", StringValue(o.portQueue));
    SwitchScenario s(o.run, 120, o.groups);
    const Policy policy = ParseEnum<Policy>(o.policy, "policy");
    const CircuitGraph initial = s.templates[static_cast<std::size_t>(
        SelectTemplate(policy, WorkloadMode::INFERENCE_HEAVY))];
    Ptr<MoseTopologyHelper> topo = BuildSwitchFabric(s, initial, o.listRouting, o.dataRate);
    Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", StringValue("100p"));

    MoseModeSwitcherHelper helper;
    helper.SetSwitcherAttribute("Phases", UintegerValue(o.phases));
    helper.SetSwitcherAttribute("Drain", BooleanValue(o.drain));
    helper.SetSwitcherAttribute("DrainTimeout", TimeValue(o.drainTimeout));
    helper.SetSwitcherAttribute("ReconfigurationDelay", TimeValue(o.reconfigurationDelay));
    helper.SetTargetProvider(
        MoseModeSwitcherHelper::MakePolicyProvider(o.policy, s.templates, s.roles, s.assignments));
    helper.SetSchedule(o.schedule);
    if (o.holdQueueSize > 0)
    {
        helper.SetRoutingAttribute("HoldQueueSize", UintegerValue(o.holdQueueSize));
    }
    Ptr<MoseModeSwitcher> switcher = helper.Install(topo);
    const mose::ModeSchedule& schedule = switcher->GetSchedule();

    SwitchRun r;
    r.initialGraph = topo->GetCircuitGraph();
    r.targetGraph = switcher->GetTarget(schedule[1].mode).graph;

    // transfers: the initial mode's before the first boundary, each boundary's after it
    if (o.transport == "rdma")
    {
        r.transport = MoseTransportHelper("ns3::MoseRdmaTransport").Install(topo, switcher);
        StartModeTransfers(r.transport,
                           s,
                           schedule,
                           o.bytesPerUnit,
                           MilliSeconds(1),
                           o.stop,
                           MilliSeconds(50));
    }
    const std::vector<Ptr<MoseTrafficHelper>> traffic =
        o.transport == "rdma"
            ? std::vector<Ptr<MoseTrafficHelper>>()
            : MoseModeSwitcherHelper::InstallModeTraffic(
                  switcher,
                  topo->GetEndpoints(),
                  [&s](WorkloadMode mode) { return s.flows[static_cast<std::size_t>(mode)]; },
                  MilliSeconds(1),
                  o.stop,
                  MilliSeconds(50),
                  100,
                  [&o] {
                      Ptr<MoseTrafficHelper> t = CreateObject<MoseTrafficHelper>();
                      t->SetAttribute("BytesPerUnit", UintegerValue(o.bytesPerUnit));
                      t->SetAttribute("StartMode", StringValue("uniform"));
                      return t;
                  });

    // packets sent on the circuits the first switch keeps, while it runs
    uint64_t keptTx = 0;
    if (o.checkKeptTraffic)
    {
        const PortPlan current = topo->GetPortPlan();
        const PortCircuitDiff diff = DiffPorts(current, PlanPorts(r.targetGraph, current));
        for (const PortCircuit& c : diff.kept)
        {
            for (auto [g, p] :
                 {std::make_pair(c.groupA, c.portA), std::make_pair(c.groupB, c.portB)})
            {
                topo->GetOcs()->GetDevice(g, p)->TraceConnectWithoutContext(
                    "PhyTxBegin",
                    Callback<void, Ptr<const Packet>>([&keptTx, switcher](Ptr<const Packet>) {
                        if (switcher->IsSwitching() && switcher->GetRecords().size() == 1)
                        {
                            ++keptTx;
                        }
                    }));
            }
        }
    }

    if (o.beforeRun)
    {
        o.beforeRun(topo, switcher);
    }
    Simulator::Stop(o.stop);
    Simulator::Run();

    r.records = switcher->GetRecords();
    r.lost = switcher->GetLossMonitor()->GetTotal();
    for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        r.drops[p] = switcher->GetLossMonitor()->GetDrops(static_cast<MoseLossMonitor::Point>(p));
    }
    r.errors = switcher->GetNErrors();
    r.finalGraph = topo->GetCircuitGraph();
    r.keptTxDuringSwitch = keptTx;
    r.ocsDarkDrops = topo->GetOcs()->GetDarkDrops();
    r.ocsWireDrops = topo->GetOcs()->GetWireDrops();
    r.ocsRejected = topo->GetOcs()->GetNRejected();
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        Ptr<MoseRoutingProtocol> routing = MoseRoutingProtocol::Find(topo->GetGroupNode(g));
        r.holdDrops += routing->GetHoldDrops();
        r.noRouteDrops += routing->GetNoRouteDrops();
        r.holdEntered += routing->GetHoldEntered();
        Ptr<Ipv4> ipv4 = topo->GetGroupNode(g)->GetObject<Ipv4>();
        if (DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol()))
        {
            ++r.listRouted;
        }
    }
    const Time boundary = MoseScheduleTimes(schedule)[1];
    if (Ptr<MoseRdmaTransport> rdma = DynamicCast<MoseRdmaTransport>(r.transport))
    {
        r.rdmaCounts = {{"qps_opened", rdma->GetNConnections()},
                        {"data_packets", rdma->GetNDataPackets()},
                        {"retransmissions", rdma->GetNRetransmissions()},
                        {"acks", rdma->GetNAcks()},
                        {"nacks", rdma->GetNNacks()},
                        {"cnps", rdma->GetNCnps()},
                        {"cnps_received", rdma->GetNCnpsReceived()},
                        {"ce_marked", rdma->GetNCeMarked()},
                        {"timeouts", rdma->GetNTimeouts()}};
        for (uint8_t d = 0; d < MoseRdmaTransport::N_DROP_REASONS; ++d)
        {
            r.rdmaCounts.emplace_back(
                "drops_" + std::to_string(d),
                rdma->GetNDrops(static_cast<MoseRdmaTransport::DropReason>(d)));
        }
        r.rdmaShared = {{"qp_records", rdma->GetNQueuePairRecords()},
                        {"transport_errors", rdma->GetNErrors()}};
        r.transfers = static_cast<uint32_t>(r.transport->GetNTransfers());
        r.completed = static_cast<uint32_t>(r.transport->GetNCompleted());
        r.bytesReceived = r.transport->GetBytesReceived(); // this rank's receivers
        for (uint64_t id = 0; id < r.transport->GetNTransfers(); ++id)
        {
            const MoseTransfer& x = r.transport->GetTransfer(id);
            r.fcts.push_back(x.complete ? x.GetCompletionTime().GetNanoSeconds() : -1);
            if (x.start < boundary && (!x.complete || x.end > boundary))
            {
                ++r.transfersAtBoundary;
            }
        }
    }
    for (const auto& t : traffic)
    {
        Ptr<MoseTransferMonitor> m = t->GetMonitor();
        r.transfers += m->GetNTransfers();
        r.completed += m->GetNCompleted();
        r.bytesReceived += m->GetBytesReceived();
        for (const MoseTransfer& x : m->GetTransfers())
        {
            r.fcts.push_back(x.complete ? x.GetCompletionTime().GetNanoSeconds() : -1);
            if (x.start < boundary && (!x.complete || x.end > boundary))
            {
                ++r.transfersAtBoundary;
            }
        }
    }
    Simulator::Destroy();
    return r;
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_SCENARIO_H */
