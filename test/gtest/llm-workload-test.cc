/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * LLM workloads at the packet level: exact KV bytes per request, exact collective bytes per
 * member pair, iterations that wait on their collectives, placement that follows the mode's
 * roles across a switch without losses, determinism, and the scale factor.
 */

#include "mose-csv-table.h"
#include "mose-llm-experiment.h"
#include "mose-llm-run-report.h"
#include "mose-llm-test-util.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-random.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <numeric>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// SmallLlmConfig(16) with a training job: an all-to-all of 400,000 B per member after 300 us
/// compute
ExperimentConfig
SmallTraining(Time end)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.training = true;
    c.llm.collectiveBytes = 400000;
    c.llm.computeTime = MicroSeconds(300);
    c.end = end;
    return c;
}

} // namespace

TEST(LlmWorkload, KvBytesReceivedAreTokensTimesBytesPerToken)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = Requests(30, 200, 200);
    c.llm.kvBytesPerToken = 1337; // not a round number: every byte counts
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.result->requests.size(), 30u);
    for (const MoseRequestRecord& r : e.result->requests)
    {
        ASSERT_TRUE(r.done) << "request " << r.index;
        EXPECT_EQ(r.kvBytes, r.inputTokens * 1337);
        EXPECT_EQ(r.wireBytes, r.kvBytes);
        EXPECT_EQ(r.received, r.inputTokens * 1337) << "request " << r.index;
        EXPECT_GE(r.prefillDone, r.arrival);
        EXPECT_EQ(r.kvStart, r.prefillDone);
        EXPECT_GT(r.kvEnd, r.kvStart);
        EXPECT_EQ(r.GetTtft(), r.kvEnd - r.arrival);
        EXPECT_EQ(RolesOf(*e.experiment, WorkloadMode::INFERENCE_HEAVY).Get(r.prefill),
                  GroupRole::PREFILL);
        EXPECT_EQ(RolesOf(*e.experiment, WorkloadMode::INFERENCE_HEAVY).Get(r.decode),
                  GroupRole::DECODE);
    }
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).inference.served, 30u);
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).errors, 0u);
}

TEST(LlmWorkload, PrefillIsFifoOneRequestAtATimePerGroup)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = Requests(40, 2000, 500);
    c.llm.prefillTokensPerSecond = 20000; // 25 ms per 500 tokens: queues form
    const LlmRun e = RunLlm(c);
    std::map<uint32_t, std::vector<const MoseRequestRecord*>> byGroup;
    for (const auto& r : e.result->requests)
    {
        ASSERT_TRUE(r.done);
        byGroup[r.prefill].push_back(&r);
        const Time compute =
            NanoSeconds(std::llround(static_cast<double>(r.inputTokens) / 20000.0 * 1e9));
        EXPECT_EQ(r.prefillDone - r.prefillStart, compute);
    }
    bool queued = false;
    for (auto& [g, list] : byGroup)
    {
        for (std::size_t k = 1; k < list.size(); ++k)
        {
            EXPECT_LT(list[k - 1]->arrival, list[k]->arrival + NanoSeconds(1));
            EXPECT_GE(list[k]->prefillStart, list[k - 1]->prefillDone) << "group " << g;
            queued = queued || list[k]->prefillStart > list[k]->arrival;
        }
    }
    EXPECT_TRUE(queued) << "the load was meant to make requests wait";
}

TEST(LlmWorkload, AllToAllDeliversExactlySOverNPerOrderedPair)
{
    ExperimentConfig c = SmallLlmConfig(32);
    c.llm.training = true;
    const RoleAssignment roles = ProbeRoles(c);
    const auto n = static_cast<uint64_t>(roles.GetTraining().size());
    ASSERT_GE(n, 3u);
    c.llm.collectiveBytes = n * 40000;
    c.llm.computeTime = MilliSeconds(1);
    c.llm.maxIterations = 3;
    c.end = MilliSeconds(500);
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.result->iterations.size(), 3u);
    for (uint32_t a = 0; a < 32; ++a)
    {
        for (uint32_t b = 0; b < 32; ++b)
        {
            if (a == b)
            {
                continue;
            }
            const bool both =
                roles.Get(a) == GroupRole::TRAINING && roles.Get(b) == GroupRole::TRAINING;
            EXPECT_EQ(e.result->GetBytesBetween(a, b), both ? 3 * 40000u : 0u) << a << "->" << b;
        }
    }
    for (const auto& it : e.result->iterations)
    {
        EXPECT_TRUE(it.done);
        EXPECT_EQ(it.members, n);
        EXPECT_EQ(it.transfers, n * (n - 1));
        EXPECT_EQ(it.wireBytes, n * (n - 1) * 40000);
    }
}

