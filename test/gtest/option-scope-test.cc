/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every option acts or is refused: the table of where each option acts (GetOptionScopes()), the
// options given on a command line (GivenOptions()), and the check the programs run
// (CheckOptionScopes(), CheckPacketOnlyAttributes()).

#include "mose-option-scope.h"
#include "mose-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/mose-error.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return GivenOptions() of the arguments (without the program's name)
std::vector<std::pair<std::string, std::string>>
Given(std::vector<std::string> args)
{
    args.insert(args.begin(), "mose-llm");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    return GivenOptions(static_cast<int>(argv.size()), argv.data());
}

} // namespace

TEST(OptionScope, GivenOptionsAreTheNamesAndTextsTyped)
{
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(
        Given({"--map=false", "-tolerance=0.05", "--jumbo", "--title=a=b", "plain", "---x"}),
        (Pairs{{"--map", "false"}, {"--tolerance", "0.05"}, {"--jumbo", ""}, {"--title", "a=b"}}));
}

TEST(OptionScope, EachOptionOfAProgramIsListedOnceWithAPlace)
{
    std::set<std::pair<std::string, std::string>> seen;
    for (const OptionScope& s : GetOptionScopes())
    {
        EXPECT_TRUE(seen.emplace(s.program, s.option).second) << s.program << " " << s.option;
        // a row restricts where the option acts: its levels or its modes
        EXPECT_TRUE(s.modes != 0 || s.levels != 0) << s.program << " " << s.option;
        EXPECT_EQ(std::string(s.option).rfind("--", 0), 0u) << s.option;
    }
    EXPECT_EQ(DescribeOptionPlaces(AT_FLUID | AT_AGGREGATE, IN_ONE), "fluid, aggregate; one");
    EXPECT_EQ(DescribeOptionPlaces(AT_ALL_LEVELS, IN_MAP | IN_ONE), "all; map, one");
    // the groups: each group's words, then the next group's; no mode bit: every mode
    EXPECT_EQ(DescribeOptionPlaces(AT_PACKET, IN_MAP | IN_ONE | IN_RDMA), "packet; map, one; rdma");
    EXPECT_EQ(DescribeOptionPlaces(AT_PACKET, 0), "packet; all");
    EXPECT_EQ(DescribeOptionPlaces(0, IN_SCHEDULE), "-; schedule");
    // the groups do not overlap, and every mode bit is in one
    uint32_t all = 0;
    for (const uint32_t group : GetOptionPlaceGroups())
    {
        EXPECT_EQ(all & group, 0u) << group;
        all |= group;
    }
    for (const OptionScope& s : GetOptionScopes())
    {
        EXPECT_EQ(s.modes & ~all, 0u) << s.program << " " << s.option;
    }
    // a program where every option acts has no row
    for (const std::string& program : GetProgramsWhereEveryOptionActs())
    {
        for (const OptionScope& s : GetOptionScopes())
        {
            EXPECT_NE(program, s.program) << s.option;
        }
    }
}

TEST(OptionScope, ATransportOptionWithTheOtherTransportIsRefused)
{
    EXPECT_EQ(GetTransportPlace(true), IN_RDMA);
    EXPECT_EQ(GetTransportPlace(false), IN_TCP);
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-packet", Given({"--ecnKmin=5"}), AT_PACKET, IN_TCP);
              }),
              "invalid --ecnKmin = \"5\": the option would not be used with --transport=tcp: it "
              "acts only with --transport=rdma (doc/mose.rst, Where each option acts)");
    EXPECT_NE(
        ErrorOf([] {
            CheckOptionScopes("mose-llm",
                              Given({"--pfc=false"}),
                              AT_PACKET | AT_FLUID,
                              IN_MAP | IN_TCP);
        }).find("invalid --pfc = \"false\": the option would not be used with --transport=tcp"),
        std::string::npos);
    // at a level without packets, the level is named
    EXPECT_NE(ErrorOf([] {
                  CheckOptionScopes("mose-mode-switch", Given({"--pfc"}), AT_FLUID, IN_RDMA);
              }).find("invalid --pfc = \"\": the option would not be used at the fluid level"),
              std::string::npos);
    EXPECT_NE(
        ErrorOf([] {
            CheckOptionScopes("mose-packet", Given({"--flowMonitor=false"}), AT_AGGREGATE, IN_TCP);
        }).find("at the aggregate level: it acts at the packet level only"),
        std::string::npos);
    EXPECT_NO_THROW(CheckOptionScopes("mose-packet",
                                      Given({"--ecnKmin=5", "--pfc", "--flowMonitor"}),
                                      AT_PACKET,
                                      IN_RDMA));
    EXPECT_NO_THROW(
        CheckOptionScopes("mose-llm", Given({"--ecnKmax=100"}), AT_PACKET, IN_ONE | IN_RDMA));
}

