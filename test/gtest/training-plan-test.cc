/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Training plans (mose-training-plan.h): the DAG's order, times and bytes by hand on a fabric
// without contention and on the fluid level, the checks of a plan, and Chakra traces
// (mose-chakra-trace.h): the wire format by hand, the round trip, the shipped samples.

#include "mose-test-util.h"

#include "ns3/mose-aicb-workload.h"
#include "ns3/mose-chakra-trace.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric.h"
#include "ns3/mose-fluid-workload-fabric.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-training-job.h"
#include "ns3/mose-training-plan.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <sstream>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A fabric without contention: a transfer of B bytes takes B ns and is noticed then.
class PerByteFabric : public WorkloadFabric
{
  public:
    int64_t Now() const override
    {
        return m_now;
    }

    EventHandle Schedule(int64_t delayNs, Event event) override
    {
        const EventHandle h = m_seq++;
        m_queue.emplace(std::make_pair(m_now + delayNs, h), std::move(event));
        return h;
    }

    void Cancel(EventHandle) override
    {
    }

    uint64_t StartTransfer(const TransferSpec& t, DoneCallback done) override
    {
        const uint64_t id = transfers.size();
        transfers.push_back({m_now, t});
        const int64_t end = m_now + static_cast<int64_t>(t.bytes);
        Schedule(end - m_now, [id, end, t, done]() { done(TransferReport{id, t.bytes, end}); });
        return id;
    }

    /// runs every event
    void Run()
    {
        while (!m_queue.empty())
        {
            auto it = m_queue.begin();
            m_now = it->first.first;
            Event e = std::move(it->second);
            m_queue.erase(it);
            e();
        }
    }

    std::vector<std::pair<int64_t, TransferSpec>> transfers; //!< (start, spec) of each

  private:
    int64_t m_now{0};                                         //!< the clock
    EventHandle m_seq{0};                                     //!< next handle
    std::map<std::pair<int64_t, EventHandle>, Event> m_queue; //!< pending events
};

/// a node
PlanNode
Node(uint64_t id, PlanNodeKind kind, std::vector<uint64_t> deps)
{
    PlanNode n;
    n.id = id;
    n.kind = kind;
    n.name = "n" + std::to_string(id);
    n.origin = "test node " + std::to_string(id);
    n.dataDeps = std::move(deps);
    return n;
}

/// a compute node
PlanNode
Compute(uint64_t id, int64_t ns, std::vector<uint64_t> deps = {})
{
    PlanNode n = Node(id, PlanNodeKind::COMPUTE, std::move(deps));
    n.durationNs = ns;
    return n;
}

/// a collective node over every rank
PlanNode
Collective(uint64_t id, NcclCollective c, uint64_t bytes, std::vector<uint64_t> deps)
{
    PlanNode n = Node(id, PlanNodeKind::COLLECTIVE, std::move(deps));
    n.collective = c;
    n.bytes = bytes;
    return n;
}

/// one channel: plans of NCCL's rings with one piece for these sizes
NcclSettings
OneChannel()
{
    NcclSettings s;
    s.channels = 1;
    return s;
}

/// \return the message of the mose::Error f throws ("" if none)
template <class F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        return e.what();
    }
    return "";
}

// Rank 0: compute 100 ns, compute 50 ns after it, then the all-reduce; rank 1: compute 300 ns,
// then the all-reduce. Rank 0 is ready at 150 ns, rank 1 at 300 ns: the all-reduce starts at
// 300 ns and waited for rank 1. A ring all-reduce of 2000 B over 2 ranks is 2 steps of one
// 1000 B chunk each way: 1000 ns each on this fabric, so it ends at 2300 ns.
TEST(TrainingPlan, NodesStartAfterTheirDependencies)
{
    TrainingPlan plan;
    plan.source = "test";
    plan.ranks = {
        {Compute(0, 100),
         Compute(1, 50, {0}),
         Collective(2, NcclCollective::ALL_REDUCE, 2000, {1})},
        {Compute(0, 300), Collective(1, NcclCollective::ALL_REDUCE, 2000, {0})},
    };
    PerByteFabric fabric;
    PlanRunner runner;
    runner.Prepare(plan, RankMapping(), {5, 9}, OneChannel(), 1);
    int64_t end = -1;
    runner.Run(fabric, 0, TrafficClass::TRAINING, [&](int64_t e) { end = e; });
    fabric.Run();
    EXPECT_EQ(end, 2300);
    ASSERT_EQ(runner.GetRecords().size(), 1u);
    const CollectiveRecord& r = runner.GetRecords()[0];
    EXPECT_EQ(r.firstReadyNs, 150);
    EXPECT_EQ(r.startNs, 300);
    EXPECT_EQ(r.endNs, 2300);
    EXPECT_EQ(r.slowestRank, 1u);
    EXPECT_EQ(r.wireBytes, 4000u);
    EXPECT_EQ(r.transfers, 4u);
    ASSERT_EQ(fabric.transfers.size(), 4u);
    // step 0 at 300 ns between the members' groups, step 1 after it
    EXPECT_EQ(fabric.transfers[0].first, 300);
    EXPECT_EQ(fabric.transfers[0].second.src, 5u);
    EXPECT_EQ(fabric.transfers[0].second.dst, 9u);
    EXPECT_EQ(fabric.transfers[2].first, 1300);
    std::ostringstream csv;
    WriteCollectivesCsv(csv, runner.GetRecords(), "");
    EXPECT_EQ(
        csv.str(),
        "0,0,n2,all-reduce,2,2000,4000,4,0.000000150,0.000000300,0.000002300,0.000002000,1,1\n");
}

