/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A switching LLM scenario as a user's script writes it, with installed classes only
// (examples/mose-llm-script.cc): the switcher keeps the workloads in step with the mode, and a
// transport that was never installed is refused.

#include "ns3/core-module.h"
#include "ns3/mose-module.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

constexpr uint32_t kGroups = 16;
constexpr uint64_t kScale = 2000;

struct Fabric
{
    Scenario scenario;
    Ptr<MoseTopologyHelper> topology;
    Ptr<MoseModeSwitcher> switcher;
};

/// 16 groups, d = 4, MoSE, inference-heavy for 0.2 s then training-heavy
Fabric
BuildFabric()
{
    const FlowExperimentConfig config = PaperScaledConfig(kGroups);
    Fabric f;
    f.scenario = ScenarioBuilder(config).Build(1);
    const ModeSchedule schedule =
        ParseSchedule("--schedule", "inference-heavy:0.2s,training-heavy:0.2s");
    f.topology = CreateObject<MoseTopologyHelper>();
    f.topology->SetOcsAttribute("DataRate", DataRateValue(DataRate(400e9 / kScale)));
    f.topology->SetTemplate(config, 1, schedule.GetInitialMode(), Policy::MOSE);
    f.topology->Install();
    MoseModeSwitcherHelper helper;
    helper.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider(Policy::MOSE, f.scenario));
    helper.SetSchedule(schedule);
    f.switcher = helper.Install(f.topology);
    return f;
}

} // namespace

// Without any wiring of "SwitchStarted" by the script, requests arriving after the switch are
// placed on the training-heavy roles, and the training job moves to the training-heavy groups.
TEST(LlmScript, TheSwitcherKeepsItsWorkloadsInStepWithTheMode)
{
    Fabric f = BuildFabric();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(f.topology->GetGroupEndpoints());
    MoseWorkloadHelper inferenceHelper("ns3::MoseInferenceWorkload");
    inferenceHelper.SetAttribute("ByteScale", UintegerValue(kScale));
    auto inference = DynamicCast<MoseInferenceWorkload>(inferenceHelper.Install(transport));
    std::vector<LlmRequest> requests;
    for (uint64_t i = 0; i < 40; ++i)
    {
        requests.push_back(LlmRequest{i * 10000000, 512, 16, "", 0}); // one per 10 ms
    }
    inference->SetRequests(requests);
    MoseWorkloadHelper trainingHelper("ns3::MoseTrainingWorkload");
    trainingHelper.SetAttribute("ByteScale", UintegerValue(kScale));
    auto training = DynamicCast<MoseTrainingWorkload>(trainingHelper.Install(transport));
    f.switcher->AddWorkload(inference);
    f.switcher->AddWorkload(training);
    EXPECT_EQ(f.switcher->GetWorkloads().size(), 2u);
    inference->Start(Seconds(0));
    training->Start(Seconds(0));
    Simulator::Schedule(Seconds(0.4), [training]() { training->Stop(); });
    Simulator::Stop(Seconds(2));
    Simulator::Run();

    ASSERT_EQ(f.switcher->GetRecords().size(), 1u);
    const RoleAssignment& before = f.scenario.roles[0];
    const RoleAssignment& after = f.scenario.roles[1];
    uint32_t early = 0;
    uint32_t late = 0;
    for (const MoseRequestRecord& r : inference->GetRecords())
    {
        ASSERT_TRUE(r.done) << "request " << r.index;
        // request 20 arrives at the boundary itself, before the switch's event (arrivals come
        // first among events of one time, as at every level)
        const bool afterSwitch = r.arrival > MilliSeconds(200);
        EXPECT_EQ(r.mode,
                  afterSwitch ? WorkloadMode::TRAINING_HEAVY : WorkloadMode::INFERENCE_HEAVY)
            << "request " << r.index;
        const RoleAssignment& roles = afterSwitch ? after : before;
        EXPECT_EQ(roles.Get(r.prefill), GroupRole::PREFILL) << "request " << r.index;
        EXPECT_EQ(roles.Get(r.decode), GroupRole::DECODE) << "request " << r.index;
        (afterSwitch ? late : early)++;
    }
    EXPECT_EQ(early, 21u);
    EXPECT_EQ(late, 19u);
    bool moved = false;
    for (const MoseIterationRecord& it : training->GetRecords())
    {
        if (it.mode == WorkloadMode::TRAINING_HEAVY)
        {
            moved = true;
            EXPECT_EQ(it.members, after.GetTraining().size());
        }
    }
    EXPECT_TRUE(moved);
    EXPECT_EQ(f.switcher->GetLossMonitor()->GetTotal(), 0u);
    EXPECT_EQ(inference->GetNErrors() + training->GetNErrors() + f.switcher->GetNErrors(), 0u);
    Simulator::Destroy();
}

