/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The one parsing mechanism (mose-parse.h): enum tables, numbers, booleans; and the command
// line's argument checks (mose-command-line.h).

#include "mose-flow-experiment-helper.h"
#include "mose-program.h"
#include "mose-test-util.h"

#include "ns3/mose-command-line.h"
#include "ns3/mose-enum-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <gtest/gtest.h>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Every value's canonical name parses back, in lower, upper and given case, and names differ
template <typename E>
void
ExpectTableRoundTrips()
{
    std::vector<std::string> seen;
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        EXPECT_EQ(ToString(e.value), e.name);
        EXPECT_EQ(ParseEnum<E>(e.name, "--x"), e.value) << e.name;
        EXPECT_EQ(ParseEnum<E>(ToLowerAscii(e.name), "--x"), e.value) << e.name;
        std::string upper = e.name;
        for (char& c : upper)
        {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        EXPECT_EQ(ParseEnum<E>(upper, "--x"), e.value) << upper;
        for (const std::string& alias : e.aliases)
        {
            EXPECT_EQ(ParseEnum<E>(alias, "--x"), e.value) << alias;
            seen.push_back(ToLowerAscii(alias));
        }
        seen.push_back(ToLowerAscii(e.name));
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "a name repeats";
    // every message lists every canonical name
    std::string m = ErrorOf([] { ParseEnum<E>("no-such-name", "--option"); });
    EXPECT_CONTAINS(m, "invalid --option = \"no-such-name\"");
    for (const EnumEntry<E>& e : EnumTable<E>::Get())
    {
        EXPECT_CONTAINS(m, e.name);
    }
}

} // namespace

TEST(EnumTable, EveryEnumRoundTripsInAnyCase)
{
    ExpectTableRoundTrips<RoutingRule>();
    ExpectTableRoundTrips<Policy>();
    ExpectTableRoundTrips<TemplateId>();
    ExpectTableRoundTrips<WorkloadMode>();
    ExpectTableRoundTrips<GroupRole>();
    ExpectTableRoundTrips<RoleTransition>();
    ExpectTableRoundTrips<PdAssignmentKind>();
    ExpectTableRoundTrips<BipartiteCompletion>();
    ExpectTableRoundTrips<TrafficClass>();
    ExpectTableRoundTrips<Metric>();
}

TEST(EnumTable, CanonicalNamesAreTheOutputNames)
{
    // these appear in CSV files and tables: they must not change
    EXPECT_EQ(ToString(Policy::STATIC_TRAINING), "S-Train");
    EXPECT_EQ(ToString(Policy::MOSE), "MoSE");
    EXPECT_EQ(ToString(TemplateId::PD_BIASED), "pd-biased");
    EXPECT_EQ(ToString(WorkloadMode::TRAINING_HEAVY), "training-heavy");
    EXPECT_EQ(ToString(GroupRole::DECODE), "decode");
    EXPECT_EQ(ToString(RoleTransition::SWAP), "swap");
    EXPECT_EQ(ToString(Metric::KV_THREE_PLUS), "kv_3plus");
    EXPECT_EQ(ToString(static_cast<RoutingRule>(99)), "unknown");
}

TEST(EnumTable, SameBehaviourForEveryOption)
{
    // before: --routing=ECMP was rejected while --policy=MOSE was accepted
    EXPECT_EQ(ParseEnum<RoutingRule>("ECMP", "--routing"), RoutingRule::ECMP);
    EXPECT_EQ(ParseEnum<Policy>("MOSE", "--policy"), Policy::MOSE);
    EXPECT_EQ(ParseEnum<Policy>("Static-Inference", "--policy"), Policy::STATIC_INFERENCE);
    EXPECT_EQ(ParseEnum<GroupRole>("p", "role"), GroupRole::PREFILL);
    EXPECT_EQ(ParseEnum<RoleTransition>("Swap", "--roleTransition"), RoleTransition::SWAP);
    std::string m = ErrorOf([] { ParseEnum<Policy>("dynamic", "--policy"); });
    EXPECT_CONTAINS(m,
                    "allowed values are S-Train, S-Inf, S-Comp and MoSE (any letter case; "
                    "also static-training, static-inference, static-compromise)");
    std::string empty = ErrorOf([] { ParseEnum<RoutingRule>("", "--routing"); });
    EXPECT_CONTAINS(empty, "invalid --routing = \"\": the value is empty");
    EXPECT_FALSE(TryParseEnum<TrafficClass>(" kv").has_value()); // no trimming here
}

