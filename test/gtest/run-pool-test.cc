/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Many runs (issue 40): the selection of runs (--runs, --part), run records read back exactly,
// the worker pool on threads and on processes (the same records for every K, a failing or
// killed run named), and a regime map carried out on two workers, in parts and merged, against
// the map run in one process.

#include "mose-llm-map-runner.h"
#include "mose-llm-test-util.h"
#include "mose-run-list.h"
#include "mose-run-pool.h"

#include "ns3/mose-error.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// A run whose figure is a function of its index alone; runs 13 fails, run 17 kills itself
class SquareTask : public RunTask
{
  public:
    /// \param index the run \param failing whether the failing runs fail
    SquareTask(uint32_t index, bool failing)
        : m_index(index),
          m_failing(failing)
    {
    }

    void Prepare() override
    {
        m_value = m_index;
    }

    void Execute() override
    {
        if (m_failing && m_index == 13)
        {
            throw Error("run 13 cannot");
        }
        if (m_failing && m_index == 17)
        {
            raise(SIGKILL);
        }
        m_value = m_value * m_value + 0.1; // 0.1 is not a binary fraction: read back exactly
    }

    void Finish(RunRecord& record) override
    {
        record.run = "square of " + std::to_string(m_index);
        record.Set("square", m_value);
    }

  private:
    uint32_t m_index;  //!< the run
    bool m_failing;    //!< fail runs 13 and 17
    double m_value{0}; //!< its figure
};

/// \return the records of runs 0..n-1 on `jobs` workers of a kind, by index
std::map<uint32_t, std::string>
RunSquares(uint32_t n, uint32_t jobs, RunWorkers workers, bool failing = false)
{
    std::vector<uint32_t> indices;
    for (uint32_t i = 0; i < n; ++i)
    {
        indices.push_back(i);
    }
    std::map<uint32_t, std::string> out;
    RunPool(jobs, workers)
        .Run(
            indices,
            [failing](uint32_t i) { return std::make_unique<SquareTask>(i, failing); },
            [&out](const RunRecord& r) {
                EXPECT_TRUE(out.emplace(r.index, r.run + " " + r.figures.at("square")).second);
                EXPECT_GE(r.resources.wallSeconds, 0);
                EXPECT_GT(r.resources.maxRssKb, 0U);
            });
    return out;
}

/// a fresh folder under the test's temporary folder
std::string
FreshFolder(const std::string& name)
{
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("mose-run-pool-test-" + std::to_string(getpid()) + "-" + name))
                                .string();
    std::filesystem::remove_all(dir);
    return dir;
}

} // namespace

TEST(RunSelection, RunsAndPartsSelectByIndex)
{
    const RunSelection runs = RunSelection::ParseRuns("--runs", "7,0-2,4");
    EXPECT_EQ(runs.Indices(10), (std::vector<uint32_t>{0, 1, 2, 4, 7}));
    EXPECT_EQ(runs.Describe(), "runs 7,0-2,4");
    EXPECT_NO_THROW(runs.Check(8));
    EXPECT_THROW(runs.Check(7), Error); // run 7 is not in a list of 7
    // part I of K: the indices I - 1, I - 1 + K, ...
    EXPECT_EQ(RunSelection::ParsePart("--part", "2/3").Indices(10),
              (std::vector<uint32_t>{1, 4, 7}));
    EXPECT_EQ(RunSelection::ParsePart("--part", "3/3").Indices(10),
              (std::vector<uint32_t>{2, 5, 8}));
    // the parts of a list hold every run once
    std::vector<uint32_t> all;
    for (uint32_t i = 1; i <= 4; ++i)
    {
        for (uint32_t r : RunSelection::ParsePart("--part", std::to_string(i) + "/4").Indices(11))
        {
            all.push_back(r);
        }
    }
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, RunSelection::All().Indices(11));
    for (const char* bad : {"", "a", "3-1", "1,1", "2,1-3", "-1"})
    {
        EXPECT_THROW(RunSelection::ParseRuns("--runs", bad), Error) << bad;
    }
    for (const char* bad : {"0/4", "5/4", "1/0", "1", "1/x", "/4", "-1/4"})
    {
        EXPECT_THROW(RunSelection::ParsePart("--part", bad), Error) << bad;
    }
    EXPECT_THROW(RunSelection::ParsePart("--part", "1/12").Check(11), Error);
}

TEST(RunRecord, TheStudysOptionsLeaveOutHowItRuns)
{
    std::vector<std::string> args{"mose-llm",
                                  "--seeds=2",
                                  "--jobs=2",
                                  "-part=1/4",
                                  "--outputDir=my results",
                                  "--label=a \"b\""};
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    EXPECT_EQ(StudyOptionsText(static_cast<int>(argv.size()),
                               argv.data(),
                               {"--jobs", "--part", "--outputDir"}),
              "\"--seeds=2\" \"--label=a \\\"b\\\"\"");
}

