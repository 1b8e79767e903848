/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-helper.h"
#include "mose-option-scope.h"
#include "mose-sweep-options.h"
#include "mose-sweep-report.h"
#include "mose-sweep.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h> // getpid: a folder of its own per test process

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A small sweep: N = 64, d in {4, 6}, r all, both constructions, 1 seed, 1000 flows.
SweepConfig
SmallSweep()
{
    SweepConfig c;
    c.nodes = {64};
    c.degrees = {4, 6};
    c.reservedPorts = {};
    c.kvShares = {0.7};
    c.base = PaperScaledConfig(64);
    c.base.flows = 1000;
    c.seedPlan = SeedPlan{1, 2};
    return c;
}

/// \return the sweep's CSV files' text after writing them to a fresh folder
std::string
CsvText(const Sweep& sweep, const std::string& name)
{
    std::string dir =
        std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    SweepReport(sweep).WriteCsv(dir);
    std::string text = ReadFileBytes(dir + "/sweep.csv") + ReadFileBytes(dir + "/skipped.csv");
    std::filesystem::remove_all(dir);
    return text;
}

/// Parses a sweep command line
SweepConfig
ParseCommandLine(std::vector<std::string> args)
{
    return ParseOptions<SweepCommandLine>(std::move(args));
}

} // namespace

TEST(MoseSweepAxes, ListsAndRanges)
{
    EXPECT_EQ(ParseSweepUnsignedList("--sweepDegrees", "4,8,16"),
              (std::vector<uint32_t>{4, 8, 16}));
    EXPECT_EQ(ParseSweepUnsignedList("--sweepDegrees", "4:7"), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(ParseSweepUnsignedList("--sweepNodes", "256:1024:256,4096"),
              (std::vector<uint32_t>{256, 512, 768, 1024, 4096}));
    EXPECT_EQ(ParseSweepUnsignedList("--sweepR", "3:3"), (std::vector<uint32_t>{3}));
    EXPECT_EQ(ParseSweepUnsignedList("--sweepR", "0:5:2"), (std::vector<uint32_t>{0, 2, 4}));
    EXPECT_TRUE(ParseSweepReservedPorts("--sweepR", "all").empty());
    EXPECT_TRUE(ParseSweepReservedPorts("--sweepR", "ALL").empty());
    EXPECT_EQ(ParseSweepReservedPorts("--sweepR", "0,2"), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(ParseSweepRealList("--sweepKvShare", "0.7"), (std::vector<double>{0.7}));
    EXPECT_EQ(ParseSweepRealList("--sweepKvShare", "0.5:0.9:0.1,1"),
              (std::vector<double>{0.5, 0.6, 0.7, 0.8, 0.9, 1.0}));
    EXPECT_EQ(ParseSweepConstructions("--sweepConstruction", "fresh,rewiring-aware"),
              (std::vector<TemplateConstruction>{TemplateConstruction::FRESH,
                                                 TemplateConstruction::REWIRING_AWARE}));
}

TEST(MoseSweepAxes, BadListsNameTheOptionAndValue)
{
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepDegrees", ""); }),
                    "invalid --sweepDegrees = \"\": the list is empty");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepDegrees", "4,,8"); }),
                    "invalid --sweepDegrees = \"4,,8\": an item");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepDegrees", "4,x"); }),
                    "invalid --sweepDegrees = \"x\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepDegrees", "-4"); }),
                    "invalid --sweepDegrees = \"-4\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepDegrees", "8:4"); }),
                    "invalid --sweepDegrees = \"8:4\": a range a:b needs a <= b");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepNodes", "1:5:0"); }),
                    "invalid --sweepNodes = \"1:5:0\": the step");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepNodes", "1:2:3:4"); }),
                    "invalid --sweepNodes = \"1:2:3:4\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepUnsignedList("--sweepNodes", "0:4000000000"); }),
                    "invalid --sweepNodes = \"0:4000000000\": the list has more than");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepReservedPorts("--sweepR", "some"); }),
                    "invalid --sweepR = \"some\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepRealList("--sweepKvShare", "0.7,abc"); }),
                    "invalid --sweepKvShare = \"abc\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepRealList("--sweepKvShare", "0.1:0.5"); }),
                    "invalid --sweepKvShare = \"0.1:0.5\": an item is a number or a range");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepRealList("--sweepKvShare", "0.1:0.5:0"); }),
                    "invalid --sweepKvShare = \"0.1:0.5:0\": the step");
    EXPECT_CONTAINS(ErrorOf([] { ParseSweepConstructions("--sweepConstruction", "fresh,new"); }),
                    "invalid --sweepConstruction = \"new\"");
}