// Two ranks per group (G = 2): ranks 0 and 1 on member 0, rails 0 and 1; 2 and 3 on member 1.
// A ring all-reduce of 4000 B over the 4 ranks moves 1000 B chunks: the hops 0 -> 1 and 2 -> 3
// stay inside a group (no fabric, no time), 1 -> 2 and 3 -> 0 cross it: 6 steps x 1000 B on
// each, 12000 B on the fabric; rank 1 sends on rail 1, rank 3 on rail 1.
TEST(TrainingPlan, RanksMapToGroupsAndRails)
{
    TrainingPlan plan;
    plan.source = "test";
    for (uint32_t r = 0; r < 4; ++r)
    {
        plan.ranks.push_back({Collective(0, NcclCollective::ALL_REDUCE, 4000, {})});
    }
    RankMapping mapping;
    mapping.ranksPerGroup = 2;
    EXPECT_EQ(mapping.GetMember(3), 1u);
    EXPECT_EQ(mapping.GetRail(3), 1u);
    PerByteFabric fabric;
    PlanRunner runner;
    runner.Prepare(plan, mapping, {0, 1}, OneChannel(), 1);
    EXPECT_EQ(runner.GetWireBytes(), 12000u);
    EXPECT_EQ(runner.GetTransfers(), 12u);
    int64_t end = -1;
    runner.Run(fabric, 0, TrafficClass::TRAINING, [&](int64_t e) { end = e; });
    fabric.Run();
    ASSERT_EQ(fabric.transfers.size(), 12u);
    for (const auto& [start, t] : fabric.transfers)
    {
        EXPECT_EQ(t.rail, 1u);
        EXPECT_EQ(t.bytes, 1000u);
    }
    // step k of rank i waits for step k - 1 of rank i - 1 only: the chain of a step-5 transfer
    // goes through 6 consecutive ranks, 3 inside hops (0 ns) and 3 crossings (1000 ns)
    EXPECT_EQ(end, 3000);
    // one rank per group leaves ranks 2 and 3 outside the two groups
    mapping.ranksPerGroup = 1;
    const std::string e = ErrorOf([&]() {
        runner.Prepare(plan, mapping, {0, 1}, OneChannel(), 1);
    });
    EXPECT_NE(e.find("rank 2 maps to training member 2"), std::string::npos) << e;
}

// The fluid level, round numbers (fluid-fabric-test.cc): circuits of 1 GB/s, a one-circuit
// path's latency 2300 ns. Rank 0 computes 1000 ns and sends 1e6 B to rank 1 (1 ms on the
// circuit): the receive completes at 1000 + 1e6 + 2300 ns. Then an all-to-all of 2e6 B over the
// two: 1e6 B each way, on the circuit's two directions at once: 1e6 + 2300 ns more.
TEST(TrainingPlan, IterationTimeOnTheFluidLevelByHand)
{
    FluidFabricConfig c;
    c.ports = 1;
    c.circuitBitRate = 8e9;
    c.hostBitRate = 80e9;
    c.segmentBytes = 1000;
    c.wireBytesPerSegment = 1000;
    c.circuitDelayNs = 1000;
    c.hostDelayNs = 100;
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), c);
    FluidWorkloadFabric fabric(fluid);
    PlanNode send = Node(1, PlanNodeKind::SEND, {0});
    send.peer = 1;
    send.bytes = 1000000;
    PlanNode recv = Node(0, PlanNodeKind::RECV, {});
    recv.peer = 0;
    recv.bytes = 1000000;
    TrainingPlan plan;
    plan.source = "test";
    plan.ranks = {
        {Compute(0, 1000), send, Collective(2, NcclCollective::ALL_TO_ALL, 2000000, {1})},
        {recv, Collective(1, NcclCollective::ALL_TO_ALL, 2000000, {0})},
    };
    PlanRunner runner;
    runner.Prepare(plan, RankMapping(), {0, 1}, OneChannel(), 1);
    int64_t end = -1;
    runner.Run(fabric, 0, TrafficClass::TRAINING, [&](int64_t e) { end = e; });
    fluid.Run(1000000000);
    ASSERT_EQ(runner.GetRecords().size(), 2u);
    EXPECT_EQ(runner.GetRecords()[0].kind, "send");
    EXPECT_EQ(runner.GetRecords()[0].startNs, 1000);
    EXPECT_EQ(runner.GetRecords()[0].endNs, 1003300);
    EXPECT_EQ(runner.GetRecords()[1].startNs, 1003300);
    EXPECT_EQ(runner.GetRecords()[1].endNs, 2005600);
    EXPECT_EQ(end, 2005600);
    EXPECT_EQ(fluid.GetBytesBetween(0, 1), 2000000u);
    EXPECT_EQ(fluid.GetBytesBetween(1, 0), 1000000u);
}

