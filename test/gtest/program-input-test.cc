/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The program scaffold's checks before a run: the module's attributes given on the command line
// (parsed with the module's messages before ns-3's CommandLine sees them), the output folder
// (created and probe-written), and the one list parser of --policies and --baselines.

#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-policy.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using ns3::mose::test::ErrorOf;
using ns3::mose::test::ExpectErrorContaining;

namespace
{

/// Runs CheckModuleAttributes() on the given arguments (the program's name first)
void
CheckArgs(std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    CheckModuleAttributes(static_cast<int>(args.size()), argv.data());
}

/// \return argv of the arguments (the program's name first), pointing into \p args
std::vector<char*>
Argv(std::vector<std::string>& args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    return argv;
}

/// Runs CheckGlobalValues() on the given arguments
void
CheckGlobals(std::vector<std::string> args)
{
    std::vector<char*> argv = Argv(args);
    CheckGlobalValues(static_cast<int>(args.size()), argv.data());
}

/// Runs CheckEmptyValues() on the given arguments with a command line of one option, --nodes
void
CheckEmpty(std::vector<std::string> args)
{
    uint32_t nodes = 64;
    CommandLine cmd;
    cmd.AddValue("nodes", "groups", nodes);
    std::vector<char*> argv = Argv(args);
    CheckEmptyValues(cmd, static_cast<int>(args.size()), argv.data());
}

} // namespace

TEST(ProgramInput, GlobalValuesThatNameATypeAreCheckedBeforeTheSimulator)
{
    EXPECT_NO_THROW(CheckGlobals({"--SchedulerType=ns3::MapScheduler",
                                  "--SimulatorImplementationType=ns3::DefaultSimulatorImpl",
                                  "-ChecksumEnabled=true",
                                  "--ChecksumEnabled",
                                  "--nodes=16"}));
    // a type that does not exist, or is no simulator (scheduler): a segmentation fault at the
    // first Simulator call before
    // the implementations this ns-3 build registers: an ns-3 tree built with MPI adds
    // ns3::DistributedSimulatorImpl and ns3::NullMessageSimulatorImpl
    std::vector<std::string> simulators;
    const TypeId simulatorImpl = TypeId::LookupByName("ns3::SimulatorImpl");
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid != simulatorImpl && tid.IsChildOf(simulatorImpl))
        {
            simulators.push_back(tid.GetName());
        }
    }
    std::sort(simulators.begin(), simulators.end());
    ASSERT_GE(simulators.size(), 2u); // DefaultSimulatorImpl and RealtimeSimulatorImpl at least
    std::string listed;
    for (std::size_t i = 0; i < simulators.size(); ++i)
    {
        listed += (i == 0 ? "" : i + 1 == simulators.size() ? " or " : ", ") + simulators[i];
    }
    EXPECT_EQ(ErrorOf([] { CheckGlobals({"--SimulatorImplementationType=ns3::Foo"}); }),
              "invalid --SimulatorImplementationType = \"ns3::Foo\": allowed values are " + listed +
                  " (the types derived from ns3::SimulatorImpl) (The object class to use as the "
                  "simulator implementation)");
    if (simulators.size() == 2)
    {
        EXPECT_EQ(listed, "ns3::DefaultSimulatorImpl or ns3::RealtimeSimulatorImpl");
    }
    EXPECT_EQ(ErrorOf([] { CheckGlobals({"--SchedulerType=ns3::Foo"}); }),
              "invalid --SchedulerType = \"ns3::Foo\": allowed values are ns3::CalendarScheduler, "
              "ns3::HeapScheduler, ns3::ListScheduler, ns3::MapScheduler or "
              "ns3::PriorityQueueScheduler (the types derived from ns3::Scheduler) (The object "
              "class to use as the scheduler implementation)");
    ExpectErrorContaining([] { CheckGlobals({"-SimulatorImplementationType=ns3::MapScheduler"}); },
                          "invalid --SimulatorImplementationType = \"ns3::MapScheduler\"");
    ExpectErrorContaining([] { CheckGlobals({"--SchedulerType=ns3::Scheduler"}); },
                          "invalid --SchedulerType = \"ns3::Scheduler\": allowed values");
    ExpectErrorContaining([] { CheckGlobals({"--SchedulerType"}); },
                          "invalid --SchedulerType = \"\": allowed values");
    ExpectErrorContaining([] { CheckGlobals({"--ChecksumEnabled=maybe"}); },
                          "invalid --ChecksumEnabled = \"maybe\": allowed values are true");
    setenv("NS_GLOBAL_VALUE", "RngRun=2;SchedulerType=ns3::Foo", 1);
    ExpectErrorContaining([] { CheckGlobals({}); },
                          "invalid NS_GLOBAL_VALUE SchedulerType = \"ns3::Foo\": allowed values");
    unsetenv("NS_GLOBAL_VALUE");
}