TEST(MoseSweepAxes, ValidationNamesTheOptionAndValue)
{
    auto message = [](const SweepConfig& c) { return ErrorOf([&c] { Sweep s(c); }); };
    SweepConfig c = SmallSweep();
    c.degrees = {2, 4};
    EXPECT_CONTAINS(message(c), "invalid --sweepDegrees = 2: need 3 <= d");
    c = SmallSweep();
    c.degrees = {4, 64};
    EXPECT_CONTAINS(message(c), "invalid --sweepDegrees = 64: need 3 <= d < N = 64");
    c = SmallSweep();
    c.reservedPorts = {1, 7};
    EXPECT_CONTAINS(message(c), "invalid --sweepR = 7: need r <= d for some swept d");
    c = SmallSweep();
    c.nodes = {8};
    EXPECT_CONTAINS(message(c), "invalid --sweepNodes = 8: need 16 <= N");
    c = SmallSweep();
    c.kvShares = {0};
    EXPECT_CONTAINS(message(c), "invalid --sweepKvShare = 0: a share must lie in (0, 1]");
    c.kvShares = {1.5};
    EXPECT_CONTAINS(message(c), "invalid --sweepKvShare = 1.5");
    c = SmallSweep();
    c.degrees = {4, 4};
    EXPECT_CONTAINS(message(c), "invalid --sweepDegrees = 4: the value is listed twice");
    c = SmallSweep();
    c.constructions = {TemplateConstruction::FRESH, TemplateConstruction::FRESH};
    EXPECT_CONTAINS(message(c), "invalid --sweepConstruction = fresh: the value is listed twice");
    c = SmallSweep();
    c.constructions = {};
    EXPECT_CONTAINS(message(c), "invalid --sweepConstruction = \"\": the list is empty");
    c = SmallSweep();
    c.base.inferenceRolesFile = "roles.csv";
    EXPECT_CONTAINS(message(c), "invalid --inferenceRolesFile = \"roles.csv\"");
    // two shares the files name alike (6 significant digits) would write one figure twice
    c = SmallSweep();
    c.kvShares = {0.5, 0.1234561, 0.1234562};
    EXPECT_CONTAINS(message(c),
                    "invalid --sweepKvShare = 0.1234561 and 0.1234562: both are 0.123456 to 6 "
                    "significant digits");
    c.kvShares = {0.123456, 0.123457};
    EXPECT_NO_THROW(c.Validate());
    c = SmallSweep();
    c.seedPlan.seeds = 0;
    EXPECT_CONTAINS(message(c), "invalid --seeds = 0: need at least one seed");
    c = SmallSweep();
    c.base.compromiseReservedPorts = 5;
    EXPECT_CONTAINS(message(c), "invalid --compromiseReservedPorts = 5");
}

