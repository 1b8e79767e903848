/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ScenarioOptions: one option set, one meaning and one default per option, in every program

#include "mose-flow-experiment-helper.h"
#include "mose-packet-experiment.h"
#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-study-report.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-scenario.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A program's option set: its scale defaults and the optional groups it offers
struct ProgramOptionSet
{
    std::string name;          //!< the program
    ScenarioDefaults defaults; //!< its scale
    uint32_t offers;           //!< ROUTING, SEEDS
};

/// The programs' option sets, as the examples construct them
const std::vector<ProgramOptionSet> PROGRAMS = {
    {"mose-paper", ScenarioDefaults(), ScenarioOptions::STUDY},
    {"mose-templates", ScenarioDefaults(), 0},
    {"mose-sweep", ScenarioDefaults{1024, 20000, 2}, ScenarioOptions::STUDY},
    {"mose-packet", ScenarioDefaults{64, 2000, 1}, ScenarioOptions::ROUTING},
    {"mose-mode-switch", ScenarioDefaults{64, 1000, 1}, ScenarioOptions::ROUTING},
};

/**
 * \brief Parses arguments as a program's command line does.
 * \param program the option set
 * \param args the arguments after the program's name
 * \return GetConfig()
 */
FlowExperimentConfig
Parse(const ProgramOptionSet& program, std::vector<std::string> args)
{
    ScenarioOptions options(program.defaults, program.offers);
    CommandLine cmd;
    options.AddOptions(cmd);
    args.insert(args.begin(), program.name);
    cmd.Parse(args);
    return options.GetConfig();
}

/**
 * \brief Parses arguments as a program's command line does.
 * \param program the option set
 * \param args the arguments after the program's name
 * \return GetSeedPlan()
 */
SeedPlan
ParseSeedPlan(const ProgramOptionSet& program, std::vector<std::string> args)
{
    ScenarioOptions options(program.defaults, program.offers);
    CommandLine cmd;
    options.AddOptions(cmd);
    args.insert(args.begin(), program.name);
    cmd.Parse(args);
    return options.GetSeedPlan();
}

/// \param args arguments \return mose-paper's configuration
FlowExperimentConfig
ParsePaper(std::vector<std::string> args)
{
    return Parse(PROGRAMS[0], std::move(args));
}

/// \return every scenario field of a configuration as text, for comparisons that name the field
std::vector<std::string>
ScenarioFields(const FlowExperimentConfig& c)
{
    auto counts = [](const RoleCounts& r) {
        return std::to_string(r.prefill) + "/" + std::to_string(r.decode) + "/" +
               std::to_string(r.training);
    };
    return {"nodes " + std::to_string(c.nodes),
            "degree " + std::to_string(c.degree),
            "inferenceRoles " + counts(c.inferenceRoles),
            "trainingRoles " + counts(c.trainingRoles),
            "transition " + ToString(c.transition),
            "pdReservedPorts " + std::to_string(c.pdReservedPorts),
            "compromiseReservedPorts " + std::to_string(c.compromiseReservedPorts),
            "completion " + ToString(c.completion),
            "construction " + ToString(c.construction),
            "allowBiregular " + std::to_string(c.allowBiregular),
            "assignment " + ToString(c.assignment),
            "assignmentCap " + std::to_string(c.assignmentCap),
            "flows " + std::to_string(c.flows),
            "kvShareInference " + FormatNumber(c.kvShareInference),
            "kvShareTraining " + FormatNumber(c.kvShareTraining),
            "firstRun " + std::to_string(c.firstRun),
            "inferenceRolesFile " + c.inferenceRolesFile,
            "trainingRolesFile " + c.trainingRolesFile,
            "inferenceAssignmentFile " + c.inferenceAssignmentFile,
            "trainingAssignmentFile " + c.trainingAssignmentFile,
            "inferenceFlowsFile " + c.inferenceFlowsFile,
            "trainingFlowsFile " + c.trainingFlowsFile};
}

