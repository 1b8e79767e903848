/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A study as a list of runs (issue 40): SHA-256 against FIPS 180-4's examples, a run's files
// listed in its record and checked, RunListRunner's parts and merge, and the LLM comparison
// (mose-llm --map=false) on two workers and merged from parts against the comparison of one
// process.

#include "mose-llm-comparison.h"
#include "mose-llm-test-util.h"
#include "mose-run-list-runner.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// a fresh folder under the test's temporary folder
std::string
FreshFolder(const std::string& name)
{
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("mose-run-list-test-" + std::to_string(getpid()) + "-" + name))
                                .string();
    std::filesystem::remove_all(dir);
    return dir;
}

/// A run that writes one file, "cube.txt": its index cubed, and a figure, the index plus 0.5
class CubeTask : public RunTask
{
  public:
    /// \param index the run \param store where its file goes
    CubeTask(uint32_t index, const RunRecordStore& store)
        : m_index(index),
          m_store(store)
    {
    }

    void Prepare() override
    {
    }

    void Execute() override
    {
    }

    void Finish(RunRecord& record) override
    {
        record.Set("half", m_index + 0.5);
        m_store.WriteRunFile(record,
                             "cube.txt",
                             std::to_string(uint64_t{m_index} * m_index * m_index) + "\n");
    }

  private:
    uint32_t m_index;              //!< the run
    const RunRecordStore& m_store; //!< its records
};

/// \return the runs' files, concatenated in the list's order ("" for a part)
std::string
RunCubes(const RunListRunner& runner, const RunListOptions& options, RunWorkers workers)
{
    std::vector<RunRecord> records;
    std::ostringstream log;
    if (!runner.Run(
            options,
            workers,
            [](uint32_t i, const RunRecordStore& store) {
                return std::make_unique<CubeTask>(i, store);
            },
            records,
            log))
    {
        return "";
    }
    std::string out;
    for (const RunRecord& r : records)
    {
        out += RunRecordStore::ReadRunFile(r, "cube.txt");
    }
    return out;
}

/// \return the runs' texts: "cube 0" ... "cube n-1"
std::vector<std::string>
Cubes(uint32_t n)
{
    std::vector<std::string> runs;
    for (uint32_t i = 0; i < n; ++i)
    {
        runs.push_back("cube " + std::to_string(i));
    }
    return runs;
}

} // namespace