TEST(LlmWorkload, RingAllReduceSendsTwoNMinusOneOverNTimesSPerMember)
{
    ExperimentConfig c = SmallLlmConfig(32);
    c.llm.training = true;
    c.llm.collective = CollectiveKind::RING_ALL_REDUCE;
    const RoleAssignment roles = ProbeRoles(c);
    const std::vector<uint32_t>& t = roles.GetTraining();
    const auto n = static_cast<uint64_t>(t.size());
    c.llm.collectiveBytes = n * 30000;
    c.llm.computeTime = MilliSeconds(2);
    c.llm.maxIterations = 2;
    c.end = MilliSeconds(500);
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.result->iterations.size(), 2u);
    const uint64_t perMember = 2 * (n - 1) * c.llm.collectiveBytes / n;
    for (uint64_t i = 0; i < n; ++i)
    {
        uint64_t sent = 0;
        for (uint32_t g = 0; g < 32; ++g)
        {
            if (g != t[i])
            {
                sent += e.result->GetBytesBetween(t[i], g);
            }
        }
        EXPECT_EQ(sent, 2 * perMember) << "member " << i;
        EXPECT_EQ(e.result->GetBytesBetween(t[i], t[(i + 1) % n]), 2 * perMember)
            << "to its successor";
    }
}

TEST(LlmWorkload, CollectivesKeepOneConnectionPerOrderedPairAndTheSameBytes)
{
    for (CollectiveKind kind : {CollectiveKind::ALL_TO_ALL, CollectiveKind::RING_ALL_REDUCE})
    {
        ExperimentConfig c = SmallLlmConfig(16);
        c.llm.training = true;
        c.llm.collective = kind;
        const RoleAssignment roles = ProbeRoles(c);
        const auto n = static_cast<uint64_t>(roles.GetTraining().size());
        ASSERT_GE(n, 3u);
        c.llm.collectiveBytes = n * 20000 + 7; // parts of different sizes
        c.llm.computeTime = MilliSeconds(1);
        c.llm.maxIterations = 3;
        c.end = MilliSeconds(500);
        const uint64_t pairs = kind == CollectiveKind::ALL_TO_ALL ? n * (n - 1) : n;
        const uint64_t chunksPerIteration =
            kind == CollectiveKind::ALL_TO_ALL ? n * (n - 1) : 2 * (n - 1) * n;
        std::vector<uint64_t> bytes[2];
        for (bool reuse : {true, false})
        {
            c.llm.reuseConnections = reuse;
            const LlmRun e = RunLlm(c);
            ASSERT_EQ(e.result->iterations.size(), 3u);
            const LlmSummary s = SummarizeLlmRun(*e.experiment, *e.result);
            EXPECT_EQ(s.errors, 0u);
            // one connection per ordered pair for the three iterations, or one per chunk
            EXPECT_EQ(s.connections, reuse ? pairs : 3 * chunksPerIteration)
                << ToString(kind) << (reuse ? " reused" : " per chunk");
            for (uint32_t a = 0; a < 16; ++a)
            {
                for (uint32_t b = 0; b < 16; ++b)
                {
                    bytes[reuse ? 0 : 1].push_back(a == b ? 0 : e.result->GetBytesBetween(a, b));
                }
            }
        }
        EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes per ordered pair either way";
    }
}