/// \param flows flows \return them as text, one per line, for comparisons
std::string
FlowsText(const std::vector<Flow>& flows)
{
    std::ostringstream os;
    WriteFlowsCsv(flows, os);
    return os.str();
}

/// \return a fresh temporary folder for one test
std::string
TempFolder(const std::string& name)
{
    const std::string dir = testing::TempDir() + "mose-scenario-options-" + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace

TEST(ScenarioOptions, DefaultsAreThePapersAtItsScale)
{
    const FlowExperimentConfig paper; // the paper's parameters, N = 1024, d = 4
    EXPECT_EQ(ScenarioFields(ParsePaper({})), ScenarioFields(paper));
    EXPECT_EQ(ParsePaper({}).routing, RoutingRule::RANDOM_SHORTEST_PATH);
    EXPECT_EQ(ParseSeedPlan(PROGRAMS[0], {}).seeds, 20U);
    EXPECT_EQ(ParseSeedPlan(PROGRAMS[0], {}).threads, 0U);
    // N = 1024 everywhere but the packet level, which runs 64 groups by default
    for (const ProgramOptionSet& p : PROGRAMS)
    {
        const FlowExperimentConfig c = Parse(p, {});
        EXPECT_EQ(c.nodes, p.defaults.nodes) << p.name;
        EXPECT_EQ(c.flows, p.defaults.flows) << p.name;
        EXPECT_EQ(c.degree, 4U) << p.name;
        EXPECT_EQ(c.pdReservedPorts, 3U) << p.name;
        const SeedPlan plan = ParseSeedPlan(p, {});
        EXPECT_EQ(plan.seeds, (p.offers & ScenarioOptions::SEEDS) != 0 ? p.defaults.seeds : 1U)
            << p.name;
        EXPECT_EQ(plan.threads, 0U) << p.name;
    }
}

TEST(ScenarioOptions, RoleCountsArePaperSharesOfN)
{
    // floor(N * 410 / 1024) P and D, the rest T; floor(N * 102 / 1024) training-heavy
    FlowExperimentConfig c = ParsePaper({"--nodes=64"});
    EXPECT_EQ(c.inferenceRoles.prefill, 25U);
    EXPECT_EQ(c.inferenceRoles.decode, 25U);
    EXPECT_EQ(c.inferenceRoles.training, 14U);
    EXPECT_EQ(c.trainingRoles.prefill, 6U);
    EXPECT_EQ(c.trainingRoles.decode, 6U);
    EXPECT_EQ(c.trainingRoles.training, 52U);
    c = ParsePaper({"--nodes=1000"});
    EXPECT_EQ(c.inferenceRoles.prefill, 400U); // 1000 * 410 / 1024 = 400.4
    EXPECT_EQ(c.inferenceRoles.training, 200U);
    EXPECT_EQ(c.trainingRoles.prefill, 99U); // 99.6
    EXPECT_EQ(c.trainingRoles.training, 802U);
    // the flow programs accept any N now, as the packet programs did
    EXPECT_EQ(ScenarioFields(ParsePaper({"--nodes=64"})),
              ScenarioFields(Parse(PROGRAMS[3], {"--flows=100000"})));
    // a count given replaces only its own default
    c = ParsePaper({"--nodes=64", "--prefill=24", "--decode=24", "--training=16"});
    EXPECT_EQ(c.inferenceRoles.prefill, 24U);
    EXPECT_EQ(c.inferenceRoles.training, 16U);
    EXPECT_EQ(c.trainingRoles.prefill, 6U);
    c = ParsePaper({"--nodes=64", "--trPrefill=7", "--trTraining=51", "--assignment=many-to-one"});
    EXPECT_EQ(c.trainingRoles.prefill, 7U);
    EXPECT_EQ(c.trainingRoles.decode, 6U);
    EXPECT_EQ(c.trainingRoles.training, 51U);
}

TEST(ScenarioOptions, ReservedPortsAreDMinusOneAndZeroIsZero)
{
    EXPECT_EQ(ParsePaper({"--degree=8"}).pdReservedPorts, 7U);
    EXPECT_EQ(ParsePaper({"--degree=6"}).pdReservedPorts, 5U);
    EXPECT_EQ(ParsePaper({"--degree=8", "--pdReservedPorts=3"}).pdReservedPorts, 3U);
    EXPECT_EQ(ParsePaper({"--pdReservedPorts=0"}).pdReservedPorts, 0U);
    for (const ProgramOptionSet& p : PROGRAMS)
    {
        EXPECT_EQ(Parse(p, {"--degree=8"}).pdReservedPorts, 7U) << p.name;
        EXPECT_EQ(Parse(p, {"--pdReservedPorts=0"}).pdReservedPorts, 0U) << p.name;
    }
    EXPECT_EQ(DefaultPdReservedPorts(4), 3U);
    EXPECT_EQ(PaperScaledConfig(64, 8).pdReservedPorts, 7U);
}

TEST(ScenarioOptions, SameOptionsGiveTheSameScenarioInEveryProgram)
{
    const std::vector<std::vector<std::string>> cases = {
        {"--nodes=64", "--flows=500"},
        {"--nodes=128",
         "--degree=6",
         "--flows=300",
         "--pdReservedPorts=2",
         "--compromiseReservedPorts=2",
         "--completion=random",
         "--assignment=many-to-one",
         "--assignmentCap=3",
         "--construction=rewiring-aware",
         "--roleTransition=nested",
         "--kvShareInference=0.5",
         "--kvShareTraining=0.2"},
        {"--nodes=64", "--flows=200", "--degree=8", "--pdReservedPorts=0", "--biregular=true"},
    };
    for (const std::vector<std::string>& args : cases)
    {
        const std::vector<std::string> expected = ScenarioFields(Parse(PROGRAMS[0], args));
        for (const ProgramOptionSet& p : PROGRAMS)
        {
            EXPECT_EQ(ScenarioFields(Parse(p, args)), expected) << p.name << " " << args[0];
        }
    }
    // and so the same roles, assignments, templates and flows
    const Scenario a = ScenarioBuilder(Parse(PROGRAMS[1], cases[1])).Build(1); // mose-templates
    const Scenario b = ScenarioBuilder(Parse(PROGRAMS[3], cases[1])).Build(1); // packet
    for (std::size_t m = 0; m < 2; ++m)
    {
        EXPECT_EQ(a.roles[m].GetRoles(), b.roles[m].GetRoles());
        EXPECT_EQ(FlowsText(a.flows[m]), FlowsText(b.flows[m]));
    }
    for (std::size_t t = 0; t < 3; ++t)
    {
        EXPECT_EQ(a.templates[t].GetCircuits(), b.templates[t].GetCircuits());
    }
}

TEST(ScenarioOptions, ErrorsNameTheOptionTheTextAndTheRange)
{
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--pdReservedPorts=5"}); }),
                    "invalid --pdReservedPorts = \"5\": need 0 <= r <= d = 4 (--degree)");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--degree=8", "--pdReservedPorts=9"});
                    }),
                    "invalid --pdReservedPorts = \"9\": need 0 <= r <= d = 8");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--compromiseReservedPorts=5"}); }),
                    "invalid --compromiseReservedPorts = \"5\": need 0 <= r <= d = 4");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--nodes=8", "--degree=8"});
                    }),
                    "invalid --degree = \"8\": need 1 <= d < N = 8 (--nodes)");
    // a default that does not fit is named as the default
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--nodes=4"}); }),
                    "invalid --degree = 4 (default): need 1 <= d < N = 4 (--nodes)");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--nodes=1"}); }),
                    "invalid --nodes = \"1\": a circuit graph needs at least 2 groups");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--nodes=63", "--degree=3"});
                    }),
                    "invalid --degree = \"3\": N * d = 63 * 3 is odd");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--nodes=0x40"}); }), "invalid --nodes = \"0x40\"");
    EXPECT_CONTAINS(
        ErrorOf([] { ParsePaper({"--prefill=300"}); }),
        "invalid --prefill/--decode/--training = 300 P + 410 D (default) + 204 T (default) = 914: "
        "the inference-heavy counts must add up to N = 1024 (--nodes); a count not given is the "
        "paper's share of N (floor(N * 410 / 1024) prefill");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--nodes=64", "--trDecode=7"});
                    }),
                    "invalid --trPrefill/--trDecode/--trTraining = 6 P (default) + 7 D + 52 T "
                    "(default) = 65: the training-heavy counts must add up to N = 64");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--kvShareTraining=1.5"}); }),
                    "invalid --kvShareTraining = \"1.5\": a share must lie in [0, 1]");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--kvShareInference=0.7x"}); }),
                    "invalid --kvShareInference = \"0.7x\"");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--flows=0"}); }),
                    "invalid --flows = \"0\": need at least 1 flow per mode");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--seeds=0"}); }),
                    "invalid --seeds = \"0\": need at least 1 seed");
    // the seeds and threads go to the seed plan, not to the scenario
    EXPECT_CONTAINS(ErrorOf([] { ParseSeedPlan(PROGRAMS[0], {"--seeds=0"}); }),
                    "invalid --seeds = \"0\": need at least 1 seed");
    const SeedPlan plan = ParseSeedPlan(PROGRAMS[0], {"--seeds=3", "--threads=2"});
    EXPECT_EQ(plan.seeds, 3U);
    EXPECT_EQ(plan.threads, 2U);
    EXPECT_EQ(ScenarioFields(ParsePaper({"--seeds=3", "--threads=2"})),
              ScenarioFields(ParsePaper({})));
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--routing=ospf"}); }),
                    "invalid --routing = \"ospf\": allowed values are shortest-path");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--completion=ring"}); }),
                    "invalid --completion = \"ring\"");
    EXPECT_CONTAINS(ErrorOf([] { ParsePaper({"--assignmentCap=2"}); }),
                    "invalid --assignmentCap = \"2\": the option would not be used: it caps the "
                    "prefills per decode of --assignment=many-to-one, and --assignment is "
                    "one-to-one");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--assignment=many-to-one", "--assignmentCap=0"});
                    }),
                    "invalid --assignmentCap = \"0\": need at least 1 prefill per decode");
    EXPECT_EQ(ParsePaper({"--assignment=many-to-one", "--assignmentCap=2"}).assignmentCap, 2U);
    EXPECT_EQ(ParsePaper({"--assignment=many-to-one"}).assignmentCap, 0U); // max(r, 1)
}

