/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// One scale setting (MoseScale) and one reading of the fabric for every level
// (MoseFluidFabricHelper): the global value divides the rates the topology installs and the
// workloads' bytes, a run scaled by it equals the same run scaled by hand, conflicts are
// refused, and the fluid fabric is read from the helpers that build the packet level.

#include "ns3/core-module.h"
#include "ns3/mose-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// Every test starts and ends with MoseScale 1 (a global value outlives a test)
class Scale : public testing::Test
{
  protected:
    void SetUp() override
    {
        MoseScale::Set(1);
    }

    void TearDown() override
    {
        MoseScale::Set(1);
        Simulator::Destroy();
    }
};

/// the data rate of a point-to-point device
uint64_t
DeviceBitRate(Ptr<NetDevice> device)
{
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    return rate.Get().GetBitRate();
}

/// the inference records of 12 requests on 16 groups: scaled by MoseScale or by hand
std::vector<MoseRequestRecord>
RunInference(bool byGlobalValue)
{
    const uint64_t scale = 1000;
    const FlowExperimentConfig config = PaperScaledConfig(16);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    Ptr<MoseWorkload> workload;
    MoseWorkloadHelper helper("ns3::MoseInferenceWorkload");
    if (byGlobalValue)
    {
        MoseScale::Set(scale);
    }
    else
    {
        topology->SetOcsAttribute("DataRate", DataRateValue(DataRate(400000000000 / scale)));
        helper.SetAttribute("ByteScale", UintegerValue(scale));
    }
    topology->SetTemplate(config, 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->Install();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(topology->GetGroupEndpoints());
    auto inference = DynamicCast<MoseInferenceWorkload>(helper.Install(transport));
    const Scenario scenario = ScenarioBuilder(config).Build(1);
    inference->SetMode(WorkloadMode::INFERENCE_HEAVY,
                       scenario.roles[0],
                       std::make_shared<const CircuitGraph>(topology->GetCircuitGraph()));
    std::vector<LlmRequest> requests;
    for (uint64_t i = 0; i < 12; ++i)
    {
        requests.push_back(LlmRequest{i * 2000000, 1024 + 100 * i, 8, "", 0}); // every 2 ms
    }
    inference->SetRequests(requests);
    inference->Start(Seconds(0));
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    std::vector<MoseRequestRecord> records = inference->GetRecords();
    Simulator::Destroy();
    MoseScale::Set(1);
    return records;
}

} // namespace

TEST_F(Scale, TheGlobalValueIsOneByDefaultAndRefusesZero)
{
    EXPECT_EQ(MoseScale::Get(), 1u);
    MoseScale::Set(16);
    EXPECT_EQ(MoseScale::Get(), 16u);
    UintegerValue v;
    GlobalValue::GetValueByName("MoseScale", v);
    EXPECT_EQ(v.Get(), 16u);
    try
    {
        MoseScale::Set(0);
        FAIL() << "MoseScale 0 was taken";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("MoseScale"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(">= 1"), std::string::npos) << e.what();
    }
    // ns-3's own setter checks the value too (its checker: at least 1)
    EXPECT_FALSE(Config::SetGlobalFailSafe("MoseScale", UintegerValue(0)));
    EXPECT_EQ(MoseScale::Get(), 16u);
}

TEST_F(Scale, RatesAreDividedInWholeBitsPerSecond)
{
    MoseScale::Set(3);
    // 400 Gb/s / 3 = 133,333,333,333.33 b/s: whole bits, as DataRate(bit rate / scale)
    EXPECT_EQ(MoseScale::ScaleRate(DataRate("400Gbps"), "x").GetBitRate(), 133333333333u);
    MoseScale::Set(8);
    EXPECT_EQ(MoseScale::ScaleRate(DataRate("800Gbps"), "x").GetBitRate(), 100000000000u);
    try
    {
        MoseScale::ScaleRate(DataRate(7), "ns3::MoseOcs::DataRate");
        FAIL() << "a rate of 0 bit/s was taken";
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("ns3::MoseOcs::DataRate"), std::string::npos) << what;
        EXPECT_NE(what.find("7bps"), std::string::npos) << what;
        EXPECT_NE(what.find("MoseScale = 8"), std::string::npos) << what;
    }
}

TEST_F(Scale, AByteScaleFollowsTheGlobalValueOrMustAgreeWithIt)
{
    EXPECT_EQ(MoseScale::ResolveByteScale(0, "B"), 1u);
    EXPECT_EQ(MoseScale::ResolveByteScale(4, "B"), 4u); // alone, with MoseScale 1: the old way
    MoseScale::Set(4);
    EXPECT_EQ(MoseScale::ResolveByteScale(0, "B"), 4u);
    EXPECT_EQ(MoseScale::ResolveByteScale(4, "B"), 4u);
    try
    {
        MoseScale::ResolveByteScale(2, "ns3::MoseTrainingWorkload::ByteScale");
        FAIL() << "a second scale was taken";
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("ns3::MoseTrainingWorkload::ByteScale = 2"), std::string::npos) << what;
        EXPECT_NE(what.find("MoseScale = 4"), std::string::npos) << what;
    }
}