TEST(ParseNumbers, RealsAreStrictAndLocaleFree)
{
    EXPECT_EQ(ParseReal("--x", "0.7"), 0.7);
    EXPECT_EQ(ParseReal("--x", "-2"), -2.0);
    EXPECT_EQ(ParseReal("--x", "1e-3"), 1e-3);
    EXPECT_EQ(ParseReal("--x", "1E3"), 1000.0);
    for (const char* bad : {"", "+1", " 1", "1 ", "0,7", "0x10", "abc", "1e", "--1"})
    {
        EXPECT_CONTAINS(ErrorOf([bad] { ParseReal("--kvShareInference", bad); }),
                        "invalid --kvShareInference = \"" + std::string(bad) + "\"");
    }
    EXPECT_CONTAINS(ErrorOf([] { ParseReal("--x", "inf"); }), "not a finite number");
    EXPECT_CONTAINS(ErrorOf([] { ParseReal("--x", "nan"); }), "not a finite number");
    EXPECT_CONTAINS(ErrorOf([] { ParseReal("--x", "1e999"); }), "out of the range");
    double v = 5;
    EXPECT_EQ(TryParseReal("1.5x", v), "is not a number");
    EXPECT_EQ(v, 5); // untouched on failure
}

TEST(ParseNumbers, UnsignedAreStrict)
{
    EXPECT_EQ(ParseUnsigned32("--nodes", "4294967295"), 4294967295U);
    EXPECT_EQ(ParseUnsigned64("--flows", "18446744073709551615"), UINT64_MAX);
    EXPECT_CONTAINS(ErrorOf([] { ParseUnsigned32("--nodes", "4294967296"); }),
                    "invalid --nodes = \"4294967296\": the value must be at most 4294967295");
    EXPECT_CONTAINS(ErrorOf([] { ParseUnsigned64("--flows", "18446744073709551616"); }),
                    "at most 18446744073709551615");
    EXPECT_CONTAINS(ErrorOf([] { ParseUnsigned32("--nodes", ""); }),
                    "invalid --nodes = \"\": the value is empty");
    for (const char* bad : {"-1", "+1", "1e3", " 1", "10x"})
    {
        EXPECT_CONTAINS(ErrorOf([bad] { ParseUnsigned32("--degree", bad); }),
                        "expected an unsigned decimal integer");
    }
}

TEST(ParseNumbers, Booleans)
{
    for (const char* t : {"true", "TRUE", "t", "1"})
    {
        EXPECT_TRUE(ParseBool("--plot", t)) << t;
    }
    for (const char* f : {"false", "False", "f", "0"})
    {
        EXPECT_FALSE(ParseBool("--plot", f)) << f;
    }
    EXPECT_CONTAINS(ErrorOf([] { ParseBool("--plot", "maybe"); }),
                    "invalid --plot = \"maybe\": allowed values are true, false");
}

TEST(ParseNumbers, FormatNumberIsShortestRoundTrip)
{
    EXPECT_EQ(FormatNumber(0.7), "0.7"); // was 0.69999999999999996
    EXPECT_EQ(FormatNumber(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(FormatNumber(1e308 * 10), "inf");
}

namespace
{

/// Runs CheckRngArguments() on the given arguments
void
CheckRng(std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    CheckRngArguments(static_cast<int>(argv.size()), argv.data());
}

/// Runs CheckEmptyValues() on the given arguments, with a command line of no option
void
CheckEmpty(std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    ns3::CommandLine cmd;
    CheckEmptyValues(cmd, static_cast<int>(argv.size()), argv.data());
}

/// Parses the given arguments with ParseCommandLine() on a command line of --nodes and the
/// boolean option --plot (AddBoolOption(), true by default) \return --plot's value
bool
ParsePlot(std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    uint32_t nodes = 64;
    bool plot = true;
    ns3::CommandLine cmd;
    cmd.AddValue("nodes", "groups", nodes);
    AddBoolOption(cmd, "plot", "figures", plot);
    ParseCommandLine(cmd, static_cast<int>(argv.size()), argv.data());
    return plot;
}

} // namespace

TEST(ProgramArguments, RngRunIsCheckedBeforeNs3)
{
    EXPECT_NO_THROW(CheckRng({"--RngRun=7", "-RngSeed=3", "--nodes=abc", "file"}));
    EXPECT_NO_THROW(CheckRng({"--RngRun=18446744073709551615"}));
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"--RngRun=abc"}); }), "invalid --RngRun = \"abc\"");
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"--RngRun=-1"}); }), "invalid --RngRun = \"-1\"");
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"-RngRun=1x"}); }), "invalid --RngRun = \"1x\"");
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"--RngRun"}); }), "the value is empty");
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"--RngSeed=0"}); }), "nonzero seed");
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({"--RngSeed=4294967296"}); }), "at most 4294967295");
    setenv("NS_GLOBAL_VALUE", "RngRun=x;RngSeed=2", 1);
    EXPECT_CONTAINS(ErrorOf([] { CheckRng({}); }), "invalid NS_GLOBAL_VALUE RngRun = \"x\"");
    unsetenv("NS_GLOBAL_VALUE");
}

