/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// LlmLevelSuite: the level comparisons of several cell sets in one table, on hand-made files:
// the means over the seeds, their errors, the worst seed, overloaded and deciding policies, the
// bounds a cell holds; its refusals.

#include "mose-llm-level-suite.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3::mose;

namespace
{

/// the columns of mose-llm's level_validation.csv (run by run)
const std::string LV_HEADER =
    "load,interval_s,dark_s,seed,policy,packet_kv_mean_s,packet_ttft_mean_s,packet_ttft_p99_s,"
    "packet_iter_mean_s,fluid_kv_mean_s,fluid_ttft_mean_s,fluid_ttft_p99_s,fluid_iter_mean_s,"
    "diff_kv_mean,diff_ttft_mean,diff_ttft_p99,diff_iter_mean,requests,packet_served,fluid_"
    "served\n";

/// the columns of a regime_map.csv the suite reads, for MoSE and S-Inf
const std::string MAP_HEADER =
    "level,load_per_s,interval_s,dark_s,requests,MoSE_served,MoSE_ttft_mean_s,MoSE_ttft_p99_s,"
    "MoSE_kv_mean_s,MoSE_iter_mean_s,MoSE_lost,S-Inf_served,S-Inf_ttft_mean_s,S-Inf_ttft_p99_s,"
    "S-Inf_kv_mean_s,S-Inf_iter_mean_s,S-Inf_lost,best_static,verdict,seeds\n";

/// \return the folder of a cell set with the three files
std::string
MakeSet(const std::string& name,
        const std::string& validation,
        const std::string& packetMap,
        const std::string& fluidMap)
{
    const std::string lv = test::TempFile("mose-suite-" + name, "level_validation.csv", validation);
    const std::filesystem::path dir = std::filesystem::path(lv).parent_path();
    for (const auto& [level, text] :
         {std::make_pair("packet", &packetMap), std::make_pair("fluid", &fluidMap)})
    {
        std::filesystem::create_directories(dir / level);
        std::ofstream((dir / level / "regime_map.csv").string()) << *text;
    }
    return dir.string();
}

// One cell over two seeds. MoSE: packet KV 10 and 20 ms, fluid 11 and 20 ms: means 15 and
// 15.5 ms, error +3.33%, worst seed +10%; TTFT 20/30 -> 20/32: +4% (within 5%); P99
// 100/100 -> 120/106: +13% (within 15%, although seed 0 is +20%); iteration 50/50 -> 60/60:
// +20% (out). S-Inf (the best
// static) served 45 of each run's 50 requests at the fluid level: overloaded, so its +50% is not
// held against the cell; the cell is judged on MoSE alone and is out of bounds for its iteration.
TEST(LlmLevelSuite, MeansErrorsAndBoundsByHand)
{
    const std::string set = MakeSet(
        "one",
        LV_HEADER +
            "800,0.1,0.01,0,MoSE,0.010,0.020,0.100,0.050,0.011,0.020,0.120,0.060,,,,,50,50,50\n"
            "800,0.1,0.01,0,S-Inf,0.010,0.010,0.010,0.010,0.015,0.015,0.015,0.015,,,,,50,50,45\n"
            "800,0.1,0.01,1,MoSE,0.020,0.030,0.100,0.050,0.020,0.032,0.106,0.060,,,,,50,50,50\n"
            "800,0.1,0.01,1,S-Inf,0.010,0.010,0.010,0.010,0.015,0.015,0.015,0.015,,,,,50,50,45\n",
        MAP_HEADER + "packet,800,0.1,0.01,100,100,0.025,0.1,0.015,0.05,3,100,0.01,0.01,0.01,0.01,0,"
                     "S-Inf,does-not-pay,2\n",
        MAP_HEADER + "fluid,800,0.1,0.01,100,100,0.02575,0.115,0.0155,0.06,0,90,0.015,0.015,0.015,"
                     "0.015,0,S-Inf,pays,2\n");
    LlmLevelSuite suite;
    EXPECT_EQ(suite.AddSet(set), 1u);
    ASSERT_EQ(suite.GetRows().size(), 2u);
    const LlmLevelSuite::Row& mose = suite.GetRows()[0];
    EXPECT_EQ(mose.set.rfind("mose-suite-one-", 0), 0u) << mose.set;
    EXPECT_EQ(mose.policy, Policy::MOSE);
    EXPECT_EQ(mose.seeds, 2u);
    EXPECT_DOUBLE_EQ(mose.reference[LlmLevelValidation::KV_MEAN], 0.015);
    EXPECT_DOUBLE_EQ(mose.compared[LlmLevelValidation::KV_MEAN], 0.0155);
    EXPECT_NEAR(mose.GetError(LlmLevelValidation::KV_MEAN), 1.0 / 30, 1e-12);
    EXPECT_NEAR(mose.worst[LlmLevelValidation::KV_MEAN], 0.1, 1e-12);
    EXPECT_NEAR(mose.GetError(LlmLevelValidation::TTFT_MEAN), 0.04, 1e-12);
    EXPECT_NEAR(mose.GetError(LlmLevelValidation::TTFT_P99), 0.13, 1e-12);
    EXPECT_NEAR(mose.worst[LlmLevelValidation::TTFT_P99], 0.2, 1e-12);
    EXPECT_NEAR(mose.GetError(LlmLevelValidation::ITER_MEAN), 0.2, 1e-12);
    EXPECT_EQ(mose.referenceLost, 3u);
    EXPECT_TRUE(mose.decides);
    EXPECT_FALSE(mose.overloaded);
    const LlmLevelSuite::Row& sinf = suite.GetRows()[1];
    EXPECT_TRUE(sinf.decides);
    EXPECT_TRUE(sinf.overloaded);
    EXPECT_EQ(sinf.comparedServed, 90u);
    EXPECT_EQ(sinf.requests, 100u);
    ASSERT_EQ(suite.GetCells().size(), 1u);
    const LlmLevelSuite::Cell& cell = suite.GetCells()[0];
    EXPECT_EQ(cell.referenceVerdict, "does-not-pay");
    EXPECT_EQ(cell.comparedVerdict, "pays");
    EXPECT_TRUE(cell.judged);
    ASSERT_EQ(cell.outOfBounds.size(), 1u);
    EXPECT_EQ(cell.outOfBounds[0], "MoSE iteration +20.0%");
    EXPECT_EQ(suite.CountSameVerdicts(), 0u);
    EXPECT_EQ(suite.CountJudged(), 1u);
    EXPECT_EQ(suite.CountWithinBounds(), 0u);
    // the worst deciding error leaves the overloaded S-Inf out; over all rows it is S-Inf's
    EXPECT_EQ(suite.GetWorst(LlmLevelValidation::KV_MEAN, true)->policy, Policy::MOSE);
    EXPECT_EQ(suite.GetWorst(LlmLevelValidation::KV_MEAN, false)->policy, Policy::STATIC_INFERENCE);
    std::ostringstream csv;
    suite.WriteCsv(csv);
    EXPECT_NE(csv.str().find(",800,0.1,0.01,MoSE,2,100,100,100,3,0,1,0.015,0.0155,"),
              std::string::npos)
        << csv.str();
    std::ostringstream text;
    suite.Print(text);
    EXPECT_NE(text.str().find("held in 0 of 1 judged cells"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find(", load 800/s, T 100 ms, D 10 ms: MoSE iteration +20.0%"),
              std::string::npos)
        << text.str();
}

// A second set whose deciding policies all hold: the suite counts both; a set given twice and
// a comparison of files' means are refused by name.
TEST(LlmLevelSuite, SetsAddUpAndBadSetsAreRefused)
{
    const std::string lv =
        LV_HEADER +
        "25,0.1,0.01,0,MoSE,0.010,0.010,0.010,0.010,0.0101,0.0102,0.0110,0.0104,,,,,5,5,5\n"
        "25,0.1,0.01,0,S-Inf,0.010,0.010,0.010,0.010,0.010,0.010,0.010,0.010,,,,,5,5,5\n";
    const std::string map = "level,load_per_s,interval_s,dark_s,requests,MoSE_served,"
                            "MoSE_ttft_mean_s,MoSE_ttft_p99_s,MoSE_kv_mean_s,MoSE_iter_mean_s,"
                            "S-Inf_served,S-Inf_ttft_mean_s,S-Inf_ttft_p99_s,S-Inf_kv_mean_s,"
                            "S-Inf_iter_mean_s,best_static,verdict\n";
    const std::string row =
        ",25,0.1,0.01,10,10,0.01,0.01,0.01,0.01,10,0.01,0.01,0.01,0.01,S-Inf,tie\n";
    const std::string good = MakeSet("good", lv, map + "packet" + row, map + "fluid" + row);
    LlmLevelSuite suite;
    suite.AddSet(good);
    EXPECT_EQ(suite.CountJudged(), 1u);
    EXPECT_EQ(suite.CountWithinBounds(), 1u);
    EXPECT_EQ(suite.CountSameVerdicts(), 1u);
    try
    {
        suite.AddSet(good + "/");
        FAIL() << "a set given twice";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("is given twice"), std::string::npos) << e.what();
    }
    const std::string means = MakeSet("means",
                                      "load,interval_s,dark_s,seeds,policy,packet_kv_mean_s\n"
                                      "25,0.1,0.01,3,MoSE,0.01\n",
                                      map + "packet" + row,
                                      map + "fluid" + row);
    try
    {
        LlmLevelSuite other;
        other.AddSet(means);
        FAIL() << "a comparison of means";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("level_validation.csv:1: a comparison of two files'"),
                  std::string::npos)
            << e.what();
    }
    // a cell of the validation that a map lacks
    const std::string missing =
        MakeSet("missing", lv, map + "packet" + row, map + "fluid,800,0.1,0.01" + row.substr(11));
    try
    {
        LlmLevelSuite other;
        other.AddSet(missing);
        FAIL() << "a cell missing from the fluid map";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("fluid/regime_map.csv"), std::string::npos)
            << e.what();
    }
}

} // namespace