TEST(LlmWorkload, AnIterationNeverStartsBeforeTheCollectiveEnds)
{
    ExperimentConfig c = SmallTraining(MilliSeconds(60));
    c.llm.requests = Requests(20, 400, 100); // KV traffic shares the fabric
    const LlmRun e = RunLlm(c);
    const auto& its = e.result->iterations;
    ASSERT_GE(its.size(), 3u);
    for (std::size_t k = 0; k < its.size(); ++k)
    {
        EXPECT_EQ(its[k].collectiveStart, its[k].start + MicroSeconds(300));
        if (its[k].done)
        {
            EXPECT_GT(its[k].collectiveEnd, its[k].collectiveStart);
        }
        if (k > 0)
        {
            ASSERT_TRUE(its[k - 1].done);
            EXPECT_GE(its[k].start, its[k - 1].collectiveEnd);
        }
    }
    EXPECT_LE(its.back().start, c.end) << "no iteration starts after end";
}

TEST(LlmWorkload, TheNextIterationStartsTheNoticeDelayAfterTheCollectiveEnds)
{
    ExperimentConfig c = SmallTraining(MilliSeconds(40));
    c.llm.noticeDelay = MicroSeconds(50);
    const LlmRun e = RunLlm(c);
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).noticeDelay, MicroSeconds(50));
    const auto& its = e.result->iterations;
    ASSERT_GE(its.size(), 3u);
    for (std::size_t k = 1; k < its.size(); ++k)
    {
        ASSERT_TRUE(its[k - 1].done);
        // the collective ends at its last byte; the job learns of it 50 us later
        EXPECT_EQ(its[k].start, its[k - 1].collectiveEnd + MicroSeconds(50)) << "iteration " << k;
    }
}

TEST(LlmWorkload, TheNoticeDelayMovesNoByte)
{
    // round-robin placement does not look at the load the notices release: the packets are
    // the same with any notice delay, and so is every KV transfer's last byte
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = Requests(40, 400, 200);
    c.llm.noticeDelay = Seconds(0);
    const LlmRun at0 = RunLlm(c);
    c.llm.noticeDelay = MicroSeconds(50);
    const LlmRun later = RunLlm(c);
    ASSERT_EQ(at0.result->requests.size(), 40u);
    ASSERT_EQ(later.result->requests.size(), 40u);
    for (std::size_t i = 0; i < 40; ++i)
    {
        const MoseRequestRecord& a = at0.result->requests[i];
        const MoseRequestRecord& b = later.result->requests[i];
        ASSERT_TRUE(a.done && b.done) << "request " << i;
        EXPECT_EQ(a.kvStart, b.kvStart) << "request " << i;
        EXPECT_EQ(a.kvEnd, b.kvEnd) << "request " << i;
        EXPECT_EQ(a.decode, b.decode) << "request " << i;
    }
}

TEST(LlmWorkload, TheDefaultNoticeDelayIsTwiceTheSmallestLinkDelay)
{
    TypeId::AttributeInformation info;
    ASSERT_TRUE(TypeId::LookupByName("ns3::MoseOcs").LookupAttributeByName("Delay", &info));
    const Time ocs = DynamicCast<const TimeValue>(info.initialValue)->Get();
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.requests = Requests(5, 400, 100);
    const LlmRun e = RunLlm(c);
    // MakeLlmConfig() builds no hosts: the smallest link is a circuit
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).noticeDelay, 2 * ocs);
}

