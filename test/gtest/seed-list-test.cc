/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-baseline-comparison.h"
#include "mose-flow-experiment-helper.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"
#include "mose-seed-list.h"
#include "mose-study-report.h"
#include "mose-switch-cost.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \param study a study \param name a folder's name \return StudyReport's CSV files, by name
std::map<std::string, std::string>
StudyFiles(const FlowExperimentHelper& study, const std::string& name)
{
    const std::string dir = FreshTempFolder(name);
    StudyReport(study).WriteCsv(dir);
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        files[entry.path().filename().string()] = ReadFileBytes(entry.path().string());
    }
    std::filesystem::remove_all(dir);
    return files;
}

/// the options every record of these tests carries
const std::string OPTIONS = "the test's";

/// \param dir the records' folder \param part "I/K", or "" for all \return runner options
RunListOptions
Options(const std::string& dir, const std::string& part = "")
{
    RunListOptions o;
    o.outputDir = dir;
    o.options = OPTIONS;
    if (!part.empty())
    {
        o.selection = RunSelection::ParsePart("--part", part);
    }
    return o;
}

} // namespace

TEST(SeedList, MetricsReadBackExactly)
{
    // numbers whose shortest text needs 17 digits, a histogram, and per-circuit loads
    FlowMetrics m;
    m.all = {1000, 0.1 + 0.2, 7.0 / 3.0, 1e-300, 2.5, 1.0 / 7.0, 123456.789};
    m.kv = {400, 1, 2, 3, 4, 5, 6};
    m.training = {600, 6, 5, 4, 3, 2, 1};
    m.directKv = 0.25;
    m.kvThreePlus = 0.125;
    m.hopHistogramKv = {0, 100, 200, 100};
    m.hopHistogramTraining = {0, 600};
    m.load = {0.1, 0.2 + 0.1};
    m.loadKv = {0.0, 1.0 / 3.0};
    m.loadTraining = {0.1, 2.0 / 3.0};
    const std::string dir = FreshTempFolder("seed-list-metrics");
    const RunRecordStore store(dir, OPTIONS);
    RunRecord record;
    record.index = 0;
    SeedList::PutMetrics(record, store, "m0.p1", m);
    // the record as a merge reads it: from its file
    store.Write(record);
    const RunRecord read = RunRecord::ReadFile(store.GetPath(0));
    const FlowMetrics back = SeedList::GetMetrics(read, "m0.p1");
    EXPECT_EQ(back.all.flows, 1000U);
    EXPECT_EQ(back.all.demand, 0.1 + 0.2); // exactly: not 0.3
    EXPECT_EQ(back.all.maxLoad, 7.0 / 3.0);
    EXPECT_EQ(back.all.p95Load, 1e-300);
    EXPECT_EQ(back.all.avgCost, 1.0 / 7.0);
    EXPECT_EQ(back.kv.p95Cost, 6.0);
    EXPECT_EQ(back.training.flows, 600U);
    EXPECT_EQ(back.kvThreePlus, 0.125);
    EXPECT_EQ(back.hopHistogramKv, m.hopHistogramKv);
    EXPECT_EQ(back.hopHistogramTraining, m.hopHistogramTraining);
    EXPECT_EQ(back.load, m.load);
    EXPECT_EQ(back.loadKv, m.loadKv);
    EXPECT_EQ(back.loadTraining, m.loadTraining);
    // without loads no file is written, and none is read back
    m.load.clear();
    RunRecord noLoads;
    SeedList::PutMetrics(noLoads, store, "x", m);
    EXPECT_EQ(noLoads.figures.count("file.x.loads"), 0U);
    EXPECT_TRUE(SeedList::GetMetrics(noLoads, "x").load.empty());
    // a figure missing: named with the record
    RunRecord cut = read;
    cut.figures.erase("m0.p1.kv.avgHop");
    ExpectErrorContaining([&]() { SeedList::GetMetrics(cut, "m0.p1"); }, "m0.p1.kv.avgHop");
    std::filesystem::remove_all(dir);
}

TEST(SeedList, RunsNameTheProgramAndTheRun)
{
    const SeedList list("mose-paper", 7, 3);
    EXPECT_EQ(list.Describe(2), "mose-paper seed 2 (run 9)");
    std::ostringstream os;
    list.Print(os);
    EXPECT_EQ(os.str(),
              "index,run\n0,mose-paper seed 0 (run 7)\n1,mose-paper seed 1 (run 8)\n"
              "2,mose-paper seed 2 (run 9)\n");
}