// The synthetic job's iteration (a compute, then one collective over every member) as a plan
// (MakeSyntheticPlan()) runs the same transfers at the same times: the job's records agree to
// the nanosecond at the fluid level, on a 4-ring of 1 GB/s circuits, for both collectives.
TEST(TrainingPlan, SyntheticJobAsAPlanGivesTheSameIterations)
{
    for (NcclCollective c : {NcclCollective::ALL_TO_ALL, NcclCollective::ALL_REDUCE})
    {
        auto run = [c](bool asPlan) {
            FluidFabricConfig cfg;
            cfg.ports = 2;
            cfg.circuitBitRate = 8e9;
            cfg.hostBitRate = 80e9;
            cfg.segmentBytes = 1000;
            cfg.wireBytesPerSegment = 1000;
            FluidFabric fluid(CircuitGraph(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}), cfg);
            FluidWorkloadFabric fabric(fluid);
            TrainingJob job;
            job.SetMode(WorkloadMode::TRAINING_HEAVY, RoleAssignment::Contiguous({0, 0, 4}));
            TrainingSettings s;
            s.collective = c == NcclCollective::ALL_TO_ALL ? CollectiveKind::ALL_TO_ALL
                                                           : CollectiveKind::RING_ALL_REDUCE;
            s.collectiveBytes = 4000000;
            s.computeNs = 5000;
            s.maxIterations = 2;
            if (asPlan)
            {
                s.plan = std::make_shared<TrainingPlan>(MakeSyntheticPlan(4, 5000, c, 4000000));
                s.nccl.channels = 1;
            }
            job.Start(fabric, 0, s);
            fluid.Run(1000000000000);
            EXPECT_EQ(job.GetNErrors(), 0u);
            return job.GetRecords();
        };
        const auto synthetic = run(false);
        const auto plan = run(true);
        ASSERT_EQ(synthetic.size(), 2u);
        ASSERT_EQ(plan.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i)
        {
            EXPECT_EQ(plan[i].start, synthetic[i].start) << ToString(c) << " " << i;
            EXPECT_EQ(plan[i].collectiveStart, synthetic[i].collectiveStart) << ToString(c);
            EXPECT_EQ(plan[i].collectiveEnd, synthetic[i].collectiveEnd) << ToString(c);
            EXPECT_EQ(plan[i].wireBytes, synthetic[i].wireBytes) << ToString(c);
            EXPECT_EQ(plan[i].transfers, synthetic[i].transfers) << ToString(c);
            EXPECT_TRUE(plan[i].done);
        }
        // an all-to-all of 4e6 B over 4: each member sends 3 x 1e6 B; a ring all-reduce 6 x 1e6
        EXPECT_EQ(plan[0].wireBytes, c == NcclCollective::ALL_TO_ALL ? 12000000u : 24000000u);
    }
}

TEST(TrainingPlan, BadPlansAreNamed)
{
    auto validate = [](std::vector<std::vector<PlanNode>> ranks) {
        TrainingPlan plan;
        plan.source = "test";
        plan.ranks = std::move(ranks);
        return ErrorOf([&]() { plan.Validate(); });
    };
    // a missing dependency
    std::string e = validate({{Compute(0, 1), Compute(1, 1, {7})}});
    EXPECT_NE(e.find("test node 1: depends on node 7, which rank 0 does not have"),
              std::string::npos)
        << e;
    // a cycle 1 -> 2 -> 1 behind node 0
    e = validate({{Compute(0, 1), Compute(1, 1, {0, 2}), Compute(2, 1, {1})}});
    EXPECT_NE(e.find("a cycle of dependencies"), std::string::npos) << e;
    EXPECT_NE(e.find("1 -> 2 -> 1"), std::string::npos) << e;
    // a size of zero
    e = validate({{Collective(0, NcclCollective::ALL_REDUCE, 0, {})},
                  {Collective(0, NcclCollective::ALL_REDUCE, 0, {})}});
    EXPECT_NE(e.find("test node 0: all-reduce of 0 bytes"), std::string::npos) << e;
    // a group rank outside the plan
    PlanNode outside = Collective(0, NcclCollective::ALL_REDUCE, 10, {});
    outside.group = {0, 2};
    e = validate({{outside}, {Compute(0, 1)}});
    EXPECT_NE(e.find("has rank 2, outside the 2 ranks"), std::string::npos) << e;
    // collectives that do not match
    e = validate({{Collective(0, NcclCollective::ALL_REDUCE, 10, {})},
                  {Collective(0, NcclCollective::ALL_GATHER, 10, {})}});
    EXPECT_NE(e.find("does not match"), std::string::npos) << e;
    // a send without its receive
    PlanNode send = Node(0, PlanNodeKind::SEND, {});
    send.peer = 1;
    send.bytes = 5;
    e = validate({{send}, {Compute(0, 1)}});
    EXPECT_NE(e.find("each send needs its receive"), std::string::npos) << e;
    EXPECT_EQ(validate({{Compute(0, 1)}}), "");
}