TEST(LlmWorkload, PlacementFollowsTheRolesAcrossASwitchAndNothingIsLost)
{
    const ExperimentConfig c = OneSwitchConfig();
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.experiment->GetSwitchRecords().size(), 1u);
    const MoseSwitchRecord& sw = e.experiment->GetSwitchRecords()[0];
    EXPECT_TRUE(sw.done);
    EXPECT_GT(sw.removed, 0u) << "MoSE changes the template";
    const RoleAssignment& before = RolesOf(*e.experiment, WorkloadMode::INFERENCE_HEAVY);
    const RoleAssignment& after = RolesOf(*e.experiment, WorkloadMode::TRAINING_HEAVY);
    uint32_t early = 0;
    uint32_t late = 0;
    for (const auto& r : e.result->requests)
    {
        ASSERT_TRUE(r.done) << "request " << r.index;
        EXPECT_EQ(r.received, r.wireBytes);
        const bool afterSwitch = r.arrival >= MilliSeconds(150);
        const RoleAssignment& roles = afterSwitch ? after : before;
        EXPECT_EQ(r.mode,
                  afterSwitch ? WorkloadMode::TRAINING_HEAVY : WorkloadMode::INFERENCE_HEAVY);
        EXPECT_EQ(roles.Get(r.prefill), GroupRole::PREFILL) << "request " << r.index;
        EXPECT_EQ(roles.Get(r.decode), GroupRole::DECODE) << "request " << r.index;
        (afterSwitch ? late : early)++;
    }
    EXPECT_GT(early, 20u);
    EXPECT_GT(late, 20u);
    // the training job moves to the training-heavy groups after the boundary
    bool moved = false;
    for (const auto& it : e.result->iterations)
    {
        if (it.mode == WorkloadMode::TRAINING_HEAVY)
        {
            moved = true;
            EXPECT_EQ(it.members, after.GetTraining().size());
            EXPECT_GE(it.start, MilliSeconds(150));
        }
    }
    EXPECT_TRUE(moved);
    const LlmSummary s = SummarizeLlmRun(*e.experiment, *e.result);
    EXPECT_EQ(s.lost, 0u) << "drain on: nothing lost across the switch";
    EXPECT_EQ(s.errors, 0u);
}

TEST(LlmWorkload, TheIntervalsFileGivesEachIntervalTheSwitchThatStartedIt)
{
    // one boundary at 150 ms: interval 1's switch is the one record, started at its start;
    // interval 0 has none, and its switch columns are 0
    const LlmRun e = RunLlm(OneSwitchConfig());
    ASSERT_EQ(e.experiment->GetSwitchRecords().size(), 1u);
    const MoseSwitchRecord& sw = e.experiment->GetSwitchRecords()[0];
    EXPECT_EQ(sw.start, MilliSeconds(150));
    EXPECT_EQ(e.experiment->GetIntervalSwitch(0), nullptr);
    EXPECT_EQ(e.experiment->GetIntervalSwitch(1), &sw);
    EXPECT_EQ(e.experiment->GetIntervalSwitch(2), nullptr) << "past the last interval";
    std::stringstream csv;
    WriteLlmIntervalsCsv(csv, true, *e.experiment, *e.result);
    CsvTable table(csv, "intervals.csv", "an intervals file", "switch_s, ...");
    const std::size_t duration = table.RequireColumn("switch_s");
    const std::size_t changed = table.RequireColumn("circuits_changed");
    const std::size_t lost = table.RequireColumn("switch_lost");
    const auto switchColumns = [&]() {
        return std::string(table.GetText(duration)) + "," + std::string(table.GetText(changed)) +
               "," + std::string(table.GetText(lost));
    };
    ASSERT_TRUE(table.NextRow());
    EXPECT_EQ(switchColumns(), "0,0,0");
    ASSERT_TRUE(table.NextRow());
    std::ostringstream expected;
    expected << sw.GetDuration().GetSeconds() << ',' << sw.removed + sw.added << ',' << sw.lost;
    EXPECT_EQ(switchColumns(), expected.str());
    EXPECT_FALSE(table.NextRow()) << "two intervals";
    EXPECT_GT(sw.removed + sw.added, 0u) << "MoSE changes the template";
}

