/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MoseTransportHelper (a transport by its TypeId name, with attributes) and mose-llm's
// --transport: the programs' spelling, the refusals, the fluid level's packet size, and an LLM
// run over RoCEv2 with RED and ECN on the ports.

#include "mose-llm-experiment.h"
#include "mose-llm-options.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-module.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/point-to-point-module.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/traffic-control-module.h"

#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Reads mose-llm's options from the arguments (without the program's name)
/// \return the one experiment's configuration
ExperimentConfig
ReadLlmOptions(std::vector<std::string> args)
{
    args.insert(args.begin(), "mose-llm");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    LlmOptions options;
    CommandLine cmd;
    options.AddOptions(cmd);
    cmd.Parse(static_cast<int>(argv.size()), argv.data());
    options.Read();
    return options.GetExperimentConfig();
}

/// mose-llm's one experiment, small: 16 groups of d = 4, 30 requests, one switch
const std::vector<std::string> SMALL_RUN = {
    "--map=false",
    "--nodes=16",
    "--degree=4",
    "--requests=30",
    "--policies=MoSE",
    "--schedule=inference-heavy:0.15s,training-heavy:0.15s"};

/// \return SMALL_RUN with more options
std::vector<std::string>
SmallRun(const std::vector<std::string>& more)
{
    std::vector<std::string> args = SMALL_RUN;
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

/// \return an attribute of an object as text
std::string
AttributeText(Ptr<Object> object, const std::string& name)
{
    StringValue v;
    object->GetAttribute(name, v);
    return v.Get();
}

} // namespace

TEST(TransportHelper, BuildsEachTypeWithItsAttributes)
{
    MoseTransportHelper tcp; // the default: ns-3's TCP
    EXPECT_EQ(tcp.GetTypeId(), MoseSocketTransfers::GetTypeId());
    tcp.SetAttribute("SegmentSize", UintegerValue(8948));
    tcp.SetAttribute("NoticeDelay", StringValue("5us")); // read by the attribute's checker
    Ptr<MoseTransport> a = tcp.Create();
    ASSERT_TRUE(DynamicCast<MoseSocketTransfers>(a));
    EXPECT_EQ(AttributeText(a, "SegmentSize"), "8948");
    EXPECT_EQ(AttributeText(a, "NoticeDelay"), "+5000ns");
    EXPECT_FALSE(a->IsInstalled());
    EXPECT_NE(PeekPointer(tcp.Create()), PeekPointer(a)); // a new transport per call

    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    rdma.SetAttribute("PayloadSize", UintegerValue(4096));
    rdma.SetAttribute("RetransmitTimeout", TimeValue(MilliSeconds(5)));
    rdma.SetAttribute("RetxMode", StringValue("SelectiveRepeat"));
    EXPECT_TRUE(rdma.HasAttribute("PayloadSize"));
    EXPECT_FALSE(rdma.HasAttribute("SegmentSize"));
    Ptr<MoseTransport> b = rdma.Create();
    ASSERT_TRUE(DynamicCast<MoseRdmaTransport>(b));
    EXPECT_EQ(AttributeText(b, "PayloadSize"), "4096");
    EXPECT_EQ(AttributeText(b, "RetransmitTimeout"), "+5e+06ns");
    EXPECT_EQ(AttributeText(b, "RetxMode"), "SelectiveRepeat");
    // an attribute left alone keeps its default
    EXPECT_EQ(AttributeText(b, "AckInterval"), "16");
}