/// a send (SEND) to or a receive (RECV) from the peer of 8 B, tag 0
PlanNode
Message(uint64_t id, PlanNodeKind kind, uint32_t peer, std::vector<uint64_t> deps = {})
{
    PlanNode n = Node(id, kind, std::move(deps));
    n.peer = peer;
    n.bytes = 8;
    return n;
}

/// \return a plan "test" of these ranks' nodes, each node's origin "rR node ID"
TrainingPlan
PlanOf(std::vector<std::vector<PlanNode>> ranks)
{
    TrainingPlan plan;
    plan.source = "test";
    plan.ranks = std::move(ranks);
    for (std::size_t r = 0; r < plan.ranks.size(); ++r)
    {
        for (PlanNode& n : plan.ranks[r])
        {
            n.origin = "r" + std::to_string(r) + " node " + std::to_string(n.id);
        }
    }
    return plan;
}

/// \return a plan whose ranks 0 and 1 are make(r, swapped) (swapped: rank0Swapped for rank 0,
///         rank1Swapped for rank 1), the ranks of others after them
TrainingPlan
TwoOrders(bool rank0Swapped,
          bool rank1Swapped,
          const std::function<std::vector<PlanNode>(uint32_t, bool)>& make,
          const std::vector<std::vector<PlanNode>>& others = {})
{
    std::vector<std::vector<PlanNode>> ranks{make(0, rank0Swapped), make(1, rank1Swapped)};
    ranks.insert(ranks.end(), others.begin(), others.end());
    return PlanOf(std::move(ranks));
}

/// \return two ranks that each send 8 B to the other and receive 8 B from it, the second
///         after the first; rank r sends first if its flag is set
TrainingPlan
MessagePlan(bool rank0SendsFirst, bool rank1SendsFirst)
{
    return TwoOrders(rank0SendsFirst, rank1SendsFirst, [](uint32_t r, bool sendFirst) {
        const auto first = sendFirst ? PlanNodeKind::SEND : PlanNodeKind::RECV;
        const auto second = sendFirst ? PlanNodeKind::RECV : PlanNodeKind::SEND;
        return std::vector<PlanNode>{Message(0, first, 1 - r), Message(1, second, 1 - r, {0})};
    });
}

/// \return three ranks: an all-gather of 24 B over all and, on ranks 0 and 1, an all-reduce of
///         8 B on {0, 1} before (rank r if its flag is set) or after it
TrainingPlan
GroupPlan(bool rank0PairFirst, bool rank1PairFirst)
{
    const auto gather = NcclCollective::ALL_GATHER;
    auto make = [gather](uint32_t, bool pairFirst) {
        PlanNode pair = Collective(pairFirst ? 0 : 1, NcclCollective::ALL_REDUCE, 8, {});
        pair.group = {0, 1};
        PlanNode all = Collective(pairFirst ? 1 : 0, gather, 24, {});
        (pairFirst ? all : pair).dataDeps = {0};
        return pairFirst ? std::vector<PlanNode>{pair, all} : std::vector<PlanNode>{all, pair};
    };
    return TwoOrders(rank0PairFirst, rank1PairFirst, make, {{Collective(0, gather, 24, {})}});
}

/// \return two ranks with two all-reduces of 8 B over both (matched by order: node 0 with
///         node 0); rank r runs its node 1 first if its flag is set
TrainingPlan
OrderPlan(bool rank0SecondFirst, bool rank1SecondFirst)
{
    return TwoOrders(rank0SecondFirst, rank1SecondFirst, [](uint32_t, bool secondFirst) {
        const auto ar = NcclCollective::ALL_REDUCE;
        return std::vector<PlanNode>{
            Collective(0, ar, 8, secondFirst ? std::vector<uint64_t>{1} : std::vector<uint64_t>{}),
            Collective(1, ar, 8, secondFirst ? std::vector<uint64_t>{} : std::vector<uint64_t>{0})};
    });
}