TEST(ProgramArguments, EmptyValuesAndBadBooleans)
{
    // "--plot" alone toggles, as an ns-3 bool option does
    EXPECT_FALSE(ParsePlot({"--nodes=8", "--plot", "x=y"}));
    EXPECT_TRUE(ParsePlot({"--plot", "--plot"}));
    EXPECT_FALSE(ParsePlot({"--plot", "--plot=F"}));
    EXPECT_TRUE(ParsePlot({"--plot=1"}));
    // ns-3's names are known without the program's options
    EXPECT_CONTAINS(ErrorOf([] { CheckEmpty({"--ChecksumEnabled="}); }),
                    "invalid --ChecksumEnabled = \"\": the value is empty");
    EXPECT_CONTAINS(ErrorOf([] { CheckEmpty({"--ns3::MoseOcs::Delay="}); }),
                    "invalid --ns3::MoseOcs::Delay = \"\": the value is empty");
    EXPECT_CONTAINS(ErrorOf([] { ParsePlot({"--nodes="}); }),
                    "invalid --nodes = \"\": the value is empty");
    EXPECT_CONTAINS(ErrorOf([] { ParsePlot({"--plot="}); }),
                    "invalid --plot = \"\": the value is empty");
    // a boolean option checks its own value: the message names it, the text and what is allowed
    EXPECT_CONTAINS(ErrorOf([] { ParsePlot({"--plot=maybe"}); }),
                    "invalid --plot = \"maybe\": allowed values are true, false, t, f, 1 and 0");
}

TEST(ProgramArguments, RunProgramReportsEveryException)
{
    char name[] = "program";
    char* argv[] = {name, nullptr};
    EXPECT_EQ(RunProgram("p", 1, argv, [] {}), 0);
    testing::internal::CaptureStderr();
    EXPECT_EQ(RunProgram("p", 1, argv, [] { throw Error("bad input"); }), 1);
    EXPECT_EQ(RunProgram("p", 1, argv, [] { throw std::bad_alloc(); }), 1);
    EXPECT_EQ(RunProgram("p", 1, argv, [] { throw std::runtime_error("other"); }), 1);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_CONTAINS(err, "p: error: bad input\n");
    EXPECT_CONTAINS(err,
                    "p: error: out of memory: an allocation failed after the process had "
                    "used ");
    EXPECT_CONTAINS(err, "; the run with the default options is too large for this machine");
    EXPECT_CONTAINS(err, "p: error: other\n");
}

TEST(ProgramArguments, OutOfMemoryNamesTheOptionsAndTheMemory)
{
    std::vector<std::string> args{"program", "--nodes=4096", "file.csv", "--flows=1e9"};
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    const std::string m = OutOfMemoryMessage(static_cast<int>(argv.size()), argv.data());
    EXPECT_EQ(m.rfind("out of memory: an allocation failed after the process had used ", 0), 0U)
        << m;
    EXPECT_CONTAINS(m, " (its peak resident memory) of the ");
    EXPECT_CONTAINS(m,
                    " available to it; the run of --nodes=4096 --flows=1e9 is too large for "
                    "this machine: reduce the options that size it (--PrintHelp lists them)");
}

TEST(ProgramArguments, MemoryIsCheckedBeforeAllocation)
{
    EXPECT_GT(AvailableMemoryBytes(), 0U);
    EXPECT_NO_THROW(CheckMemory("--nodes=8", 1024));
    EXPECT_CONTAINS(ErrorOf([] { CheckMemory("--nodes=8", UINT64_MAX); }),
                    "--nodes=8 needs at least");
    FlowExperimentConfig c;
    c.flows = 99999999999ULL;
    EXPECT_CONTAINS(ErrorOf([&c] { CheckStudyMemory(c, 1); }), "--flows=99999999999 needs");
    c.flows = 100000;
    EXPECT_NO_THROW(CheckStudyMemory(c, 2));
}