// Install() on two hosts of a point-to-point link: the transport is installed, one rail per
// group, and a 10,000-byte transfer arrives whole
TEST(TransportHelper, InstallsOnEndpointsAndMovesBytes)
{
    for (const std::string name : {"tcp", "rdma"})
    {
        NodeContainer n;
        n.Create(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer d = link.Install(n);
        InternetStackHelper().Install(n);
        Ipv4AddressHelper("10.1.0.0", "255.255.255.0").Assign(d);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        MoseTransportHelper helper(MoseTransportHelper::GetTypeName("--transport", name));
        Ptr<MoseTransport> t = helper.Install({NodeContainer(n.Get(0)), NodeContainer(n.Get(1))});
        EXPECT_TRUE(t->IsInstalled()) << name;
        EXPECT_EQ(t->GetNRails(0), 1u) << name;
        // started in the simulation, once the nodes (and their traffic control) are initialized
        Simulator::Schedule(Seconds(0),
                            [t]() { t->Start(0, 1, 10000, MoseTransport::DoneCallback()); });
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        EXPECT_EQ(t->GetNCompleted(), 1u) << name;
        EXPECT_EQ(t->GetBytesBetween(0, 1), 10000u) << name;
        Simulator::Destroy();
    }
}

TEST(TransportHelper, MapsTheProgramsSpelling)
{
    EXPECT_EQ(MoseTransportHelper::GetTypeName("--transport", "tcp"), "ns3::MoseSocketTransfers");
    EXPECT_EQ(MoseTransportHelper::GetTypeName("--transport", "rdma"), "ns3::MoseRdmaTransport");
    EXPECT_EQ(MoseTransportHelper::GetProgramName("ns3::MoseSocketTransfers"), "tcp");
    EXPECT_EQ(MoseTransportHelper::GetProgramName("ns3::MoseRdmaTransport"), "rdma");
    EXPECT_EQ(MoseTransportHelper::GetProgramName("ns3::Node"), "");
    const std::string allowed = ": tcp (ns-3's TCP, ns3::MoseSocketTransfers) or rdma (RoCEv2 "
                                "with DCQCN, ns3::MoseRdmaTransport)";
    for (const std::string bad : {"TCP", "roce", "", "ns3::MoseRdmaTransport"})
    {
        EXPECT_EQ(ErrorOf([&bad] { MoseTransportHelper::GetTypeName("--transport", bad); }),
                  "invalid --transport = \"" + bad + "\"" + allowed);
    }
}

TEST(TransportHelper, RefusesWhatIsNoTransportByName)
{
    const std::string allowed = ": a MoseTransport type with a constructor: "
                                "ns3::MoseSocketTransfers (TCP) or ns3::MoseRdmaTransport (RoCEv2)";
    // the interface itself, another Object type, a name that is no type
    for (const std::string bad : {"ns3::MoseTransport", "ns3::Node", "ns3::NoSuchTransport"})
    {
        EXPECT_EQ(ErrorOf([&bad] { MoseTransportHelper h(bad); }),
                  "invalid MoseTransportHelper type = \"" + bad + "\"" + allowed);
    }
    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    EXPECT_EQ(ErrorOf([&rdma] { rdma.SetAttribute("SegmentSize", UintegerValue(1448)); }),
              "invalid MoseTransportHelper attribute = \"SegmentSize\": an attribute of "
              "ns3::MoseRdmaTransport");
    // a value out of the checker's range, a value of another type
    EXPECT_EQ(ErrorOf([&rdma] { rdma.SetAttribute("PartitionKey", UintegerValue(70000)); }),
              "invalid ns3::MoseRdmaTransport::PartitionKey = \"70000\": a ns3::UintegerValue "
              "(uint16_t 0:65535)");
    EXPECT_EQ(ErrorOf([&rdma] { rdma.SetAttribute("PayloadSize", TimeValue(Seconds(1))); }),
              "invalid ns3::MoseRdmaTransport::PayloadSize = \"+1e+09ns\": a ns3::UintegerValue "
              "(uint32_t 0:4294967295)");
    EXPECT_EQ(ErrorOf([&rdma] { rdma.Install(Ptr<MoseTopologyHelper>()); }),
              "MoseTransportHelper::Install: no topology (an installed MoseTopologyHelper)");
}

// The fluid level reads the packet size of either transport: RoCEv2's payload with 46 bytes of
// IPv4 (20), UDP (8), BTH (12), ICRC (4) and PPP (2) around it
TEST(TransportHelper, TheFluidLevelReadsRdmasPayload)
{
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    rdma.SetAttribute("NoticeDelay", TimeValue(MicroSeconds(3)));
    FluidFabricConfig fab =
        MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), rdma.Create());
    EXPECT_EQ(fab.segmentBytes, 1024u);
    EXPECT_EQ(fab.wireBytesPerSegment, 1070u);
    EXPECT_EQ(fab.noticeDelayNs, 3000);
    rdma.SetAttribute("PayloadSize", UintegerValue(4096));
    fab = MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), rdma.Create());
    EXPECT_EQ(fab.segmentBytes, 4096u);
    EXPECT_EQ(fab.wireBytesPerSegment, 4142u);
}

// The fluid level reads TCP's start from the sockets' settings: InitialCwnd (10) x the segment
// (1448) = 14,480 B; the window's bound from BufferSize (4 MiB by default; 0: the smaller of
// TcpSocket's buffers, 131,072 B each); TcpCubic doubles per round trip until HyStart's low
// window (16 x 1448 = 23,168 B) and then grows by 1 + 1 / CntClamp (20); TcpNewReno grows by
// 1 + 1 / DelAckCount (2) and has no HyStart; another variant is refused by name. RDMA has no
// TCP start.
TEST(TransportHelper, TheFluidLevelReadsTcpsStart)
{
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    MoseTransportHelper tcp("ns3::MoseSocketTransfers");
    FluidFabricConfig fab =
        MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), tcp.Create());
    EXPECT_TRUE(fab.tcp.enabled);
    EXPECT_EQ(fab.tcp.initialWindowBytes, 14480);
    EXPECT_EQ(fab.tcp.maxWindowBytes, 4194304);
    EXPECT_EQ(fab.tcp.growth, 2);
    EXPECT_EQ(fab.tcp.slowStartEndBytes, 23168);
    EXPECT_EQ(fab.tcp.avoidanceGrowth, 1.05);
    tcp.SetAttribute("BufferSize", UintegerValue(0));
    tcp.SetAttribute("TcpVariant", TypeIdValue(TypeId::LookupByName("ns3::TcpNewReno")));
    fab = MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), tcp.Create());
    EXPECT_EQ(fab.tcp.maxWindowBytes, 131072);
    EXPECT_EQ(fab.tcp.growth, 1.5);
    EXPECT_EQ(fab.tcp.slowStartEndBytes, std::numeric_limits<double>::infinity());
    tcp.SetAttribute("TcpVariant", TypeIdValue(TypeId::LookupByName("ns3::TcpVegas")));
    EXPECT_EQ(ErrorOf([&] {
                  MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), tcp.Create());
              }),
              "invalid --ns3::MoseSocketTransfers::TcpVariant = \"ns3::TcpVegas\": "
              "ns3::TcpCubic or ns3::TcpNewReno at the fluid levels, whose TCP start follows "
              "their slow start (--level=packet runs any variant)");
    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    EXPECT_FALSE(MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), rdma.Create())
                     .tcp.enabled);
}