TEST(LlmWorkload, EachIntervalsFlowLevelDemandIsWhatItsPacketsCarried)
{
    for (const Policy policy : {Policy::MOSE, Policy::STATIC_INFERENCE})
    {
        ExperimentConfig c = OneSwitchConfig();
        c.policy = policy;
        const LlmRun e = RunLlm(c);
        ASSERT_EQ(e.result->GetIntervalCount(), 2u);
        ASSERT_EQ(e.experiment->GetSwitchRecords().size(), 1u);
        const MoseSwitchRecord& sw = e.experiment->GetSwitchRecords()[0];

        // the graphs: the initial template, then the switch's target
        const CircuitGraph& g0 = e.result->GetIntervalGraph(0);
        const CircuitGraph& g1 = e.result->GetIntervalGraph(1);
        uint32_t gone = 0;
        for (const Circuit& k : g0.GetCircuits())
        {
            gone += g1.HasCircuit(k.u, k.v) ? 0 : 1;
        }
        uint32_t fresh = 0;
        for (const Circuit& k : g1.GetCircuits())
        {
            fresh += g0.HasCircuit(k.u, k.v) ? 0 : 1;
        }
        EXPECT_EQ(gone, sw.removed) << ToString(policy);
        EXPECT_EQ(fresh, sw.added) << ToString(policy);
        if (policy == Policy::STATIC_INFERENCE)
        {
            EXPECT_EQ(gone + fresh, 0u) << "a static policy keeps its circuits";
        }
        else
        {
            EXPECT_GT(gone, 0u) << "MoSE changes the template";
        }

        // the demand: one KV flow of kvBytes per request that arrived in the interval, and
        // n (n - 1) training flows per iteration that started in it, each member sending
        // S - floor(S / n) (its buffer less the part it keeps): n (S - floor(S / n)) in all
        for (std::size_t i = 0; i < 2; ++i)
        {
            const Time a = i == 0 ? Time(0) : MilliSeconds(150);
            const Time b = i == 0 ? MilliSeconds(150) : MilliSeconds(300);
            const WorkloadMode mode =
                i == 0 ? WorkloadMode::INFERENCE_HEAVY : WorkloadMode::TRAINING_HEAVY;
            const RoleAssignment& roles = RolesOf(*e.experiment, mode);
            uint64_t requests = 0;
            double kvBytes = 0;
            for (const auto& r : e.result->requests)
            {
                if (r.arrival >= a && r.arrival < b)
                {
                    ++requests;
                    kvBytes += static_cast<double>(r.kvBytes);
                }
            }
            uint64_t pairs = 0;
            double trainingBytes = 0;
            for (const auto& it : e.result->iterations)
            {
                if (it.start >= a && it.start < b)
                {
                    const uint64_t n = it.members;
                    pairs += n * (n - 1);
                    trainingBytes +=
                        static_cast<double>(n * (it.bytesPerMember - it.bytesPerMember / n));
                }
            }
            ASSERT_GT(requests, 20u);
            ASSERT_GT(pairs, 0u);
            uint64_t kvFlows = 0;
            uint64_t trainingFlows = 0;
            double kvSum = 0;
            double trainingSum = 0;
            for (const Flow& f : GetLlmIntervalFlows(*e.experiment, *e.result, i))
            {
                if (f.cls == TrafficClass::KV)
                {
                    ++kvFlows;
                    kvSum += f.demand;
                    EXPECT_EQ(roles.Get(f.src), GroupRole::PREFILL);
                    EXPECT_EQ(roles.Get(f.dst), GroupRole::DECODE);
                }
                else
                {
                    ++trainingFlows;
                    trainingSum += f.demand;
                    EXPECT_EQ(roles.Get(f.src), GroupRole::TRAINING);
                    EXPECT_EQ(roles.Get(f.dst), GroupRole::TRAINING);
                }
            }
            EXPECT_EQ(kvFlows, requests) << "interval " << i;
            EXPECT_EQ(kvSum, kvBytes) << "interval " << i;
            EXPECT_EQ(trainingFlows, pairs) << "interval " << i;
            EXPECT_EQ(trainingSum, trainingBytes) << "interval " << i;
            const FlowMetrics m = GetLlmIntervalMetrics(*e.experiment, *e.result, i);
            EXPECT_EQ(m.kv.flows, requests);
            EXPECT_EQ(m.training.flows, pairs);
            EXPECT_EQ(m.training.demand, trainingBytes);
            EXPECT_GT(m.training.maxLoad, 0);
        }
        EXPECT_CONTAINS(ErrorOf([&] { e.result->GetIntervalGraph(2); }), "interval");
    }
}