TEST(SeedList, StudyOnTwoWorkersOrMergedGivesTheFilesOfOneProcess)
{
    const FlowExperimentConfig config = SmallStudyConfig(1500);
    const SeedPlan plan{5, 1};
    FlowExperimentHelper direct(config, plan);
    direct.Run();
    const auto expected = StudyFiles(direct, "seed-list-direct");
    ASSERT_GE(expected.size(), 4U); // per-seed, summary, loads and hops files

    std::ostringstream log;
    const std::string one = FreshTempFolder("seed-list-one");
    FlowExperimentHelper sequential(config, plan);
    ASSERT_TRUE(sequential.Run(Options(one), "mose-paper", log));
    EXPECT_EQ(StudyFiles(sequential, "seed-list-one-csv"), expected);

    RunListOptions two = Options(FreshTempFolder("seed-list-two"));
    two.jobs = 2;
    FlowExperimentHelper twoWorkers(config, plan);
    ASSERT_TRUE(twoWorkers.Run(two, "mose-paper", log));
    EXPECT_EQ(StudyFiles(twoWorkers, "seed-list-two-csv"), expected);
    EXPECT_EQ(twoWorkers.GetSwitchCount(3, WorkloadMode::TRAINING_HEAVY, Policy::MOSE).added,
              direct.GetSwitchCount(3, WorkloadMode::TRAINING_HEAVY, Policy::MOSE).added);

    // three parts, the last on two workers; a part evaluates none of the study's seeds
    std::vector<std::string> parts;
    for (const char* part : {"1/3", "2/3", "3/3"})
    {
        RunListOptions p = Options(FreshTempFolder(std::string("seed-list-part") + part[0]), part);
        p.jobs = part[0] == '3' ? 2 : 1;
        parts.push_back(p.outputDir);
        FlowExperimentHelper partial(config, plan);
        EXPECT_FALSE(partial.Run(p, "mose-paper", log));
        EXPECT_EQ(partial.GetSeedsDone(), 0U);
    }
    // seeds 0 and 3 in part 1, 1 and 4 in part 2, 2 in part 3
    EXPECT_TRUE(std::filesystem::exists(parts[0] + "/runs/run-000003.txt"));
    EXPECT_FALSE(std::filesystem::exists(parts[0] + "/runs/run-000001.txt"));
    RunListOptions merge = Options("");
    merge.merge = parts;
    FlowExperimentHelper merged(config, plan);
    ASSERT_TRUE(merged.Run(merge, "mose-paper", log));
    EXPECT_EQ(StudyFiles(merged, "seed-list-merged-csv"), expected);

    // another program's parts: refused, naming the file
    FlowExperimentHelper other(config, plan);
    ExpectErrorContaining([&]() { other.Run(merge, "mose-break-even", log); },
                          parts[0] + "/runs/run-000000.txt is not run 0 of this mose-break-even "
                                     "list (mose-break-even seed 0 (run 1)): it holds "
                                     "\"mose-paper seed 0 (run 1)\"");
    // a part missing: the runs to carry out are named
    merge.merge = {parts[0], parts[2]};
    ExpectErrorContaining([&]() { other.Run(merge, "mose-paper", log); },
                          "2 of 5 runs have no record");
    // parts made with other options
    merge.merge = parts;
    merge.options = "another study's";
    ExpectErrorContaining([&]() { other.Run(merge, "mose-paper", log); }, "other options");
    for (const std::string& d : parts)
    {
        std::filesystem::remove_all(d);
    }
    std::filesystem::remove_all(one);
    std::filesystem::remove_all(two.outputDir);
}

TEST(SeedList, BaselinesAndSwitchCostMergedAreTheirOneProcessStudies)
{
    BaselineComparisonConfig bc;
    bc.study = SmallStudyConfig(1000);
    bc.seedPlan = SeedPlan{3, 1};
    bc.baselines = DefaultBaselineSpecs(bc.study.nodes);
    BaselineComparison direct(bc);
    direct.Run();
    std::ostringstream log;
    std::vector<std::string> parts;
    for (const char* part : {"1/2", "2/2"})
    {
        parts.push_back(FreshTempFolder(std::string("seed-list-baselines") + part[0]));
        BaselineComparison partial(bc);
        EXPECT_FALSE(partial.Run(Options(parts.back(), part), "mose-baselines", log));
    }
    RunListOptions merge = Options("");
    merge.merge = parts;
    BaselineComparison merged(bc);
    ASSERT_TRUE(merged.Run(merge, "mose-baselines", log));
    ASSERT_EQ(merged.GetRows().size(), direct.GetRows().size());
    for (std::size_t row = 0; row < direct.GetRows().size(); ++row)
    {
        for (Metric metric : ALL_METRICS)
        {
            const Summary a = direct.Summarize(WorkloadMode::INFERENCE_HEAVY, row, metric);
            const Summary b = merged.Summarize(WorkloadMode::INFERENCE_HEAVY, row, metric);
            EXPECT_EQ(a.mean, b.mean) << row;
            EXPECT_EQ(a.ci95, b.ci95) << row;
        }
    }
    const std::string a = FreshTempFolder("seed-list-baselines-a");
    const std::string b = FreshTempFolder("seed-list-baselines-b");
    direct.WriteCsv(a);
    merged.WriteCsv(b);
    EXPECT_EQ(ReadFileBytes(a + "/baselines_per_seed.csv"),
              ReadFileBytes(b + "/baselines_per_seed.csv"));

    // the switch-cost study: its seeds' inputs, whatever the workers
    SwitchCostStudy one(bc.study, SeedPlan{3, 1});
    one.Run();
    RunListOptions two = Options(FreshTempFolder("seed-list-switch-cost"));
    two.jobs = 2;
    SwitchCostStudy twoWorkers(bc.study, SeedPlan{3, 1});
    ASSERT_TRUE(twoWorkers.Run(two, "mose-break-even", log));
    ASSERT_EQ(twoWorkers.GetSeedsDone(), 3U);
    for (uint32_t seed = 0; seed < 3; ++seed)
    {
        for (std::size_t p = 0; p < ALL_POLICIES.size(); ++p)
        {
            for (std::size_t m = 0; m < ALL_MODES.size(); ++m)
            {
                EXPECT_EQ(twoWorkers.GetSeed(seed).policies[p].rate[m],
                          one.GetSeed(seed).policies[p].rate[m]);
                EXPECT_EQ(twoWorkers.GetSeed(seed).policies[p].unservedShare[m],
                          one.GetSeed(seed).policies[p].unservedShare[m]);
                EXPECT_EQ(twoWorkers.GetSeed(seed).circuits[p][m].added,
                          one.GetSeed(seed).circuits[p][m].added);
            }
        }
    }
    for (const std::string& d : {parts[0], parts[1], a, b, two.outputDir})
    {
        std::filesystem::remove_all(d);
    }
}