// Deadlocks across ranks: each rank's graph is acyclic and every node is matched, but the
// ranks wait for each other. Each message follows the cycle node by node, by hand from the
// wait-for graph (a match is one vertex; the DFS starts at the match of rank 0's first node).
TEST(TrainingPlan, DeadlocksAcrossRanksAreRefused)
{
    const auto send = PlanNodeKind::SEND;
    const auto recv = PlanNodeKind::RECV;
    const auto ar = NcclCollective::ALL_REDUCE;
    auto validate = [](const TrainingPlan& plan) { return ErrorOf([&]() { plan.Validate(); }); };
    const std::string head = "test: a deadlock across ranks, each node waiting for the next (a "
                             "collective, or a send and its receive, starts when every rank of it "
                             "reached it): ";
    // both ranks receive before they send
    EXPECT_EQ(validate(MessagePlan(false, false)),
              head + "r0 node 1 (rank 0, send to rank 1, tag 0) -> its dependency r0 node 0 "
                     "(rank 0, receive from rank 1, tag 0) -> its send r1 node 1 (rank 1, send "
                     "to rank 0, tag 0) -> its dependency r1 node 0 (rank 1, receive from rank "
                     "0, tag 0) -> its send r0 node 1");
    // both send first: each send waits for its receive, which its rank reaches after the send
    EXPECT_NE(validate(MessagePlan(true, true)).find("-> its receive "), std::string::npos);
    // the orders that complete: one rank sends first, the other receives first
    EXPECT_EQ(validate(MessagePlan(true, false)), "");
    EXPECT_EQ(validate(MessagePlan(false, true)), "");
    // a collective that rank 0 reaches only after the all-reduce on {0, 1}, which rank 1
    // reaches only after the collective over all three
    EXPECT_EQ(validate(GroupPlan(true, false)),
              head + "r1 node 1 (rank 1, all-reduce on ranks {0,1}) -> its dependency r1 node "
                     "0 (rank 1, all-gather on ranks {0,1,2}) -> its collective's member r0 node "
                     "1 (rank 0, all-gather on ranks {0,1,2}) -> its dependency r0 node 0 (rank "
                     "0, all-reduce on ranks {0,1}) -> its collective's member r1 node 1");
    EXPECT_EQ(validate(GroupPlan(true, true)), "");
    EXPECT_EQ(validate(GroupPlan(false, false)), "");
    // two all-reduces of one group matched by order (node 0 with node 0): rank 0 runs its
    // second first, rank 1 its first first
    EXPECT_EQ(validate(OrderPlan(true, true)), "");
    EXPECT_EQ(validate(OrderPlan(true, false)),
              head + "r0 node 0 (rank 0, all-reduce on ranks {0,1}) -> its dependency r0 node 1 "
                     "(rank 0, all-reduce on ranks {0,1}) -> its collective's member r1 node 1 "
                     "(rank 1, all-reduce on ranks {0,1}) -> its dependency r1 node 0 (rank 1, "
                     "all-reduce on ranks {0,1}) -> its collective's member r0 node 0");
    // a cycle through a compute node and a control dependency: rank 0's compute waits for the
    // receive, the send waits for the compute; rank 1 receives first
    PlanNode compute = Compute(2, 5);
    compute.ctrlDeps = {0};
    EXPECT_EQ(validate(PlanOf({{Message(0, recv, 1), Message(1, send, 1, {2}), compute},
                               {Message(0, recv, 0), Message(1, send, 0, {0})}})),
              head + "r0 node 1 (rank 0, send to rank 1, tag 0) -> its dependency r0 node 2 "
                     "(rank 0, compute) -> its dependency r0 node 0 (rank 0, receive from rank "
                     "1, tag 0) -> its send r1 node 1 (rank 1, send to rank 0, tag 0) -> its "
                     "dependency r1 node 0 (rank 1, receive from rank 0, tag 0) -> its send r0 "
                     "node 1");
    // a send with no receive, a collective one member does not have: refused by the matching
    EXPECT_EQ(validate(PlanOf({{Message(0, send, 1)}, {Compute(0, 1)}})),
              "r0 node 0: 1 sends from rank 0 to rank 1 with tag 0 and 0 receives: each send "
              "needs its receive");
    PlanNode pair = Collective(0, ar, 8, {});
    pair.group = {0, 1};
    EXPECT_NE(validate(PlanOf({{pair}, {Compute(0, 1)}, {Compute(0, 1)}}))
                  .find("rank 1 has 0 collectives on group {0,1} and rank 0 has 1"),
              std::string::npos);
    // the module's MoE plans complete
    EXPECT_EQ(validate(MakeMoePlan(MoeShape())), "");
    EXPECT_EQ(validate(MakeMoeAicbWorkload(MoeShape()).ToPlan()), "");
}