TEST(LlmWorkload, KeptConnectionsReopenWhenTheMemberSetChanges)
{
    ExperimentConfig c = MakeLlmConfig(16);
    c.ocsRate = DataRate("10Gbps");
    c.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.06}, {WorkloadMode::TRAINING_HEAVY, 0}};
    c.end = MilliSeconds(150);
    c.llm.collectiveBytes = 100000;
    c.llm.computeTime = MilliSeconds(5);
    const LlmRun e = RunLlm(c); // no requests: every connection is a collective's
    uint64_t n1 = 0;
    uint64_t n2 = 0;
    for (const auto& it : e.result->iterations)
    {
        ASSERT_TRUE(it.done);
        (it.mode == WorkloadMode::TRAINING_HEAVY ? n2 : n1) = it.members;
    }
    ASSERT_GE(n1, 2u);
    ASSERT_GT(n2, n1) << "the training-heavy mode has more training groups";
    // one connection per ordered pair of each member set, however many iterations each ran
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).connections, n1 * (n1 - 1) + n2 * (n2 - 1));
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).errors, 0u);
    EXPECT_EQ(SummarizeLlmRun(*e.experiment, *e.result).lost, 0u);
}

TEST(LlmWorkload, TheSameRunGivesIdenticalRecords)
{
    auto once = [] {
        ExperimentConfig c = SmallLlmConfig(16);
        c.llm.training = true;
        c.llm.collectiveBytes = 200000;
        c.llm.computeTime = MilliSeconds(1);
        c.end = MilliSeconds(40);
        c.llm.placement = PlacementRule::LEAST_OUTSTANDING;
        c.llm.requests = Requests(25, 500, 200, 3);
        const LlmRun e = RunLlm(c);
        std::ostringstream os;
        WriteLlmRequestsCsv(os, true, e.experiment->GetConfig().policy, e.result->requests);
        WriteLlmIterationsCsv(os, true, e.experiment->GetConfig().policy, e.result->iterations);
        return os.str();
    };
    const std::string a = once();
    const std::string b = once();
    EXPECT_EQ(a, b);
    EXPECT_GT(a.size(), 1000u);
}

TEST(LlmWorkload, AScenarioDrawnOnceGivesTheRunItsOwnDrawGives)
{
    // what a comparison or a map does: the first run draws the scenario, the next take it
    ExperimentConfig c = OneSwitchConfig();
    c.end = MilliSeconds(200);
    auto records = [](const LlmRun& e) {
        e.experiment->Run(GetLlmRunLabel(e.experiment->GetConfig()));
        std::ostringstream os;
        WriteLlmRequestsCsv(os, true, e.experiment->GetConfig().policy, e.result->requests);
        WriteLlmIterationsCsv(os, true, e.experiment->GetConfig().policy, e.result->iterations);
        WriteLlmIntervalsCsv(os, true, *e.experiment, *e.result);
        return os.str();
    };
    std::shared_ptr<const Scenario> drawn;
    std::string own;
    {
        LlmRun first;
        first.experiment = std::make_unique<Experiment>(c);
        first.result = InstallLlmWorkload(*first.experiment);
        EXPECT_EQ(first.experiment->GetSharedScenario(), nullptr); // before Build()
        first.experiment->Build();
        drawn = first.experiment->GetSharedScenario();
        ASSERT_NE(drawn, nullptr);
        EXPECT_EQ(drawn->run, c.run);
        own = records(first);
    }
    {
        const LlmRun second = BuildLlmRun(c, drawn);
        EXPECT_EQ(second.experiment->GetSharedScenario(), drawn); // shared, not drawn again
        EXPECT_EQ(records(second), own);
    }
    EXPECT_GT(own.size(), 1000u);

    // a scenario of another run or size is refused, naming what it must be
    ExperimentConfig other = c;
    other.run = c.run + 1;
    Experiment third(other);
    try
    {
        third.SetScenario(drawn);
        FAIL() << "a scenario of another run was accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("run 2 and 16 groups"), std::string::npos) << e.what();
    }
    EXPECT_THROW(third.SetScenario(nullptr), Error);
}

TEST(LlmWorkload, BadParametersGetClearErrors)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.scale = 0;
    EXPECT_CONTAINS(ErrorOf([&] { BuildLlmRun(c); }), "scale");
    c = SmallLlmConfig(16);
    EXPECT_CONTAINS(ErrorOf([&] { BuildLlmRun(c); }), "requests");
    c.llm.requests = Requests(3, 10, 100);
    c.llm.prefillTokensPerSecond = -1;
    EXPECT_CONTAINS(ErrorOf([&] { BuildLlmRun(c); }), "prefillTokensPerSecond");
    c.llm.prefillTokensPerSecond = 100;
    c.llm.training = true;
    c.llm.collectiveBytes = 2; // below the training groups
    EXPECT_CONTAINS(ErrorOf([&] { BuildLlmRun(c); }), "CollectiveBytes");
    Simulator::Destroy();
}