TEST(ScenarioOptions, RoleCountsThatNoTransitionFitsNameTheirOptions)
{
    // N = 1024: 410 P + 410 D + 204 T, then 102 P + 102 D + 820 T
    EXPECT_EQ(ErrorOf([] {
                  ParsePaper({"--trPrefill=103", "--trTraining=819"});
              }),
              "invalid --roleTransition = swap (default): swap draws the training-heavy prefill "
              "and decode groups, --trPrefill = 103 + --trDecode = 102 (default), from the "
              "inference-heavy --training = 204 (default) training groups; give "
              "--roleTransition=nested or counts that fit");
    EXPECT_EQ(ErrorOf([] {
                  ParsePaper({"--roleTransition=nested",
                              "--prefill=100",
                              "--training=514",
                              "--trPrefill=101",
                              "--trTraining=821"});
              }),
              "invalid --roleTransition = \"nested\": nested keeps training-heavy prefill and "
              "decode groups among the inference-heavy ones: need --trPrefill = 101 <= --prefill "
              "= 100 and --trDecode = 102 (default) <= --decode = 410 (default); give "
              "--roleTransition=swap or counts that fit");
    // counts swap can draw, unequal: many-to-one pairs them, one-to-one cannot (named)
    EXPECT_NO_THROW(ParsePaper(
        {"--trPrefill=100", "--trDecode=104", "--trTraining=820", "--assignment=many-to-one"}));
    EXPECT_EQ(ErrorOf([] {
                  ParsePaper({"--trPrefill=100", "--trDecode=104", "--trTraining=820"});
              }),
              "invalid --assignment = one-to-one (default): one-to-one pairs each prefill group "
              "with one decode group, and --trPrefill = 100 and --trDecode = 104 differ; give "
              "--assignment=many-to-one or equal counts");
}

