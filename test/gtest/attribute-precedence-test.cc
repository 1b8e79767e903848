/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Attribute precedence: a value the user set (Config::SetDefault, the command line,
 * SetAttribute) is never replaced silently by a helper. MoseTopologyHelper's SetTemplate and
 * SetRouting against ns3::MoseRouteTable::Rule and Seed (and Groups, PortsPerGroup, the port
 * data rate), MoseModeSwitcherHelper against ns3::MoseRoutingProtocol::HoldTime, HoldQueueSize
 * and HoldPackets: the user's value wins, or a conflict is a mose::Error naming both values.
 */

#include "../mose-switch-scenario.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/**
 * Every test here sets defaults: the fixture restores them (Config::Reset) and destroys the
 * simulator, so no setting leaks into another test.
 */
class AttributePrecedence : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Config::Reset();
        Simulator::Destroy();
    }

    /// A 16-group configuration with the paper's role shares
    static FlowExperimentConfig Config16()
    {
        FlowExperimentConfig config = PaperScaledConfig(16);
        config.flows = 50;
        return config;
    }

    /// A fabric from SetTemplate (MoSE, inference-heavy, run 2), not installed yet
    static Ptr<MoseTopologyHelper> FromTemplate(const FlowExperimentConfig& config)
    {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        return topo;
    }

    /// The routing protocol of a group node
    static Ptr<MoseRoutingProtocol> Routing(Ptr<MoseTopologyHelper> topo, uint32_t g)
    {
        return DynamicCast<MoseRoutingProtocol>(
            topo->GetGroupNode(g)->GetObject<Ipv4>()->GetRoutingProtocol());
    }

    /// Installs a switcher (MoSE, one switch at 50 ms) on a 32-group switch fabric
    static Ptr<MoseTopologyHelper> SwitchFabric(MoseModeSwitcherHelper& helper,
                                                const SwitchScenario& s)
    {
        Ptr<MoseTopologyHelper> topo = BuildSwitchFabric(s, s.templates[1]);
        helper.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider("MoSE",
                                                                            s.templates,
                                                                            s.roles,
                                                                            s.assignments));
        helper.SetSchedule(
            {{WorkloadMode::INFERENCE_HEAVY, 0.05}, {WorkloadMode::TRAINING_HEAVY, 0}});
        return topo;
    }
};

const TypeId kTable = TypeId::LookupByName("ns3::MoseRouteTable");
const TypeId kRouting = TypeId::LookupByName("ns3::MoseRoutingProtocol");

} // namespace

TEST_F(AttributePrecedence, AConfiguredDefaultIsDetectedEvenWhenItEqualsTheRegisteredOne)
{
    EXPECT_FALSE(IsAttributeDefaultSet(kTable, "Rule"));
    Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("shortest-path"));
    EXPECT_TRUE(IsAttributeDefaultSet(kTable, "Rule")) << "set, to the registered value";
    EXPECT_EQ(GetAttributeDefaultText(kTable, "Rule"), "shortest-path");
    EXPECT_FALSE(IsAttributeDefaultSet(kTable, "Seed"));
    CommandLine cmd;
    char program[] = "test";
    char seed[] = "--ns3::MoseRouteTable::Seed=9";
    char* argv[] = {program, seed};
    cmd.Parse(2, argv);
    EXPECT_TRUE(IsAttributeDefaultSet(kTable, "Seed")) << "the command line sets defaults";
    EXPECT_EQ(GetAttributeDefaultText(kTable, "Seed"), "9");
    Config::Reset();
    EXPECT_FALSE(IsAttributeDefaultSet(kTable, "Rule"));
    EXPECT_FALSE(IsAttributeDefaultSet(kTable, "Seed"));

    Ptr<MoseRoutingProtocol> p = CreateObject<MoseRoutingProtocol>();
    EXPECT_FALSE(IsAttributeUserSet(*p, "HoldTime"));
    p->SetAttribute("HoldTime", TimeValue(MilliSeconds(7)));
    EXPECT_TRUE(IsAttributeUserSet(*p, "HoldTime")) << "set on the object";
    EXPECT_EQ(FormatAttributeText(kRouting, "HoldTime", GetAttributeText(*p, "HoldTime")), "+7ms");
    EXPECT_CONTAINS(ErrorOf([] { IsAttributeDefaultSet(kTable, "Rules"); }), "Rules");
    // an unknown enum name is refused before ns-3 parses it (its parse asserts in a debug build)
    const std::string bad =
        ErrorOf([] { GetAttributeValueText(kTable, "Rule", StringValue("ECMP")); });
    EXPECT_CONTAINS(bad, "\"ECMP\"");
    EXPECT_CONTAINS(bad, "shortest-path, random-shortest-path or ecmp");
    EXPECT_EQ(GetAttributeValueText(kTable, "Rule", StringValue("ecmp")), "ecmp");
}