TEST(OptionScope, AnOptionOfAModeThatDoesNotRunIsRefused)
{
    // mose-mode-switch: the verdict's tie band needs a comparison
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-mode-switch",
                                    Given({"--policies=MoSE", "--tolerance=0.05"}),
                                    AT_PACKET,
                                    IN_TCP | IN_ONE_POLICY);
              }),
              "invalid --tolerance = \"0.05\": the option would not be used with one policy "
              "(--policies): it acts only with several policies (--policies: a comparison) "
              "(doc/mose.rst, Where each option acts)");
    EXPECT_NO_THROW(CheckOptionScopes("mose-mode-switch",
                                      Given({"--tolerance=0.05"}),
                                      AT_FLUID,
                                      IN_TCP | IN_COMPARISON));
    // mose-break-even: the default schedule's options with --schedule
    EXPECT_NE(ErrorOf([] {
                  CheckOptionScopes("mose-break-even",
                                    Given({"--schedule=inference-heavy:1", "--cycles=3"}),
                                    0,
                                    IN_SCHEDULE);
              })
                  .find("invalid --cycles = \"3\": the option would not be used with --schedule: "
                        "it acts only with the default schedule"),
              std::string::npos);
    EXPECT_NO_THROW(CheckOptionScopes("mose-break-even",
                                      Given({"--cycles=3", "--modeDuration=2"}),
                                      0,
                                      IN_ALTERNATING));
    // mose-baselines: a shape of a baseline not evaluated; one of several evaluated acts
    EXPECT_NE(ErrorOf([] {
                  CheckOptionScopes("mose-baselines",
                                    Given({"--torus3d=4x4x4"}),
                                    0,
                                    IN_TORUS_2D | IN_FULL_MESH_3D);
              })
                  .find("would not be used with torus-2d in --baselines and with full-mesh-3d in "
                        "--baselines: it acts only with torus-3d in --baselines"),
              std::string::npos);
    EXPECT_NO_THROW(CheckOptionScopes("mose-baselines",
                                      Given({"--torus3d=4x4x4"}),
                                      0,
                                      IN_TORUS_2D | IN_TORUS_3D));
}

TEST(OptionScope, AMapOptionInOneExperimentIsRefused)
{
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-llm",
                                    Given({"--map=false", "--tolerance=0.05"}),
                                    AT_PACKET,
                                    IN_ONE);
              }),
              "invalid --tolerance = \"0.05\": the option would not be used in one experiment "
              "with a schedule of periods (--map=false): it acts in the regime map (doc/mose.rst, "
              "Where each option acts)");
    for (const std::string& option : {"--cycles=3", "--loads=25", "--plot=false"})
    {
        EXPECT_NE(ErrorOf([&option] {
                      CheckOptionScopes("mose-llm", Given({option}), AT_PACKET, IN_ONE);
                  }).find("it acts in the regime map"),
                  std::string::npos)
            << option;
    }
    // and in the map, where they act: nothing
    EXPECT_NO_THROW(CheckOptionScopes("mose-llm",
                                      Given({"--tolerance=0.05", "--cycles=3", "--loads=25"}),
                                      AT_FLUID,
                                      IN_MAP));
    // the run options act in both: one experiment's policies are a list of runs too
    EXPECT_NO_THROW(CheckOptionScopes("mose-llm",
                                      Given({"--jobs=2", "--part=1/2", "--resume=false"}),
                                      AT_PACKET,
                                      IN_ONE));
}

TEST(OptionScope, AThresholdOptionWithPeriodsIsRefused)
{
    EXPECT_EQ(
        ErrorOf([] { CheckOptionScopes("mose-llm", Given({"--period=50ms"}), AT_PACKET, IN_ONE); }),
        "invalid --period = \"50ms\": the option would not be used in one experiment with a "
        "schedule of periods (--map=false): it acts in one experiment with "
        "--schedule=threshold (doc/mose.rst, Where each option acts)");
    EXPECT_NO_THROW(CheckOptionScopes("mose-llm",
                                      Given({"--period=50ms", "--trace=t.csv"}),
                                      AT_PACKET,
                                      IN_ONE | IN_THRESHOLD));
    // a one-experiment option in the map
    EXPECT_NE(
        ErrorOf([] { CheckOptionScopes("mose-llm", Given({"--window=1s"}), AT_PACKET, IN_MAP); })
            .find("in the regime map (--map=true, the default): it acts in one experiment "
                  "with --schedule=threshold"),
        std::string::npos);
}

