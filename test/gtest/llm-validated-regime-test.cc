/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// LlmValidatedRegimes: the validation suite's cells read from a level_suite.csv, the nearest
// cell to a run's settings, and whether the run lies inside the validated regimes.

#include "mose-llm-validated-regime.h"

#include "ns3/mose-error.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3::mose;

namespace
{

const std::string HEADER =
    "set,nodes,degree,transport,collective,placement,hosts_per_group,load,interval_s,dark_s,"
    "policy,seeds,requests,packet_served,fluid_served,packet_lost,overloaded,decides,"
    "packet_kv_mean_s,fluid_kv_mean_s,err_kv_mean,worst_kv_mean,packet_ttft_mean_s,"
    "fluid_ttft_mean_s,err_ttft_mean,worst_ttft_mean,packet_ttft_p99_s,fluid_ttft_p99_s,"
    "err_ttft_p99,worst_ttft_p99,packet_iter_mean_s,fluid_iter_mean_s,err_iter_mean,"
    "worst_iter_mean,packet_verdict,fluid_verdict,within_bounds\n";

/// a row: set, regime, load, policy, overloaded, decides, the four errors, verdicts, bounds
std::string
Row(const std::string& set,
    const std::string& regime,
    const std::string& load,
    const std::string& policy,
    const std::string& flags,
    const std::string& errors,
    const std::string& tail)
{
    std::istringstream e(errors);
    std::string err[4];
    for (auto& x : err)
    {
        std::getline(e, x, ' ');
    }
    std::string out =
        set + "," + regime + "," + load + ",0.1,0.01," + policy + ",3,30,30,30,0," + flags;
    for (const auto& x : err)
    {
        out += ",1,1," + x + "," + x;
    }
    return out + "," + tail + "\n";
}

/// Two sets at N = 64 and 128 (rdma, all-to-all, circuit-aware, G 1) and one over tcp
const std::string SUITE =
    HEADER +
    Row("n64",
        "64,8,rdma,all-to-all,circuit-aware,1",
        "800",
        "MoSE",
        "0,1",
        "0.01 -0.02 0.10 0.03",
        "pays,pays,1") +
    Row("n64",
        "64,8,rdma,all-to-all,circuit-aware,1",
        "800",
        "S-Inf",
        "0,1",
        "-0.04 0.01 -0.12 0.02",
        "pays,pays,1") +
    // S-Comp does not decide: its -0.5 is not the cell's
    Row("n64",
        "64,8,rdma,all-to-all,circuit-aware,1",
        "800",
        "S-Comp",
        "0,0",
        "-0.5 -0.5 -0.5 -0.5",
        "pays,pays,1") +
    Row("n128",
        "128,4,rdma,all-to-all,circuit-aware,1",
        "1600",
        "MoSE",
        "0,1",
        "0.02 0.02 0.30 -0.27",
        "tie,does-not-pay,0") +
    // a set whose regime is not known is left out
    Row("lost", ",,,,,", "800", "MoSE", "0,1", "0.9 0.9 0.9 0.9", "pays,pays,1") +
    // a cell whose deciding policies are all overloaded is not judged: left out
    Row("heavy",
        "64,8,rdma,all-to-all,circuit-aware,1",
        "3200",
        "MoSE",
        "1,1",
        "0.9 0.9 0.9 0.9",
        "pays,pays,") +
    Row("n64-tcp",
        "64,8,tcp,all-to-all,circuit-aware,1",
        "800",
        "MoSE",
        "0,1",
        "0.05 0.04 0.2 0.01",
        "tie,tie,0");

LlmValidatedRegimes
Read()
{
    std::istringstream in(SUITE);
    return LlmValidatedRegimes::FromCsv(in, "suite.csv");
}

LlmValidatedRegimes::Query
Query(uint32_t nodes, uint32_t degree, const std::string& transport, double load)
{
    LlmValidatedRegimes::Query q;
    q.regime.nodes = nodes;
    q.regime.degree = degree;
    q.regime.hostsPerGroup = 1;
    q.regime.transport = transport;
    q.regime.collective = "all-to-all";
    q.regime.placement = "circuit-aware";
    q.load = load;
    return q;
}

// The judged cells with the worst error of their deciding policies, by hand: n64 at 800/s KV
// -4% (S-Inf), TTFT -2% (MoSE), P99 -12% (S-Inf), iteration +3% (MoSE); S-Comp, the unknown
// regime and the overloaded cell are left out.
TEST(LlmValidatedRegimes, CellsKeepTheWorstErrorOfTheirDecidingPolicies)
{
    const LlmValidatedRegimes r = Read();
    ASSERT_EQ(r.GetCells().size(), 3u);
    const auto& c = r.GetCells()[0];
    EXPECT_EQ(c.set, "n64");
    EXPECT_EQ(c.regime.GetText(), "N 64, d 8, rdma, all-to-all, circuit-aware, G 1");
    EXPECT_DOUBLE_EQ(c.worst[0], -0.04);
    EXPECT_DOUBLE_EQ(c.worst[1], -0.02);
    EXPECT_DOUBLE_EQ(c.worst[2], -0.12);
    EXPECT_DOUBLE_EQ(c.worst[3], 0.03);
    EXPECT_TRUE(c.withinBounds);
    EXPECT_TRUE(c.sameVerdict);
    EXPECT_FALSE(r.GetCells()[1].sameVerdict);
}

// Nearest by the log ratios of N, d and the load per group among the cells of the same kind;
// inside only within the ranges they span; another transport is its own kind.
TEST(LlmValidatedRegimes, NearestCellAndTheValidatedRanges)
{
    const LlmValidatedRegimes r = Read();
    // N 96, d 8, 12.5/s per group: N 64 is 0.58 away (+0 +0), N 128 is 0.42 + 1 + 0
    auto m = r.Find(Query(96, 8, "rdma", 1200));
    ASSERT_NE(m.cell, nullptr);
    EXPECT_EQ(m.cell->set, "n64");
    EXPECT_TRUE(m.outside.empty());
    // N 1024, d 4, 0.78/s per group: n64 is 4 + 1 + 4 away, n128 3 + 0 + 4; outside the N of
    // 64-128 and the load per group of 12.5
    m = r.Find(Query(1024, 4, "rdma", 800));
    EXPECT_EQ(m.cell->set, "n128");
    ASSERT_EQ(m.outside.size(), 2u);
    EXPECT_EQ(m.outside[0], "N 1024 where the suite has 64-128");
    EXPECT_EQ(m.outside[1], "load 0.781 requests/s per group where the suite has 12.5");
    // d 6: no cell has it
    m = r.Find(Query(64, 6, "rdma", 800));
    ASSERT_EQ(m.outside.size(), 1u);
    EXPECT_EQ(m.outside[0], "d 6 where no suite cell has it");
    // tcp at N = 128: its own kind has only N 64
    m = r.Find(Query(128, 8, "tcp", 1600));
    EXPECT_EQ(m.cell->set, "n64-tcp");
    ASSERT_EQ(m.outside.size(), 1u);
    EXPECT_EQ(m.outside[0], "N 128 where the suite has 64");
    // a collective no cell has
    auto q = Query(64, 8, "rdma", 800);
    q.regime.collective = "ring-all-reduce";
    m = r.Find(q);
    ASSERT_EQ(m.outside.size(), 1u);
    EXPECT_EQ(m.outside[0], "no cell with collective ring-all-reduce");
    // a traced training job is outside, whatever its settings
    q = Query(64, 8, "rdma", 800);
    q.tracedTraining = true;
    m = r.Find(q);
    EXPECT_EQ(m.cell->set, "n64");
    ASSERT_EQ(m.outside.size(), 1u);
    EXPECT_EQ(m.outside[0], "a training job from a trace where the suite ran the synthetic job");
}

// The line a fluid answer carries; an empty suite says the module has none.
TEST(LlmValidatedRegimes, TheLineNamesTheCellAndItsErrors)
{
    const LlmValidatedRegimes r = Read();
    const std::string line = r.Describe(Query(64, 8, "rdma", 800), "fluid");
    EXPECT_EQ(line,
              "in the validated regimes; the nearest suite cell is n64 at 800/s (N 64, d 8, "
              "rdma, all-to-all, circuit-aware, G 1, T 100 ms, D 10 ms, 3 seeds): fluid vs "
              "packet, the deciding policies' worst error of the means KV -4.0%, TTFT -2.0%, "
              "P99 TTFT -12.0%, iteration +3.0% (within the bounds, the same verdict)");
    EXPECT_NE(r.Describe(Query(1024, 8, "rdma", 800), "aggregate")
                  .find("outside every validated regime (N 1024 where"),
              std::string::npos);
    EXPECT_NE(LlmValidatedRegimes()
                  .Describe(Query(64, 8, "rdma", 800), "fluid")
                  .find("not "
                        "validated"),
              std::string::npos);
}

// The suite built into the module (doc/figures/level-suite.csv): its 16 cells, each with the
// regime its records gave, all judged; the default map's regime lies inside.
TEST(LlmValidatedRegimes, TheBuiltInSuiteHasItsSixteenCells)
{
    const LlmValidatedRegimes& r = LlmValidatedRegimes::GetBuiltIn();
    ASSERT_EQ(r.GetCells().size(), 16u);
    for (const auto& c : r.GetCells())
    {
        EXPECT_TRUE(c.regime.IsKnown()) << c.set;
        EXPECT_EQ(c.seeds, 3u) << c.set;
    }
    const auto m = r.Find(Query(64, 8, "rdma", 800));
    EXPECT_TRUE(m.outside.empty());
    EXPECT_EQ(m.cell->set, "n64");
    EXPECT_DOUBLE_EQ(m.cell->load, 800);
}

// A malformed row names the text and line.
TEST(LlmValidatedRegimes, MalformedRowsAreNamed)
{
    std::istringstream in(HEADER + Row("x",
                                       "0,8,rdma,all-to-all,circuit-aware,1",
                                       "800",
                                       "MoSE",
                                       "0,1",
                                       "0 0 0 0",
                                       "pays,pays,1"));
    try
    {
        LlmValidatedRegimes::FromCsv(in, "suite.csv");
        FAIL() << "N = 0 read";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("suite.csv:2: column nodes = \"0\""),
                  std::string::npos)
            << e.what();
    }
}

} // namespace

