/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// SimAI/AICB workload files (mose-aicb-workload.h): a two-layer file's plan by hand (nodes,
// groups, dependencies, compute time, bytes per collective kind), the errors naming file, line
// and field, the writer's round trip and the shipped sample.

#include "mose-test-util.h"

#include "ns3/mose-aicb-workload.h"
#include "ns3/mose-error.h"
#include "ns3/mose-training-plan.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// the header of the hand-made files: TP 2, EP 2, 8 ranks, so DP 4 and DP_EP 2
const std::string HEADER = "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 "
                           "pp: 1 vpp: 2 ga: 1 all_gpus: 8 checkpoints: 0 "
                           "checkpoint_initiates: 0 pp_comm: 0\n";

/// two layers: every phase's group kind once
const std::string TWO_LAYERS = HEADER + "2\n"
                                        "attn\t-1\t1000\tALLREDUCE\t4096\t2000\tALLREDUCE\t4096\t"
                                        "1500\tALLREDUCE\t8192\t100\n"
                                        "moe\t-1\t3000\tALLTOALL_EP\t6144\t5000\tNONE\t0\t2500\t"
                                        "ALLGATHER_DP_EP\t1024\t100\n";

/// \return the workload of a text
AicbWorkload
Parse(const std::string& text)
{
    std::istringstream in(text);
    return ParseAicbWorkload(in, "w.txt");
}

/// \return a plan as text: per rank and node its id, name, kind, time, bytes, group, deps
std::string
Describe(const TrainingPlan& plan)
{
    std::ostringstream os;
    for (std::size_t r = 0; r < plan.ranks.size(); ++r)
    {
        for (const PlanNode& n : plan.ranks[r])
        {
            os << r << " " << n.id << " " << n.name << " " << ToString(n.kind) << " "
               << n.durationNs << " " << n.bytes << " " << ToString(n.collective) << " {";
            for (uint32_t g : n.group)
            {
                os << g << ",";
            }
            os << "} <-";
            for (uint64_t d : n.dataDeps)
            {
                os << " " << d;
            }
            os << "\n";
        }
    }
    return os.str();
}

TEST(AicbWorkload, TwoLayersByHand)
{
    const AicbWorkload w = Parse(TWO_LAYERS);
    EXPECT_EQ(w.tensorParallel, 2u);
    EXPECT_EQ(w.expertParallel, 2u);
    EXPECT_EQ(w.ranks, 8u);
    EXPECT_EQ(w.GetDataParallel(), 4u);
    ASSERT_EQ(w.layers.size(), 2u);
    EXPECT_EQ(w.layers[1].line, 4u);
    const TrainingPlan plan = w.ToPlan();
    ASSERT_EQ(plan.ranks.size(), 8u);
    // rank 5: TP group 2 ({4,5}), place 1; DP {1,3,5,7}; EP {5,7}; DP_EP {1,5}
    const auto& n = plan.ranks[5];
    ASSERT_EQ(n.size(), 13u);

    struct Expected
    {
        const char* name;
        std::vector<uint32_t> group;
        std::vector<uint64_t> deps;
    };

    const std::vector<Expected> expected = {
        {"attn forward", {}, {}},
        {"attn forward ALLREDUCE", {4, 5}, {0}},
        {"moe forward", {}, {1}},
        {"moe forward ALLTOALL_EP", {5, 7}, {2}},
        {"moe input-gradient", {}, {3}},
        {"moe weight-gradient", {}, {4}},
        {"moe weight-gradient ALLGATHER_DP_EP", {1, 5}, {5}},
        {"moe weight-update", {}, {6}},
        // the backward pass goes on after the weight-gradient compute, not its collective
        {"attn input-gradient", {}, {5}},
        {"attn input-gradient ALLREDUCE", {4, 5}, {8}},
        {"attn weight-gradient", {}, {9}},
        {"attn weight-gradient ALLREDUCE", {1, 3, 5, 7}, {10}},
        {"attn weight-update", {}, {11}},
    };
    int64_t compute = 0;
    for (std::size_t k = 0; k < n.size(); ++k)
    {
        EXPECT_EQ(n[k].id, k);
        EXPECT_EQ(n[k].name, expected[k].name) << k;
        EXPECT_EQ(n[k].group, expected[k].group) << k;
        EXPECT_EQ(n[k].dataDeps, expected[k].deps) << k;
        compute += n[k].kind == PlanNodeKind::COMPUTE ? n[k].durationNs : 0;
    }
    // 1000 + 3000 + 5000 + 2500 + 100 + 2000 + 1500 + 100
    EXPECT_EQ(compute, 15200);
    EXPECT_EQ(n[3].collective, NcclCollective::ALL_TO_ALL);
    EXPECT_EQ(n[6].collective, NcclCollective::ALL_GATHER);
    EXPECT_EQ(n[6].bytes, 1024u);
    EXPECT_NE(n[6].origin.find("w.txt line 4"), std::string::npos) << n[6].origin;

    // every rank on its own group: every byte crosses groups. Per group, a ring all-reduce of S
    // over n moves 2(n-1) S, an all-to-all (n-1) S, an all-gather (n-1) S:
    //   forward and input-gradient all-reduces: 4 TP groups x 2 x 4096 each = 32768 each
    //   weight-gradient all-reduce: 2 DP groups x 6 x 8192 = 98304
    //   all-to-all: 4 EP groups x 6144 = 24576; all-gather: 4 DP_EP groups x 1024 = 4096
    NcclSettings one;
    one.channels = 1;
    const auto wire = [&](const TrainingPlan& p) {
        PlanRunner runner;
        runner.Prepare(p, RankMapping(), {0, 1, 2, 3, 4, 5, 6, 7}, one, 1);
        return runner.GetWireBytes();
    };
    EXPECT_EQ(wire(plan), 32768u + 32768u + 98304u + 24576u + 4096u);
    // the same per kind: the file with only the all-to-all
    AicbWorkload a2a = w;
    a2a.layers = {w.layers[1]};
    a2a.layers[0].weightGrad = AicbComm();
    EXPECT_EQ(wire(a2a.ToPlan()), 24576u);
    // ranks on groups of 2 (the rule: rank r on member r / 2): a TP group is inside a member
    RankMapping two;
    two.ranksPerGroup = 2;
    PlanRunner runner;
    runner.Prepare(plan, two, {0, 1, 2, 3}, one, 1);
    EXPECT_EQ(runner.GetWireBytes(), 98304u + 24576u + 4096u);
}

