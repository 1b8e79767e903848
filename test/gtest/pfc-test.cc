/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC (MosePfc) by hand: a paused time bounded by rates and thresholds on one bottleneck, an
// incast on the module's fabric that loses nothing with PFC and drops without it, a mode switch
// with PFC that loses nothing and ends, and the thresholds' bad input.

#include "mose-experiment.h"
#include "mose-scenario-options.h"
#include "mose-switch-experiment.h"
#include "mose-switch-options.h"
#include "mose-test-util.h"
#include "mose-transport-options.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Sets MoseScale for one test and puts 1 back (a global value outlives a test)
struct ScaleGuard
{
    explicit ScaleGuard(uint64_t scale)
    {
        MoseScale::Set(scale);
    }

    ~ScaleGuard()
    {
        MoseScale::Set(1);
    }
};

/// What the bottleneck run measured
struct Bottleneck
{
    uint64_t received{0};
    Time end;
    Time sent;             //!< the sender's last frame on its link (its PhyTxEnd)
    Time paused;           //!< the sender's device paused time
    uint64_t pauses{0};    //!< pauses the switch sent
    uint64_t received2{0}; //!< pauses the sender's device received
    uint64_t xoff{0};
    uint64_t xon{0};
    uint64_t headroom{0};
    uint64_t peak{0};
    uint64_t drops{0};
    uint64_t overflows{0}; //!< packets the bottleneck's disc dropped
    uint64_t storms{0};
};

constexpr uint32_t kFrame = 1024 + 44 + 2; //!< a full RDMA frame on a PPP link, bytes

/// One sender (node 0) at 10 Gb/s into a switch (node 1) whose port to the receiver (node 2)
/// runs at 5 Gb/s; 1 us links; byte-counting FIFO discs of 1 MB, so a packet is charged its
/// IPv4 size (1068 bytes). DCQCN off: only PFC holds the sender back.
Bottleneck
RunBottleneck(uint64_t bytes, bool pfcOn)
{
    NodeContainer n;
    n.Create(3);
    PointToPointHelper fast;
    fast.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
    fast.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    fast.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    PointToPointHelper slow = fast;
    slow.SetDeviceAttribute("DataRate", StringValue("5Gb/s"));
    NetDeviceContainer a = fast.Install(n.Get(0), n.Get(1));
    NetDeviceContainer b = slow.Install(n.Get(1), n.Get(2));
    InternetStackHelper stack;
    stack.Install(n);
    TrafficControlHelper fifo;
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("1000000B")));
    fifo.Install(a);
    fifo.Install(b);
    Ipv4AddressHelper addresses("10.1.0.0", "255.255.255.0");
    addresses.Assign(a);
    addresses.SetBase("10.1.1.0", "255.255.255.0");
    addresses.Assign(b);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<MoseRdmaTransport> t = CreateObject<MoseRdmaTransport>();
    t->SetAttribute("DcqcnEnabled", BooleanValue(false));
    t->Install(NodeContainer(n.Get(0), n.Get(2)));
    Ptr<MosePfc> pfc = CreateObject<MosePfc>();
    pfc->SetAttribute("Enabled", BooleanValue(pfcOn));
    pfc->SetAttribute("XonBytes", UintegerValue(100000));
    pfc->Install(NodeContainer(n.Get(1)), NodeContainer(n.Get(0), n.Get(2)));
    pfc->AddPauseListener(MakeCallback(&MoseRdmaTransport::SetPortPaused, t));

    Bottleneck r;
    auto sent = std::make_shared<Time>();
    a.Get(0)->TraceConnectWithoutContext(
        "PhyTxEnd",
        MakeBoundCallback(
            +[](std::shared_ptr<Time> s, Ptr<const Packet>) { *s = Simulator::Now(); },
            sent));
    const uint64_t id = t->Start(0, 1, bytes, MoseTransport::DoneCallback());
    Ptr<QueueDisc> bottleneck =
        n.Get(1)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(b.Get(0));
    if (!pfcOn)
    {
        // the queue grows by 625 bytes a microsecond and passes 1 MB at 1.6 ms: stop soon
        // after, rather than watch go-back-N recover every drop
        Simulator::Stop(MicroSeconds(2500));
    }
    Simulator::Run();
    r.overflows = bottleneck->GetStats().nTotalDroppedPackets;
    r.received = t->GetTransfer(id).received;
    r.end = t->GetTransfer(id).end;
    r.sent = *sent;
    r.drops = t->GetNRetransmissions() + t->GetNTimeouts();
    if (pfcOn)
    {
        r.paused = pfc->GetPausedTime(a.Get(0));
        r.pauses = pfc->GetNPausesSent(a.Get(1));
        r.received2 = pfc->GetNPausesReceived(a.Get(0));
        r.xoff = pfc->GetXoff(a.Get(1));
        r.xon = pfc->GetXon(a.Get(1));
        r.headroom = pfc->GetHeadroom(a.Get(1));
        r.peak = pfc->GetPeakIngressBytes(a.Get(1));
        r.storms = pfc->GetNStorms();
    }
    Simulator::Destroy();
    return r;
}

} // namespace

