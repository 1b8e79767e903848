/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mose-mode-switch's comparison as a list of runs (issue 40): the list's order, a run's summary
// read back exactly from its record, and the files and comparisons of one process against two
// workers and against two parts merged (at the fluid level, for time; examples-bad-input.sh's
// switch-* cases run the packet level).

#include "mose-switch-comparison-runs.h"
#include "mose-switch-comparison.h"
#include "mose-switch-experiment.h"
#include "mose-switch-test-util.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// 16 groups, 60 flows per mode, inference -> training (150 ms) -> inference, on run 5
ExperimentConfig
SmallConfig()
{
    ExperimentConfig c = test::ThreeIntervalSwitchConfig(60, MilliSeconds(100), Seconds(20));
    c.run = 5;
    c.scenario.firstRun = 5;
    return c;
}

/// a fresh folder under the test's temporary folder
std::string
FreshFolder(const std::string& name)
{
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("mose-switch-runs-test-" + std::to_string(getpid()) + "-" + name))
                                .string();
    std::filesystem::remove_all(dir);
    return dir;
}

/// what a comparison gave: its files (name -> text) and each seed's comparison.csv
struct Outcome
{
    std::map<std::string, std::string> files; //!< the output folder's files, runs/ left out
    std::vector<std::string> comparisons;     //!< per seed, its comparison as CSV
    std::vector<SwitchComparison> perSeed;    //!< per seed, its comparison
};

/// \param list the runs \param options how \return what they gave (empty for a part)
Outcome
RunList(SwitchComparisonRuns& list, const RunListOptions& options, const std::string& dir)
{
    Outcome out;
    std::ostringstream printed;
    std::string script;
    if (!list.Run(options, dir, printed, [&script](const std::string& base, const std::string& s) {
            EXPECT_EQ(base, "goodput_MoSE");
            script = s;
        }))
    {
        return out;
    }
    EXPECT_NE(printed.str().find("ran S-Train: "), std::string::npos) << printed.str();
    EXPECT_NE(script.find("goodput_MoSE.png"), std::string::npos) << script;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        if (entry.is_regular_file())
        {
            std::ifstream in(entry.path(), std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            out.files[entry.path().filename().string()] = text.str();
        }
    }
    out.perSeed = list.GetComparisons();
    for (const SwitchComparison& c : out.perSeed)
    {
        const std::string path = dir + "/comparison-test.csv";
        WriteSwitchComparisonCsv(c, path);
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        out.comparisons.push_back(text.str());
        std::filesystem::remove(path);
    }
    return out;
}

} // namespace

TEST(SwitchComparisonRuns, ListsSeedMajorAndReadsASummaryBackExactly)
{
    const SwitchComparisonRuns list(SmallConfig(),
                                    {Policy::MOSE, Policy::STATIC_TRAINING},
                                    2,
                                    false);
    EXPECT_EQ(list.GetTotal(), 4U);
    std::ostringstream os;
    list.WriteList(os);
    EXPECT_EQ(os.str(),
              "index,seed,run,policy\n0,0,5,MoSE\n1,0,5,S-Train\n2,1,6,MoSE\n3,1,6,S-Train\n");
    EXPECT_THROW(SwitchComparisonRuns(SmallConfig(), {}, 1, false), Error);
    EXPECT_THROW(SwitchComparisonRuns(SmallConfig(), {Policy::MOSE}, 0, false), Error);

    SwitchRunSummary s;
    s.policy = Policy::STATIC_COMPROMISE;
    s.kv.transfers = 7;
    s.kv.completed = 6;
    s.kv.meanS = 0.1; // no exact binary fraction: read back as the same double
    s.kv.p99S = 1.0 / 3.0;
    s.kv.bytes = 1ULL << 40;
    s.training.goodputBps = 9.87654321e10;
    s.transfers = 12;
    s.completed = 11;
    s.meanFctS = 2.0 / 7.0;
    s.makespanS = 0.45;
    s.switches = 2;
    s.circuitsChanged = 40;
    s.switchTime = NanoSeconds(3000001);
    s.blackoutTime = NanoSeconds(999);
    s.packetsHeld = 5;
    s.longestHold = MicroSeconds(17);
    s.packetsLost = 3;
    s.intervalModes = {WorkloadMode::INFERENCE_HEAVY, WorkloadMode::TRAINING_HEAVY};
    s.intervalMeanFctS = {0.01, 0.02};
    s.intervalMaxLoad = {1.5, 2.25};
    s.wallSeconds = 0.3;
    s.simulatedSeconds = 0.46;
    s.fluid = true;
    RunRecord r;
    SwitchComparisonRuns::PutSummary(s, r);
    const SwitchRunSummary back =
        SwitchComparisonRuns::GetSummary(RunRecord::FromText("f", r.ToText()));
    EXPECT_EQ(back.policy, Policy::STATIC_COMPROMISE);
    EXPECT_EQ(back.kv.transfers, 7U);
    EXPECT_EQ(back.kv.completed, 6U);
    EXPECT_EQ(back.kv.meanS, 0.1);
    EXPECT_EQ(back.kv.p99S, 1.0 / 3.0);
    EXPECT_EQ(back.kv.bytes, 1ULL << 40);
    EXPECT_EQ(back.training.goodputBps, 9.87654321e10);
    EXPECT_EQ(back.meanFctS, 2.0 / 7.0);
    EXPECT_EQ(back.circuitsChanged, 40U);
    EXPECT_EQ(back.switchTime, NanoSeconds(3000001));
    EXPECT_EQ(back.blackoutTime, NanoSeconds(999));
    EXPECT_EQ(back.longestHold, MicroSeconds(17));
    EXPECT_EQ(back.packetsLost, 3U);
    EXPECT_EQ(back.intervalModes, s.intervalModes);
    EXPECT_EQ(back.intervalMeanFctS, s.intervalMeanFctS);
    EXPECT_EQ(back.intervalMaxLoad, s.intervalMaxLoad);
    EXPECT_EQ(back.simulatedSeconds, 0.46);
    EXPECT_TRUE(back.fluid);
    // a mode of another version: named
    RunRecord bad = r;
    bad.path = "bad.txt";
    bad.Set("summary.interval1.mode", uint64_t{7});
    try
    {
        SwitchComparisonRuns::GetSummary(bad);
        ADD_FAILURE() << "mode 7 is none";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("bad.txt: no workload mode 7"), std::string::npos)
            << e.what();
    }
}