TEST(AicbWorkload, BadFilesAreNamedByLineAndField)
{
    const auto error = [](const std::string& text) {
        return ErrorOf([&]() { Parse(text).ToPlan(); });
    };
    const std::string line3 = "a\t-1\t1\tALLREDUCE\t8\t1\tNONE\t0\t1\tNONE\t0\t1\n";
    // a short line
    std::string e = error(HEADER + "1\na\t-1\t1\tALLREDUCE\t8\t1\tNONE\t0\t1\n");
    EXPECT_NE(e.find("w.txt:3: 9 fields (no weight-gradient collective)"), std::string::npos) << e;
    // an unknown collective (SimAI's ALLREDUCEALLTOALL, a typo)
    e = error(HEADER + "1\na\t-1\t1\tALLREDUCEALLTOALL\t8\t1\tNONE\t0\t1\tNONE\t0\t1\n");
    EXPECT_NE(e.find("w.txt:3: forward collective = \"ALLREDUCEALLTOALL\": a collective mose "
                     "does not plan"),
              std::string::npos)
        << e;
    e = error(HEADER + "1\na\t-1\t1\tNONE\t0\t1\tALLREDUCE_TP\t8\t1\tNONE\t0\t1\n");
    EXPECT_NE(e.find("w.txt:3: input-gradient collective = \"ALLREDUCE_TP\""), std::string::npos)
        << e;
    // a negative size, a collective of size 0, a negative time
    e = error(HEADER + "1\na\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t-8\t1\n");
    EXPECT_NE(e.find("w.txt:3: weight-gradient collective size = -8: bytes >= 0"),
              std::string::npos)
        << e;
    e = error(HEADER + "1\na\t-1\t1\tALLTOALL_EP\t0\t1\tNONE\t0\t1\tNONE\t0\t1\n");
    EXPECT_NE(e.find("w.txt:3: forward collective ALLTOALL_EP of size 0"), std::string::npos) << e;
    e = error(HEADER + "1\na\t-1\t-1\tNONE\t0\t1\tNONE\t0\t1\tNONE\t0\t1\n");
    EXPECT_NE(e.find("w.txt:3: forward compute time = -1"), std::string::npos) << e;
    // a group larger than the ranks
    e = error("HYBRID_TRANSFORMER model_parallel_NPU_group: 16 all_gpus: 8\n1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: model_parallel_NPU_group: 16: a TP group divides all_gpus: 8"),
              std::string::npos)
        << e;
    e = error("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 ep: 8 all_gpus: 8\n1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: ep: 8: an EP group divides the data-parallel size"),
              std::string::npos)
        << e;
    // a layer count that does not match the lines
    e = error(HEADER + "3\n" + line3 + line3);
    EXPECT_NE(e.find("w.txt:4: line 2 announces 3 layers and the file has 2 layer lines"),
              std::string::npos)
        << e;
    e = error(HEADER + "1\n" + line3 + line3);
    EXPECT_NE(e.find("w.txt:4: a layer line beyond the 1 that line 2 announces"), std::string::npos)
        << e;
    // a missing header, a header without all_gpus, pipeline parallelism
    e = error("1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: no header"), std::string::npos) << e;
    e = error("HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2\n1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: the header has no all_gpus:"), std::string::npos) << e;
    e = error("HYBRID_TRANSFORMER model_parallel_NPU_group: 1 pp: 2 all_gpus: 8\n1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: pp: 2: pipeline parallelism is not modelled"), std::string::npos)
        << e;
    // a plan too large to build (all_gpus: 10^9, a typo)
    e = error("HYBRID_TRANSFORMER model_parallel_NPU_group: 1 all_gpus: 1000000000\n1\n" + line3);
    EXPECT_NE(e.find("w.txt: all_gpus: 1000000000 ranks x 1 layer lines make up to 7000000000 "
                     "plan nodes"),
              std::string::npos)
        << e;
    e = error("DATA\n1\n" + line3);
    EXPECT_NE(e.find("w.txt:1: policy \"DATA\""), std::string::npos) << e;
    EXPECT_NO_THROW(Parse(HEADER + "1\n" + line3).ToPlan());
}