// MoseTopologyHelper divides the OCS rate and the host links' rate by MoseScale at Install
TEST_F(Scale, TheTopologyInstallsItsRatesDividedByTheGlobalValue)
{
    MoseScale::Set(4);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetAttribute("HostsPerGroup", UintegerValue(2));
    topology->SetAttribute("HostDataRate", DataRateValue(DataRate("200Gbps")));
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
    topology->SetTemplate(PaperScaledConfig(16), 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topology->Install();
    for (uint32_t g = 0; g < 16; ++g)
    {
        for (uint32_t p = 0; p < 4; ++p)
        {
            EXPECT_EQ(DeviceBitRate(topology->GetPortDevice(g, p)), 200000000000u);
        }
        for (uint32_t h = 0; h < 2; ++h)
        {
            Ptr<Node> host = topology->GetHosts(g).Get(h);
            for (uint32_t i = 0; i < host->GetNDevices(); ++i)
            {
                if (DynamicCast<PointToPointNetDevice>(host->GetDevice(i)))
                {
                    EXPECT_EQ(DeviceBitRate(host->GetDevice(i)), 50000000000u);
                }
            }
        }
    }
    // what the user set is kept as given: the helper reads the unscaled value
    DataRateValue ocs;
    topology->GetOcsAttribute("DataRate", ocs);
    EXPECT_EQ(ocs.Get().GetBitRate(), 800000000000u);
}

TEST_F(Scale, ARateTheScaleWouldMakeZeroIsRefusedAtInstall)
{
    MoseScale::Set(1000);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate(999)));
    topology->SetTemplate(PaperScaledConfig(16), 1, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    try
    {
        topology->Install();
        FAIL() << "a circuit rate of 0 bit/s was installed";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::MoseOcs::DataRate"), std::string::npos)
            << e.what();
    }
}

// The same run scaled by the global value and by hand (OCS rate and ByteScale): the same
// records, to the nanosecond and the byte
TEST_F(Scale, ARunScaledByTheGlobalValueEqualsTheRunScaledByHand)
{
    const std::vector<MoseRequestRecord> byHand = RunInference(false);
    const std::vector<MoseRequestRecord> byGlobal = RunInference(true);
    ASSERT_EQ(byHand.size(), 12u);
    ASSERT_EQ(byGlobal.size(), byHand.size());
    for (std::size_t i = 0; i < byHand.size(); ++i)
    {
        EXPECT_TRUE(byHand[i].done) << i;
        EXPECT_EQ(byGlobal[i].done, byHand[i].done) << i;
        EXPECT_EQ(byGlobal[i].prefill, byHand[i].prefill) << i;
        EXPECT_EQ(byGlobal[i].decode, byHand[i].decode) << i;
        EXPECT_EQ(byGlobal[i].wireBytes, byHand[i].wireBytes) << i;
        EXPECT_EQ(byGlobal[i].kvStart, byHand[i].kvStart) << i;
        EXPECT_EQ(byGlobal[i].kvEnd, byHand[i].kvEnd) << i;
    }
    // 1124 tokens of 131072 B (Mixtral-8x7B) = 147,324,928 B, divided by 1000 and rounded
    EXPECT_EQ(byHand[1].kvBytes, 147324928u);
    EXPECT_EQ(byHand[1].wireBytes, 147325u);
}

TEST_F(Scale, AWorkloadByteScaleThatDiffersFromTheGlobalValueIsRefusedAtStart)
{
    MoseScale::Set(8);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetTemplate(PaperScaledConfig(16), 1, WorkloadMode::TRAINING_HEAVY, Policy::MOSE);
    topology->Install();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(topology->GetGroupEndpoints());
    MoseWorkloadHelper helper("ns3::MoseTrainingWorkload");
    helper.SetAttribute("ByteScale", UintegerValue(2));
    auto training = DynamicCast<MoseTrainingWorkload>(helper.Install(transport));
    const Scenario scenario = ScenarioBuilder(PaperScaledConfig(16)).Build(1);
    training->SetMode(WorkloadMode::TRAINING_HEAVY,
                      scenario.roles[1],
                      std::make_shared<const CircuitGraph>(topology->GetCircuitGraph()));
    try
    {
        training->Start(Seconds(0));
        FAIL() << "ByteScale 2 under MoseScale 8 was taken";
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("ns3::MoseTrainingWorkload::ByteScale = 2"), std::string::npos) << what;
        EXPECT_NE(what.find("MoseScale = 8"), std::string::npos) << what;
    }
}