namespace
{

/// a row of a two-policy cell with its own means: packet and fluid mean TTFT and mean
/// iteration time (an empty iteration time: none finished)
std::string
MeansRow(const std::string& policy,
         const std::string& ttft,
         const std::string& iter,
         const std::string& decides)
{
    std::istringstream t(ttft);
    std::istringstream i(iter);
    std::string tp, tf, ip, itf;
    std::getline(t, tp, ' ');
    std::getline(t, tf, ' ');
    std::getline(i, ip, ' ');
    std::getline(i, itf, ' ');
    return "m,64,8,tcp,all-to-all,circuit-aware,1,25,0.1,0.01," + policy + ",3,30,30,30,0,0," +
           decides + ",1,1,0,0," + tp + "," + tf + ",0,0,1,1,0,0," + ip + "," + itf +
           ",0,0,tie,tie,1\n";
}

} // namespace

// The error of the margin itself, by the map's rule on each level's means, computed by hand:
// packet MoSE TTFT 0.9 s, iteration 2.0 s against S-Inf's 1.0 s and 2.0 s: margins -10% and
// 0%, overall -5%; fluid MoSE 1.1 s and 2.1 s against 1.0 s and 2.0 s: +10% and +5%, overall
// +7.5%. The error is +7.5% - (-5%) = +12.5%. With no iteration finished the margin is on
// TTFT alone: -10% and +10%, an error of +20%.
TEST(LlmValidatedRegimes, TheMarginErrorIsTheLevelsMarginsApart)
{
    std::istringstream in(HEADER + MeansRow("MoSE", "0.9 1.1", "2.0 2.1", "1") +
                          MeansRow("S-Inf", "1.0 1.0", "2.0 2.0", "1"));
    const LlmValidatedRegimes r = LlmValidatedRegimes::FromCsv(in, "suite.csv");
    ASSERT_EQ(r.GetCells().size(), 1u);
    ASSERT_TRUE(r.GetCells()[0].marginError.has_value());
    EXPECT_NEAR(*r.GetCells()[0].marginError, 0.125, 1e-12);

    std::istringstream noIter(HEADER + MeansRow("MoSE", "0.9 1.1", " ", "1") +
                              MeansRow("S-Inf", "1.0 1.0", " ", "1"));
    const LlmValidatedRegimes t = LlmValidatedRegimes::FromCsv(noIter, "suite.csv");
    ASSERT_TRUE(t.GetCells()[0].marginError.has_value());
    EXPECT_NEAR(*t.GetCells()[0].marginError, 0.2, 1e-12);

    // the best static policy is chosen at each level: a third policy that is best at the fluid
    // level only (S-Train, TTFT 0.5 s, iteration 2.0 s: score 1.0 against S-Inf's 1.5 there; at
    // the packet level TTFT 1.0 s and iteration 2.2 s score 1.106 against S-Inf's 1.056) gives the
    // fluid margin (1.1 - 0.5) / 0.5 = +120% and (2.1 - 2.0) / 2.0 = +5%: +62.5%; the error is
    // +62.5% - (-5%) = +67.5%
    std::istringstream three(HEADER + MeansRow("MoSE", "0.9 1.1", "2.0 2.1", "1") +
                             MeansRow("S-Inf", "1.0 1.0", "2.0 2.0", "1") +
                             MeansRow("S-Train", "1.0 0.5", "2.2 2.0", "0"));
    const LlmValidatedRegimes b = LlmValidatedRegimes::FromCsv(three, "suite.csv");
    ASSERT_TRUE(b.GetCells()[0].marginError.has_value());
    EXPECT_NEAR(*b.GetCells()[0].marginError, 0.675, 1e-12);

    // MoSE alone: no static policy, no margin
    std::istringstream alone(HEADER + MeansRow("MoSE", "0.9 1.1", "2.0 2.1", "1"));
    EXPECT_FALSE(LlmValidatedRegimes::FromCsv(alone, "suite.csv").GetCells()[0].marginError);
}