TEST(RunRecord, ReadsBackEveryNumberExactly)
{
    RunRecord r;
    r.build = GetModuleBuildId();
    r.options = "\"--nodes=64\" \"--seeds=3\"";
    r.index = 42;
    r.run = "load 25/s, MoSE";
    r.resources = RunResources{1.25, 0.1 + 0.2, 123456};
    r.Set("third", 1.0 / 3.0);
    r.Set("tiny", 5e-324);
    r.Set("big", uint64_t{18446744073709551615U});
    r.Set("negative", int64_t{-9223372036854775807LL});
    const RunRecord back = RunRecord::FromText("f", r.ToText());
    EXPECT_EQ(back.build, r.build);
    EXPECT_EQ(back.options, r.options);
    EXPECT_EQ(back.index, 42U);
    EXPECT_EQ(back.run, r.run);
    EXPECT_EQ(back.resources.cpuSeconds, 0.1 + 0.2);
    EXPECT_EQ(back.resources.maxRssKb, 123456U);
    EXPECT_EQ(back.GetReal("third"), 1.0 / 3.0);
    EXPECT_EQ(back.GetReal("tiny"), 5e-324);
    EXPECT_EQ(back.GetUnsigned("big"), 18446744073709551615U);
    EXPECT_EQ(back.GetSigned("negative"), -9223372036854775807LL);
    EXPECT_THROW(back.GetReal("missing"), Error);
    EXPECT_THROW(RunRecord::FromText("f", "half a record\n"), Error);
    EXPECT_THROW(RunRecord::FromText("f", "mose-run-record 1\nbuild=x\n"), Error);
    // the build id: the module's version and a digest of its sources
    EXPECT_TRUE(
        std::regex_match(GetModuleBuildId(), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+\\+[0-9a-f]{12}")))
        << GetModuleBuildId();
}

TEST(RunRecordStore, RefusesARecordOfAnotherStudy)
{
    const std::string dir = FreshFolder("store");
    const RunRecordStore store(dir, "\"--seeds=2\"");
    EXPECT_FALSE(store.Find(3));
    RunRecord r;
    r.index = 3;
    r.Set("x", 2.5);
    store.Write(r);
    ASSERT_TRUE(store.Find(3));
    EXPECT_EQ(store.Find(3)->GetReal("x"), 2.5);
    EXPECT_EQ(store.GetPath(3), dir + "/runs/run-000003.txt");
    // another study's options, or a record under another run's name
    EXPECT_THROW(RunRecordStore(dir, "\"--seeds=3\"").Find(3), Error);
    std::filesystem::copy_file(store.GetPath(3), store.GetPath(4));
    EXPECT_THROW(store.Find(4), Error);
    // a study run into the folder: another study's record is not taken, and says why
    std::string why;
    EXPECT_FALSE(RunRecordStore(dir, "\"--seeds=3\"").Find(3, &why));
    EXPECT_NE(why.find("run-000003.txt was made with other options"), std::string::npos) << why;
    why.clear();
    ASSERT_TRUE(store.Find(3, &why));
    EXPECT_EQ(why, "");
    std::filesystem::remove_all(dir);
}

TEST(RunPool, TheRecordsDoNotDependOnTheWorkers)
{
    const auto one = RunSquares(24, 1, RunWorkers::THREADS);
    ASSERT_EQ(one.size(), 24U);
    EXPECT_EQ(one.at(5), "square of 5 25.1"); // FormatNumber(): the shortest exact text
    EXPECT_EQ(RunSquares(24, 3, RunWorkers::THREADS), one);
    EXPECT_EQ(RunSquares(24, 2, RunWorkers::PROCESSES), one);
    EXPECT_EQ(RunSquares(24, 5, RunWorkers::PROCESSES), one);
    EXPECT_THROW(RunPool(0, RunWorkers::THREADS), Error);
}

TEST(RunPool, AFailingOrKilledRunIsNamed)
{
    for (RunWorkers w : {RunWorkers::THREADS, RunWorkers::PROCESSES})
    {
        try
        {
            RunSquares(16, 2, w, true);
            ADD_FAILURE() << "run 13 fails";
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find("run 13 cannot"), std::string::npos) << e.what();
        }
    }
    // a process killed by a signal (threads would take the whole program with them)
    std::vector<uint32_t> indices{16, 17, 18};
    try
    {
        RunPool(2, RunWorkers::PROCESSES)
            .Run(
                indices,
                [](uint32_t i) { return std::make_unique<SquareTask>(i, true); },
                [](const RunRecord&) {});
        ADD_FAILURE() << "run 17 is killed";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("run 17 failed: its process was killed by signal 9"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LlmMapRunner, PartsMergedAndTwoWorkersGiveTheMapOfOneProcess)
{
    LlmRegimeMapConfig c;
    c.base = MakeLlmConfig(32);
    c.base.level = LlmLevel::FLUID;
    c.base.scale = 2000;
    c.loads = {25, 200};
    c.intervals = {MilliSeconds(100)};
    c.darkTimes = {MilliSeconds(10), MilliSeconds(100)};
    c.seeds = 2;
    c.cycles = 2;
    c.flowLevelFlows = 0;
    // in one process, as the map always ran
    LlmRegimeMap direct(c);
    direct.Run();
    std::ostringstream directCsv;
    direct.WriteCsv(directCsv);

    const std::vector<LlmLevel> levels{LlmLevel::FLUID};
    std::ostringstream log;
    // on two worker threads
    LlmMapRunnerOptions two;
    two.jobs = 2;
    two.outputDir = FreshFolder("two");
    two.options = "the test's";
    LlmMapRunner twoRunner(c, levels);
    EXPECT_EQ(twoRunner.GetTotal(), 2U * (3 + 2) * 2); // loads x (statics + darks) x seeds
    ASSERT_TRUE(twoRunner.Run(two, log));
    std::ostringstream twoCsv;
    twoRunner.GetMaps().at(0)->WriteCsv(twoCsv);
    EXPECT_EQ(twoCsv.str(), directCsv.str());

    // in three parts, each its own folder, then merged
    std::vector<std::string> folders;
    for (uint32_t i = 1; i <= 3; ++i)
    {
        LlmMapRunnerOptions part;
        part.selection = RunSelection::ParsePart("--part", std::to_string(i) + "/3");
        part.outputDir = FreshFolder("part" + std::to_string(i));
        part.options = "the test's";
        folders.push_back(part.outputDir);
        EXPECT_FALSE(LlmMapRunner(c, levels).Run(part, log));
    }
    LlmMapRunnerOptions merge;
    merge.merge = folders;
    merge.options = "the test's";
    LlmMapRunner merged(c, levels);
    ASSERT_TRUE(merged.Run(merge, log));
    std::ostringstream mergedCsv;
    merged.GetMaps().at(0)->WriteCsv(mergedCsv);
    EXPECT_EQ(mergedCsv.str(), directCsv.str());
    // a part missing, or merged twice
    merge.merge = {folders[0], folders[1]};
    EXPECT_THROW(LlmMapRunner(c, levels).Run(merge, log), Error);
    merge.merge = {folders[0], folders[1], folders[2], two.outputDir};
    EXPECT_THROW(LlmMapRunner(c, levels).Run(merge, log), Error);
    // another map's parts
    LlmRegimeMapConfig other = c;
    other.tolerance = 0.05;
    merge.merge = folders;
    merge.options = "another study's";
    EXPECT_THROW(LlmMapRunner(other, levels).Run(merge, log), Error);
    for (const std::string& f : folders)
    {
        std::filesystem::remove_all(f);
    }
    std::filesystem::remove_all(two.outputDir);
}

TEST(LlmMapRunner, ASummaryReadsBackExactly)
{
    LlmMapRunFigures f;
    f.summary.policy = Policy::STATIC_COMPROMISE;
    f.summary.level = LlmLevel::AGGREGATE;
    f.summary.inference.kv.mean = 1.0 / 7.0;
    f.summary.inference.ttft.p99 = 0.1 + 0.2;
    f.summary.inference.requests = 4000000000U;
    f.summary.lost = 12345678901234ULL;
    f.summary.noticeDelay = NanoSeconds(-3);
    f.summary.stopTime = Seconds(30);
    f.summary.eventsPerRank = {7, 9};
    f.cycles.resize(2);
    f.cycles[1].training.iteration.mean = 2.0 / 3.0;
    RunRecord r;
    LlmMapRunner::PutFigures(f, r);
    const LlmMapRunFigures back = LlmMapRunner::GetFigures(RunRecord::FromText("f", r.ToText()));
    EXPECT_EQ(back.summary.policy, Policy::STATIC_COMPROMISE);
    EXPECT_EQ(back.summary.level, LlmLevel::AGGREGATE);
    EXPECT_EQ(back.summary.inference.kv.mean, 1.0 / 7.0);
    EXPECT_EQ(back.summary.inference.ttft.p99, 0.1 + 0.2);
    EXPECT_EQ(back.summary.inference.requests, 4000000000U);
    EXPECT_EQ(back.summary.lost, 12345678901234ULL);
    EXPECT_EQ(back.summary.noticeDelay, NanoSeconds(-3));
    EXPECT_EQ(back.summary.stopTime, Seconds(30));
    EXPECT_EQ(back.summary.eventsPerRank, (std::vector<uint64_t>{7, 9}));
    ASSERT_EQ(back.cycles.size(), 2U);
    EXPECT_EQ(back.cycles[1].training.iteration.mean, 2.0 / 3.0);
}
