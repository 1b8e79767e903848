/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A host per GPU (issue 28 item 2): G hosts per group, each on its own link, the LLM workloads
 * spreading a group's KV transfers and collective parts over them by rail. The group-level
 * figures do not depend on G: bytes per circuit equal the flow level's with G = 1 and G = 8,
 * the bytes between groups are the same, nothing is lost across a switch; bad values of G get
 * errors that name the option.
 */

#include "mose-experiment.h"
#include "mose-llm-experiment.h"
#include "mose-llm-options.h"
#include "mose-llm-test-util.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-llm-workload.h"
#include "ns3/mose-random.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-workload-helper.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{
/// What one fixed-fabric run of the LLM workloads gave
struct RailRun
{
    std::vector<uint64_t> circuitBytes;  //!< per circuit of the graph, both directions
    std::vector<double> flowLoad;        //!< the flow level's load of the same transfers
    std::vector<MoseTransfer> transfers; //!< every transfer (KV, then training)
    std::vector<uint64_t> pairBytes;     //!< N x N bytes received between groups
    uint64_t lost{0};                    //!< MoseLossMonitor total
    uint64_t errors{0};                  //!< errors inside events
    uint32_t groups{0};                  //!< N
};

/**
 * The inference and training workloads of the LLM experiment on a fixed fabric (no switch) of
 * `nodes` groups with G = `hosts` hosts per group and a circuit monitor: 60 KV transfers,
 * two all-to-all iterations.
 */
RailRun
RunOnRails(uint32_t nodes, uint32_t hosts, CollectiveKind kind = CollectiveKind::ALL_TO_ALL)
{
    ExperimentConfig llm = SmallLlmConfig(nodes);
    llm.hostsPerGroup = hosts;
    llm.hostRate = DataRate("10Gbps");
    ExperimentConfig c = llm;
    c.switcher = false;
    c.schedule = ModeSchedule();
    c.countCircuits = true;
    c.stopTime = Seconds(5);
    c.end = MilliSeconds(100);
    Experiment e(c);
    e.Build();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    e.InstallTransport(transport);

    MoseWorkloadHelper inference("ns3::MoseInferenceWorkload");
    inference.SetAttribute("KvBytesPerToken", UintegerValue(1024));
    inference.SetAttribute("PrefillTokensPerSecond", DoubleValue(1e6));
    inference.SetAttribute("PlacementRule", StringValue("round-robin"));
    auto kv = DynamicCast<MoseInferenceWorkload>(e.InstallWorkload(inference));
    kv->SetRequests(Requests(60, 1000, 200));
    kv->Start(Seconds(0));

    MoseWorkloadHelper training("ns3::MoseTrainingWorkload");
    training.SetAttribute(
        "Collective",
        MOSE_ENUM_VALUE(CollectiveKind)(MOSE_ENUM_CHECKER_VALUE(CollectiveKind, kind)));
    training.SetAttribute("CollectiveBytes", UintegerValue(160000));
    training.SetAttribute("ComputeTime", TimeValue(MicroSeconds(300)));
    training.SetAttribute("MaxIterations", UintegerValue(2));
    auto job = DynamicCast<MoseTrainingWorkload>(e.InstallWorkload(training));
    job->Start(Seconds(0));
    e.StopWorkloadAt(job, MilliSeconds(100));

    RailRun r;
    r.groups = nodes;
    e.SetCollect([&]() {
        r.transfers = kv->GetTransfers();
        for (const MoseTransfer& t : job->GetTransfers())
        {
            r.transfers.push_back(t);
        }
        r.pairBytes.assign(static_cast<std::size_t>(nodes) * nodes, 0);
        for (uint32_t s = 0; s < nodes; ++s)
        {
            for (uint32_t d = 0; d < nodes; ++d)
            {
                r.pairBytes[static_cast<std::size_t>(s) * nodes + d] =
                    transport->GetBytesBetween(s, d);
            }
        }
        r.lost = e.GetLossMonitor()->GetTotal();
        r.errors = transport->GetNErrors() + kv->GetNErrors() + job->GetNErrors();
    });
    e.Run();
    const ExperimentInterval& iv = e.GetIntervals().at(0);
    r.circuitBytes = iv.circuitBytes;
    std::vector<Flow> flows;
    for (const MoseTransfer& t : r.transfers)
    {
        flows.push_back(Flow{t.src, t.dst, t.cls, static_cast<double>(t.received)});
    }
    r.flowLoad = e.EvaluateFlows(iv.graph, flows).load;
    return r;
}

} // namespace