// By hand. Ingress buffer: the smallest disc (1 MB) over 3 ingresses (2 devices and the NIC):
// 333,333 bytes. Headroom of the 10 Gb/s, 1 us link: 2 x 1 us x 10 Gb/s / 8 = 2,500 bytes, a
// 64-byte pause and 3 frames of 1,502 bytes (MTU 1500 + PPP): 7,070. XOFF = 326,263; XON as set,
// 100,000. The sender's link carries the transfer's F frames of 1,070 bytes in F x 856 ns; the
// 5 Gb/s port drains them in twice that, and from its first frame on never idles (the queue
// stays near or above XON, 93 frames). So the sender is paused for the difference, less the
// bytes still queued when it sends its last frame: between XON and XOFF + headroom. Without
// PFC the 1 MB disc overflows (the transfer is 4 MB) by 2.5 ms.
TEST(Pfc, ABottleneckPausesTheSenderForTheTimeItsRatesAndThresholdsGive)
{
    const uint64_t bytes = 4096000; // 4,000 frames of 1,024 bytes
    const Bottleneck r = RunBottleneck(bytes, true);
    EXPECT_EQ(r.received, bytes);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.xoff, 326263u);
    EXPECT_EQ(r.xon, 100000u);
    EXPECT_EQ(r.headroom, 7070u);
    EXPECT_LE(r.peak, r.xoff + r.headroom) << "the headroom covers what arrives after XOFF";
    EXPECT_GT(r.peak, r.xoff);
    EXPECT_EQ(r.pauses, r.received2) << "every pause arrived: the link stays lit";
    const double frames = 4000;
    const double tx10 = kFrame * 8 / 10e9; // s per frame at 10 Gb/s
    const double tx5 = kFrame * 8 / 5e9;
    const double delay = 1e-6;
    // frames queued at the switch when the sender's last frame leaves: the ingress counter
    // (1,068 bytes a frame) between XON, less the 2 frames drained while a resume travels, and
    // XOFF + headroom, plus the frame in the device queue and the one on the bottleneck
    const double qMin = 100000.0 / 1068 - 3;
    const double qMax = (326263.0 + 7070) / 1068 + 2;
    // the bottleneck sends without a gap from the first frame's arrival (tx10 + delay) on, so
    // the last frame leaves the sender at (frames - q) x tx5 + tx10 + delay; its link idled for
    // that less frames x tx10. A pause arrives while the device still sends its frame on the
    // wire and the one in its queue: up to 2 x tx10 of each pause is not idle
    const double idleMin = (frames - qMax) * tx5 + tx10 + delay - frames * tx10;
    const double idleMax = (frames - qMin) * tx5 + tx10 + delay - frames * tx10;
    const double pausedMin = idleMin - 2 * tx10;
    const double pausedMax = idleMax + 2.0 * static_cast<double>(r.pauses) * tx10 + 2 * tx10;
    EXPECT_GE(r.paused.GetSeconds(), pausedMin);
    EXPECT_LE(r.paused.GetSeconds(), pausedMax);
    // each pause lets the queue fall from above XOFF to XON, (XOFF - XON) / 5 Gb/s = 362 us at
    // the least, and the bottleneck drains the 4,000 frames in 6.85 ms: at most 19 pauses
    EXPECT_GE(r.pauses, 1u);
    EXPECT_LE(r.pauses, 19u);
    EXPECT_EQ(r.storms, 0u);
    std::cout << "bottleneck: " << r.pauses << " pauses, paused " << r.paused.As(Time::US)
              << " (hand: " << pausedMin * 1e6 << " to " << pausedMax * 1e6 << " us), peak "
              << r.peak << " bytes, end " << r.end.As(Time::US) << std::endl;

    EXPECT_EQ(r.overflows, 0u);
    const Bottleneck off = RunBottleneck(bytes, false);
    EXPECT_GT(off.overflows, 0u) << "without PFC the 1 MB disc overflows";
}