TEST(ScenarioOptions, ManyToOneBeyondItsCapNamesTheCapAndTheCounts)
{
    // N = 1024, d = 4: r of H^PD = 3, the default cap max(3, 1) = 3; 400 prefills need at least
    // 134 decode groups at 3 each (400 > 3 x 133)
    EXPECT_EQ(
        ErrorOf([] {
            ParsePaper({"--prefill=400",
                        "--decode=133",
                        "--training=491",
                        "--assignment=many-to-one",
                        "--biregular"});
        }),
        "invalid --assignmentCap = 3 (default: max(r of H^PD, 1)): --assignment=many-to-one "
        "gives each decode group at most 3 prefill groups, and --prefill = 400 is more than "
        "3 x --decode = 133; give a larger --assignmentCap, fewer --prefill or more --decode");
    // a given cap, in the training-heavy mode: its options named
    EXPECT_EQ(
        ErrorOf([] {
            ParsePaper({"--trPrefill=100",
                        "--trDecode=49",
                        "--trTraining=875",
                        "--assignment=many-to-one",
                        "--assignmentCap=2",
                        "--biregular"});
        }),
        "invalid --assignmentCap = \"2\": --assignment=many-to-one gives each decode group at "
        "most 2 prefill groups, and --trPrefill = 100 is more than 2 x --trDecode = 49; give "
        "a larger --assignmentCap, fewer --trPrefill or more --trDecode");
    // at the cap exactly: 2 x 50 = 100
    EXPECT_NO_THROW(ParsePaper({"--trPrefill=100",
                                "--trDecode=50",
                                "--trTraining=874",
                                "--assignment=many-to-one",
                                "--assignmentCap=2",
                                "--biregular"}));
}