TEST(HostsPerGpu, BytesPerCircuitEqualTheFlowLevelWithOneAndEightHosts)
{
    const RailRun one = RunOnRails(16, 1);
    const RailRun eight = RunOnRails(16, 8);
    for (const RailRun* r : {&one, &eight})
    {
        const uint32_t g = r == &one ? 1 : 8;
        EXPECT_EQ(r->lost, 0u) << "G = " << g;
        EXPECT_EQ(r->errors, 0u) << "G = " << g;
        ASSERT_EQ(r->circuitBytes.size(), r->flowLoad.size());
        uint64_t total = 0;
        for (std::size_t c = 0; c < r->circuitBytes.size(); ++c)
        {
            EXPECT_EQ(static_cast<double>(r->circuitBytes[c]), r->flowLoad[c])
                << "G = " << g << ", circuit " << c;
            total += r->circuitBytes[c];
        }
        EXPECT_GT(total, 0u);
        for (const MoseTransfer& t : r->transfers)
        {
            EXPECT_TRUE(t.complete);
            EXPECT_EQ(t.received, t.bytes);
        }
    }
    // the group-level figures do not depend on G: the same transfers between the same groups
    EXPECT_EQ(one.pairBytes, eight.pairBytes);
    ASSERT_EQ(one.transfers.size(), eight.transfers.size());
    for (std::size_t i = 0; i < one.transfers.size(); ++i)
    {
        EXPECT_EQ(one.transfers[i].src, eight.transfers[i].src);
        EXPECT_EQ(one.transfers[i].dst, eight.transfers[i].dst);
        EXPECT_EQ(one.transfers[i].bytes, eight.transfers[i].bytes);
        EXPECT_EQ(one.transfers[i].srcHost, 0u);
        EXPECT_EQ(one.transfers[i].dstHost, 0u);
        // rail r to rail r
        EXPECT_EQ(eight.transfers[i].srcHost, eight.transfers[i].dstHost);
    }
}

TEST(HostsPerGpu, TransfersSpreadOverTheRailsAsARailOptimisedClusterDoes)
{
    const RailRun r = RunOnRails(64, 8); // 14 training groups: 13 parts per member
    std::set<uint32_t> kvRails;
    std::vector<std::set<uint32_t>> sendRails(r.groups);
    std::vector<std::set<uint32_t>> receiveRails(r.groups);
    uint32_t kvIndex = 0;
    for (const MoseTransfer& t : r.transfers)
    {
        if (t.cls == TrafficClass::KV)
        {
            // request i on rail i mod 8 (the KV transfers start in request order here: the
            // prefill of every request is shorter than the gap to the next)
            kvRails.insert(t.srcHost);
            ++kvIndex;
            continue;
        }
        sendRails[t.src].insert(t.srcHost);
        receiveRails[t.dst].insert(t.dstHost);
    }
    EXPECT_EQ(kvRails.size(), 8u) << kvIndex << " KV transfers";
    // an all-to-all member sends its n - 1 parts, and receives them, on every rail
    uint32_t members = 0;
    for (uint32_t g = 0; g < r.groups; ++g)
    {
        if (sendRails[g].empty())
        {
            continue;
        }
        ++members;
        EXPECT_EQ(sendRails[g].size(), 8u) << "group " << g;
        EXPECT_EQ(receiveRails[g].size(), 8u) << "group " << g;
    }
    EXPECT_EQ(members, 14u) << "the training groups of 64";
}