TEST(SeedList, JobsAndThreadsBothGivenAreRefused)
{
    // as a program reads them: --jobs and --threads both set the seeds' workers
    const std::string dir = FreshTempFolder("seed-list-options");
    const auto read = [&dir](std::vector<std::string> args) {
        Program program("mose-test", dir, Program::FLOW_LEVEL);
        ScenarioOptions scenario;
        RunOptions runs;
        scenario.AddOptions(program.GetCommandLine());
        runs.AddOptionsForSeeds(program.GetCommandLine());
        args.insert(args.begin(), "mose-test");
        std::vector<char*> argv;
        for (std::string& a : args)
        {
            argv.push_back(a.data());
        }
        program.Parse(static_cast<int>(argv.size()), argv.data());
        return runs.ReadForSeeds("mose-test",
                                 scenario,
                                 scenario.GetConfig(),
                                 scenario.GetSeedPlan(),
                                 program,
                                 static_cast<int>(argv.size()),
                                 argv.data());
    };
    const std::vector<std::string> small = {"--nodes=64",
                                            "--prefill=24",
                                            "--decode=24",
                                            "--training=16",
                                            "--trPrefill=8",
                                            "--trDecode=8",
                                            "--trTraining=48",
                                            "--flows=500"};
    const auto with = [&small](std::vector<std::string> args) {
        args.insert(args.begin(), small.begin(), small.end());
        return args;
    };
    ExpectErrorContaining(
        [&]() {
            read(with({"--jobs=2", "--threads=3"}));
        },
        "--jobs = \"2\" and --threads = \"3\": both set the worker threads");
    // --threads alone: the workers, as before; the records' options leave both out
    const std::optional<RunListOptions> threads = read(with({"--threads=3", "--seeds=2"}));
    ASSERT_TRUE(threads);
    EXPECT_EQ(threads->jobs, 2U); // at most the seeds
    EXPECT_EQ(threads->outputDir, dir);
    const std::optional<RunListOptions> jobs = read(with({"--jobs=3", "--seeds=2"}));
    ASSERT_TRUE(jobs);
    EXPECT_EQ(jobs->jobs, 3U);
    EXPECT_EQ(jobs->options, threads->options);
    EXPECT_EQ(jobs->options.find("threads"), std::string::npos) << jobs->options;
    EXPECT_NE(jobs->options.find("\"--seeds=2\""), std::string::npos) << jobs->options;
    ExpectErrorContaining([&]() { read(with({"--jobs=0"})); }, "invalid --jobs = \"0\"");
    ExpectErrorContaining([&]() { read(with({"--part=3/2"})); }, "invalid --part = \"3/2\"");
    // --listRuns with --merge: the merge would do nothing (issue 42's probe); a bool option's bad
    // value names it
    ExpectErrorContaining(
        [&]() {
            read(with({"--listRuns", "--merge=" + dir}));
        },
        "--listRuns and --merge = \"" + dir +
            "\": --listRuns prints the "
            "study's list and exits, so --merge would put nothing together");
    ExpectErrorContaining([&]() { read(with({"--listRuns=2"})); },
                          "invalid --listRuns = \"2\": allowed values are true, false");
    // --listRuns: the list printed, nothing to run
    testing::internal::CaptureStdout();
    EXPECT_FALSE(read(with({"--listRuns", "--seeds=2", "--RngRun=5"})));
    EXPECT_EQ(testing::internal::GetCapturedStdout(),
              "index,run\n0,mose-test seed 0 (run 5)\n1,mose-test seed 1 (run 6)\n");
    std::filesystem::remove_all(dir);
}
