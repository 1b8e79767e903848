/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-mode-switcher-helper.h"

#include "mose-workload-helper.h"

#include "ns3/boolean.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseModeSwitcherHelper");

MoseModeSwitcherHelper::MoseModeSwitcherHelper()
{
    m_factory.SetTypeId("ns3::MoseModeSwitcher");
}

void
MoseModeSwitcherHelper::SetSwitcherAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
MoseModeSwitcherHelper::GetSwitcherAttribute(const std::string& name, AttributeValue& value) const
{
    m_factory.Create<MoseModeSwitcher>()->GetAttribute(name, value);
}

void
MoseModeSwitcherHelper::SetRoutingAttribute(const std::string& name, const AttributeValue& value)
{
    // checked here, so that a typo fails where it is made
    const TypeId tid = MoseRoutingProtocol::GetTypeId();
    mose::GetAttributeValueText(tid, name, value);
    m_routing[name] = value.Copy();
}

void
MoseModeSwitcherHelper::ConfigureRouting(Ptr<MoseRoutingProtocol> routing, uint32_t group) const
{
    const TypeId tid = MoseRoutingProtocol::GetTypeId();
    for (const auto& [name, value] : m_routing)
    {
        // a value the user set on this node's protocol itself is not replaced silently
        const std::string given = mose::GetAttributeValueText(tid, name, *value);
        const std::string current = mose::GetAttributeText(*routing, name);
        if (current != given && current != mose::GetAttributeDefaultText(tid, name))
        {
            throw mose::Error(
                "the MoseRoutingProtocol of group node " + std::to_string(group) + " has " + name +
                " = " + mose::FormatAttributeText(tid, name, current) +
                " (set with SetAttribute) but MoseModeSwitcherHelper::SetRoutingAttribute(\"" +
                name + "\") gives " + mose::FormatAttributeText(tid, name, given) +
                ": set it in one place, or to the same value in both");
        }
        routing->SetAttribute(name, *value);
    }
    // the hold queue is what the helper needs during switches: on, unless the user chose
    if (m_routing.count("HoldPackets") == 0 && !mose::IsAttributeUserSet(*routing, "HoldPackets"))
    {
        routing->SetAttribute("HoldPackets", BooleanValue(true));
    }
}

void
MoseModeSwitcherHelper::SetTargetProvider(MoseTargetProvider provider)
{
    m_provider = std::move(provider);
}

void
MoseModeSwitcherHelper::SetSchedule(const mose::ModeSchedule& schedule)
{
    m_schedule = schedule;
}

void
MoseModeSwitcherHelper::SetLossMonitor(Ptr<MoseLossMonitor> monitor)
{
    m_loss = monitor;
}

namespace
{

/// \return a scenario of the three templates, roles and assignments alone (fresh construction:
/// a policy's graph in a mode is its template, mose::SelectTemplate())
mose::Scenario
ScenarioOf(const std::array<mose::CircuitGraph, mose::ALL_TEMPLATES.size()>& templates,
           const std::array<mose::RoleAssignment, 2>& roles,
           const std::array<mose::PdAssignment, 2>& assignments)
{
    mose::Scenario scenario;
    scenario.templates = templates;
    scenario.roles = roles;
    scenario.assignment = assignments;
    return scenario;
}

} // namespace

MoseTargetProvider
MoseModeSwitcherHelper::MakePolicyProvider(mose::Policy policy, const mose::Scenario& scenario)
{
    return [policy, scenario](mose::WorkloadMode mode) {
        const auto m = static_cast<std::size_t>(mode);
        if (m >= scenario.roles.size())
        {
            mose::ThrowBadParameter("mode",
                                    std::to_string(m),
                                    mose::AllowedEnumNames<mose::WorkloadMode>());
        }
        MoseModeTarget target;
        target.roles = scenario.roles[m];
        target.assignment = scenario.assignment[m];
        target.graph = scenario.GetGraph(policy, mode);
        return target;
    };
}

MoseTargetProvider
MoseModeSwitcherHelper::MakePolicyProvider(
    const mose::Policy policy,
    const std::array<mose::CircuitGraph, mose::ALL_TEMPLATES.size()>& templates,
    const std::array<mose::RoleAssignment, 2>& roles,
    const std::array<mose::PdAssignment, 2>& assignments)
{
    return MakePolicyProvider(policy, ScenarioOf(templates, roles, assignments));
}

MoseTargetProvider
MoseModeSwitcherHelper::MakePolicyProvider(
    const std::string& policy,
    const std::array<mose::CircuitGraph, mose::ALL_TEMPLATES.size()>& templates,
    const std::array<mose::RoleAssignment, 2>& roles,
    const std::array<mose::PdAssignment, 2>& assignments)
{
    return MakePolicyProvider(mose::ParseEnum<mose::Policy>(policy, "policy"),
                              ScenarioOf(templates, roles, assignments));
}