namespace
{

/// What an incast on the module's fabric measured
struct FabricIncast
{
    uint64_t lost{0};
    uint64_t overflows{0};
    uint64_t pauses{0};
    uint64_t nicPauses{0};
    uint64_t storms{0};
    uint64_t done{0};
    uint64_t errors{0};
    uint32_t ocsReferences{0};  //!< the OCS's references once the run and its helpers are gone
    uint32_t portReferences{0}; //!< a port's references then
};

/// 16 groups, d = 4, MoSE's inference graph, MoseScale 2000: every other group sends `bytes`
/// to group 0 at once over RDMA, into ports whose RED disc holds 50 packets
FabricIncast
RunFabricIncast(bool pfcOn, uint64_t bytes)
{
    ScaleGuard scale(2000);
    const FlowExperimentConfig config = PaperScaledConfig(16, 4);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->SetPortQueue("ns3::DropTailQueue<Packet>",
                           "MaxSize",
                           QueueSizeValue(QueueSize(ExperimentConfig::RDMA_DEVICE_QUEUE)));
    topology->SetAttribute("QueueDiscType", TypeIdValue(RedQueueDisc::GetTypeId()));
    topology->SetQueueDiscAttribute("UseEcn", BooleanValue(true));
    topology->SetQueueDiscAttribute("MinTh", DoubleValue(5));
    topology->SetQueueDiscAttribute("MaxTh", DoubleValue(40));
    topology->SetQueueDiscAttribute("UseHardDrop", BooleanValue(false));
    topology->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("50p")));
    topology->Install();
    Ptr<MoseLossMonitor> loss = topology->InstallLossMonitor();
    Ptr<MosePfc> pfc = pfcOn ? topology->InstallPfc() : nullptr;
    Ptr<MoseTransport> transport = MoseTransportHelper("ns3::MoseRdmaTransport").Install(topology);
    auto done = std::make_shared<uint64_t>(0);
    for (uint32_t g = 1; g < 16; ++g)
    {
        transport->Start(g,
                         0,
                         bytes,
                         MakeBoundCallback(
                             +[](std::shared_ptr<uint64_t> d, uint64_t) { ++*d; },
                             done));
    }
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    FabricIncast r;
    r.lost = loss->GetTotal();
    r.overflows =
        loss->GetDrops(MoseLossMonitor::QUEUE_DISC) + loss->GetDrops(MoseLossMonitor::DEVICE_QUEUE);
    r.done = *done;
    r.errors = transport->GetNErrors();
    if (pfc)
    {
        r.pauses = pfc->GetNPausesSent();
        r.nicPauses = pfc->GetNNicPauses();
        r.storms = pfc->GetNStorms();
    }
    // what is left of the fabric once the run and every helper and monitor are gone: only the
    // references taken here (a cycle through a trace callback kept it all alive)
    Ptr<MoseOcs> ocs = topology->GetOcs();
    Ptr<NetDevice> port = topology->GetGroupNodes().Get(0)->GetDevice(1);
    Simulator::Destroy();
    topology = nullptr;
    loss = nullptr;
    pfc = nullptr;
    transport = nullptr;
    r.ocsReferences = ocs->GetReferenceCount();
    ocs = nullptr; // its channels hold the ports
    r.portReferences = port->GetReferenceCount();
    return r;
}

} // namespace