// mose-llm --transport and the ECN options: what each sets, and every refusal by name
TEST(TransportHelper, MoseLlmReadsTheTransportOptions)
{
    // rdma by default (the validation against the fluid level chose it), with the DCQCN
    // paper's marking; --transport=tcp keeps ns-3's TCP and its ports as before
    const ExperimentConfig byDefault = ReadLlmOptions(SMALL_RUN);
    EXPECT_EQ(byDefault.transport, "ns3::MoseRdmaTransport");
    EXPECT_TRUE(byDefault.IsRdma());
    ASSERT_TRUE(byDefault.ecn.has_value());
    EXPECT_EQ(byDefault.ecn->kmin, 5);
    EXPECT_EQ(byDefault.ecn->kmax, 200);
    EXPECT_EQ(byDefault.ecn->pmax, 0.01);
    EXPECT_EQ(byDefault.portQueue, "1p");
    const ExperimentConfig tcp = ReadLlmOptions(SmallRun({"--transport=tcp"}));
    EXPECT_EQ(tcp.transport, "ns3::MoseSocketTransfers");
    EXPECT_FALSE(tcp.IsRdma());
    EXPECT_FALSE(tcp.ecn.has_value());
    EXPECT_EQ(tcp.portQueue, "1000p");

    const ExperimentConfig rdma = ReadLlmOptions(
        SmallRun({"--transport=rdma", "--ecnKmin=10", "--ecnKmax=400", "--ecnPmax=0.2"}));
    EXPECT_TRUE(rdma.IsRdma());
    const ExperimentConfig& e = rdma;
    ASSERT_TRUE(e.ecn.has_value());
    EXPECT_EQ(e.ecn->kmin, 10);
    EXPECT_EQ(e.ecn->kmax, 400);
    EXPECT_EQ(e.ecn->pmax, 0.2);
    EXPECT_EQ(e.ecn->discSize, "1000p"); // the port's buffer, in RED
    EXPECT_EQ(e.portQueue, "1p");        // the device queue: the backlog waits in RED

    auto error = [](const std::vector<std::string>& more) {
        return ErrorOf([&more] { ReadLlmOptions(SmallRun(more)); });
    };
    EXPECT_EQ(error({"--transport=udp"}),
              "invalid --transport = \"udp\": tcp (ns-3's TCP, ns3::MoseSocketTransfers) or rdma "
              "(RoCEv2 with DCQCN, ns3::MoseRdmaTransport)");
    const std::string unused = "the option would not be used: only with --transport=rdma (TCP's "
                               "ports keep their queue disc, FqCoDel unless "
                               "--ns3::MoseTopologyHelper::QueueDiscType says otherwise)";
    EXPECT_EQ(error({"--transport=tcp", "--ecnKmin=5"}), "invalid --ecnKmin = \"5\": " + unused);
    EXPECT_EQ(error({"--transport=tcp", "--ecnPmax=0.5"}),
              "invalid --ecnPmax = \"0.5\": " + unused);
    EXPECT_EQ(error({"--transport=rdma", "--level=fluid", "--ecnKmax=100"}),
              "invalid --ecnKmax = \"100\": the option would not be used: the fluid and "
              "aggregate levels have no queues to mark (run the packet level: --level=packet or "
              "both)");
    EXPECT_EQ(error({"--transport=rdma", "--ecnKmin=50", "--ecnKmax=50"}),
              "invalid --ecnKmax = \"50\": a number of packets above --ecnKmin = 50");
    EXPECT_EQ(error({"--transport=rdma", "--ecnKmin=300"}),
              "invalid --ecnKmin = \"300\": a number of packets below --ecnKmax = 200 (its "
              "default)");
    EXPECT_EQ(error({"--transport=rdma", "--ecnKmin=-1"}),
              "invalid --ecnKmin = \"-1\": a number of packets >= 0");
    EXPECT_EQ(error({"--transport=rdma", "--ecnKmax=2000"}),
              "invalid --ecnKmax = \"2000\": at most the ports' queue of 1000 packets (above it "
              "nothing is left to mark)");
    EXPECT_EQ(error({"--transport=rdma", "--ecnPmax=0"}),
              "invalid --ecnPmax = \"0\": a probability in (0, 1] (0.01: 1%)");
    EXPECT_EQ(error({"--transport=rdma", "--ecnPmax=1.5"}),
              "invalid --ecnPmax = \"1.5\": a probability in (0, 1] (0.01: 1%)");
    EXPECT_NE(error({"--transport=rdma", "--ecnPmax=often"}).find("invalid --ecnPmax = \"often\""),
              std::string::npos);
}