TEST(AttributeText, EnumNamesInTheCheckersOrder)
{
    TypeId::AttributeInformation info;
    ASSERT_TRUE(TypeId::LookupByName("ns3::MoseRouteTable").LookupAttributeByName("Rule", &info));
    EXPECT_EQ(GetEnumNames(*info.checker),
              (std::vector<std::string>{"shortest-path", "random-shortest-path", "ecmp"}));
    ASSERT_TRUE(TypeId::LookupByName("ns3::MoseRouteTable").LookupAttributeByName("Seed", &info));
    EXPECT_TRUE(GetEnumNames(*info.checker).empty()) << "not an enum";
    EXPECT_EQ(JoinAlternatives({"a"}), "a");
    EXPECT_EQ(JoinAlternatives({"a", "b", "c"}), "a, b or c");
    EXPECT_EQ(JoinAlternatives({}), "");
}

TEST_F(AttributePrecedence, RuleAndSeedSetByConfigWinOverSetTemplate)
{
    Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("ecmp"));
    Config::SetDefault("ns3::MoseRouteTable::Seed", UintegerValue(7));
    Ptr<MoseTopologyHelper> topo = FromTemplate(Config16()); // its rule: the default one
    topo->Install();
    EXPECT_EQ(topo->GetRouteTable()->GetRule(), RoutingRule::ECMP);
    EXPECT_EQ(topo->GetRouteTable()->GetActiveRule(), RoutingRule::ECMP);
    EXPECT_EQ(topo->GetRouteTable()->GetSeed(), 7u);
}

TEST_F(AttributePrecedence, WithoutUserSettingsSetTemplatesRuleAndSeedApply)
{
    const FlowExperimentConfig config = Config16();
    Ptr<MoseTopologyHelper> topo = FromTemplate(config);
    topo->Install();
    EXPECT_EQ(topo->GetRouteTable()->GetRule(), RoutingRule::RANDOM_SHORTEST_PATH);
    EXPECT_EQ(topo->GetRouteTable()->GetSeed(), ScenarioBuilder(config).BuildRoutingSeed(2));
    EXPECT_EQ(topo->GetNGroups(), 16u);
}

TEST_F(AttributePrecedence, AConfigRuleThatDiffersFromAnExplicitTemplateRuleIsAnError)
{
    Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("ecmp"));
    FlowExperimentConfig config = Config16();
    config.routing = RoutingRule::SHORTEST_PATH; // not the configuration's default: given
    Ptr<MoseTopologyHelper> topo = FromTemplate(config);
    const std::string error = ErrorOf([&] { topo->Install(); });
    EXPECT_CONTAINS(error, "ns3::MoseRouteTable::Rule = ecmp");
    EXPECT_CONTAINS(error, "Rule shortest-path");
    EXPECT_CONTAINS(error, "SetTemplate");
    EXPECT_CONTAINS(error, "--ns3::MoseRouteTable::Rule");

    config.routing = RoutingRule::ECMP; // the same value: no conflict
    Ptr<MoseTopologyHelper> same = FromTemplate(config);
    same->Install();
    EXPECT_EQ(same->GetRouteTable()->GetRule(), RoutingRule::ECMP);
}

TEST_F(AttributePrecedence, SetRoutingAgainstAUserSetRuleOrSeedIsAnErrorNamingBoth)
{
    const FlowExperimentConfig config = Config16();
    Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("ecmp"));
    Ptr<MoseTopologyHelper> rule = FromTemplate(config);
    rule->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, 3);
    const std::string error = ErrorOf([&] { rule->Install(); });
    EXPECT_CONTAINS(error, "ecmp");
    EXPECT_CONTAINS(error, "random-shortest-path");
    EXPECT_CONTAINS(error, "MoseTopologyHelper::SetRouting");
    Config::Reset();

    Config::SetDefault("ns3::MoseRouteTable::Seed", UintegerValue(5));
    Ptr<MoseTopologyHelper> seed = FromTemplate(config);
    seed->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, 9);
    const std::string seedError = ErrorOf([&] { seed->Install(); });
    EXPECT_CONTAINS(seedError, "ns3::MoseRouteTable::Seed = 5");
    EXPECT_CONTAINS(seedError, "Seed 9");

    Ptr<MoseTopologyHelper> agree = FromTemplate(config);
    agree->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, 5); // the user's seed: fine
    agree->Install();
    EXPECT_EQ(agree->GetRouteTable()->GetSeed(), 5u);
}