TEST(Sha256Hex, GivesTheStandardsExamples)
{
    // FIPS 180-4's examples (NIST's "SHA256.pdf"): one block, two blocks, the empty message
    EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    // 55 and 56 bytes: the length still fits the block, or takes one more (the values of
    // Python's hashlib.sha256)
    EXPECT_EQ(Sha256Hex(std::string(55, 'a')),
              "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(Sha256Hex(std::string(56, 'a')),
              "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

TEST(RunRecordStore, ARecordListsItsFilesAndRefusesThemChanged)
{
    const std::string dir = FreshFolder("files");
    const RunRecordStore store(dir, "o");
    RunRecord r;
    r.index = 2;
    store.WriteRunFile(r, "rows.csv", "a,b\n1,2\n");
    EXPECT_EQ(r.figures.at("file.rows.csv"), Sha256Hex("a,b\n1,2\n"));
    EXPECT_EQ(store.GetFilePath(2, "rows.csv"), dir + "/runs/run-000002.rows.csv");
    store.Write(r);
    ASSERT_TRUE(store.Find(2));
    EXPECT_EQ(RunRecordStore::ReadRunFile(*store.Find(2), "rows.csv"), "a,b\n1,2\n");
    EXPECT_THROW(RunRecordStore::ReadRunFile(*store.Find(2), "other.csv"), Error);
    // a file cut after its run: the record is no longer whole
    std::ofstream(store.GetFilePath(2, "rows.csv")) << "a,b\n";
    std::string why;
    EXPECT_FALSE(store.Find(2, &why));
    EXPECT_NE(why.find("run-000002.rows.csv is not the file its run wrote"), std::string::npos)
        << why;
    EXPECT_THROW(store.Find(2), Error);
    std::filesystem::remove(store.GetFilePath(2, "rows.csv"));
    why.clear();
    EXPECT_FALSE(store.Find(2, &why));
    EXPECT_NE(why.find("is missing"), std::string::npos) << why;
    // a name that is no file name
    EXPECT_THROW(store.WriteRunFile(r, "../x", "y"), Error);
    EXPECT_THROW(store.WriteRunFile(r, "txt", "y"), Error);
    std::filesystem::remove_all(dir);
}

TEST(RunListRunner, PartsMergedAndWorkersGiveTheFilesOfOneProcess)
{
    const RunListRunner runner("cubes", Cubes(10));
    EXPECT_EQ(runner.GetTotal(), 10U);
    EXPECT_EQ(RunListRunner::RunsText({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
    // by hand: 0, 1, 8, 27, ..., 729
    std::string expected;
    for (uint32_t i = 0; i < 10; ++i)
    {
        expected += std::to_string(i * i * i) + "\n";
    }
    RunListOptions one;
    one.outputDir = FreshFolder("one");
    one.options = "cubes";
    EXPECT_EQ(RunCubes(runner, one, RunWorkers::THREADS), expected);
    for (RunWorkers w : {RunWorkers::THREADS, RunWorkers::PROCESSES})
    {
        RunListOptions three = one;
        three.jobs = 3;
        three.outputDir = FreshFolder("three");
        EXPECT_EQ(RunCubes(runner, three, w), expected);
        std::filesystem::remove_all(three.outputDir);
    }
    // two parts into two folders, then merged
    std::vector<std::string> folders;
    for (const char* part : {"1/2", "2/2"})
    {
        RunListOptions p = one;
        p.selection = RunSelection::ParsePart("--part", part);
        p.outputDir = FreshFolder(std::string("part") + part[0]);
        folders.push_back(p.outputDir);
        EXPECT_EQ(RunCubes(runner, p, RunWorkers::PROCESSES), "");
    }
    RunListOptions merge;
    merge.options = "cubes";
    merge.merge = folders;
    EXPECT_EQ(RunCubes(runner, merge, RunWorkers::THREADS), expected);
    // a part missing, a run given twice
    merge.merge = {folders[0]};
    EXPECT_THROW(RunCubes(runner, merge, RunWorkers::THREADS), Error);
    merge.merge = {folders[0], folders[1], one.outputDir};
    EXPECT_THROW(RunCubes(runner, merge, RunWorkers::THREADS), Error);
    // another list's records (the same options, other runs): named, not taken
    merge.merge = folders;
    std::vector<std::string> squares = Cubes(10);
    squares[3] = "square 3";
    try
    {
        RunCubes(RunListRunner("squares", squares), merge, RunWorkers::THREADS);
        ADD_FAILURE() << "run 3 is another list's";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("run-000003.txt is not run 3 of this squares list"),
                  std::string::npos)
            << e.what();
    }
    // a file of a part cut: the merge names it
    const RunRecordStore part2(folders[1], "cubes");
    std::ofstream(part2.GetFilePath(1, "cube.txt")) << "";
    merge.merge = folders;
    EXPECT_THROW(RunCubes(runner, merge, RunWorkers::THREADS), Error);
    // resumed: the run with the cut file runs again, the others are kept
    RunListOptions resume = one;
    resume.outputDir = folders[1];
    resume.selection = RunSelection::ParsePart("--part", "2/2");
    EXPECT_EQ(RunCubes(runner, resume, RunWorkers::THREADS), "");
    merge.merge = folders;
    EXPECT_EQ(RunCubes(runner, merge, RunWorkers::THREADS), expected);
    for (const std::string& f : folders)
    {
        std::filesystem::remove_all(f);
    }
    std::filesystem::remove_all(one.outputDir);
}

TEST(RunListRunner, GroupsOfWorkersGiveTheFilesOfOneGroup)
{
    // a list of 7 runs in two groups (mose-llm's map at two levels): 3 on threads, then 4 in a
    // process each; the files are one group's, and each group's seconds are its own
    const RunListRunner runner("cubes", Cubes(7), "map");
    std::string expected;
    for (uint32_t i = 0; i < 7; ++i)
    {
        expected += std::to_string(i * i * i) + "\n";
    }
    const std::vector<RunGroup> groups = {RunGroup{3, RunWorkers::THREADS},
                                          RunGroup{4, RunWorkers::PROCESSES}};
    const auto make = [](uint32_t i, const RunRecordStore& store) {
        return std::make_unique<CubeTask>(i, store);
    };
    for (uint32_t jobs : {1U, 2U})
    {
        RunListOptions o;
        o.jobs = jobs;
        o.options = "cubes";
        o.outputDir = FreshFolder("groups" + std::to_string(jobs));
        std::vector<RunRecord> records;
        std::vector<double> seconds;
        std::ostringstream log;
        ASSERT_TRUE(runner.Run(o, groups, make, records, log, &seconds));
        std::string out;
        for (const RunRecord& r : records)
        {
            out += RunRecordStore::ReadRunFile(r, "cube.txt");
        }
        EXPECT_EQ(out, expected);
        ASSERT_EQ(seconds.size(), 2U);
        EXPECT_GE(seconds[0], 0);
        EXPECT_GE(seconds[1], 0);
        // resumed: every run kept, its recorded wall time counted in its group
        const RunRecordStore store(o.outputDir, "cubes");
        double recorded = 0;
        for (uint32_t i = 3; i < 7; ++i)
        {
            recorded += store.Find(i)->resources.wallSeconds;
        }
        std::vector<double> again;
        ASSERT_TRUE(runner.Run(o, groups, make, records, log, &again));
        // (plus the moment the group's empty pool took)
        EXPECT_GE(again[1], recorded);
        EXPECT_LT(again[1], recorded + 0.01);
        EXPECT_NE(log.str().find("kept 7 of 7 runs"), std::string::npos) << log.str();
        std::filesystem::remove_all(o.outputDir);
    }
    // the groups must hold the list: 3 + 3 runs of 7
    RunListOptions o;
    o.options = "cubes";
    o.outputDir = FreshFolder("groups-bad");
    std::vector<RunRecord> records;
    std::ostringstream log;
    EXPECT_THROW(runner.Run(o,
                            {RunGroup{3, RunWorkers::THREADS}, RunGroup{3, RunWorkers::THREADS}},
                            make,
                            records,
                            log),
                 Error);
    // a part of the map: its noun in the messages
    o.selection = RunSelection::ParsePart("--part", "1/2");
    EXPECT_FALSE(runner.Run(o, groups, make, records, log));
    EXPECT_NE(log.str().find("part 1/2: 4 of 7 runs done (0 kept)"), std::string::npos)
        << log.str();
    EXPECT_NE(log.str().find("; the map: the same options with --merge"), std::string::npos)
        << log.str();
    RunListOptions merge;
    merge.options = "cubes";
    merge.merge = {o.outputDir};
    try
    {
        runner.Run(merge, groups, make, records, log);
        ADD_FAILURE() << "part 2/2 is missing";
    }
    catch (const Error& e)
    {
        // the runs of part 2/2: 1, 3, 5
        EXPECT_NE(std::string(e.what()).find("the map is not whole: 3 of 7 runs have no record"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("--runs=1,3,5"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(o.outputDir);
}

TEST(LlmComparison, AListOnTwoWorkersOrMergedGivesTheFilesOfOneProcess)
{
    ExperimentConfig c = SmallLlmConfig(16);
    c.level = LlmLevel::FLUID;
    for (uint64_t i = 0; i < 40; ++i)
    {
        c.llm.requests.push_back(LlmRequest{i * 1000000, 2000, 10, "", 0});
    }
    c.SetSchedule(
        ModeSchedule{{WorkloadMode::INFERENCE_HEAVY, 0.02}, {WorkloadMode::TRAINING_HEAVY, 0.03}});
    const std::vector<Policy> policies{Policy::MOSE,
                                       Policy::STATIC_INFERENCE,
                                       Policy::STATIC_COMPROMISE};
    const std::vector<LlmLevel> levels{LlmLevel::FLUID, LlmLevel::AGGREGATE};
    const auto files = [](const LlmComparison& comparison, const std::string& dir) {
        comparison.WriteCsv(dir);
        comparison.WriteKvExport(dir + "/kv.csv");
        std::string all;
        for (const char* f : {"requests.csv", "iterations.csv", "intervals.csv", "kv.csv"})
        {
            std::ifstream in(dir + "/" + f);
            std::ostringstream text;
            text << in.rdbuf();
            all += std::string(f) + ":\n" + text.str();
        }
        std::ostringstream switches;
        comparison.PrintSwitches(switches);
        return all + switches.str();
    };
    std::ostringstream log;
    // in one process, as the comparison always ran
    LlmComparison direct(c, policies, levels);
    direct.KeepKvExport(false);
    direct.Run(log);
    const std::string dir = FreshFolder("direct");
    std::filesystem::create_directories(dir);
    const std::string expected = files(direct, dir);
    EXPECT_EQ(direct.GetTotal(), 6U);
    std::ostringstream list;
    direct.WriteList(list);
    EXPECT_EQ(list.str().substr(0, 45), "index,level,policy\n0,fluid,MoSE\n1,fluid,S-Inf");
    EXPECT_NE(expected.find("MoSE switches (fluid level)"), std::string::npos) << expected;

    RunListOptions two;
    two.jobs = 2;
    two.outputDir = FreshFolder("two");
    two.options = "the test's";
    LlmComparison twoWorkers(c, policies, levels);
    twoWorkers.KeepKvExport(false);
    ASSERT_TRUE(twoWorkers.Run(two, log));
    EXPECT_EQ(files(twoWorkers, two.outputDir), expected);
    ASSERT_EQ(twoWorkers.GetSummaries().size(), 6U);
    EXPECT_EQ(twoWorkers.GetSummaries()[4].policy, Policy::STATIC_INFERENCE);
    EXPECT_EQ(twoWorkers.GetSummaries()[4].level, LlmLevel::AGGREGATE);

    std::vector<std::string> folders;
    for (const char* part : {"1/4", "2/4", "3/4", "4/4"})
    {
        RunListOptions p;
        p.selection = RunSelection::ParsePart("--part", part);
        p.outputDir = FreshFolder(std::string("cpart") + part[0]);
        p.options = "the test's";
        folders.push_back(p.outputDir);
        LlmComparison partial(c, policies, levels);
        partial.KeepKvExport(false);
        EXPECT_FALSE(partial.Run(p, log));
    }
    RunListOptions merge;
    merge.merge = folders;
    merge.options = "the test's";
    LlmComparison merged(c, policies, levels);
    merged.KeepKvExport(false);
    ASSERT_TRUE(merged.Run(merge, log));
    const std::string mergedDir = FreshFolder("merged");
    std::filesystem::create_directories(mergedDir);
    EXPECT_EQ(files(merged, mergedDir), expected);
    // the same parts read as a comparison without its KV export: the records list no such file
    LlmComparison noKv(c, policies, levels);
    EXPECT_NO_THROW(noKv.Run(merge, log));
    LlmComparison json(c, policies, levels);
    json.KeepKvExport(true);
    EXPECT_THROW(json.Run(merge, log), Error);
    for (const std::string& f : folders)
    {
        std::filesystem::remove_all(f);
    }
    for (const std::string& f : {dir, two.outputDir, mergedDir})
    {
        std::filesystem::remove_all(f);
    }
}