TEST(ProgramInput, AnEmptyValueOfAnOptionOrOfANameThatIsNone)
{
    EXPECT_NO_THROW(CheckEmpty({"--nodes=16", "--plot", "x="}));
    EXPECT_EQ(ErrorOf([] { CheckEmpty({"--nodes="}); }),
              "invalid --nodes = \"\": the value is empty (write --nodes=VALUE; see --PrintHelp)");
    EXPECT_EQ(ErrorOf([] { CheckEmpty({"--bogus="}); }),
              "invalid --bogus = \"\": there is no option --bogus (--PrintHelp lists the "
              "options, --PrintGlobals the global values)");
    // ns-3's general arguments, global values and attributes are names too
    ExpectErrorContaining([] { CheckEmpty({"--PrintAttributes="}); }, "the value is empty");
    ExpectErrorContaining([] { CheckEmpty({"-ChecksumEnabled="}); }, "the value is empty");
    ExpectErrorContaining([] { CheckEmpty({"--ns3::MoseOcs::Delay="}); }, "the value is empty");
    ExpectErrorContaining([] { CheckEmpty({"--ns3::MoseOcs::Dela="}); }, "there is no option");
}

TEST(ProgramInput, ValidAttributeValuesPass)
{
    EXPECT_NO_THROW(CheckArgs({"--ns3::MoseOcs::Delay=2us",
                               "--ns3::MoseOcs::DataRate=400Gbps",
                               "--ns3::MoseModeSwitcher::Phases=4",
                               "--ns3::MoseModeSwitcher::ReconfigurationDelay=0s",
                               "--ns3::MoseModeSwitcher::Drain=false",
                               "--ns3::MoseRouteTable::Rule=ecmp",
                               "--ns3::MoseTopologyHelper::AddressBase=10.0.0.0",
                               "--ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory",
                               "-ns3::MoseTrafficHelper::BytesPerUnit=1024",
                               // not the module's: left to ns-3
                               "--ns3::PointToPointNetDevice::Mtu=1500",
                               "--nodes=16"}));
}

TEST(ProgramInput, AttributeValuesAreCheckedWithTheTextAsTyped)
{
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::Delay=abc"}); },
                          "invalid --ns3::MoseOcs::Delay = \"abc\": a time >= 0");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::Delay=-1us"}); },
                          "invalid --ns3::MoseOcs::Delay = \"-1us\": a time >= 0");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::Delay=1sec"}); }, "\"1sec\"");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseModeSwitcher::DrainTimeout=0s"}); },
                          "= \"0s\": a time > 0");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseModeSwitcher::Phases=0"}); },
                          "= \"0\": an integer in uint32_t 1:4294967295");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseTrafficHelper::BytesPerUnit=-1"}); },
                          "BytesPerUnit = \"-1\"");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseTopologyHelper::AddressBase=abc"}); },
                          "AddressBase = \"abc\": an IPv4 address");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseRouteTable::Rule=ECMP"}); },
                          "allowed values are shortest-path, random-shortest-path or ecmp");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::DataRate=0bps"}); },
                          "DataRate = \"0bps\": a data rate > 0");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::DataRate=fast"}); },
                          "DataRate = \"fast\": a data rate > 0");
    ExpectErrorContaining(
        [] { CheckArgs({"--ns3::MoseTrafficHelper::SocketFactory=ns3::NoSuchType"}); },
        "\"ns3::NoSuchType\": the name of a type");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseModeSwitcher::Drain=maybe"}); }, "\"maybe\"");
}

TEST(ProgramInput, Ns3AttributesAreCheckedToo)
{
    // ns-3's parsers abort on these (SIGABRT, "Can't Parse Time abc")
    ExpectErrorContaining([] { CheckArgs({"--ns3::TcpSocketBase::MinRto=abc"}); },
                          "invalid --ns3::TcpSocketBase::MinRto = \"abc\": a time: a number");
    ExpectErrorContaining([] { CheckArgs({"--ns3::PointToPointNetDevice::Mtu=abc"}); },
                          "invalid --ns3::PointToPointNetDevice::Mtu = \"abc\"");
    ExpectErrorContaining([] { CheckArgs({"--ns3::TcpL4Protocol::SocketType=ns3::Foo"}); },
                          "invalid --ns3::TcpL4Protocol::SocketType = \"ns3::Foo\": the name of "
                          "a type");
    ExpectErrorContaining([] { CheckArgs({"--ns3::NoSuchType::X=1"}); },
                          "there is no type ns3::NoSuchType");
    EXPECT_NO_THROW(CheckArgs({"--ns3::TcpSocketBase::MinRto=200ms",
                               "--ns3::TcpSocket::SegmentSize=1448",
                               "--ns3::TcpL4Protocol::SocketType=ns3::TcpNewReno"}));
}