TEST(LlmWorkload, AScaledRunKeepsKvAndIterationTimes)
{
    auto run = [](uint64_t scale) {
        ExperimentConfig c = SmallLlmConfig(16);
        c.llm.kvBytesPerToken = 16384;
        c.llm.requests = Requests(6, 20, 128, 5); // about 50 ms apart: each KV transfer alone
        c.llm.training = true;
        c.llm.collectiveBytes = 2000000;
        c.llm.computeTime = MilliSeconds(5);
        c.end = MilliSeconds(300);
        c.scale = scale;
        const LlmRun e = RunLlm(c);
        return SummarizeLlmRun(*e.experiment, *e.result);
    };
    const LlmSummary full = run(1);
    const LlmSummary scaled = run(8);
    ASSERT_EQ(full.inference.served, 6u);
    ASSERT_EQ(scaled.inference.served, 6u);
    ASSERT_GT(full.training.iterations, 5u);
    ASSERT_GT(scaled.training.iterations, 5u);
    const double kv = scaled.inference.kv.mean / full.inference.kv.mean - 1;
    const double it = scaled.training.iteration.mean / full.training.iteration.mean - 1;
    std::cout << "scale 8 vs 1: KV mean " << scaled.inference.kv.mean << " vs "
              << full.inference.kv.mean << " (" << kv * 100 << "%), iteration mean "
              << scaled.training.iteration.mean << " vs " << full.training.iteration.mean << " ("
              << it * 100 << "%), events " << scaled.events << " vs " << full.events << std::endl;
    EXPECT_LT(std::abs(kv), 0.10);
    EXPECT_LT(std::abs(it), 0.10);
    EXPECT_LT(scaled.events * 4, full.events) << "a scaled run has fewer packets";
}

// The training job running a plan at the packet level (16 groups): the synthetic iteration as a
// plan (MakeSyntheticPlan(): a compute, then an all-to-all of n x 40,000 B) moves exactly
// 40,000 B per ordered pair of training groups and iteration, as the synthetic job does, and
// collectives.csv has one row per iteration.
TEST(LlmWorkload, ATrainingPlanRunsAtThePacketLevel)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.llm.training = true;
    const RoleAssignment roles = ProbeRoles(c);
    const auto n = static_cast<uint32_t>(roles.GetTraining().size());
    ASSERT_GE(n, 3u);
    c.llm.trainingPlan = std::make_shared<TrainingPlan>(
        MakeSyntheticPlan(n, 300000, NcclCollective::ALL_TO_ALL, uint64_t{n} * 40000));
    c.llm.nccl.channels = 1;
    c.llm.maxIterations = 2;
    c.end = MilliSeconds(200);
    const LlmRun e = RunLlm(c);
    ASSERT_EQ(e.result->iterations.size(), 2u);
    for (const auto& it : e.result->iterations)
    {
        EXPECT_TRUE(it.done);
        EXPECT_EQ(it.wireBytes, uint64_t{n} * (n - 1) * 40000);
        // the compute (300 us) before the collective
        EXPECT_EQ((it.collectiveStart - it.start).GetMicroSeconds(), 300);
    }
    for (uint32_t a = 0; a < 16; ++a)
    {
        for (uint32_t b = 0; b < 16; ++b)
        {
            const bool both = a != b && roles.Get(a) == GroupRole::TRAINING &&
                              roles.Get(b) == GroupRole::TRAINING;
            EXPECT_EQ(e.result->GetBytesBetween(a, b), both ? 2 * 40000u : 0u) << a << "->" << b;
        }
    }
    std::ostringstream csv;
    WriteLlmCollectivesCsv(csv, false, e.experiment->GetConfig().policy, e.result->collectives);
    const std::string rows = csv.str();
    EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 2);
}