TEST(HostsPerGpu, RingAllReduceChunksKeepTheirRail)
{
    const RailRun one = RunOnRails(16, 1, CollectiveKind::RING_ALL_REDUCE);
    const RailRun four = RunOnRails(16, 4, CollectiveKind::RING_ALL_REDUCE);
    EXPECT_EQ(one.pairBytes, four.pairBytes);
    EXPECT_EQ(four.lost, 0u);
    EXPECT_EQ(four.errors, 0u);
    for (std::size_t c = 0; c < four.circuitBytes.size(); ++c)
    {
        EXPECT_EQ(static_cast<double>(four.circuitBytes[c]), four.flowLoad[c]) << c;
    }
    // the rail of a ring transfer is its chunk (MoseTrainingWorkload::GetRail)
    const CollectivePlan plan = PlanCollective(CollectiveKind::RING_ALL_REDUCE, 5, 100);
    for (const CollectiveTransfer& t : plan.transfers)
    {
        EXPECT_EQ(MoseTrainingWorkload::GetRail(plan, t), t.chunk);
    }
    const CollectivePlan a2a = PlanCollective(CollectiveKind::ALL_TO_ALL, 5, 100);
    for (const CollectiveTransfer& t : a2a.transfers)
    {
        EXPECT_EQ(MoseTrainingWorkload::GetRail(a2a, t), (t.dst + 5 - t.src) % 5);
    }
}

TEST(HostsPerGpu, NothingIsLostAcrossASwitch)
{
    ExperimentConfig c = OneSwitchConfig();
    c.hostsPerGroup = 8;
    c.hostRate = DataRate("10Gbps");
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.experiment->GetSwitchRecords().size(), 1u);
    EXPECT_TRUE(e.experiment->GetSwitchRecords()[0].done);
    EXPECT_GT(e.experiment->GetSwitchRecords()[0].removed, 0u);
    const LlmSummary s = SummarizeLlmRun(*e.experiment, *e.result);
    EXPECT_EQ(s.lost, 0u) << "drain on: nothing lost across the switch";
    EXPECT_EQ(s.errors, 0u);
    EXPECT_EQ(s.inference.served, s.inference.requests);
    EXPECT_GT(s.training.iterations, 1u);
    // with hosts, the smallest link is a host link: the notice delay is twice its delay
    EXPECT_EQ(s.noticeDelay, NanoSeconds(200));
}

TEST(HostsPerGpu, BadValuesGetClearErrors)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = Requests(5, 400, 100);
    for (const uint32_t g : {0u, 129u, 100000u})
    {
        c.hostsPerGroup = g;
        const std::string error = ErrorOf([&] { ValidateLlmConfig(c); });
        EXPECT_CONTAINS(error, "hostsPerGroup");
        EXPECT_CONTAINS(error, std::to_string(g));
        EXPECT_CONTAINS(error, "1 (the group node");
    }
    // the attribute set by the user to another number of endpoints fails loudly
    {
        Config::SetDefault("ns3::MoseTopologyHelper::HostsPerGroup", UintegerValue(4));
        c.hostsPerGroup = 8;
        const std::string error = ErrorOf([&] { BuildLlmRun(c); });
        Config::Reset();
        Simulator::Destroy();
        EXPECT_CONTAINS(error, "ns3::MoseTopologyHelper::HostsPerGroup = 4");
        EXPECT_CONTAINS(error, "hostsPerGroup = 8");
    }
    // the topology helper names its attribute when the group block has no room
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(16));
    topo->SetAttribute("PortsPerGroup", UintegerValue(4));
    topo->SetAttribute("HostsPerGroup", UintegerValue(251));
    Random rng = Random::Create(1, Stream::UNIFORM);
    topo->SetCircuitGraph(BuildUniformTemplate(16, 4, rng));
    const std::string error = ErrorOf([&] { topo->Install(); });
    EXPECT_CONTAINS(error, "MoseTopologyHelper::HostsPerGroup");
    EXPECT_CONTAINS(error, "251");
    EXPECT_CONTAINS(error, "0 to 250");
    // the transport: a group without endpoints
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    EXPECT_CONTAINS(ErrorOf([&] { transport->Install(std::vector<NodeContainer>(2)); }),
                    "endpoints of group 0");
}