// A transport that was never installed: the helper refuses it, and so does Start() of a
// workload given it directly; the switcher refuses a null workload.
TEST(LlmScript, ATransportNotInstalledIsRefusedAtInstallAndStart)
{
    Fabric f = BuildFabric();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    MoseWorkloadHelper helper("ns3::MoseInferenceWorkload");
    try
    {
        helper.Install(transport);
        ADD_FAILURE() << "a transport not installed was accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("not installed"), std::string::npos) << e.what();
    }
    Ptr<MoseInferenceWorkload> inference = CreateObject<MoseInferenceWorkload>();
    inference->SetTransfers(transport);
    inference->SetRequests({LlmRequest{0, 512, 16, "", 0}});
    f.switcher->AddWorkload(inference);
    try
    {
        inference->Start(Seconds(0));
        ADD_FAILURE() << "Start() on a transport not installed was accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("MoseInferenceWorkload::Start"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("not installed"), std::string::npos) << e.what();
    }
    Ptr<MoseTrainingWorkload> training = CreateObject<MoseTrainingWorkload>();
    training->SetTransfers(transport);
    f.switcher->AddWorkload(training);
    EXPECT_THROW(training->Start(Seconds(0)), Error);
    EXPECT_THROW(f.switcher->AddWorkload(nullptr), Error);
    // installed late, before Start(): accepted
    transport->Install(f.topology->GetGroupEndpoints());
    EXPECT_NO_THROW(inference->Start(Seconds(0)));
    Simulator::Destroy();
}

// The KV bytes per token follow the Model attribute's preset unless KvBytesPerToken is set.
TEST(LlmScript, KvBytesPerTokenFollowTheModelUnlessSet)
{
    Fabric f = BuildFabric();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(f.topology->GetGroupEndpoints());
    const auto kvBytes = [&](const std::string& model, uint64_t perToken) {
        MoseWorkloadHelper helper("ns3::MoseInferenceWorkload");
        helper.SetAttribute("Model", StringValue(model));
        if (perToken > 0)
        {
            helper.SetAttribute("KvBytesPerToken", UintegerValue(perToken));
        }
        Ptr<MoseWorkload> w = helper.Install(transport);
        auto inference = DynamicCast<MoseInferenceWorkload>(w);
        inference->SetRequests({LlmRequest{0, 512, 16, "", 0}});
        f.switcher->AddWorkload(w);
        inference->Start(Seconds(0));
        return inference->GetRecords().at(0).kvBytes;
    };
    EXPECT_EQ(kvBytes("mixtral-8x7b", 0), 512u * 131072u);
    EXPECT_EQ(kvBytes("llama-3-70b", 0), 512u * 327680u);  // 80 layers x 8 x 128 x 2 x 2 B
    EXPECT_EQ(kvBytes("deepseek-v3", 0), 512u * 70272u);   // MLA: 61 x (512 + 64) x 2 B
    EXPECT_EQ(kvBytes("llama-3-70b", 1000), 512u * 1000u); // the user's value wins
    Simulator::Destroy();
}

// A circuit monitor given to the switcher keeps each mode interval's per-circuit bytes: the
// intervals together hold every byte the ports received, and interval 0 only the first mode's
// circuits.
TEST(LlmScript, TheCircuitMonitorKeepsEveryIntervalsBytesAcrossTheSwitch)
{
    Fabric f = BuildFabric();
    Ptr<MoseCircuitMonitor> circuits = f.topology->InstallCircuitMonitor();
    f.switcher->SetCircuitMonitor(circuits);
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(f.topology->GetGroupEndpoints());
    MoseWorkloadHelper trainingHelper("ns3::MoseTrainingWorkload");
    trainingHelper.SetAttribute("ByteScale", UintegerValue(kScale));
    auto training = DynamicCast<MoseTrainingWorkload>(trainingHelper.Install(transport));
    f.switcher->AddWorkload(training);
    const CircuitGraph before = f.topology->GetOcs()->GetCircuitGraph();
    training->Start(Seconds(0));
    Simulator::Schedule(Seconds(0.4), [training]() { training->Stop(); });
    Simulator::Stop(Seconds(2));
    Simulator::Run();

    ASSERT_EQ(f.switcher->GetRecords().size(), 1u);
    ASSERT_EQ(circuits->GetIntervals().size(), 1u); // closed at the switch's start
    const std::vector<MoseCircuitBytes>& first = circuits->GetIntervals()[0];
    const std::vector<MoseCircuitBytes> second = circuits->GetCurrentInterval();
    uint64_t total = 0;
    for (const MoseCircuitBytes& c : first)
    {
        EXPECT_GE(before.FindCircuit(c.groupA, c.groupB), 0)
            << c.groupA << "-" << c.groupB << " was not a circuit of the first mode";
        total += c.bytes;
    }
    uint64_t firstBytes = total;
    for (const MoseCircuitBytes& c : second)
    {
        total += c.bytes;
    }
    uint64_t ports = 0;
    for (uint32_t g = 0; g < kGroups; ++g)
    {
        for (uint32_t p = 0; p < 4; ++p)
        {
            ports += circuits->GetPortBytes(g, p);
        }
    }
    EXPECT_GT(firstBytes, 0u);
    EXPECT_GT(total, firstBytes);
    EXPECT_EQ(total, ports) << "every byte the ports received is in exactly one interval";
    Simulator::Destroy();
}