TEST(SwitchComparisonRuns, TwoWorkersAndMergedPartsGiveTheFilesOfOneProcess)
{
    // at the fluid level (a process per run all the same): the packet level's runs take
    // seconds each, and the list does not depend on the level
    ExperimentConfig config = SmallConfig();
    config.SetTransport(LlmLevel::FLUID, config.transport);
    const std::vector<Policy> policies = {Policy::MOSE, Policy::STATIC_TRAINING};
    // the one-process comparison: seed 1's MoSE run is the run 6 experiment alone
    RunListOptions one;
    one.options = "switch";
    one.outputDir = FreshFolder("one");
    SwitchComparisonRuns oneList(config, policies, 2, true);
    const Outcome a = RunList(oneList, one, one.outputDir);
    ASSERT_EQ(a.perSeed.size(), 2U);
    ExperimentConfig seed1 = config;
    seed1.run = 6;
    seed1.scenario.firstRun = 6;
    Experiment alone(seed1);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(alone);
    alone.Build();
    alone.Run();
    const SwitchRunSummary summary = result->GetSummary(alone);
    ASSERT_EQ(a.perSeed[1].GetSummaries().size(), 2U);
    EXPECT_EQ(a.perSeed[1].GetSummaries()[0].meanFctS, summary.meanFctS);
    EXPECT_EQ(a.perSeed[1].GetSummaries()[0].circuitsChanged, summary.circuitsChanged);
    // seed 0's files: 4 CSV files per policy, and the reported run's scenario: 3 templates as
    // CSV and dot, roles, assignment and flows per mode
    EXPECT_EQ(a.files.size(), 8U + 6U + 6U);
    for (const char* name :
         {"MoSE_intervals.csv", "S-Train_transfers.csv", "uniform.dot", "flows_training.csv"})
    {
        EXPECT_EQ(a.files.count(name), 1U) << name;
    }

    RunListOptions two = one;
    two.jobs = 2;
    two.outputDir = FreshFolder("two");
    SwitchComparisonRuns twoList(config, policies, 2, true);
    const Outcome b = RunList(twoList, two, two.outputDir);
    EXPECT_EQ(b.files, a.files);
    EXPECT_EQ(b.comparisons, a.comparisons);

    std::vector<std::string> folders;
    for (const char* part : {"1/2", "2/2"})
    {
        RunListOptions p = one;
        p.selection = RunSelection::ParsePart("--part", part);
        p.outputDir = FreshFolder(std::string("part") + part[0]);
        folders.push_back(p.outputDir);
        SwitchComparisonRuns partList(config, policies, 2, true);
        EXPECT_TRUE(RunList(partList, p, p.outputDir).files.empty());
    }
    RunListOptions merge;
    merge.options = "switch";
    merge.merge = folders;
    const std::string merged = FreshFolder("merged");
    std::filesystem::create_directories(merged);
    SwitchComparisonRuns mergedList(config, policies, 2, true);
    const Outcome c = RunList(mergedList, merge, merged);
    EXPECT_EQ(c.files, a.files);
    EXPECT_EQ(c.comparisons, a.comparisons);
    EXPECT_EQ(DescribeSwitchVerdict(c.perSeed[0]), DescribeSwitchVerdict(a.perSeed[0]));
    for (const std::string& f : {one.outputDir, two.outputDir, merged, folders[0], folders[1]})
    {
        std::filesystem::remove_all(f);
    }
}