TEST(OptionScope, APacketOptionAtTheFluidLevelIsRefused)
{
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-llm",
                                    Given({"--map=false", "--reuseConnections=false"}),
                                    AT_FLUID | AT_AGGREGATE,
                                    IN_ONE);
              }),
              "invalid --reuseConnections = \"false\": the option would not be used at the fluid, "
              "aggregate levels: it acts at the packet level only (doc/mose.rst, Where each option "
              "acts)");
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-llm", Given({"--rateEpoch=1ms"}), AT_PACKET, IN_ONE);
              }),
              "invalid --rateEpoch = \"1ms\": the option would not be used at the packet level: "
              "it acts at the fluid, aggregate level only (doc/mose.rst, Where each option acts)");
    // a run of two levels takes an option that acts at one of them
    EXPECT_NO_THROW(CheckOptionScopes("mose-llm",
                                      Given({"--reuseConnections=false", "--rateEpoch=1ms"}),
                                      AT_PACKET | AT_FLUID,
                                      IN_ONE));
}

TEST(OptionScope, TheMergesOptionsInAComparisonOfFilesAreRefused)
{
    EXPECT_EQ(ErrorOf([] {
                  CheckOptionScopes("mose-regime-figure",
                                    Given({"--compare=a.csv,b.csv", "--tolerance=0.05"}),
                                    0,
                                    IN_COMPARE_FILES);
              }),
              "invalid --tolerance = \"0.05\": the option would not be used in a comparison of two "
              "maps' files (--compare): it acts in a merge of regime maps (--maps) (doc/mose.rst, "
              "Where each option acts)");
    EXPECT_NE(
        ErrorOf([] {
            CheckOptionScopes("mose-regime-figure", Given({"--title=x"}), 0, IN_COMPARE_FILES);
        }).find("invalid --title = \"x\""),
        std::string::npos);
    EXPECT_NO_THROW(CheckOptionScopes("mose-regime-figure",
                                      Given({"--maps=a.csv", "--tolerance=0.05", "--title=x"}),
                                      0,
                                      IN_MERGE_FILES));
    // another program's rows do not apply
    EXPECT_NO_THROW(CheckOptionScopes("mose-llm", Given({"--compare=a,b"}), AT_PACKET, IN_ONE));
}

TEST(OptionScope, PacketAttributesAtTheFluidLevel)
{
    // ns-3's own TCP attribute: a warning naming it; the packet level uses it: nothing. The
    // defaults other tests of the process set are reset first (the ns-3 suite runs them all in
    // one process)
    Config::Reset();
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(5)));
    std::ostringstream warn;
    EXPECT_EQ(CheckPacketOnlyAttributes(AT_FLUID, warn), 1u);
    EXPECT_NE(warn.str().find("warning: --ns3::TcpSocketBase::MinRto = "), std::string::npos)
        << warn.str();
    EXPECT_NE(warn.str().find("would not be used: the fluid and aggregate levels send no "
                              "packets"),
              std::string::npos);
    std::ostringstream none;
    EXPECT_EQ(CheckPacketOnlyAttributes(AT_PACKET | AT_FLUID, none), 0u);
    EXPECT_EQ(none.str(), "");
    Config::Reset();
    // the module's: an error; what the fluid level reads (SegmentSize) acts
    Config::SetDefault("ns3::MoseSocketTransfers::SegmentSize", UintegerValue(8948));
    EXPECT_EQ(CheckPacketOnlyAttributes(AT_AGGREGATE, warn), 0u);
    Config::SetDefault("ns3::MoseTrainingWorkload::ReuseConnections", BooleanValue(false));
    EXPECT_NE(ErrorOf([&warn] { CheckPacketOnlyAttributes(AT_FLUID, warn); })
                  .find("--ns3::MoseTrainingWorkload::ReuseConnections = \"false\": the attribute "
                        "would not be used: the fluid and aggregate levels send no packets"),
              std::string::npos);
    Config::Reset();
    // the ports' transmission queue: the packet level's only
    Config::SetDefault("ns3::MoseTopologyHelper::PortTxQueuesType",
                       TypeIdValue(NetDeviceQueue::GetTypeId()));
    EXPECT_NE(ErrorOf([&warn] { CheckPacketOnlyAttributes(AT_FLUID, warn); })
                  .find("--ns3::MoseTopologyHelper::PortTxQueuesType = \"ns3::NetDeviceQueue\": "
                        "the attribute would not be used: the fluid and aggregate levels send no "
                        "packets"),
              std::string::npos);
    EXPECT_EQ(CheckPacketOnlyAttributes(AT_PACKET | AT_FLUID, warn), 0u);
    Config::Reset();
    // the group nodes' fast transit: the packet level's only
    Config::SetDefault("ns3::MoseRoutingProtocol::FastTransit", BooleanValue(false));
    EXPECT_NE(ErrorOf([&warn] { CheckPacketOnlyAttributes(AT_AGGREGATE, warn); })
                  .find("--ns3::MoseRoutingProtocol::FastTransit = \"false\": the attribute "
                        "would not be used: the fluid and aggregate levels send no packets"),
              std::string::npos);
    EXPECT_EQ(CheckPacketOnlyAttributes(AT_PACKET, warn), 0u);
    Config::Reset();
}