TEST(EnumTable, Ns3EnumCheckerFromTheTable)
{
    ns3::Ptr<const ns3::AttributeChecker> checker =
        MakeEnumTableChecker(RoutingRule::RANDOM_SHORTEST_PATH);
    for (const EnumEntry<RoutingRule>& e : EnumTable<RoutingRule>::Get())
    {
        MOSE_ENUM_VALUE(RoutingRule) value;
        ASSERT_TRUE(value.DeserializeFromString(e.name, checker)) << e.name;
        EXPECT_EQ(value.Get(), MOSE_ENUM_CHECKER_VALUE(RoutingRule, e.value));
        EXPECT_EQ(value.SerializeToString(checker), e.name);
        EXPECT_TRUE(checker->Check(value));
    }
    // a value outside the table is refused (ns-3's own text matching is left to ns-3)
    MOSE_ENUM_VALUE(RoutingRule)
    outside(MOSE_ENUM_CHECKER_VALUE(RoutingRule, static_cast<RoutingRule>(99)));
    EXPECT_FALSE(checker->Check(outside));
}

TEST(ParseNumbers, DurationsHaveOneSyntax)
{
    // no unit: seconds, as ns-3's Time reads "3600"
    EXPECT_EQ(ParseDuration("--x", "3600"), 3600.0);
    EXPECT_EQ(ParseDuration("--x", "0.025"), 0.025);
    EXPECT_EQ(ParseDuration("--x", "1e-3"), 1e-3);
    EXPECT_EQ(ParseDuration("--x", "0"), 0.0);
    // the units, each the same double as number * factor
    EXPECT_EQ(ParseDuration("--x", "25ms"), 25 * 1e-3);
    EXPECT_EQ(ParseDuration("--x", "150ms"), 150 * 1e-3);
    EXPECT_EQ(ParseDuration("--x", "0.2s"), 0.2);
    EXPECT_EQ(ParseDuration("--x", "3us"), 3 * 1e-6);
    EXPECT_EQ(ParseDuration("--x", "40ns"), 40 * 1e-9);
    EXPECT_EQ(ParseDuration("--x", "10min"), 600.0);
    EXPECT_EQ(ParseDuration("--x", "1.5h"), 5400.0);
    EXPECT_EQ(ParseDuration("--x", "1e-3s"), 1e-3);
    for (const char* bad : {"",
                            "ms",
                            "-1",
                            "-1ms",
                            "1 ms",
                            " 1",
                            "1sec",
                            "1S",
                            "1m",
                            "inf",
                            "nan",
                            "1e",
                            "+1s",
                            "1,5s"})
    {
        ExpectErrorContaining([bad]() { ParseDuration("--darkTime", bad); },
                              std::string("invalid --darkTime = \"") + bad + "\"");
    }
    ExpectErrorContaining([]() { ParseDuration("--x", "-1"); },
                          "a duration >= 0: a number with an optional unit ns, us, ms, s, min or h "
                          "(no unit: seconds)");
    ExpectErrorContaining([]() { ParseDuration("--x", "1e308h"); }, "out of the range");
}

TEST(ParseNumbers, OneCommaSplitterKeepsEmptyItems)
{
    using V = std::vector<std::string_view>;
    EXPECT_EQ(SplitAtCommas("a,,b"), (V{"a", "", "b"}));
    EXPECT_EQ(SplitAtCommas(""), (V{""}));
    EXPECT_EQ(SplitAtCommas("a,"), (V{"a", ""}));
    EXPECT_EQ(SplitAtCommas(",a"), (V{"", "a"}));
    EXPECT_EQ(SplitAtCommas(" a , b"), (V{" a ", " b"})); // no trimming: the readers trim
    V reused{"stale", "items"};
    SplitAtCommas("x", reused);
    EXPECT_EQ(reused, (V{"x"}));
    // the checks on top: SplitList rejects an empty item, the schedule names the period
    EXPECT_EQ(SplitList("MoSE,S-Inf", "--policies", "a policy"),
              (std::vector<std::string>{"MoSE", "S-Inf"}));
    ExpectErrorContaining([] { SplitList("MoSE,,S-Inf", "--policies", "a policy"); },
                          "an item of the comma-separated list is empty");
    ExpectErrorContaining([] { SplitList("", "--policies", "a policy"); }, "the list is empty");
}