// A grid cell's validation: the nearest suite cell by Find()'s rule, its margin error, and
// outside when N lies beyond the suite's.
TEST(LlmValidatedRegimes, AGridCellGetsItsNearestCellsMarginError)
{
    std::istringstream in(HEADER + MeansRow("MoSE", "0.9 1.1", "2.0 2.1", "1") +
                          MeansRow("S-Inf", "1.0 1.0", "2.0 2.0", "1"));
    const LlmValidatedRegimes r = LlmValidatedRegimes::FromCsv(in, "suite.csv");
    const LlmSuiteRegime at64 = ParseSuiteRegime("--regime", "nodes=64,degree=8,transport=tcp");
    LlmRegimeValidation v = r.Validate(at64, 25);
    EXPECT_EQ(v.suiteCell, "m/25");
    EXPECT_TRUE(v.inside);
    ASSERT_TRUE(v.marginError);
    EXPECT_NEAR(*v.marginError, 0.125, 1e-12);
    v = r.Validate(ParseSuiteRegime("--regime", "nodes=1024,degree=8,transport=tcp"), 400);
    EXPECT_EQ(v.suiteCell, "m/25");
    EXPECT_FALSE(v.inside);
}

// --regime: mose-llm's defaults for what is left out, and every bad text named.
TEST(LlmValidatedRegimes, TheRegimeOptionIsParsed)
{
    const LlmSuiteRegime r = ParseSuiteRegime("--regime", "degree=4,transport=rdma,nodes=128");
    EXPECT_EQ(r.nodes, 128u);
    EXPECT_EQ(r.degree, 4u);
    EXPECT_EQ(r.transport, "rdma");
    EXPECT_EQ(r.collective, "all-to-all");
    EXPECT_EQ(r.placement, "circuit-aware");
    EXPECT_EQ(r.hostsPerGroup, 1u);
    const LlmSuiteRegime s = ParseSuiteRegime(
        "--regime",
        "nodes=64,degree=8,transport=tcp,collective=ring-all-reduce,placement=round-robin,"
        "hostsPerGroup=8");
    EXPECT_EQ(s.collective, "ring-all-reduce");
    EXPECT_EQ(s.placement, "round-robin");
    EXPECT_EQ(s.hostsPerGroup, 8u);
    for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
             {"nodes=64,degree=8", "no transport"},
             {"nodes=64,degree=8,transport=udp", "tcp or rdma"},
             {"nodes=64,degree=8,transport=tcp,nodes=32", "nodes is given twice"},
             {"nodes=64,degree=8,transport=tcp,speed=1", "is not KEY=VALUE"},
             {"nodes=1,degree=8,transport=tcp", "from 2 to 1000000"},
             {"nodes=x,degree=8,transport=tcp", "--regime nodes"},
             {"nodes=64,degree=8,transport=tcp,placement=best", "--regime placement"},
             {"", "--regime"}})
    {
        try
        {
            ParseSuiteRegime("--regime", text);
            FAIL() << text << " read";
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    }
}