TEST(ProgramInput, UnknownModuleNamesAreErrors)
{
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseNothing::X=1"}); },
                          "there is no type ns3::MoseNothing");
    ExpectErrorContaining(
        [] { CheckArgs({"--ns3::MoseOcs::Speed=1"}); },
        "ns3::MoseOcs has no attribute Speed; its attributes are DataRate, Delay");
    ExpectErrorContaining([] { CheckArgs({"--ns3::MoseOcs::Delay"}); }, "needs a value");
}

TEST(ProgramInput, OutputFolderIsCreatedAndProbed)
{
    const std::filesystem::path base =
        std::filesystem::temp_directory_path() / ("mose-program-input-" + std::to_string(getpid()));
    std::filesystem::remove_all(base);
    const std::string folder = (base / "a" / "b").string();
    EXPECT_NO_THROW(CheckOutputFolder("--outputDir", folder));
    EXPECT_TRUE(std::filesystem::is_directory(folder));
    // the probe file is removed again
    EXPECT_TRUE(std::filesystem::is_empty(folder));

    const std::string file = (base / "file").string();
    std::ofstream(file) << "x";
    ExpectErrorContaining([&] { CheckOutputFolder("--outputDir", file + "/x"); },
                          "invalid --outputDir = \"" + file + "/x\": cannot create folder");
    ExpectErrorContaining([] { CheckOutputFolder("--outputDir", "/proc/mose-no-folder"); },
                          "cannot create folder /proc/mose-no-folder");
    if (std::filesystem::exists("/dev/full"))
    {
        ExpectErrorContaining([] { CheckOutputFolder("--outputDir", "/dev/full/x"); },
                              "invalid --outputDir = \"/dev/full/x\"");
    }
    std::filesystem::remove_all(base);
}

TEST(ProgramInput, EnumListsRejectEmptyItemsAndRepeats)
{
    const std::vector<Policy> list = ParseEnumList<Policy>("MoSE,S-Inf", "--policies");
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0], Policy::MOSE);
    ExpectErrorContaining([] { ParseEnumList<Policy>("MoSE,MoSE", "--policies"); },
                          "invalid --policies = \"MoSE,MoSE\": MoSE is named twice");
    ExpectErrorContaining([] { ParseEnumList<Policy>("MoSE,,S-Inf", "--policies"); },
                          "an item of the comma-separated list is empty");
    ExpectErrorContaining([] { ParseEnumList<Policy>("MoSE,", "--policies"); },
                          "an item of the comma-separated list is empty");
    ExpectErrorContaining([] { ParseEnumList<Policy>("", "--policies"); }, "the list is empty");
    ExpectErrorContaining([] { ParseEnumList<Policy>("foo", "--policies"); },
                          "invalid --policies = \"foo\"");
}