TEST(SweepCommandLine, OptionsAndDefaults)
{
    SweepConfig d = ParseCommandLine({});
    EXPECT_EQ(d.nodes, (std::vector<uint32_t>{1024}));
    EXPECT_EQ(d.degrees.size(), 13U);
    EXPECT_EQ(d.degrees.front(), 4U);
    EXPECT_EQ(d.degrees.back(), 16U);
    EXPECT_TRUE(d.reservedPorts.empty());
    EXPECT_EQ(d.kvShares, (std::vector<double>{0.7}));
    EXPECT_EQ(d.constructions.size(), 2U);
    SweepConfig c = ParseCommandLine({"--sweepNodes=256,512",
                                      "--sweepDegrees=4:8:2",
                                      "--sweepR=1,3",
                                      "--sweepKvShare=0.5,0.9",
                                      "--sweepConstruction=rewiring-aware",
                                      "--seeds=3"});
    EXPECT_EQ(c.nodes, (std::vector<uint32_t>{256, 512}));
    EXPECT_EQ(c.degrees, (std::vector<uint32_t>{4, 6, 8}));
    EXPECT_EQ(c.reservedPorts, (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(c.kvShares, (std::vector<double>{0.5, 0.9}));
    EXPECT_EQ(c.constructions,
              (std::vector<TemplateConstruction>{TemplateConstruction::REWIRING_AWARE}));
    EXPECT_EQ(c.seedPlan.seeds, 3U);
    EXPECT_EQ(c.seedPlan.threads, 0U);
    EXPECT_EQ(ParseCommandLine({"--threads=5"}).seedPlan.threads, 5U);
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--degree=8"}); }),
                    "invalid --degree = \"8\": a sweep takes d from --sweepDegrees");
    // given equal to the default is given all the same: the axis replaces it
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--degree=4"}); }),
                    "invalid --degree = \"4\": a sweep takes d from --sweepDegrees");
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--pdReservedPorts=2"}); }),
                    "invalid --pdReservedPorts = \"2\"");
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--kvShareInference=0.7"}); }),
                    "a sweep takes the inference-heavy KV share from --sweepKvShare");
    // role counts apply to the point N = --nodes only
    EXPECT_CONTAINS(
        ErrorOf([] {
            ParseCommandLine(
                {"--nodes=64", "--sweepNodes=128", "--prefill=24", "--decode=24", "--training=16"});
        }),
        "invalid --prefill = \"24\": role counts given apply to the point N = "
        "--nodes = 64, which --sweepNodes does not list");
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--sweepDegrees=2:5"}); }),
                    "invalid --sweepDegrees = 2");
    EXPECT_CONTAINS(ErrorOf([] { ParseCommandLine({"--sweepKvShare=1.2"}); }),
                    "invalid --sweepKvShare = 1.2");
}

TEST(SweepCommandLine, NodesActWithRoleCountsOnly)
{
    // the run's place for CheckOptionScopes(): role counts given or not
    auto places = [](std::vector<std::string> args) {
        SweepCommandLine options;
        CommandLine cmd;
        options.AddOptions(cmd);
        ParseArgs(cmd, std::move(args));
        options.GetConfig();
        return options.GetPlaces();
    };
    EXPECT_EQ(places({"--nodes=64", "--sweepNodes=64,128"}), IN_PAPER_ROLES);
    EXPECT_EQ(
        places({"--nodes=64", "--sweepNodes=64", "--prefill=24", "--decode=24", "--training=16"}),
        IN_ROLE_COUNTS);
    EXPECT_CONTAINS(ErrorOf([] {
                        CheckOptionScopes("mose-sweep", {{"--nodes", "64"}}, 0, IN_PAPER_ROLES);
                    }),
                    "invalid --nodes = \"64\": the option would not be used without a role count");
    EXPECT_NO_THROW(CheckOptionScopes("mose-sweep", {{"--nodes", "64"}}, 0, IN_ROLE_COUNTS));
    // many-to-one's default cap, max(r, 1), is each point's: 40 prefills on 8 decodes fit r = 7
    // (7 x 8 = 56), though not the base r = 3 of d = 4 that no point runs
    const std::vector<std::string> manyToOne = {"--nodes=64",
                                                "--prefill=40",
                                                "--decode=8",
                                                "--training=16",
                                                "--trPrefill=4",
                                                "--trDecode=4",
                                                "--trTraining=56",
                                                "--assignment=many-to-one",
                                                "--biregular",
                                                "--sweepNodes=64",
                                                "--sweepDegrees=8",
                                                "--sweepR=7"};
    EXPECT_NO_THROW(ParseCommandLine(manyToOne));
    // a given cap is every point's: 4 x 8 = 32 < 40
    EXPECT_CONTAINS(
        ErrorOf([&manyToOne] {
            std::vector<std::string> args = manyToOne;
            args.emplace_back("--assignmentCap=4");
            ParseCommandLine(args);
        }),
        "invalid --assignmentCap = \"4\": --assignment=many-to-one gives each decode "
        "group at most 4 prefill groups, and --prefill = 40 is more than 4 x --decode = 8");
}

