/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-comparison.h"
#include "mose-llm-experiment.h"
#include "mose-llm-run-report.h"
#include "mose-llm-test-util.h"

#include "ns3/mose-error.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// 16 groups, 40 requests of 2000 tokens 1 ms apart, a switch at 20 ms, a training job
ExperimentConfig
FluidConfig()
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.level = LlmLevel::FLUID;
    for (uint64_t i = 0; i < 40; ++i)
    {
        c.llm.requests.push_back(LlmRequest{i * 1000000, 2000, 10, "", 0});
    }
    c.SetSchedule(
        ModeSchedule{{WorkloadMode::INFERENCE_HEAVY, 0.02}, {WorkloadMode::TRAINING_HEAVY, 0.03}});
    c.llm.training = true;
    c.llm.collectiveBytes = 1 << 20;
    c.llm.computeTime = MilliSeconds(2);
    return c;
}

/// The checks of FluidRunDeliversEveryByte for one level
void CheckFluidRunDeliversEveryByte(const ExperimentConfig& config);

// The fluid level delivers every byte it was given: per pair of groups, the KV caches of the
// served requests plus the collectives' transfers of the completed iterations; nothing is lost.
// So does the aggregate level, in fewer flows (an all-to-all of the 16 groups' training
// members is one flow). With 8 hosts per group (rails) the per-pair bytes are the same sums.
TEST(LlmLevel, FluidRunDeliversEveryByte)
{
    for (LlmLevel level : {LlmLevel::FLUID, LlmLevel::AGGREGATE})
    {
        for (uint32_t hosts : {1u, 8u})
        {
            SCOPED_TRACE(ToString(level) + ", " + std::to_string(hosts) + " hosts per group");
            ExperimentConfig config = FluidConfig();
            config.level = level;
            config.hostsPerGroup = hosts;
            CheckFluidRunDeliversEveryByte(config);
        }
    }
}

void
CheckFluidRunDeliversEveryByte(const ExperimentConfig& config)
{
    const LlmRun e = RunLlm(config);
    const LlmSummary s = SummarizeLlmRun(*e.experiment, *e.result);
    EXPECT_EQ(s.level, config.level);
    if (config.level == LlmLevel::AGGREGATE)
    {
        EXPECT_EQ(s.flows,
                  s.inference.served + s.training.iterations +
                      (e.result->iterations.back().done ? 0 : 1));
        EXPECT_GT(s.transfers, 10 * s.flows);
    }
    else
    {
        EXPECT_EQ(s.flows, s.transfers);
    }
    EXPECT_EQ(s.inference.served, 40u);
    EXPECT_GT(s.training.iterations, 0u);
    EXPECT_EQ(s.errors, 0u);
    EXPECT_EQ(s.lost, 0u);
    EXPECT_EQ(s.switches, 1u);
    EXPECT_GT(s.rateComputations, 0u);
    uint64_t kv = 0;
    for (const auto& r : e.result->requests)
    {
        EXPECT_TRUE(r.done);
        EXPECT_EQ(r.received, r.wireBytes);
        EXPECT_GE(r.GetTtft(), r.GetKvTime());
        kv += r.wireBytes;
    }
    uint64_t training = 0;
    for (const auto& it : e.result->iterations)
    {
        training += it.done ? it.wireBytes : 0;
    }
    uint64_t delivered = 0;
    for (uint32_t a = 0; a < 16; ++a)
    {
        for (uint32_t b = 0; b < 16; ++b)
        {
            delivered += a == b ? 0 : e.result->GetBytesBetween(a, b);
        }
    }
    // an iteration cut by the stop may have delivered part of its collective
    EXPECT_GE(delivered, kv + training);
    EXPECT_LE(delivered, kv + training + e.result->iterations.back().wireBytes);
}

// Same configuration, same files, bit for bit; the rows carry the level only when asked
TEST(LlmLevel, FluidComparisonIsDeterministicAndTagged)
{
    std::string csv[2];
    for (auto& text : csv)
    {
        LlmComparison c(FluidConfig(), {Policy::MOSE, Policy::STATIC_INFERENCE}, {LlmLevel::FLUID});
        std::ostringstream table;
        c.Run(table);
        EXPECT_NE(table.str().find("fluid  MoSE"), std::string::npos) << table.str();
        EXPECT_NE(table.str().find("rate computations"), std::string::npos);
        const LlmRun e = RunLlm(FluidConfig());
        std::ostringstream rows;
        WriteLlmRequestsCsv(rows, true, e.experiment->GetConfig().policy, e.result->requests);
        text = rows.str();
    }
    EXPECT_EQ(csv[0], csv[1]);
}