// MoseTopologyHelper::SetQueueDiscAttribute: set on every root disc Install() makes; an
// attribute QueueDiscType lacks, or a value its checker refuses, is an error before any node
TEST(TransportHelper, TheTopologySetsTheQueueDiscsAttributes)
{
    const FlowExperimentConfig config = PaperScaledConfig(4, 2);
    auto make = [&config]() {
        Ptr<MoseTopologyHelper> t = CreateObject<MoseTopologyHelper>();
        t->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        t->SetAttribute("QueueDiscType", TypeIdValue(RedQueueDisc::GetTypeId()));
        return t;
    };
    Ptr<MoseTopologyHelper> bad = make();
    bad->SetQueueDiscAttribute("Quantum", UintegerValue(1500)); // FqCoDel's, not RED's
    EXPECT_EQ(ErrorOf([&bad] { bad->Install(); }),
              "invalid MoseTopologyHelper::SetQueueDiscAttribute = \"Quantum\": an attribute of "
              "the QueueDiscType ns3::RedQueueDisc");
    Ptr<MoseTopologyHelper> badValue = make();
    badValue->SetQueueDiscAttribute("MinTh", UintegerValue(5)); // a DoubleValue attribute
    EXPECT_EQ(ErrorOf([&badValue] { badValue->Install(); }),
              "invalid ns3::RedQueueDisc::MinTh = \"5\": a ns3::DoubleValue");

    Ptr<MoseTopologyHelper> good = make();
    good->SetQueueDiscAttribute("MinTh", DoubleValue(7));
    good->SetQueueDiscAttribute("UseEcn", BooleanValue(true));
    good->Install();
    uint32_t set = 0;
    for (uint32_t g = 0; g < 4; ++g)
    {
        Ptr<TrafficControlLayer> tc = good->GetGroupNode(g)->GetObject<TrafficControlLayer>();
        for (uint32_t p = 0; p < 2; ++p)
        {
            Ptr<QueueDisc> disc = tc->GetRootQueueDiscOnDevice(good->GetPortDevice(g, p));
            set += DynamicCast<RedQueueDisc>(disc) && AttributeText(disc, "MinTh") == "7" &&
                   AttributeText(disc, "UseEcn") == "true";
        }
    }
    EXPECT_EQ(set, 8u);
    Simulator::Destroy();
}

// Install(topology): the notice delay is twice the fabric's smallest link delay, as the programs
// set it, unless the user set it on the helper (0 included) or as the attribute's default
TEST(TransportHelper, InstallOnATopologyTakesTheProgramsNoticeDelay)
{
    const FlowExperimentConfig config = PaperScaledConfig(4, 2);
    auto notice = [&config](const MoseTransportHelper& helper) {
        Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
        topology->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        topology->Install();
        TimeValue delay;
        helper.Install(topology)->GetAttribute("NoticeDelay", delay);
        const Time twice = topology->GetSmallestLinkDelay() * 2;
        Simulator::Destroy();
        return std::make_pair(delay.Get(), twice);
    };
    for (const char* type : {"ns3::MoseSocketTransfers", "ns3::MoseRdmaTransport"})
    {
        const auto [given, twice] = notice(MoseTransportHelper(type));
        EXPECT_GT(twice, Time(0)) << type;
        EXPECT_EQ(given, twice) << type;
        MoseTransportHelper zero(type);
        zero.SetAttribute("NoticeDelay", TimeValue(Time(0)));
        EXPECT_EQ(notice(zero).first, Time(0)) << type; // the user's 0 wins
    }
    Config::SetDefault("ns3::MoseSocketTransfers::NoticeDelay", TimeValue(MicroSeconds(7)));
    EXPECT_EQ(notice(MoseTransportHelper()).first, MicroSeconds(7));
    Config::Reset();
}