TEST(TrainingPlan, MoeShapeByHand)
{
    const TrainingPlan plan = MakeMoePlan(MoeShape());
    plan.Validate();
    ASSERT_EQ(plan.ranks.size(), 8u);
    // 2 layers x (2 computes + 2 all-to-alls) x 2 passes + the all-reduce
    EXPECT_EQ(plan.ranks[5].size(), 17u);
    EXPECT_EQ(plan.ranks[5][1].group, (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(plan.ranks[5][16].group, (std::vector<uint32_t>{1, 5}));
    // 8 all-to-alls per EP group (2 groups), 1 all-reduce per DP group (4 groups)
    PlanRunner runner;
    runner.Prepare(plan, RankMapping(), {0, 1, 2, 3, 4, 5, 6, 7}, OneChannel(), 1);
    // an all-to-all of S over 4 moves 3 S / 4 per rank: 4 x 3 MiB; a ring all-reduce of S over
    // 2 moves S per rank: 2 x 64 MiB
    EXPECT_EQ(runner.GetWireBytes(), 16u * 4u * 3145728u + 4u * 2u * 67108864u);
}

// ---------------------------------------------------------------------------------------------
// Chakra traces

/// \return v as a protobuf varint
std::string
Varint(uint64_t v)
{
    std::string s;
    while (v >= 0x80)
    {
        s += static_cast<char>(0x80 | (v & 0x7f));
        v >>= 7;
    }
    return s + static_cast<char>(v);
}

/// \return a length-delimited field of the given number
std::string
Bytes(uint32_t field, const std::string& payload)
{
    return Varint(field << 3 | 2) + Varint(payload.size()) + payload;
}

/// \return a varint field
std::string
Int(uint32_t field, uint64_t v)
{
    return Varint(field << 3) + Varint(v);
}

/// \return an AttributeProto (name 1) with int64_val (9)
std::string
IntAttr(const std::string& name, uint64_t v)
{
    return Bytes(10, Bytes(1, name) + Int(9, v));
}

/// \return a file of GlobalMetadata (version 1 = "0.0.4") and the nodes, each with its length
std::string
TraceFile(const std::vector<std::string>& nodes)
{
    std::string meta = Bytes(1, "0.0.4");
    std::string s = Varint(meta.size()) + meta;
    for (const auto& n : nodes)
    {
        s += Varint(n.size()) + n;
    }
    return s;
}

/// \return a fresh folder of this test file's
std::string
Folder(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() /
                     ("mose-chakra-" + std::to_string(::getpid())) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

/// writes a binary file
void
WriteBinary(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

// Bytes written here by hand from Chakra's schema (Node: id 1, name 2, type 3, data_deps 5,
// duration_micros 7, attr 10; COMP_NODE 4, COMM_COLL_NODE 7; ALL_TO_ALL 6): two ranks, each a
// compute of 3 us and then an all-to-all of 4096 B after it.
TEST(ChakraTrace, ReadsTheSchemasWireFormat)
{
    if (!HasChakraSupport())
    {
        GTEST_SKIP() << "built without protobuf";
    }
    const std::string dir = Folder("wire");
    for (int r = 0; r < 2; ++r)
    {
        const std::string compute = Int(1, 10) + Bytes(2, "fwd") + Int(3, 4) + Int(7, 3);
        const std::string coll = Int(1, 11) + Bytes(2, "a2a") + Int(3, 7) + Bytes(5, Varint(10)) +
                                 IntAttr("comm_type", 6) + IntAttr("comm_size", 4096);
        WriteBinary(dir + "/moe." + std::to_string(r) + ".et", TraceFile({compute, coll}));
    }
    const TrainingPlan plan = ReadChakraTrace(dir);
    ASSERT_EQ(plan.ranks.size(), 2u);
    ASSERT_EQ(plan.ranks[1].size(), 2u);
    EXPECT_EQ(plan.ranks[1][0].kind, PlanNodeKind::COMPUTE);
    EXPECT_EQ(plan.ranks[1][0].durationNs, 3000);
    EXPECT_EQ(plan.ranks[1][1].kind, PlanNodeKind::COLLECTIVE);
    EXPECT_EQ(plan.ranks[1][1].collective, NcclCollective::ALL_TO_ALL);
    EXPECT_EQ(plan.ranks[1][1].bytes, 4096u);
    EXPECT_EQ(plan.ranks[1][1].dataDeps, (std::vector<uint64_t>{10}));
    EXPECT_NE(plan.ranks[1][1].origin.find("moe.1.et node 11"), std::string::npos);
}

TEST(ChakraTrace, BadTracesAreNamedByFileAndNode)
{
    if (!HasChakraSupport())
    {
        GTEST_SKIP() << "built without protobuf";
    }
    const std::string dir = Folder("bad");
    // REDUCE (1): a collective mose does not plan
    WriteBinary(
        dir + "/t.0.et",
        TraceFile({Int(1, 4) + Int(3, 7) + IntAttr("comm_type", 1) + IntAttr("comm_size", 8)}));
    std::string e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find("t.0.et node 4: comm_type 1 (REDUCE) is a collective mose does not plan"),
              std::string::npos)
        << e;
    // a missing dependency
    WriteBinary(dir + "/t.0.et", TraceFile({Int(1, 4) + Int(3, 4) + Bytes(5, Varint(9))}));
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find("t.0.et node 4: depends on node 9"), std::string::npos) << e;
    // a rank file missing: t.0.et and t.2.et
    WriteBinary(dir + "/t.0.et", TraceFile({Int(1, 4) + Int(3, 4)}));
    WriteBinary(dir + "/t.2.et", TraceFile({Int(1, 4) + Int(3, 4)}));
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find("t.1.et is missing"), std::string::npos) << e;
    std::filesystem::remove(dir + "/t.2.et");
    // garbage after the metadata
    WriteBinary(dir + "/t.0.et", TraceFile({}) + std::string("\x05\xff\xff", 3));
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find("is not a Chakra Node"), std::string::npos) << e;
    // a pg_name without comm_group.json
    WriteBinary(
        dir + "/t.0.et",
        TraceFile({Int(1, 4) + Int(3, 7) + IntAttr("comm_type", 0) + IntAttr("comm_size", 8) +
                   Bytes(10, Bytes(1, "pg_name") + Bytes(29, "7"))}));
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find("pg_name \"7\" is not a group"), std::string::npos) << e;
}