// 15 groups send 200 kB each to group 0 at once: the ports on the last hops overflow their
// 50-packet RED discs without PFC; with it every drop point counts 0, ports and NICs are paused,
// and every transfer completes.
TEST(Pfc, AnIncastLosesNothingWithPfcAndDropsWithout)
{
    const uint64_t bytes = 200000;
    const FabricIncast off = RunFabricIncast(false, bytes);
    EXPECT_GT(off.overflows, 0u) << "the test must be able to fail";
    EXPECT_EQ(off.done, 15u);
    const FabricIncast on = RunFabricIncast(true, bytes);
    EXPECT_EQ(on.lost, 0u) << "every drop point of the loss monitor";
    EXPECT_GE(on.pauses, 1u);
    EXPECT_EQ(on.done, 15u);
    EXPECT_EQ(on.errors, 0u);
    EXPECT_EQ(on.storms, 0u) << "one destination: routes to it form no cycle";
    EXPECT_EQ(off.ocsReferences, 1u);
    EXPECT_EQ(off.portReferences, 1u);
    EXPECT_EQ(on.ocsReferences, 1u) << "PFC must not keep the fabric after Simulator::Destroy()";
    EXPECT_EQ(on.portReferences, 1u) << "PFC must not keep the fabric after Simulator::Destroy()";
    std::cout << "incast of 15 x 200 kB (16 groups, 50-packet discs): without PFC " << off.overflows
              << " overflows; with PFC " << on.lost << " lost, " << on.pauses << " pauses, "
              << on.nicPauses << " NIC pauses" << std::endl;
}

namespace
{

/// What a switching run with PFC measured
struct SwitchRun
{
    uint32_t switches{0};
    uint64_t lost{0};
    uint64_t done{0};
    uint64_t started{0};
    uint64_t pauses{0};
    uint64_t errors{0};
};

/// 16 groups, d = 4, MoSE, scale 2000, 50-packet RED discs, PFC, drain on, two switches (at
/// 150 and 300 ms): at each burst time every other group sends `bytes` to group 0. Without
/// `releaseFilter` the routing protocols' hold queues release without asking PFC (as before
/// MosePfc set MoseRoutingProtocol::SetHoldReleaseFilter()).
SwitchRun
RunSwitchWithPfc(const std::vector<double>& bursts,
                 uint64_t bytes = 100000,
                 bool releaseFilter = true)
{
    ScaleGuard scale(2000);
    const FlowExperimentConfig config = PaperScaledConfig(16, 4);
    const Scenario scenario = ScenarioBuilder(config).Build(1);
    const ModeSchedule schedule =
        ParseSchedule("--schedule",
                      "inference-heavy:0.15s,training-heavy:0.15s,inference-heavy:0.15s");
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(config, 1, schedule.GetInitialMode(), Policy::MOSE);
    topology->SetPortQueue("ns3::DropTailQueue<Packet>",
                           "MaxSize",
                           QueueSizeValue(QueueSize(ExperimentConfig::RDMA_DEVICE_QUEUE)));
    topology->SetAttribute("QueueDiscType", TypeIdValue(RedQueueDisc::GetTypeId()));
    topology->SetQueueDiscAttribute("UseEcn", BooleanValue(true));
    topology->SetQueueDiscAttribute("UseHardDrop", BooleanValue(false));
    topology->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("50p")));
    topology->Install();
    Ptr<MosePfc> pfc = topology->InstallPfc();
    for (uint32_t g = 0; g < 16 && !releaseFilter; ++g)
    {
        MoseRoutingProtocol::Find(topology->GetGroupNodes().Get(g))
            ->SetHoldReleaseFilter(MoseRoutingProtocol::ReleaseFilter());
    }
    MoseModeSwitcherHelper switcherHelper;
    switcherHelper.SetTargetProvider(
        MoseModeSwitcherHelper::MakePolicyProvider(Policy::MOSE, scenario));
    switcherHelper.SetSchedule(schedule);
    switcherHelper.SetSwitcherAttribute("Drain", BooleanValue(true));
    Ptr<MoseModeSwitcher> switcher = switcherHelper.Install(topology);
    Ptr<MoseTransport> transport = MoseTransportHelper("ns3::MoseRdmaTransport").Install(topology);
    auto done = std::make_shared<uint64_t>(0);
    uint64_t started = 0;
    for (double at : bursts)
    {
        for (uint32_t g = 1; g < 16; ++g, ++started)
        {
            Simulator::Schedule(Seconds(at), [transport, g, done, bytes]() {
                transport->Start(g,
                                 0,
                                 bytes,
                                 MakeBoundCallback(
                                     +[](std::shared_ptr<uint64_t> d, uint64_t) { ++*d; },
                                     done));
            });
        }
    }
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    uint32_t switches = 0;
    uint64_t lostInSwitch = 0;
    for (const MoseSwitchRecord& r : switcher->GetRecords())
    {
        switches += r.done ? 1 : 0;
        lostInSwitch += r.lost;
    }
    SwitchRun r;
    r.switches = switches;
    r.lost = switcher->GetLossMonitor()->GetTotal() + lostInSwitch;
    r.done = *done;
    r.started = started;
    r.pauses = pfc->GetNPausesSent() + pfc->GetNNicPauses();
    r.errors = transport->GetNErrors() + switcher->GetNErrors();
    Simulator::Destroy();
    return r;
}

} // namespace