namespace
{

/// MoseScale for one test, 1 again after it (a global value outlives a test)
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

/// The MaxInFlight a helper gives an RDMA transport installed on a 4-cycle (N = 4, d = 2: the
/// longest route crosses 2 circuits) of circuits at ocsRate with 20 us delay, and with hosts
/// H = 1 on links at 2 x ocsRate / MoseScale with 5 us delay
uint32_t
CapOnACycle(const MoseTransportHelper& helper, const std::string& ocsRate, uint32_t hosts = 0)
{
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(PaperScaledConfig(4, 2), 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate(ocsRate)));
    topology->SetOcsAttribute("Delay", TimeValue(MicroSeconds(20)));
    topology->SetAttribute("HostsPerGroup", UintegerValue(hosts));
    topology->SetAttribute("HostDataRate",
                           DataRateValue(DataRate(2 * DataRate(ocsRate).GetBitRate())));
    topology->SetAttribute("HostDelay", TimeValue(MicroSeconds(5)));
    topology->Install();
    EXPECT_EQ(SummarizeDistances(topology->GetCircuitGraph()).diameter, 2u);
    UintegerValue cap;
    helper.Install(topology)->GetAttribute("MaxInFlight", cap);
    Simulator::Destroy();
    return static_cast<uint32_t>(cap.Get());
}

} // namespace

// Install(topology) caps an RDMA QP at IRN's BDP-FC on the fabric's longest route, by hand. At
// 1 Gb/s a data frame (1024 + 44 + 2 B = 8560 bits) takes 8.56 us and an ACK (48 + 2 B) 0.4 us;
// a circuit with 20 us each way adds 8.56 + 0.4 + 40 = 48.96 us to the round trip, so 2 circuits
// make 97.92 us, 97,920 bits at 1 Gb/s: 11.4 frames, 12 rounded up, and AckInterval - 1 = 15
// more. The cap follows MoseScale (10 Gb/s at scale 10 is the same fabric) and AckInterval (1:
// IRN's rule, the product alone). Hosts at 2 Gb/s with 5 us add 4.28 + 0.2 + 10 = 14.48 us per
// link at each end: 126.88 us, 14.8 frames at the slowest link, 15 + 15 = 30.
TEST(TransportHelper, InstallOnATopologyCapsRdmaAtTheLongestRoutesBdp)
{
    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    EXPECT_EQ(CapOnACycle(rdma, "1Gbps"), 27u);
    {
        const ScaleGuard scale(10);
        EXPECT_EQ(CapOnACycle(rdma, "10Gbps"), 27u);
    }
    EXPECT_EQ(CapOnACycle(rdma, "1Gbps", 1), 30u);
    MoseTransportHelper everyPacket("ns3::MoseRdmaTransport");
    everyPacket.SetAttribute("AckInterval", UintegerValue(1));
    EXPECT_EQ(CapOnACycle(everyPacket, "1Gbps"), 12u);

    // at 100 Mb/s the serializations dominate, as in a fabric scaled down: a circuit adds
    // 85.6 + 4 + 40 = 129.6 us, 259.2 us for two, 3.03 frames, 4 rounded up
    EXPECT_EQ(CapOnACycle(rdma, "100Mbps"), 19u);
}