TEST(ScenarioOptions, SettingsThatWouldNotBeUsedAreErrors)
{
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--inferenceRolesFile=r.csv", "--prefill=24"});
                    }),
                    "invalid --prefill = \"24\": the option would not be used: the "
                    "inference-heavy roles come from --inferenceRolesFile");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--trainingRolesFile=r.csv", "--roleTransition=nested"});
                    }),
                    "invalid --roleTransition = \"nested\": the option would not be used: the "
                    "training-heavy roles come from --trainingRolesFile");
    EXPECT_CONTAINS(
        ErrorOf([] {
            ParsePaper({"--inferenceFlowsFile=a.csv", "--trainingFlowsFile=b.csv", "--flows=10"});
        }),
        "invalid --flows = \"10\": the option would not be used: both modes' flows "
        "come from files");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--inferenceFlowsFile=a.csv", "--kvShareInference=0.5"});
                    }),
                    "invalid --kvShareInference = \"0.5\": the option would not be used");
    EXPECT_CONTAINS(ErrorOf([] {
                        ParsePaper({"--inferenceAssignmentFile=a.csv",
                                    "--trainingAssignmentFile=b.csv",
                                    "--assignment=many-to-one"});
                    }),
                    "invalid --assignment = \"many-to-one\": the option would not be used");
    // one mode from a file: the other still draws with --flows and its share
    const FlowExperimentConfig c =
        ParsePaper({"--trainingFlowsFile=b.csv", "--flows=10", "--kvShareInference=0.5"});
    EXPECT_EQ(c.flows, 10U);
    EXPECT_EQ(c.trainingFlowsFile, "b.csv");
}