void
MoseModeSwitcherHelper::SetIntervalTraffic(Ptr<MoseTrafficHelper> traffic,
                                           uint32_t index,
                                           Time from,
                                           Time to,
                                           Time maxWindow,
                                           int64_t stream)
{
    traffic->SetAttribute("StartTime", TimeValue(from));
    traffic->SetAttribute("StartWindow", TimeValue(std::min(to - from, maxWindow)));
    traffic->AssignStreams(stream + 2 * static_cast<int64_t>(index));
}

std::vector<Ptr<MoseTrafficHelper>>
MoseModeSwitcherHelper::InstallModeTraffic(
    Ptr<MoseModeSwitcher> switcher,
    const NodeContainer& endpoints,
    const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
    Time firstStart,
    Time end,
    Time maxWindow,
    int64_t stream,
    const std::function<Ptr<MoseTrafficHelper>()>& makeTraffic)
{
    if (!switcher || !flowsOf)
    {
        throw mose::Error(
            "MoseModeSwitcherHelper::InstallModeTraffic: the switcher and flowsOf must be set");
    }
    // the switches' times: the start of every period but the first
    const mose::ModeSchedule& schedule = switcher->GetSchedule();
    const std::vector<Time> times = MoseScheduleTimes(schedule);

    struct Interval
    {
        mose::WorkloadMode mode;
        Time from;
        Time to;
    };

    std::vector<Interval> intervals;
    const std::size_t n = std::max<std::size_t>(schedule.size(), 1);
    for (std::size_t i = 0; i < n; ++i)
    {
        intervals.push_back({schedule.empty() ? switcher->GetInitialMode() : schedule[i].mode,
                             i == 0 ? firstStart : times[i],
                             i + 1 < n ? times[i + 1] : end});
    }
    std::vector<Ptr<MoseTrafficHelper>> helpers;
    const auto portsEach = static_cast<uint32_t>(55535 / intervals.size());
    for (std::size_t i = 0; i < intervals.size(); ++i)
    {
        const Interval& iv = intervals[i];
        if (iv.to <= iv.from)
        {
            mose::ThrowBadParameter("mode interval " + std::to_string(i),
                                    "[" + std::to_string(iv.from.GetSeconds()) + " s, " +
                                        std::to_string(iv.to.GetSeconds()) + " s)",
                                    "a non-empty interval (firstStart before the first "
                                    "boundary, end after the last)");
        }
        Ptr<MoseTrafficHelper> t = makeTraffic ? makeTraffic() : CreateObject<MoseTrafficHelper>();
        if (!makeTraffic)
        {
            t->SetAttribute("StartMode", StringValue("uniform"));
        }
        SetIntervalTraffic(t, static_cast<uint32_t>(i), iv.from, iv.to, maxWindow, stream);
        t->SetAttribute("SinkPortBase",
                        UintegerValue(10000 + static_cast<uint32_t>(i) * portsEach));
        MoseWorkloadHelper("ns3::MoseFlowWorkload").Install(t, endpoints, flowsOf(iv.mode));
        helpers.push_back(t);
    }
    return helpers;
}

Ptr<MoseModeSwitcher>
MoseModeSwitcherHelper::Install(Ptr<MoseTopologyHelper> topology) const
{
    if (!topology)
    {
        throw mose::Error("MoseModeSwitcherHelper::Install: the topology is null");
    }
    const NodeContainer groups = topology->GetGroupNodes();
    if (groups.GetN() == 0)
    {
        throw mose::Error("MoseModeSwitcherHelper::Install: install the topology first");
    }
    Ptr<MoseModeSwitcher> switcher = m_factory.Create<MoseModeSwitcher>();
    switcher->SetFabric(topology->GetOcs(), topology->GetRouteTable(), groups);
    switcher->SetTargetProvider(m_provider);
    switcher->SetSchedule(m_schedule);
    switcher->Prepare(); // throws before anything else changes
    for (uint32_t g = 0; g < groups.GetN(); ++g)
    {
        Ptr<MoseRoutingProtocol> routing = MoseRoutingProtocol::Find(groups.Get(g));
        if (routing)
        {
            ConfigureRouting(routing, g);
        }
    }
    Ptr<MoseLossMonitor> loss = m_loss;
    if (!loss)
    {
        loss = CreateObject<MoseLossMonitor>();
        loss->Install(NodeContainer(groups, topology->GetAllHosts()), topology->GetOcs());
    }
    switcher->SetLossMonitor(loss);
    groups.Get(0)->AddApplication(switcher);
    switcher->SetStartTime(Seconds(0));
    return switcher;
}

} // namespace ns3