// Every field of the fluid fabric comes from the helper that sets it at the packet level
TEST_F(Scale, TheFluidFabricIsReadFromThePacketLevelsHelpers)
{
    MoseScale::Set(2);
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetAttribute("Groups", UintegerValue(8));
    topology->SetAttribute("PortsPerGroup", UintegerValue(3));
    topology->SetAttribute("HostsPerGroup", UintegerValue(2));
    topology->SetAttribute("HostDataRate", DataRateValue(DataRate("200Gbps")));
    topology->SetAttribute("HostDelay", TimeValue(NanoSeconds(300)));
    topology->SetOcsAttribute("DataRate", DataRateValue(DataRate("800Gbps")));
    topology->SetOcsAttribute("Delay", TimeValue(MicroSeconds(2)));
    topology->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, 42);
    MoseModeSwitcherHelper switcher;
    switcher.SetSwitcherAttribute("Phases", UintegerValue(3));
    switcher.SetSwitcherAttribute("Drain", BooleanValue(false));
    switcher.SetSwitcherAttribute("FixedDrain", BooleanValue(true));
    switcher.SetSwitcherAttribute("DrainTimeout", TimeValue(MilliSeconds(7)));
    switcher.SetSwitcherAttribute("ReconfigurationDelay", TimeValue(MilliSeconds(3)));
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->SetAttribute("SegmentSize", UintegerValue(8948));
    transport->SetAttribute("NoticeDelay", TimeValue(MicroSeconds(5)));

    const FluidFabricConfig fab = MoseFluidFabricHelper::Read(*topology, switcher, transport);
    EXPECT_EQ(fab.ports, 3u);
    EXPECT_EQ(fab.rule, RoutingRule::RANDOM_SHORTEST_PATH);
    EXPECT_EQ(fab.routingSeed, 42u);
    EXPECT_EQ(fab.circuitBitRate, 400e9); // 800 Gb/s / MoseScale 2
    EXPECT_EQ(fab.hostBitRate, 100e9);    // 200 Gb/s / 2
    EXPECT_TRUE(fab.hostLinks);
    EXPECT_EQ(fab.hostsPerGroup, 2u);
    EXPECT_EQ(fab.circuitDelayNs, 2000);
    EXPECT_EQ(fab.hostDelayNs, 300);
    EXPECT_EQ(fab.segmentBytes, 8948u);
    EXPECT_EQ(fab.wireBytesPerSegment, 9002u); // + IPv4 20, TCP with timestamps 32, PPP 2
    EXPECT_EQ(fab.noticeDelayNs, 5000);
    EXPECT_EQ(fab.phases, 3u);
    EXPECT_FALSE(fab.drain);
    EXPECT_TRUE(fab.fixedDrain);
    EXPECT_EQ(fab.drainTimeoutNs, 7000000);
    EXPECT_EQ(fab.darkNs, 3000000);
    EXPECT_EQ(fab.rateEpochNs, 0);
    // before Install, the smallest link delay is the one Install will give: HostDelay here
    EXPECT_EQ(topology->GetSmallestLinkDelay(), NanoSeconds(300));
}

TEST_F(Scale, TheFluidFabricDefaultsAreThePacketLevelsDefaults)
{
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    const FluidFabricConfig fab = MoseFluidFabricHelper::Read(*topology,
                                                              MoseModeSwitcherHelper(),
                                                              CreateObject<MoseSocketTransfers>());
    // HostsPerGroup 0: the group node sends; MoseOcs 400 Gb/s and 1 us; TCP 1448 B segments
    EXPECT_FALSE(fab.hostLinks);
    EXPECT_EQ(fab.hostsPerGroup, 1u);
    EXPECT_EQ(fab.circuitBitRate, 400e9);
    EXPECT_EQ(fab.segmentBytes, 1448u);
    EXPECT_EQ(fab.wireBytesPerSegment, 1502u);
    EXPECT_EQ(fab.noticeDelayNs, 0);
    EXPECT_EQ(fab.rule, RoutingRule::SHORTEST_PATH);
    // a SegmentSize of 0 leaves TcpSocket's default (536) in place, at both levels
    Ptr<MoseSocketTransfers> tcpDefault = CreateObject<MoseSocketTransfers>();
    tcpDefault->SetAttribute("SegmentSize", UintegerValue(0));
    EXPECT_EQ(
        MoseFluidFabricHelper::Read(*topology, MoseModeSwitcherHelper(), tcpDefault).segmentBytes,
        536u);
}

// A routing rule given to the helper and another set as the table's default conflict: the
// reading throws as Install() would
TEST_F(Scale, TheFluidFabricRefusesARoutingConflictAsInstallDoes)
{
    Config::SetDefault("ns3::MoseRouteTable::Seed", UintegerValue(7));
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    topology->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, 42);
    EXPECT_THROW(MoseFluidFabricHelper::Read(*topology,
                                             MoseModeSwitcherHelper(),
                                             CreateObject<MoseSocketTransfers>()),
                 Error);
    Config::Reset();
}