TEST(ScenarioOptions, GivenIsGivenEvenAtTheDefaultValue)
{
    ScenarioOptions options;
    CommandLine cmd;
    options.AddOptions(cmd);
    cmd.Parse(std::vector<std::string>{"p", "--degree=4", "--flows=100000"});
    EXPECT_TRUE(options.IsGiven("degree"));
    EXPECT_TRUE(options.IsGiven("flows"));
    EXPECT_FALSE(options.IsGiven("nodes"));
    EXPECT_EQ(options.Describe("degree"), "\"4\"");
    EXPECT_EQ(options.Describe("nodes"), "1024 (default)");
    EXPECT_EQ(options.Describe("pdReservedPorts"), "d - 1 (default)");
    const std::vector<std::string> names = options.GetNames();
    for (const char* name : {"nodes",
                             "degree",
                             "prefill",
                             "trTraining",
                             "pdReservedPorts",
                             "biregular",
                             "routing",
                             "seeds",
                             "threads",
                             "inferenceFlowsFile",
                             "trainingFlowsFile"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    }
    // a program that routes nothing and builds one seed offers neither --routing nor --seeds
    const std::vector<std::string> templates = ScenarioOptions(ScenarioDefaults(), 0).GetNames();
    for (const char* name : {"routing", "seeds", "threads"})
    {
        EXPECT_EQ(std::find(templates.begin(), templates.end(), name), templates.end()) << name;
    }
}

TEST(ScenarioOptions, FlowsFromFilesAreTheFlowsOfTheRun)
{
    const std::string dir = TempFolder("flows");
    const FlowExperimentConfig drawn = ParsePaper({"--nodes=64", "--flows=300"});
    const Scenario s = ScenarioBuilder(drawn).Build(2);
    WriteScenarioFiles(s, dir);
    // every file the options read back, the templates as edge lists
    for (const char* file : {"uniform.csv",
                             "pd-biased.csv",
                             "compromise.csv",
                             "uniform.dot",
                             "roles_inference.csv",
                             "roles_training.csv",
                             "assignment_inference.csv",
                             "assignment_training.csv",
                             "flows_inference.csv",
                             "flows_training.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    const FlowExperimentConfig files =
        ParsePaper({"--nodes=64",
                    "--inferenceRolesFile=" + dir + "/roles_inference.csv",
                    "--trainingRolesFile=" + dir + "/roles_training.csv",
                    "--inferenceAssignmentFile=" + dir + "/assignment_inference.csv",
                    "--trainingAssignmentFile=" + dir + "/assignment_training.csv",
                    "--inferenceFlowsFile=" + dir + "/flows_inference.csv",
                    "--trainingFlowsFile=" + dir + "/flows_training.csv"});
    // the files replace the draws: the same scenario at run 2, and at every other run
    const Scenario t = ScenarioBuilder(files).Build(2);
    const Scenario u = ScenarioBuilder(files).Build(5);
    for (std::size_t m = 0; m < 2; ++m)
    {
        EXPECT_EQ(s.roles[m].GetRoles(), t.roles[m].GetRoles());
        EXPECT_EQ(FlowsText(s.flows[m]), FlowsText(t.flows[m]));
        EXPECT_EQ(FlowsText(s.flows[m]), FlowsText(u.flows[m]));
    }
    for (std::size_t k = 0; k < 3; ++k)
    {
        EXPECT_EQ(s.templates[k].GetCircuits(), t.templates[k].GetCircuits());
    }
    EXPECT_EQ(ReadCircuitGraphCsv(dir + "/pd-biased.csv", 64).GetCircuits(),
              s.templates[static_cast<std::size_t>(TemplateId::PD_BIASED)].GetCircuits());
    // a malformed flows file is named with its line when the builder reads it
    {
        std::ofstream bad(dir + "/bad.csv");
        bad << "src,dst,class,demand\n0,64,kv,1\n";
    }
    FlowExperimentConfig b = drawn;
    b.inferenceFlowsFile = dir + "/bad.csv";
    EXPECT_CONTAINS(ErrorOf([&b] { ScenarioBuilder builder(b); }), dir + "/bad.csv:2");
}

TEST(ScenarioOptions, PacketRunRejectsFilesOfTheOtherMode)
{
    ExperimentConfig c = MakePacketConfig(PaperScaledConfig(32), WorkloadMode::INFERENCE_HEAVY);
    c.scenario.flows = 10;
    c.scenario.trainingFlowsFile = "t.csv";
    EXPECT_CONTAINS(ErrorOf([&c] { ValidatePacketConfig(c); }),
                    "invalid --trainingFlowsFile = \"t.csv\": the file would not be used: it "
                    "belongs to the training-heavy mode, and the run is inference-heavy (--mode)");
    c.scenario.trainingFlowsFile.clear();
    c.scenario.trainingRolesFile = "r.csv";
    EXPECT_CONTAINS(ErrorOf([&c] { ValidatePacketConfig(c); }), "invalid --trainingRolesFile");
    c.scenario.trainingRolesFile.clear();
    c = MakePacketConfig(c.scenario, WorkloadMode::TRAINING_HEAVY); // --mode=training-heavy
    c.scenario.inferenceFlowsFile = "i.csv";
    EXPECT_CONTAINS(ErrorOf([&c] { ValidatePacketConfig(c); }),
                    "invalid --inferenceFlowsFile = \"i.csv\"");
    c.scenario.inferenceFlowsFile.clear();
    c.scenario.trainingFlowsFile = "t.csv"; // the run's own mode: fine
    EXPECT_NO_THROW(ValidatePacketConfig(c));
}

TEST(MoseRunGnuplot, NoShellInterpretsTheFolderName)
{
    const std::string base = TempFolder("gnuplot");
    // quotes, a space, a command substitution and a semicolon: a shell would run `touch`
    const std::string dir = base + "/it's $(touch pwned); `touch pwned2` & x";
    std::filesystem::create_directories(dir);
    {
        std::ofstream plt(dir + "/a b.plt");
        plt << "set terminal dumb\nset output 'out.txt'\nplot x\n";
    }
    const GnuplotResult r = RunGnuplot(dir, "a b.plt");
    if (r == GnuplotResult::NOT_INSTALLED)
    {
        GTEST_SKIP() << "gnuplot is not installed";
    }
    EXPECT_EQ(r, GnuplotResult::RENDERED);
    EXPECT_TRUE(std::filesystem::exists(dir + "/out.txt"));
    for (const std::string& where : {base, dir, std::string(".")})
    {
        EXPECT_FALSE(std::filesystem::exists(where + "/pwned")) << where;
        EXPECT_FALSE(std::filesystem::exists(where + "/pwned2")) << where;
    }
    // a script gnuplot cannot read, and a folder that does not exist, fail without a throw
    EXPECT_EQ(RunGnuplot(dir, "missing.plt"), GnuplotResult::FAILED);
    EXPECT_EQ(RunGnuplot(base + "/none", "a b.plt"), GnuplotResult::FAILED);
    // a figure that did not render is an error naming it, after the others were rendered
    EXPECT_EQ(StudyReport::RenderPlots(dir, {dir + "/a b.plt"}), 1U);
    std::filesystem::remove(dir + "/out.txt");
    ExpectErrorContaining(
        [&]() {
            StudyReport::RenderPlots(dir, {dir + "/missing.plt", dir + "/a b.plt"});
        },
        "gnuplot did not render 1 of 2 figures in " + dir);
    EXPECT_TRUE(std::filesystem::exists(dir + "/out.txt"));
}

// A template that the role counts make impossible names the options the counts came from (the
// count itself, |P| = 12, is not an option a user typed).
TEST(ScenarioOptions, ATemplateErrorNamesTheRoleCountOptions)
{
    const FlowExperimentConfig c = ParsePaper({"--nodes=64",
                                               "--prefill=12",
                                               "--decode=6",
                                               "--training=46",
                                               "--assignment=many-to-one",
                                               "--assignmentCap=2"});
    const std::string m = ErrorOf([&] { ScenarioBuilder(c).Build(1); });
    EXPECT_CONTAINS(m, "--pdReservedPorts");
    EXPECT_CONTAINS(m, "|P| = 12, |D| = 6, |T| = 46");
    EXPECT_CONTAINS(m, "--prefill, --decode, --training");
    EXPECT_CONTAINS(m, "--biregular");
}

// --seeds is bounded by the machine's memory before any is taken: each seed keeps the flow
// study's figures, and the limit (the memory available over them) is in the message
TEST(ScenarioOptions, SeedsAreBoundedByTheMachinesMemory)
{
    // 10,001 seeds were refused by a fixed bound of 10,000; their figures take a few MB
    EXPECT_EQ(ParseSeedPlan(PROGRAMS[0], {"--seeds=10001"}).seeds, 10001U);
    const uint64_t each = FlowExperimentHelper::GetSeedBytes();
    const uint64_t available = AvailableMemoryBytes();
    EXPECT_EQ(ErrorOf([] { ParseSeedPlan(PROGRAMS[0], {"--seeds=4000000000"}); }),
              "invalid --seeds = \"4000000000\": 4000000000 seeds keep at least " +
                  FormatBytes(4e9 * static_cast<double>(each)) + " (" +
                  FormatBytes(static_cast<double>(each)) +
                  " each: the flow study's run record and figures of 2 modes x 4 policies); at "
                  "most " +
                  std::to_string(available / each) + " seeds fit in the " +
                  FormatBytes(static_cast<double>(available)) + " available to this process");
}

// The limit of a count is the memory available over what each keeps, computed by hand
TEST(ScenarioOptions, CountMemoryLimitIsTheMemoryOverEach)
{
    EXPECT_NO_THROW(CheckCountMemory("--x", "\"10\"", 10, 100, "things", "a record", 1000));
    EXPECT_EQ(
        ErrorOf([] { CheckCountMemory("--x", "\"11\"", 11, 100, "things", "a record", 1000); }),
        "invalid --x = \"11\": 11 things keep at least 1.1 kB (100 B each: a record); at "
        "most 10 things fit in the 1.0 kB available to this process");
    // a product past 2^64 is still refused, and named
    EXPECT_EQ(ErrorOf([] {
                  CheckCountMemory("--x", "\"big\"", UINT64_MAX, 1000000, "things", "each", 2e10);
              }),
              "invalid --x = \"big\": 18446744073709551615 things keep at least "
              "18446744073709.6 TB (1.0 MB each: each); at most 20000 things fit in the 20.0 "
              "GB available to this process");
}

// A count from several options (a product, not an integer) is refused the same way, its
// subject naming them and the count rounded up
TEST(ScenarioOptions, CountOfSeveralOptionsIsBoundedTheSameWay)
{
    EXPECT_NO_THROW(
        CheckCountFitsMemory("--a and --b give a lot", 10.0, "", 100, "things", "a record", 1000));
    EXPECT_EQ(ErrorOf([] {
                  CheckCountFitsMemory("--a and --b give a lot",
                                       10.2,
                                       "",
                                       100,
                                       "things",
                                       "a record",
                                       1000);
              }),
              "--a and --b give a lot: 11 things keep at least 1.0 kB (100 B each: a record); "
              "at most 10 things fit in the 1.0 kB available to this process");
}

// FormatBytes() writes memory in the unit a reader expects
TEST(ScenarioOptions, FormatBytesPicksTheUnit)
{
    EXPECT_EQ(FormatBytes(96), "96 B");
    EXPECT_EQ(FormatBytes(1400), "1.4 kB");
    EXPECT_EQ(FormatBytes(999), "999 B");
    EXPECT_EQ(FormatBytes(3.2e6), "3.2 MB");
    EXPECT_EQ(FormatBytes(1e9), "1.0 GB");
    EXPECT_EQ(FormatBytes(23.44e9), "23.4 GB");
    EXPECT_EQ(FormatBytes(5.6e12), "5.6 TB");
}