// A user's MaxInFlight wins over the fabric's cap: set on the helper (0, no cap, included) or as
// the attribute's default; a transport created by hand keeps the attribute's default (0)
TEST(TransportHelper, InstallOnATopologyKeepsTheUsersMaxInFlight)
{
    for (uint32_t given : {0u, 64u})
    {
        MoseTransportHelper helper("ns3::MoseRdmaTransport");
        helper.SetAttribute("MaxInFlight", UintegerValue(given));
        EXPECT_EQ(CapOnACycle(helper, "1Gbps"), given);
        Config::SetDefault("ns3::MoseRdmaTransport::MaxInFlight", UintegerValue(given));
        EXPECT_EQ(CapOnACycle(MoseTransportHelper("ns3::MoseRdmaTransport"), "1Gbps"), given);
        Config::Reset();
    }
    MoseTransportHelper helper("ns3::MoseRdmaTransport");
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(PaperScaledConfig(4, 2), 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->Install();
    Ptr<MoseTransport> byHand = helper.Install(topology->GetGroupEndpoints());
    EXPECT_EQ(AttributeText(byHand, "MaxInFlight"), "0");
    Simulator::Destroy();
}

namespace
{

/// The MaxInFlight a helper gives an RDMA transport installed, with a switcher, on the 4-cycle
/// of CapOnACycle() (circuits at 1 Gb/s with 20 us delay, diameter 2); the switcher's schedule
/// is inference-heavy for 0.5 s, then training-heavy, with these targets (4 groups, degree
/// <= 2)
uint32_t
CapAcrossASwitch(const MoseTransportHelper& helper,
                 const CircuitGraph& inferenceTarget,
                 const CircuitGraph& trainingTarget)
{
    const FlowExperimentConfig config = PaperScaledConfig(4, 2);
    // the inference-heavy mode's roles and P-D pairs for both targets (at N = 4 the
    // training-heavy roles have no P-D pair to draw); the cap reads only the graphs
    const ModeScenario mode = ScenarioBuilder(config).BuildMode(1, WorkloadMode::INFERENCE_HEAVY);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    topology->SetOcsAttribute("Delay", TimeValue(MicroSeconds(20)));
    topology->Install();
    EXPECT_EQ(SummarizeDistances(topology->GetCircuitGraph()).diameter, 2u);
    MoseModeSwitcherHelper switcherHelper;
    switcherHelper.SetTargetProvider([&](WorkloadMode m) {
        MoseModeTarget target;
        target.roles = mode.roles;
        target.assignment = mode.assignment;
        target.graph = m == WorkloadMode::INFERENCE_HEAVY ? inferenceTarget : trainingTarget;
        return target;
    });
    switcherHelper.SetSchedule(
        ModeSchedule{{WorkloadMode::INFERENCE_HEAVY, 0.5}, {WorkloadMode::TRAINING_HEAVY, 0.5}});
    Ptr<MoseModeSwitcher> switcher = switcherHelper.Install(topology);
    UintegerValue cap;
    helper.Install(topology, switcher)->GetAttribute("MaxInFlight", cap);
    Simulator::Destroy();
    return static_cast<uint32_t>(cap.Get());
}

} // namespace

// With a switcher, Install(topology, switcher) caps an RDMA QP on the longest route over every
// graph the run installs: the installed graph and the target of every mode of the schedule.
// The installed 4-cycle 0-1-2-3-0 and a 4-cycle target have diameter 2: 27, as without a
// switcher (InstallOnATopologyCapsRdmaAtTheLongestRoutesBdp). The path 0-1-2-3 has diameter 3:
// 3 x 48.96 us = 146.88 us of round trip, 146,880 bits at 1 Gb/s, 17.2 frames of 8560 bits, 18
// rounded up, and AckInterval - 1 = 15 more: 33. It counts as the training-heavy target (the
// switch's) and as the initial mode's target (where the schedule would return to it). A user's
// MaxInFlight still wins, and a null switcher is Install(topology).
TEST(TransportHelper, InstallAcrossASwitchCapsRdmaOnTheLongestRouteOfEveryGraph)
{
    const CircuitGraph cycle(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
    const CircuitGraph path(4, {{0, 1}, {1, 2}, {2, 3}});
    ASSERT_EQ(SummarizeDistances(cycle).diameter, 2u);
    ASSERT_EQ(SummarizeDistances(path).diameter, 3u);
    MoseTransportHelper rdma("ns3::MoseRdmaTransport");
    EXPECT_EQ(CapAcrossASwitch(rdma, cycle, cycle), 27u);
    EXPECT_EQ(CapAcrossASwitch(rdma, cycle, path), 33u);
    EXPECT_EQ(CapAcrossASwitch(rdma, path, cycle), 33u);
    MoseTransportHelper given("ns3::MoseRdmaTransport");
    given.SetAttribute("MaxInFlight", UintegerValue(64));
    EXPECT_EQ(CapAcrossASwitch(given, cycle, path), 64u);

    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(PaperScaledConfig(4, 2), 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    topology->SetOcsAttribute("Delay", TimeValue(MicroSeconds(20)));
    topology->Install();
    EXPECT_EQ(AttributeText(rdma.Install(topology, nullptr), "MaxInFlight"), "27");
    Simulator::Destroy();
}

// What mose-llm's rdma path sets on the transport: the jumbo payload and the notice delay by the
// TCP rule (a user's default of the RDMA type taken, or refused if it disagrees). Its timers,
// rates and byte counter keep their values: the transport scales them by MoseScale itself
TEST(TransportHelper, MoseLlmSetsRdmasAttributes)
{
    ExperimentConfig c = ReadLlmOptions(SmallRun({"--transport=rdma", "--jumbo"}));
    Config::SetDefault("ns3::MoseRdmaTransport::NoticeDelay", TimeValue(MicroSeconds(7)));
    {
        const LlmRun e = BuildLlmRun(c);
        Ptr<MoseTransport> t = e.result->transport;
        ASSERT_TRUE(DynamicCast<MoseRdmaTransport>(t));
        EXPECT_EQ(AttributeText(t, "PayloadSize"), "4096");
        EXPECT_EQ(AttributeText(t, "NoticeDelay"), "+7000ns");
        EXPECT_EQ(AttributeText(t, "RetransmitTimeout"), "+1e+06ns");
        EXPECT_EQ(AttributeText(t, "CnpInterval"), "+50000ns");
        EXPECT_EQ(AttributeText(t, "MinRate"), "100000000bps");
        EXPECT_EQ(AttributeText(t, "ByteCounter"), "10000000");
        // the fabric's cap (Install(topology)): at MoseScale 2000 a circuit of 200 Mb/s and
        // 1 us adds 165.68 us (a 4142-byte frame) + 2 us (an ACK) + 2 us to the round trip,
        // 1.024 frames, so a route of D circuits holds D + 1 frames (D < 40), and 15 more; D is
        // the diameter of the graph installed first, MoSE's inference-heavy one, although its
        // training-heavy one is longer here
        const Scenario& sc = *e.experiment->GetSharedScenario();
        const uint32_t d =
            SummarizeDistances(e.experiment->GetTopology()->GetCircuitGraph()).diameter;
        EXPECT_EQ(
            d,
            SummarizeDistances(sc.GetGraph(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY)).diameter);
        EXPECT_LT(
            d,
            SummarizeDistances(sc.GetGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY)).diameter);
        EXPECT_EQ(AttributeText(t, "MaxInFlight"), std::to_string(16 + d));
        Simulator::Destroy();
    }
    Config::SetDefault("ns3::MoseRdmaTransport::MaxInFlight", UintegerValue(0));
    {
        const LlmRun e = BuildLlmRun(c);
        EXPECT_EQ(AttributeText(e.result->transport, "MaxInFlight"), "0"); // the user's: no cap
        Simulator::Destroy();
    }
    c.llm.noticeDelay = MicroSeconds(5);
    {
        EXPECT_EQ(
            ErrorOf([&c] {
                BuildLlmRun(c);
            }).rfind("ns3::MoseRdmaTransport::NoticeDelay = +7us (set by Config::SetDefault", 0),
            0u);
        Simulator::Destroy();
    }
    Config::Reset();
}

namespace
{

/// What a run over RoCEv2 gives, compared between two runs
struct RdmaRun
{
    LlmSummary summary;                      //!< the summary
    std::vector<MoseRequestRecord> requests; //!< per request
    uint64_t ecnMarks{0};                    //!< marks counted at the discs
    uint64_t ceArrived{0};                   //!< data packets that arrived with CE
    uint64_t cnps{0};                        //!< CNPs sent
    uint64_t drops{0};                       //!< packets the transport dropped
    uint64_t retransmissions{0};             //!< data packets resent
    uint64_t timeouts{0};                    //!< retransmission timeouts
    uint32_t redDiscs{0};                    //!< RED discs with ECN on the group nodes' ports
    uint64_t notEctDrops{0};                 //!< packets without ECN capability the discs dropped
    uint64_t ectDrops{0};                    //!< ECN-capable packets (data) the discs dropped
};

/// counts a disc's drop by the packet's ECN field
void
CountDrop(RdmaRun* r, Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (ip && ip->GetHeader().GetEcn() == Ipv4Header::ECN_NotECT)
    {
        ++r->notEctDrops;
    }
    else
    {
        ++r->ectDrops;
    }
}

/// mose-llm's SMALL_RUN over rdma, with more options
RdmaRun
RunRdma(const std::vector<std::string>& more)
{
    std::vector<std::string> args = SmallRun({"--transport=rdma"});
    args.insert(args.end(), more.begin(), more.end());
    ExperimentConfig config = ReadLlmOptions(args);
    config.policy = Policy::MOSE;
    const LlmRun e = BuildLlmRun(config);
    RdmaRun r;
    Ptr<MoseTopologyHelper> topology = e.experiment->GetTopology();
    for (uint32_t g = 0; g < topology->GetNGroups(); ++g)
    {
        Ptr<Node> node = topology->GetGroupNode(g);
        Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
        for (uint32_t p = 0; p < topology->GetNPorts(); ++p)
        {
            Ptr<NetDevice> port = topology->GetPortDevice(g, p);
            Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(tc->GetRootQueueDiscOnDevice(port));
            if (red && AttributeText(red, "UseEcn") == "true" &&
                AttributeText(red, "MinTh") == "5" && AttributeText(red, "MaxTh") == "200" &&
                AttributeText(red, "LInterm") == "100" && AttributeText(red, "QW") == "1" &&
                AttributeText(red, "UseHardDrop") == "false" &&
                AttributeText(red, "MaxSize") == "1000p")
            {
                ++r.redDiscs;
            }
        }
    }
    NodeContainer nodes = topology->GetGroupNodes();
    nodes.Add(topology->GetAllHosts());
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<TrafficControlLayer> tc = nodes.Get(i)->GetObject<TrafficControlLayer>();
        for (uint32_t j = 0; j < nodes.Get(i)->GetNDevices(); ++j)
        {
            Ptr<QueueDisc> disc = tc->GetRootQueueDiscOnDevice(nodes.Get(i)->GetDevice(j));
            if (disc)
            {
                disc->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, &r));
            }
        }
    }
    e.experiment->Run(GetLlmRunLabel(config));
    r.summary = SummarizeLlmRun(*e.experiment, *e.result);
    r.requests = e.result->requests;
    r.ecnMarks = e.experiment->GetEcnMarks();
    Ptr<MoseRdmaTransport> t = DynamicCast<MoseRdmaTransport>(e.result->transport);
    if (t)
    {
        r.ceArrived = t->GetNCeMarked();
        r.cnps = t->GetNCnps();
        r.drops = t->GetNDrops();
        r.retransmissions = t->GetNRetransmissions();
        r.timeouts = t->GetNTimeouts();
    }
    Config::Reset(); // the options' --ns3::... defaults must not reach the next run
    return r;
}

} // namespace