// Both levels in one comparison: every row of every file starts with its level, the header
// line with "level", and each level has a row per request and policy
TEST(LlmLevel, BothLevelsTagEveryRow)
{
    ExperimentConfig config = FluidConfig();
    config.llm.requests.resize(5);
    config.llm.training = false;
    LlmComparison c(config,
                    {Policy::MOSE, Policy::STATIC_INFERENCE},
                    {LlmLevel::PACKET, LlmLevel::FLUID});
    std::ostringstream table;
    c.Run(table);
    EXPECT_NE(table.str().find("fluid vs packet"), std::string::npos) << table.str();
    const std::string dir = ::testing::TempDir();
    c.WriteCsv(dir);
    std::ifstream in(dir + "/requests.csv");
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("level,policy,index,", 0), 0u) << line;
    std::map<std::string, int> rows;
    while (std::getline(in, line))
    {
        rows[line.substr(0, line.find(',', line.find(',') + 1))]++;
    }
    EXPECT_EQ(rows,
              (std::map<std::string, int>{{"fluid,MoSE", 5},
                                          {"fluid,S-Inf", 5},
                                          {"packet,MoSE", 5},
                                          {"packet,S-Inf", 5}}));
}

TEST(LlmLevel, LevelsAreParsedOrNamed)
{
    EXPECT_EQ(ParseLlmLevels("--level", "packet"), std::vector<LlmLevel>{LlmLevel::PACKET});
    EXPECT_EQ(ParseLlmLevels("--level", "fluid"), std::vector<LlmLevel>{LlmLevel::FLUID});
    EXPECT_EQ(ParseLlmLevels("--level", "aggregate"), std::vector<LlmLevel>{LlmLevel::AGGREGATE});
    EXPECT_EQ(ParseLlmLevels("--level", "both"),
              (std::vector<LlmLevel>{LlmLevel::PACKET, LlmLevel::FLUID}));
    EXPECT_EQ(ParseLlmLevels("--level", "fluid,aggregate"),
              (std::vector<LlmLevel>{LlmLevel::FLUID, LlmLevel::AGGREGATE}));
    EXPECT_EQ(ParseLlmLevels("--level", "aggregate,packet"),
              (std::vector<LlmLevel>{LlmLevel::AGGREGATE, LlmLevel::PACKET}));
    for (const std::string& bad : {"fast", "fluid,fluid", "packet,fluid,aggregate", "fluid,", ""})
    {
        try
        {
            ParseLlmLevels("--level", bad);
            FAIL() << bad;
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find("--level = \"" + bad +
                                                 "\": packet, fluid, aggregate, both"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(LevelText({LlmLevel::PACKET}), "");
    EXPECT_EQ(LevelText({LlmLevel::FLUID}), ", level fluid");
    EXPECT_EQ(LevelText({LlmLevel::FLUID, LlmLevel::AGGREGATE}), ", levels fluid and aggregate");
    EXPECT_TRUE(IsFluid(LlmLevel::AGGREGATE));
    EXPECT_FALSE(IsFluid(LlmLevel::PACKET));
    ExperimentConfig c = FluidConfig();
    c.llm.fluidRateEpoch = NanoSeconds(-1);
    EXPECT_THROW(BuildLlmRun(c), Error);
}

// The levels are one table: every level of ALL_LEVELS has a name that reads back to it (in any
// letter case, as every other enum option), its traits in LEVEL_TRAITS, and the messages and
// CSV readers list the names in that order
TEST(LlmLevel, LevelsAreOneTable)
{
    ASSERT_EQ(EnumTable<LlmLevel>::Get().size(), ALL_LEVELS.size());
    for (std::size_t i = 0; i < ALL_LEVELS.size(); ++i)
    {
        EXPECT_EQ(static_cast<std::size_t>(ALL_LEVELS[i]), i);
        EXPECT_EQ(ParseLlmLevels("--level", ToString(ALL_LEVELS[i])),
                  std::vector<LlmLevel>{ALL_LEVELS[i]});
    }
    EXPECT_EQ(LevelNames(), (std::vector<std::string>{"packet", "fluid", "aggregate"}));
    EXPECT_EQ(ListLevelNames("or"), "packet, fluid or aggregate");
    EXPECT_EQ(ParseLlmLevels("--level", "Fluid,AGGREGATE"),
              (std::vector<LlmLevel>{LlmLevel::FLUID, LlmLevel::AGGREGATE}));
    // the traits by hand: only the packet level moves packets, only the aggregate level runs
    // an all-to-all as one aggregate
    EXPECT_FALSE(GetLevelTraits(LlmLevel::PACKET).fluid);
    EXPECT_TRUE(GetLevelTraits(LlmLevel::FLUID).fluid);
    EXPECT_TRUE(GetLevelTraits(LlmLevel::AGGREGATE).fluid);
    EXPECT_FALSE(GetLevelTraits(LlmLevel::FLUID).aggregateCollectives);
    EXPECT_TRUE(GetLevelTraits(LlmLevel::AGGREGATE).aggregateCollectives);
    EXPECT_THROW(GetLevelTraits(static_cast<LlmLevel>(ALL_LEVELS.size())), Error);
}

} // namespace