TEST(Sweep, PointsInOrder)
{
    Sweep sweep(SmallSweep());
    const std::vector<SweepPoint>& points = sweep.GetPoints();
    // d = 4: r = 0..4 (5), d = 6: r = 0..6 (7); two constructions each
    ASSERT_EQ(points.size(), (5U + 7U) * 2U);
    std::size_t i = 0;
    for (uint32_t d : {4U, 6U})
    {
        for (uint32_t r = 0; r <= d; ++r)
        {
            for (TemplateConstruction c :
                 {TemplateConstruction::FRESH, TemplateConstruction::REWIRING_AWARE})
            {
                EXPECT_EQ(points[i].nodes, 64U);
                EXPECT_EQ(points[i].degree, d);
                EXPECT_EQ(points[i].reservedPorts, r);
                EXPECT_EQ(points[i].kvShare, 0.7);
                EXPECT_EQ(points[i].construction, c);
                ++i;
            }
        }
    }
    // explicit r: values above a d are not enumerated for that d
    SweepConfig c = SmallSweep();
    c.reservedPorts = {5, 1};
    c.kvShares = {0.5, 0.9};
    c.constructions = {TemplateConstruction::FRESH};
    Sweep explicitR(c);
    ASSERT_EQ(explicitR.GetPoints().size(), 6U); // d=4: r=1; d=6: r=5, 1; x 2 shares
    EXPECT_EQ(explicitR.GetPoints()[0].reservedPorts, 1U);
    EXPECT_EQ(explicitR.GetPoints()[1].kvShare, 0.9);
    EXPECT_EQ(explicitR.GetPoints()[2].degree, 6U);
    EXPECT_EQ(explicitR.GetPoints()[2].reservedPorts, 5U);
    EXPECT_EQ(explicitR.GetPoints()[4].reservedPorts, 1U);
}

TEST(Sweep, RolesScaleWithN)
{
    SweepConfig c = SmallSweep();
    c.nodes = {64, 128};
    c.base.inferenceRoles = {24, 24, 16}; // the user's counts for N = 64
    c.base.trainingRoles = {8, 8, 48};
    Sweep sweep(c);
    FlowExperimentConfig at64 = sweep.MakeConfig({64, 4, 3, 0.6, TemplateConstruction::FRESH});
    EXPECT_EQ(at64.inferenceRoles.prefill, 24U);
    EXPECT_EQ(at64.trainingRoles.training, 48U);
    EXPECT_EQ(at64.degree, 4U);
    EXPECT_EQ(at64.pdReservedPorts, 3U);
    EXPECT_EQ(at64.kvShareInference, 0.6);
    FlowExperimentConfig at128 =
        sweep.MakeConfig({128, 6, 2, 0.7, TemplateConstruction::REWIRING_AWARE});
    RoleCounts scaled = RoleCounts::PaperScaled(128, WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(at128.nodes, 128U);
    EXPECT_EQ(at128.inferenceRoles.prefill, scaled.prefill);
    EXPECT_EQ(at128.inferenceRoles.training, scaled.training);
    EXPECT_EQ(at128.construction, TemplateConstruction::REWIRING_AWARE);
}

TEST(Sweep, PointEqualsDirectStudy)
{
    SweepConfig c = SmallSweep();
    c.degrees = {4};
    c.reservedPorts = {3};
    c.seedPlan.seeds = 2;
    Sweep sweep(c);
    sweep.Run();
    ASSERT_EQ(sweep.GetResults().size(), 2U);
    for (const SweepResult& res : sweep.GetResults())
    {
        ASSERT_FALSE(res.skipped) << res.reason;
        FlowExperimentHelper direct(sweep.MakeConfig(res.point), c.seedPlan);
        direct.Run();
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (Metric m : ALL_METRICS)
                {
                    Summary a = res.Get(mode, p, m);
                    Summary b = direct.Summarize(mode, p, m);
                    EXPECT_EQ(a.mean, b.mean);
                    EXPECT_EQ(a.ci95, b.ci95);
                    EXPECT_EQ(a.n, b.n);
                }
            }
            EXPECT_EQ(res.GetSwitch(mode).kept.mean,
                      direct.SummarizeSwitch(mode, Policy::MOSE).kept.mean);
            EXPECT_EQ(res.GetSwitch(mode).added.mean,
                      direct.SummarizeSwitch(mode, Policy::MOSE).added.mean);
        }
    }
}