// mose-llm --transport=rdma on 16 groups of d = 4 with one switch: every port has RED with
// ECN at the DCQCN paper's thresholds, every request is served, the training job iterates, no
// packet is lost or resent, and RED marks. The transport's ACKs, NAKs and CNPs are ECN-capable
// (MoseRdmaTransport::EcnCapableControl, true by default), so RED marks them where it would
// otherwise drop them early: marks reach receivers on data packets and on control packets.
// The NICs here send at their line rate into any port (PacePorts = false), d times a port's
// rate, with no cap on a QP's packets in flight (MaxInFlight = 0, where the fabric's cap keeps
// the queues below RED's Kmin): their own ports queue, which is what makes RED mark in so small
// a run.
TEST(TransportHelper, MoseLlmOverRdmaServesEveryRequestWithoutLoss)
{
    const RdmaRun r = RunRdma(
        {"--ns3::MoseRdmaTransport::PacePorts=false", "--ns3::MoseRdmaTransport::MaxInFlight=0"});
    // the figures, in the XML report (--gtest_output=xml)
    RecordProperty("ecnMarks", std::to_string(r.ecnMarks));
    RecordProperty("cnps", std::to_string(r.cnps));
    RecordProperty("lost", std::to_string(r.summary.lost));
    RecordProperty("events", std::to_string(r.summary.events));
    EXPECT_EQ(r.redDiscs, 16u * 4u);
    EXPECT_EQ(r.summary.inference.requests, 30u);
    EXPECT_EQ(r.summary.inference.served, 30u);
    EXPECT_GT(r.summary.training.iterations, 0u);
    EXPECT_EQ(r.summary.switches, 1u);
    EXPECT_EQ(r.ectDrops, 0u);
    EXPECT_EQ(r.notEctDrops, 0u);
    EXPECT_EQ(r.summary.lost, 0u);
    EXPECT_EQ(r.summary.errors, 0u);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_EQ(r.retransmissions, 0u);
    EXPECT_EQ(r.timeouts, 0u);
    // the data packets' marks reach receivers; the others are on ACKs and CNPs
    EXPECT_GT(r.ecnMarks, 0u);
    EXPECT_GT(r.ceArrived, 0u);
    EXPECT_LE(r.ceArrived, r.ecnMarks);
    EXPECT_GT(r.cnps, 0u);
    EXPECT_LE(r.cnps, r.ceArrived);
}