TEST_F(AttributePrecedence, SetRoutingBeforeSetTemplateKeepsItsRuleAndSeed)
{
    FlowExperimentConfig config = Config16();
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetRouting(RoutingRule::ECMP, 5);
    topo->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    topo->Install();
    EXPECT_EQ(topo->GetRouteTable()->GetRule(), RoutingRule::ECMP);
    EXPECT_EQ(topo->GetRouteTable()->GetSeed(), 5u);
    Simulator::Destroy();

    config.routing = RoutingRule::SHORTEST_PATH; // given, and not SetRouting's
    Ptr<MoseTopologyHelper> conflict = CreateObject<MoseTopologyHelper>();
    conflict->SetRouting(RoutingRule::ECMP, 5);
    const std::string error = ErrorOf(
        [&] { conflict->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE); });
    EXPECT_CONTAINS(error, "shortest-path");
    EXPECT_CONTAINS(error, "ecmp given to MoseTopologyHelper::SetRouting");
}

TEST_F(AttributePrecedence, SetRouteTableAttributeWinsOverDefaultsAndTemplatesButNotSetRouting)
{
    const FlowExperimentConfig config = Config16();
    Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("shortest-path"));
    Ptr<MoseTopologyHelper> topo = FromTemplate(config);
    topo->SetRouteTableAttribute("Rule", StringValue("ecmp"));
    topo->SetRouteTableAttribute("Seed", UintegerValue(11));
    topo->Install();
    EXPECT_EQ(topo->GetRouteTable()->GetRule(), RoutingRule::ECMP) << "the object's value wins";
    EXPECT_EQ(topo->GetRouteTable()->GetSeed(), 11u) << "over the template's derived seed";
    Simulator::Destroy();

    Ptr<MoseTopologyHelper> both = FromTemplate(config);
    both->SetRouteTableAttribute("Rule", StringValue("ecmp"));
    both->SetRouting(RoutingRule::SHORTEST_PATH, 0);
    const std::string error = ErrorOf([&] { both->Install(); });
    EXPECT_CONTAINS(error, "SetRouteTableAttribute(\"Rule\")");
    EXPECT_CONTAINS(error, "ecmp");
    EXPECT_CONTAINS(error, "shortest-path");
}

TEST_F(AttributePrecedence, GroupsOrPortsSetByTheUserAndATemplateOfAnotherSizeAreAnError)
{
    const FlowExperimentConfig config = Config16();
    Config::SetDefault("ns3::MoseTopologyHelper::Groups", UintegerValue(32));
    Ptr<MoseTopologyHelper> byConfig = CreateObject<MoseTopologyHelper>();
    const std::string error = ErrorOf(
        [&] { byConfig->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE); });
    EXPECT_CONTAINS(error, "MoseTopologyHelper::Groups = 32");
    EXPECT_CONTAINS(error, "conflicts with 16");
    Config::Reset();

    Ptr<MoseTopologyHelper> bySetAttribute = CreateObject<MoseTopologyHelper>();
    bySetAttribute->SetAttribute("PortsPerGroup", UintegerValue(3));
    EXPECT_CONTAINS(
        ErrorOf([&] {
            bySetAttribute->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        }),
        "PortsPerGroup = 3");

    Ptr<MoseTopologyHelper> same = CreateObject<MoseTopologyHelper>();
    same->SetAttribute("Groups", UintegerValue(16));
    same->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
    same->Install();
    EXPECT_EQ(same->GetNGroups(), 16u);
}

TEST_F(AttributePrecedence, APortDataRateOtherThanTheOcssIsAnError)
{
    Ptr<MoseTopologyHelper> topo = FromTemplate(Config16());
    topo->SetPortDeviceAttribute("DataRate", StringValue("100Gbps"));
    const std::string error = ErrorOf([&] { topo->Install(); });
    EXPECT_CONTAINS(error, "SetPortDeviceAttribute(\"DataRate\")");
    EXPECT_CONTAINS(error, "ns3::MoseOcs::DataRate");

    Config::SetDefault("ns3::MoseOcs::DataRate", StringValue("100Gbps"));
    Ptr<MoseTopologyHelper> agree = FromTemplate(Config16());
    agree->SetPortDeviceAttribute("DataRate", StringValue("100Gbps"));
    agree->Install();
    EXPECT_EQ(agree->GetOcs()->GetDataRate(), DataRate("100Gbps"));
}

TEST_F(AttributePrecedence, WithoutUserSettingsTheSwitcherHoldsWithTheAttributeDefaults)
{
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    helper.Install(topo);
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        EXPECT_EQ(GetAttributeText(*Routing(topo, g), "HoldPackets"), "true");
        EXPECT_EQ(GetAttributeText(*Routing(topo, g), "HoldQueueSize"), "100000");
        EXPECT_EQ(FormatAttributeText(kRouting,
                                      "HoldTime",
                                      GetAttributeText(*Routing(topo, g), "HoldTime")),
                  "+2s");
    }
}