TEST(ChakraTrace, CommGroupsJson)
{
    const auto g = ParseCommGroups("g.json", "{\"1\": [0, 1], \"2\": [2,3]}\n");
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g.at("2"), (std::vector<uint32_t>{2, 3}));
    EXPECT_NE(ErrorOf([]() { ParseCommGroups("g.json", "{\"1\": [0, -1]}"); }).find("g.json"),
              std::string::npos);
    EXPECT_NE(ErrorOf([]() { ParseCommGroups("g.json", "{\"1\": []}"); }).find("has no rank"),
              std::string::npos);
}

/// \return a folder holding a's trace as the writer writes it, with the files of the ranks
///         fromB taken from b's (both valid plans of the same ranks): a set of rank files each
///         of which is fine alone
std::string
MixedTrace(const std::string& name,
           const TrainingPlan& a,
           const TrainingPlan& b,
           const std::vector<uint32_t>& fromB)
{
    const std::string dir = Folder(name);
    const std::string other = Folder(name + "-b");
    WriteChakraTrace(a, dir, "t");
    WriteChakraTrace(b, other, "t");
    for (uint32_t r : fromB)
    {
        const std::string file = "/t." + std::to_string(r) + ".et";
        std::filesystem::copy_file(other + file,
                                   dir + file,
                                   std::filesystem::copy_options::overwrite_existing);
    }
    return dir;
}

// The deadlocks of TrainingPlan.DeadlocksAcrossRanksAreRefused as Chakra files: each rank's
// file is the writer's output of a plan that completes, the set is not; the error names the
// trace, then each node by file, node id and rank. The shipped samples are accepted.
TEST(ChakraTrace, DeadlocksAcrossRankFilesAreRefused)
{
    if (!HasChakraSupport())
    {
        GTEST_SKIP() << "built without protobuf";
    }
    // rank 0 receives first, rank 1 sends first; and the other way round
    const TrainingPlan recvFirst = MessagePlan(false, true);
    const TrainingPlan sendFirst = MessagePlan(true, false);
    std::string dir = MixedTrace("both-receive", recvFirst, sendFirst, {1});
    std::string e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_EQ(e.rfind(dir + ": a deadlock across ranks", 0), 0u) << e;
    EXPECT_NE(e.find("): " + dir +
                     "/t.0.et node 1 (rank 0, send to rank 1, tag 0) -> its "
                     "dependency " +
                     dir +
                     "/t.0.et node 0 (rank 0, receive from rank 1, tag 0) "
                     "-> its send " +
                     dir +
                     "/t.1.et node 1 (rank 1, send to rank 0, tag 0) -> "
                     "its dependency " +
                     dir +
                     "/t.1.et node 0 (rank 1, receive from rank 0, tag "
                     "0) -> its send " +
                     dir + "/t.0.et node 1"),
              std::string::npos)
        << e;
    // each set alone completes
    EXPECT_EQ(ErrorOf([&]() { ReadChakraTrace(MixedTrace("same", recvFirst, sendFirst, {})); }),
              "");
    // two all-reduces over both ranks matched by order, run in another order on rank 1
    dir = MixedTrace("order", OrderPlan(true, true), OrderPlan(false, false), {1});
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_NE(e.find(dir + "/t.0.et node 0 (rank 0, all-reduce on ranks {0,1}) -> its dependency " +
                     dir +
                     "/t.0.et node 1 (rank 0, all-reduce on ranks {0,1}) -> its "
                     "collective's member " +
                     dir +
                     "/t.1.et node 1 (rank 1, all-reduce on ranks "
                     "{0,1})"),
              std::string::npos)
        << e;
    // a collective on a process group (comm_group.json) rank 1 reaches before the one over all
    dir = MixedTrace("group", GroupPlan(false, false), GroupPlan(true, true), {1, 2});
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    // rank 1's all-gather waits for its all-reduce on {0,1}, which rank 0 reaches after its
    // all-gather, the same collective as rank 1's
    EXPECT_EQ(e.substr(e.find("): ") + 3),
              dir + "/t.1.et node 1 (rank 1, all-gather on ranks {0,1,2}) -> its dependency " +
                  dir +
                  "/t.1.et node 0 (rank 1, all-reduce on ranks {0,1}) -> its collective's "
                  "member " +
                  dir +
                  "/t.0.et node 1 (rank 0, all-reduce on ranks {0,1}) -> its "
                  "dependency " +
                  dir +
                  "/t.0.et node 0 (rank 0, all-gather on ranks {0,1,2}) -> "
                  "its collective's member " +
                  dir + "/t.1.et node 1")
        << e;
    // a send whose receive is in no file
    dir =
        MixedTrace("no-receive", sendFirst, PlanOf({{Compute(0, 1000)}, {Compute(0, 1000)}}), {1});
    e = ErrorOf([&]() { ReadChakraTrace(dir); });
    EXPECT_EQ(e,
              dir + "/t.0.et node 0: 1 sends from rank 0 to rank 1 with tag 0 and 0 receives: "
                    "each send needs its receive");
    // the shipped samples
    EXPECT_EQ(ErrorOf([]() { ReadChakraTrace((TracesDir() / "moe-chakra").string()); }), "");
    EXPECT_EQ(ErrorOf([]() { ReadAicbWorkload((TracesDir() / "moe-aicb.txt").string()); }), "");
}