// A mode switch with drain over RDMA with PFC: nothing is lost, both switches end, every
// transfer completes (all-to-one bursts at 10, 100 and 200 ms, the second and third draining
// through the first switch).
TEST(Pfc, AModeSwitchWithPfcLosesNothingAndEnds)
{
    const SwitchRun r = RunSwitchWithPfc({0.010, 0.100, 0.200});
    EXPECT_EQ(r.switches, 2u);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.done, r.started);
    EXPECT_GE(r.pauses, 1u);
    EXPECT_EQ(r.errors, 0u);
}

// Bursts 2 ms before each switch: nothing is lost, both switches end, every transfer completes.
// This found a go-back-N stall: a timeout rewound a QP (group 15 to 0, started at 298 ms) to its
// first unacknowledged packet, then an ACK for packets sent before the timeout arrived, so its
// next PSN fell behind the acknowledged one; with an in-flight cap the difference wrapped and the
// QP never sent again (MoseRdmaTransport::HasToSend now resends, as without a cap). The
// transfer stopped at 25 of its 98 packets.
TEST(Pfc, BurstsJustBeforeTheSwitchesAllComplete)
{
    const SwitchRun r = RunSwitchWithPfc({0.010, 0.148, 0.298});
    EXPECT_EQ(r.switches, 2u);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.done, r.started);
}

// Thresholds out of range name the attribute, the value and what is allowed.
TEST(Pfc, BadThresholdsAreRefusedByName)
{
    auto install = [](const std::string& name, const AttributeValue& value) {
        NodeContainer n;
        n.Create(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer d = link.Install(n);
        InternetStackHelper stack;
        stack.Install(n);
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize("100p"))); // 150,000 bytes
        fifo.Install(d);
        Ipv4AddressHelper("10.1.0.0", "255.255.255.0").Assign(d);
        Ptr<MosePfc> pfc = CreateObject<MosePfc>();
        pfc->SetAttribute(name, value);
        const std::string e =
            ErrorOf([&] { pfc->Install(NodeContainer(n.Get(0)), NodeContainer(n.Get(1))); });
        Simulator::Destroy();
        return e;
    };
    // buffer 150,000 / 2 ingresses = 75,000; headroom 7,070
    const std::string xoff = install("XoffBytes", UintegerValue(70000));
    EXPECT_CONTAINS(xoff, "ns3::MosePfc::XoffBytes");
    EXPECT_CONTAINS(xoff, "70000");
    EXPECT_CONTAINS(xoff, "minus the headroom 7070");
    const std::string buffer = install("BufferBytes", UintegerValue(80000));
    EXPECT_CONTAINS(buffer, "ns3::MosePfc::BufferBytes");
    EXPECT_CONTAINS(buffer, "at most 75000");
    const std::string small = install("BufferBytes", UintegerValue(5000));
    EXPECT_CONTAINS(small, "ns3::MosePfc::BufferBytes");
    EXPECT_CONTAINS(small, "above the headroom 7070");
    const std::string xon = install("XonBytes", UintegerValue(70000));
    EXPECT_CONTAINS(xon, "ns3::MosePfc::XonBytes");
    EXPECT_CONTAINS(xon, "at most XOFF = 67930");
    const std::string storm = install("StormTimeout", TimeValue(Seconds(0)));
    EXPECT_CONTAINS(storm, "ns3::MosePfc::StormTimeout");
    // XON above a given XOFF
    {
        Ptr<MosePfc> pfc = CreateObject<MosePfc>();
        pfc->SetAttribute("XoffBytes", UintegerValue(1000));
        pfc->SetAttribute("XonBytes", UintegerValue(2000));
        const std::string e = ErrorOf([&] { pfc->Install(NodeContainer(), NodeContainer()); });
        EXPECT_CONTAINS(e, "ns3::MosePfc::XonBytes = 2000");
        EXPECT_CONTAINS(e, "at most ns3::MosePfc::XoffBytes = 1000");
    }
    // scale 1 on the module's 400 Gb/s fabric: the default 1000-packet discs leave
    // 1,500,000 / 5 = 300,000 bytes per ingress, the headroom is 2 x 1 us x 400 Gb/s / 8 + 64 +
    // 3 x 1,502 = 104,570: PFC fits; 50-packet discs give 15,000 and do not
    {
        Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
        topology->SetTemplate(PaperScaledConfig(16, 4),
                              1,
                              WorkloadMode::INFERENCE_HEAVY,
                              Policy::MOSE);
        topology->SetAttribute("QueueDiscType", TypeIdValue(FifoQueueDisc::GetTypeId()));
        topology->SetQueueDiscAttribute("MaxSize", QueueSizeValue(QueueSize("50p")));
        topology->Install();
        const std::string e = ErrorOf([&] { topology->InstallPfc(); });
        EXPECT_CONTAINS(e, "ns3::MosePfc::BufferBytes = 15000 (derived: the disc's share)");
        EXPECT_CONTAINS(e, "above the headroom 104570");
        Simulator::Destroy();
    }
}