TEST(Sweep, UnbuildablePointsAreSkippedWithTheReason)
{
    SweepConfig c = SmallSweep();
    c.degrees = {4};
    c.reservedPorts = {4};
    c.constructions = {TemplateConstruction::FRESH};
    Sweep sweep(c);
    sweep.Run();
    ASSERT_EQ(sweep.GetResults().size(), 1U);
    const SweepResult& res = sweep.GetResults()[0];
    EXPECT_TRUE(res.skipped);
    EXPECT_FALSE(res.reason.empty());
    EXPECT_THROW(res.Get(WorkloadMode::INFERENCE_HEAVY, Policy::MOSE, Metric::MAX_LOAD), Error);
    // the same config run directly fails with the same message
    std::string direct = ErrorOf([&] {
        FlowExperimentHelper h(sweep.MakeConfig(res.point), c.seedPlan);
        h.Run();
    });
    EXPECT_EQ(res.reason, direct);
    std::string dir =
        std::filesystem::temp_directory_path() / ("mose-sweep-skipped-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    SweepReport(sweep).WriteCsv(dir);
    std::string skipped = ReadFileBytes(dir + "/skipped.csv");
    EXPECT_CONTAINS(skipped, "nodes,degree,r,kv_share,construction,reason\n64,4,4,0.7,fresh,\"");
    EXPECT_EQ(ReadFileBytes(dir + "/sweep.csv"),
              "nodes,degree,r,kv_share,construction,mode,policy,metric,mean,ci95,n\n");
    std::filesystem::remove_all(dir);
}

TEST(Sweep, DeterministicAndIndependentOfThreads)
{
    SweepConfig c = SmallSweep();
    c.degrees = {4};
    Sweep first(c);
    first.Run();
    Sweep second(c);
    second.Run();
    c.seedPlan.threads = 1;
    Sweep single(c);
    single.Run();
    std::string a = CsvText(first, "mose-sweep-det-a");
    EXPECT_EQ(a, CsvText(second, "mose-sweep-det-b"));
    EXPECT_EQ(a, CsvText(single, "mose-sweep-det-c"));
    // every metric row of every non-skipped point, and the switch rows
    std::size_t done = 0;
    for (const SweepResult& res : first.GetResults())
    {
        done += res.skipped ? 0 : 1;
    }
    EXPECT_GT(done, 0U);
    std::size_t rows = std::count(a.begin(), a.end(), '\n');
    std::size_t skipped = first.GetResults().size() - done;
    EXPECT_EQ(rows, 2U + done * 2U * (4U * ALL_METRICS.size() + 2U) + skipped);
    EXPECT_CONTAINS(a, ",MoSE,switch_changed,");
    EXPECT_CONTAINS(a, ",MoSE,switch_kept,");
}

TEST(Sweep, RewiringAwareChangesFewerCircuits)
{
    SweepConfig c = SmallSweep();
    c.nodes = {128};
    c.degrees = {4};
    c.reservedPorts = {3};
    Sweep sweep(c);
    sweep.Run();
    ASSERT_EQ(sweep.GetResults().size(), 2U);
    const SweepResult& fresh = sweep.GetResults()[0];
    const SweepResult& aware = sweep.GetResults()[1];
    ASSERT_EQ(fresh.point.construction, TemplateConstruction::FRESH);
    ASSERT_FALSE(fresh.skipped) << fresh.reason;
    ASSERT_FALSE(aware.skipped) << aware.reason;
    for (WorkloadMode mode : ALL_MODES)
    {
        EXPECT_LT(aware.GetSwitch(mode).added.mean, fresh.GetSwitch(mode).added.mean);
        EXPECT_GT(aware.GetSwitch(mode).kept.mean, fresh.GetSwitch(mode).kept.mean);
    }
}

TEST(Sweep, WritesFigures)
{
    SweepConfig c = SmallSweep();
    c.nodes = {64, 128};
    c.degrees = {4};
    c.reservedPorts = {2, 3};
    c.base.inferenceRoles = RoleCounts::PaperScaled(64, WorkloadMode::INFERENCE_HEAVY);
    c.base.trainingRoles = RoleCounts::PaperScaled(64, WorkloadMode::TRAINING_HEAVY);
    Sweep sweep(c);
    sweep.Run();
    std::string dir =
        std::filesystem::temp_directory_path() / ("mose-sweep-plots-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::vector<std::string> plots = SweepReport(sweep).WritePlots(dir);
    // per N: 2 cost figures per construction + 1 switch figure; 2 MaxLoad-vs-N figures
    EXPECT_EQ(plots.size(), 2U * 5U + 2U);
    for (const char* f : {"kv_cost_vs_r_n64_kv0.7_fresh.plt",
                          "tr_cost_vs_r_n128_kv0.7_rewiring-aware.plt",
                          "switch_vs_r_n64_kv0.7.plt",
                          "max_load_vs_n_inference.plt",
                          "max_load_vs_n_training.plt"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
    }
    EXPECT_CONTAINS(ReadFileBytes(dir + "/max_load_vs_n_inference.plt"), "S-Train d=4 r=3");
    // the names a program declares before the sweep, from its configuration, are the files
    // written, and no other
    SweepReport(sweep).WriteCsv(dir);
    const std::vector<std::string> scripts = SweepReport::GetPlotFileNames(c);
    EXPECT_EQ(scripts.size(), 2U * 5U + 2U);
    EXPECT_EQ(ListFileNames(dir), SortedNames({SweepReport::GetCsvFileNames(), scripts}));
    std::filesystem::remove_all(dir);
}

TEST(Sweep, AListOnTwoWorkersOrMergedGivesTheFilesOfRun)
{
    // 4 points, one of them skipped (r = d = 4 with training groups): its reason is a file
    SweepConfig c = SmallSweep();
    c.degrees = {4, 6};
    c.reservedPorts = {3, 4};
    c.constructions = {TemplateConstruction::FRESH};
    Sweep direct(c);
    direct.Run();
    const std::string expected = CsvText(direct, "sweep-list-direct");
    ASSERT_EQ(direct.GetResults().size(), 4U);
    ASSERT_TRUE(direct.GetResults()[1].skipped);
    const auto folder = [](const std::string& name) {
        const std::string dir =
            std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()));
        std::filesystem::remove_all(dir);
        return dir;
    };
    std::ostringstream log;
    RunListOptions two;
    two.jobs = 2;
    two.outputDir = folder("sweep-list-two");
    two.options = "the test's";
    Sweep twoWorkers(c);
    ASSERT_TRUE(twoWorkers.Run(two, 1, log));
    EXPECT_EQ(CsvText(twoWorkers, "sweep-list-two-csv"), expected);
    EXPECT_EQ(twoWorkers.Describe(1), "N=64 d=4 r=4 rho=0.7 fresh");
    std::vector<std::string> parts;
    for (const char* part : {"1/3", "2/3", "3/3"})
    {
        RunListOptions p;
        p.selection = RunSelection::ParsePart("--part", part);
        p.outputDir = folder(std::string("sweep-list-part") + part[0]);
        p.options = "the test's";
        parts.push_back(p.outputDir);
        Sweep partial(c);
        EXPECT_FALSE(partial.Run(p, 2, log));
        EXPECT_TRUE(partial.GetResults().empty());
    }
    RunListOptions merge;
    merge.merge = parts;
    merge.options = "the test's";
    Sweep merged(c);
    ASSERT_TRUE(merged.Run(merge, 1, log));
    EXPECT_EQ(CsvText(merged, "sweep-list-merged-csv"), expected);
    EXPECT_EQ(merged.GetResults()[1].reason, direct.GetResults()[1].reason);
    for (const std::string& d : parts)
    {
        std::filesystem::remove_all(d);
    }
    std::filesystem::remove_all(two.outputDir);
}