TEST_F(AttributePrecedence, HoldTimeAndHoldQueueSizeSetByConfigSurviveTheSwitcherHelper)
{
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldTime", TimeValue(MilliSeconds(5)));
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldQueueSize", UintegerValue(7));
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    helper.Install(topo);
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        Ptr<MoseRoutingProtocol> r = Routing(topo, g);
        EXPECT_EQ(FormatAttributeText(kRouting, "HoldTime", GetAttributeText(*r, "HoldTime")),
                  "+5ms");
        EXPECT_EQ(GetAttributeText(*r, "HoldQueueSize"), "7");
        EXPECT_EQ(GetAttributeText(*r, "HoldPackets"), "true");
    }
}

TEST_F(AttributePrecedence, HoldAttributesSetOnANodesProtocolSurviveTheSwitcherHelper)
{
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    Routing(topo, 3)->SetAttribute("HoldTime", TimeValue(MilliSeconds(7)));
    Routing(topo, 3)->SetAttribute("HoldQueueSize", UintegerValue(9));
    Routing(topo, 4)->SetAttribute("HoldPackets", BooleanValue(true));
    helper.Install(topo);
    EXPECT_EQ(
        FormatAttributeText(kRouting, "HoldTime", GetAttributeText(*Routing(topo, 3), "HoldTime")),
        "+7ms");
    EXPECT_EQ(GetAttributeText(*Routing(topo, 3), "HoldQueueSize"), "9");
    EXPECT_EQ(GetAttributeText(*Routing(topo, 5), "HoldQueueSize"), "100000");
    EXPECT_EQ(GetAttributeText(*Routing(topo, 4), "HoldPackets"), "true");
}

TEST_F(AttributePrecedence, HoldPacketsFalseSetByConfigIsKept)
{
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldPackets", BooleanValue(false));
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    helper.Install(topo);
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        EXPECT_EQ(GetAttributeText(*Routing(topo, g), "HoldPackets"), "false")
            << "switching without hold is the user's choice";
    }
}

TEST_F(AttributePrecedence, SetRoutingAttributeAgainstANodesOwnValueIsAnErrorNamingBoth)
{
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    Routing(topo, 3)->SetAttribute("HoldTime", TimeValue(MilliSeconds(7)));
    helper.SetRoutingAttribute("HoldTime", TimeValue(MilliSeconds(3)));
    const std::string error = ErrorOf([&] { helper.Install(topo); });
    EXPECT_CONTAINS(error, "group node 3");
    EXPECT_CONTAINS(error, "HoldTime = +7ms");
    EXPECT_CONTAINS(error, "gives +3ms");

    EXPECT_CONTAINS(ErrorOf([&] { helper.SetRoutingAttribute("HoldTimes", UintegerValue(1)); }),
                    "HoldTimes");
}

TEST_F(AttributePrecedence, SetRoutingAttributeWinsOverAConfiguredDefault)
{
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldQueueSize", UintegerValue(7));
    const SwitchScenario s(1);
    MoseModeSwitcherHelper helper;
    Ptr<MoseTopologyHelper> topo = SwitchFabric(helper, s);
    helper.SetRoutingAttribute("HoldQueueSize", UintegerValue(11));
    helper.Install(topo);
    EXPECT_EQ(GetAttributeText(*Routing(topo, 0), "HoldQueueSize"), "11");
}

TEST_F(AttributePrecedence, AUserHoldTimeShorterThanTheDarkPeriodDropsHeldPackets)
{
    // the reference: the defaults hold through the 10 ms dark period, nothing is lost
    const SwitchRun held = RunSwitchScenario(SwitchRunOptions{});
    ASSERT_EQ(held.records.size(), 1u);
    EXPECT_GT(held.records[0].packetsHeld, 0u);
    EXPECT_EQ(held.lost, 0u);
    Simulator::Destroy();

    // the user's 1 ms reaches the running protocols: held packets expire in the dark
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldTime", TimeValue(MilliSeconds(1)));
    SwitchRunOptions o;
    o.stop = Seconds(30);
    const SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    EXPECT_GT(r.records[0].drops[MoseLossMonitor::HOLD], 0u);
    EXPECT_EQ(r.lost, r.holdDrops) << "every expired packet counted, nothing else lost";
    EXPECT_EQ(r.completed, r.transfers) << "TCP recovers";
}

TEST_F(AttributePrecedence, AUserHoldQueueSizeSetByConfigOverflows)
{
    Config::SetDefault("ns3::MoseRoutingProtocol::HoldQueueSize", UintegerValue(2));
    SwitchRunOptions o;
    o.stop = Seconds(30);
    const SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    EXPECT_GT(r.records[0].drops[MoseLossMonitor::HOLD], 0u);
    EXPECT_EQ(r.lost, r.holdDrops);
    EXPECT_EQ(r.completed, r.transfers);
}