// The same run with the NICs pacing their ports (PacePorts, the default): a NIC never sends
// faster than the port its packets take, so its own ports do not queue and RED marks fewer
// packets; every request is still served without loss. With the fabric's in-flight cap as
// well (mose-llm's default), a QP holds at most a round trip's packets: fewer marks still
TEST(TransportHelper, MoseLlmOverRdmaWithPacedPortsMarksLess)
{
    const std::string noCap = "--ns3::MoseRdmaTransport::MaxInFlight=0";
    const RdmaRun paced = RunRdma({noCap});
    const RdmaRun unpaced = RunRdma({"--ns3::MoseRdmaTransport::PacePorts=false", noCap});
    const RdmaRun capped = RunRdma({});
    for (const RdmaRun* r : {&paced, &capped})
    {
        EXPECT_EQ(r->summary.inference.served, 30u);
        EXPECT_EQ(r->summary.lost, 0u);
        EXPECT_EQ(r->summary.errors, 0u);
        EXPECT_EQ(r->drops, 0u);
        EXPECT_EQ(r->retransmissions, 0u);
        EXPECT_EQ(r->timeouts, 0u);
    }
    EXPECT_LT(paced.ecnMarks, unpaced.ecnMarks);
    EXPECT_LE(paced.cnps, unpaced.cnps);
    EXPECT_LE(capped.ecnMarks, paced.ecnMarks);
}

// The same configuration twice in one process: the same figures, request by request (RED's
// draws on fixed streams)
TEST(TransportHelper, MoseLlmOverRdmaIsDeterministic)
{
    const RdmaRun a = RunRdma({"--requests=20"});
    const RdmaRun b = RunRdma({"--requests=20"});
    ASSERT_EQ(a.requests.size(), b.requests.size());
    for (std::size_t i = 0; i < a.requests.size(); ++i)
    {
        EXPECT_EQ(a.requests[i].kvStart, b.requests[i].kvStart) << i;
        EXPECT_EQ(a.requests[i].kvEnd, b.requests[i].kvEnd) << i;
    }
    EXPECT_EQ(a.summary.training.iterations, b.summary.training.iterations);
    EXPECT_EQ(a.summary.training.iteration.mean, b.summary.training.iteration.mean);
    EXPECT_EQ(a.summary.events, b.summary.events);
    EXPECT_EQ(a.ecnMarks, b.ecnMarks);
    EXPECT_EQ(a.cnps, b.cnps);
}