// The programs: --pfc with tcp, or without a packet level, is refused by name.
TEST(Pfc, ThePfcOptionNeedsRdmaAtThePacketLevel)
{
    TransportOptions options;
    CommandLine cmd;
    options.AddOptions(cmd, "the transfers'");
    ParseArgs(cmd, {"--pfc=true"});
    const std::string tcp = ErrorOf([&] { options.ReadPfc(false, true); });
    EXPECT_CONTAINS(tcp, "--pfc");
    EXPECT_CONTAINS(tcp, "--transport=rdma");
    const std::string fluid = ErrorOf([&] { options.ReadPfc(true, false); });
    EXPECT_CONTAINS(fluid, "--pfc");
    EXPECT_CONTAINS(fluid, "no queues to pause");
    EXPECT_TRUE(options.ReadPfc(true, true));
}

namespace
{

/// mose-mode-switch's run at its defaults with `args` (a CommandLine as the program's) and the
/// hold queues' release filter of PFC on or off; the packets it lost
uint64_t
ModeSwitchRunLost(const std::vector<std::string>& args, bool releaseFilter)
{
    ScenarioOptions options(ScenarioDefaults{64, 1000, 1},
                            ScenarioOptions::ROUTING | ScenarioOptions::SEEDS |
                                ScenarioOptions::FABRIC);
    SwitchOptions switching;
    CommandLine cmd;
    options.AddOptions(cmd);
    switching.AddOptions(cmd);
    ParseArgs(cmd, args);
    Experiment experiment(switching.GetConfig(options));
    InstallSwitchWorkload(experiment);
    experiment.Build();
    NodeContainer groups = experiment.GetTopology()->GetGroupNodes();
    for (uint32_t g = 0; g < groups.GetN() && !releaseFilter; ++g)
    {
        MoseRoutingProtocol::Find(groups.Get(g))
            ->SetHoldReleaseFilter(MoseRoutingProtocol::ReleaseFilter());
    }
    experiment.Run();
    return experiment.GetPacketsLost();
}

} // namespace

// mose-mode-switch --transport=rdma --policies=MoSE --pfc=true at its defaults (N = 64, two
// drained switches, about 12,000 packets held at each): the hold queues release a packet only
// while its ingress stays within its XOFF, so nothing is lost; released without PFC's filter,
// they fill the discs that PFC had reserved for the ingresses, and the next arrivals overflow.
TEST(Pfc, HeldPacketsAreReleasedWithinTheirIngressShareAndNothingIsLost)
{
    const std::vector<std::string> args{"--transport=rdma", "--policies=MoSE", "--pfc=true"};
    EXPECT_GT(ModeSwitchRunLost(args, false), 0u) << "the test must be able to fail";
    EXPECT_EQ(ModeSwitchRunLost(args, true), 0u);
}