/// \return a fresh folder of this test file's
std::filesystem::path
Folder()
{
    const auto dir =
        std::filesystem::temp_directory_path() / ("mose-aicb-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

/// \return a file's bytes
std::string
Contents(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The MoE sample: written by the module's writer, read back, the same workload and plan; the
// file shipped as examples/traces/moe-aicb.txt is the writer's output
// (MOSE_WRITE_SAMPLE_TRACES=1 rewrites it).
TEST(AicbWorkload, RoundTripAndTheShippedSample)
{
    AicbWorkload moe = MakeMoeAicbWorkload(MoeShape());
    const std::string file = (Folder() / "moe.txt").string();
    WriteAicbWorkload(moe, file);
    const AicbWorkload back = ReadAicbWorkload(file);
    EXPECT_EQ(back.ranks, 8u);
    EXPECT_EQ(back.expertParallel, 4u);
    ASSERT_EQ(back.layers.size(), 4u);
    EXPECT_EQ(back.layers[1].weightGrad.GetName(), "ALLREDUCE_DP_EP");
    EXPECT_EQ(back.layers[1].weightGrad.bytes, 67108864u / 4u);
    moe.source = back.source;
    for (std::size_t k = 0; k < moe.layers.size(); ++k)
    {
        moe.layers[k].line = back.layers[k].line;
    }
    EXPECT_EQ(back.layers[3].line, 6u);
    EXPECT_EQ(Describe(moe.ToPlan()), Describe(back.ToPlan()));

    const auto shipped = TracesDir() / "moe-aicb.txt";
    const AicbWorkload sample = MakeMoeAicbWorkload(MoeShape());
    if (std::getenv("MOSE_WRITE_SAMPLE_TRACES") != nullptr)
    {
        WriteAicbWorkload(sample, shipped.string());
    }
    const auto fresh = Folder() / "fresh.txt";
    WriteAicbWorkload(sample, fresh.string());
    EXPECT_EQ(Contents(fresh), Contents(shipped)) << "moe-aicb.txt differs from the writer's";
    // per rank: 2 layers x (attention: 2 computes + 2 all-to-alls; experts the same) forward,
    // and per line backward 3 computes + 2 collectives: 8 + 20 nodes
    const TrainingPlan plan = ReadAicbWorkload(shipped.string()).ToPlan();
    ASSERT_EQ(plan.ranks.size(), 8u);
    EXPECT_EQ(plan.ranks[6].size(), 28u);
    std::filesystem::remove_all(Folder());
}

} // namespace