/// \return whether two plans have the same nodes (origins aside)
void
ExpectSamePlan(const TrainingPlan& a, const TrainingPlan& b)
{
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r)
    {
        ASSERT_EQ(a.ranks[r].size(), b.ranks[r].size());
        for (std::size_t k = 0; k < a.ranks[r].size(); ++k)
        {
            const PlanNode& x = a.ranks[r][k];
            const PlanNode& y = b.ranks[r][k];
            EXPECT_EQ(x.id, y.id);
            EXPECT_EQ(x.name, y.name);
            EXPECT_EQ(x.kind, y.kind);
            EXPECT_EQ(x.durationNs, y.durationNs);
            EXPECT_EQ(x.bytes, y.bytes);
            EXPECT_EQ(x.group, y.group);
            EXPECT_EQ(x.dataDeps, y.dataDeps);
            EXPECT_EQ(x.ctrlDeps, y.ctrlDeps);
            if (x.kind == PlanNodeKind::COLLECTIVE)
            {
                EXPECT_EQ(x.collective, y.collective);
            }
            else if (x.kind != PlanNodeKind::COMPUTE)
            {
                EXPECT_EQ(x.peer, y.peer);
                EXPECT_EQ(x.tag, y.tag);
            }
        }
    }
}

// The MoE sample: written by the module's writer, read back, the same plan; the files shipped
// in examples/traces/moe-chakra are the writer's output (MOSE_WRITE_SAMPLE_TRACES=1 rewrites
// them).
TEST(ChakraTrace, RoundTripAndTheShippedSample)
{
    if (!HasChakraSupport())
    {
        GTEST_SKIP() << "built without protobuf";
    }
    TrainingPlan moe = MakeMoePlan(MoeShape());
    // a pipeline message too: rank 0 sends its output to rank 4 before the all-reduce
    PlanNode send = Node(17, PlanNodeKind::SEND, {15});
    send.peer = 4;
    send.bytes = 1048576;
    send.tag = 3;
    PlanNode recv = Node(17, PlanNodeKind::RECV, {15});
    recv.peer = 0;
    recv.bytes = 1048576;
    recv.tag = 3;
    moe.ranks[0].push_back(send);
    moe.ranks[4].push_back(recv);
    const std::string dir = Folder("round");
    WriteChakraTrace(moe, dir, "moe");
    EXPECT_TRUE(std::filesystem::exists(dir + "/comm_group.json"));
    ExpectSamePlan(moe, ReadChakraTrace(dir));

    const std::string shipped = (TracesDir() / "moe-chakra").string();
    const TrainingPlan sample = MakeMoePlan(MoeShape());
    if (std::getenv("MOSE_WRITE_SAMPLE_TRACES") != nullptr)
    {
        std::filesystem::create_directories(shipped);
        WriteChakraTrace(sample, shipped, "moe");
    }
    const std::string fresh = Folder("fresh");
    WriteChakraTrace(sample, fresh, "moe");
    for (const auto& entry : std::filesystem::directory_iterator(fresh))
    {
        const std::string name = entry.path().filename().string();
        std::ifstream a(entry.path(), std::ios::binary);
        std::ifstream b(shipped + "/" + name, std::ios::binary);
        std::stringstream sa;
        std::stringstream sb;
        sa << a.rdbuf();
        sb << b.rdbuf();
        EXPECT_EQ(sa.str(), sb.str()) << name << " differs from the writer's output";
    }
    ExpectSamePlan(sample, ReadChakraTrace(shipped));
}

} // namespace