TEST(ProgramInput, AnAttributeThatAnOptionSetsWinsAloneAndFailsWhenTheyDisagree)
{
    const AttributeOption nodes{"nodes",
                                "ns3::MoseTopologyHelper::Groups",
                                [](const std::string& parameter, const std::string& text) {
                                    return std::to_string(ParseUnsigned32(parameter, text));
                                }};
    // neither set: the option's default
    EXPECT_FALSE(ResolveAttributeOption(nodes, std::nullopt).has_value());
    EXPECT_EQ(ResolveAttributeOption(nodes, std::string("16")).value(), "16");

    // the attribute as typed on the command line
    CheckArgs({"--ns3::MoseTopologyHelper::Groups=32"});
    Config::SetDefault("ns3::MoseTopologyHelper::Groups", UintegerValue(32));
    EXPECT_TRUE(IsModuleAttributeSet("ns3::MoseTopologyHelper::Groups"));
    EXPECT_EQ(GetModuleAttributeText("ns3::MoseTopologyHelper::Groups"), "32");
    EXPECT_EQ(ResolveAttributeOption(nodes, std::nullopt).value(), "32");
    EXPECT_EQ(ResolveAttributeOption(nodes, std::string("032")).value(), "032");
    ExpectErrorContaining([&] { ResolveAttributeOption(nodes, std::string("64")); },
                          "--nodes = \"64\" and --ns3::MoseTopologyHelper::Groups = \"32\" "
                          "disagree: give one");
    ExpectErrorContaining(
        [] { RejectModuleAttribute("ns3::MoseTopologyHelper::Groups", "the program sets it"); },
        "invalid --ns3::MoseTopologyHelper::Groups = \"32\": the attribute would not be used: "
        "the program sets it");
    ExpectErrorContaining([] { RejectModuleAttributes("mose-paper"); },
                          "mose-paper works at the flow level");
    Config::Reset();
    EXPECT_FALSE(IsModuleAttributeSet("ns3::MoseTopologyHelper::Groups"));
    EXPECT_NO_THROW(RejectModuleAttributes("mose-paper"));

    // a time set with Config::SetDefault: as whole nanoseconds, which the options read
    const AttributeOption window{"startWindow",
                                 "ns3::MoseTrafficHelper::StartWindow",
                                 ReadTimeOption};
    Config::SetDefault("ns3::MoseTrafficHelper::StartWindow", TimeValue(MilliSeconds(20)));
    EXPECT_EQ(GetModuleAttributeText("ns3::MoseTrafficHelper::StartWindow"), "20000000ns");
    EXPECT_EQ(ResolveAttributeOption(window, std::string("0.02")).value(), "0.02");
    ExpectErrorContaining([&] { ResolveAttributeOption(window, std::string("150ms")); },
                          "--startWindow = \"150ms\" and "
                          "--ns3::MoseTrafficHelper::StartWindow = \"20000000ns\" disagree");
    Config::Reset();
}

TEST(ProgramInput, ScenarioOptionsTakeTheFabricAttributes)
{
    Config::SetDefault("ns3::MoseTopologyHelper::Groups", UintegerValue(32));
    {
        ScenarioOptions options(ScenarioDefaults{64, 100, 1},
                                ScenarioOptions::ROUTING | ScenarioOptions::FABRIC);
        CommandLine cmd;
        options.AddOptions(cmd);
        EXPECT_EQ(options.GetConfig().nodes, 32u);
        EXPECT_TRUE(options.IsGiven("nodes"));
    }
    {
        // without FABRIC the attribute is not the program's concern
        ScenarioOptions options(ScenarioDefaults{64, 100, 1}, 0);
        CommandLine cmd;
        options.AddOptions(cmd);
        EXPECT_EQ(options.GetConfig().nodes, 64u);
    }
    Config::SetDefault("ns3::MoseRouteTable::Seed", UintegerValue(5));
    {
        ScenarioOptions options(ScenarioDefaults{64, 100, 1},
                                ScenarioOptions::ROUTING | ScenarioOptions::FABRIC);
        CommandLine cmd;
        options.AddOptions(cmd);
        ExpectErrorContaining([&] { options.GetConfig(); },
                              "invalid --ns3::MoseRouteTable::Seed = \"5\": the attribute would "
                              "not be used");
    }
    Config::Reset();
}

TEST(ProgramInput, TimeOptionsQuoteTheTextTyped)
{
    EXPECT_EQ(ParseTimeOption("--stopTime", "25ms"), MilliSeconds(25));
    ExpectErrorContaining([] { ParseTimeOption("--stopTime", "1e308"); },
                          "invalid --stopTime = \"1e308\": a duration from 1ns to");
    ExpectErrorContaining([] { ParseTimeOption("--binWidth", "1e-12"); },
                          "invalid --binWidth = \"1e-12\"");
    EXPECT_EQ(ReadTimeOption("--startWindow", "0.15"), ReadTimeOption("--startWindow", "150ms"));
}

TEST(ProgramInput, ListsShareOneSyntax)
{
    EXPECT_EQ(SplitList("a,b", "--x", "a name"), (std::vector<std::string>{"a", "b"}));
    ExpectErrorContaining([] { SplitList("", "--x", "a name"); },
                          "invalid --x = \"\": the list is empty; name at least one of a name");
    ExpectErrorContaining([] { SplitList("a,", "--x", "a name"); },
                          "an item of the comma-separated list is empty");
    ExpectErrorContaining([] { ThrowRepeatedItem("4,4", "--sweepDegrees", "4"); },
                          "invalid --sweepDegrees = \"4,4\": 4 is named twice");
}
