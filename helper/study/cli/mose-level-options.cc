/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-level-options.h"

#include "mose-option-scope.h"

#include "ns3/log.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/type-id.h"

#include <set>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLevelOptions");

LlmLevel
ParseOneLevel(const std::string& option, const std::string& text, const std::string& program)
{
    const std::vector<LlmLevel> levels = ParseLlmLevels(option, text);
    if (levels.size() != 1)
    {
        ThrowBadParameter(option,
                          QuoteText(text),
                          "one level, " + ListLevelNames("or") + ": " + program +
                              " runs one level per run (run it once per level to compare them)");
    }
    return levels.front();
}

void
RejectPacketOnlyAttributes(LlmLevel level, bool rdma)
{
    NS_LOG_FUNCTION(static_cast<int>(level));
    if (!IsFluid(level))
    {
        return;
    }
    // what MoseFluidFabricHelper::Read() and MoseTrafficHelper::MakeStartedTransfers() read
    std::set<std::string> used{
        "ns3::MoseOcs::DataRate",
        "ns3::MoseOcs::Delay",
        "ns3::MoseTopologyHelper::Groups",
        "ns3::MoseTopologyHelper::PortsPerGroup",
        "ns3::MoseTopologyHelper::HostsPerGroup",
        "ns3::MoseTopologyHelper::HostDataRate",
        "ns3::MoseTopologyHelper::HostDelay",
        "ns3::MoseRouteTable::Rule",
        "ns3::MoseTrafficHelper::BytesPerUnit",
        "ns3::MoseTrafficHelper::MaxFlows",
        "ns3::MoseTrafficHelper::Aggregation",
        "ns3::MoseTrafficHelper::StartMode",
        "ns3::MoseTrafficHelper::StartTime",
        "ns3::MoseTrafficHelper::StartWindow",
        "ns3::MoseTrafficHelper::PoissonRate",
        "ns3::MoseModeSwitcher::Phases",
        "ns3::MoseModeSwitcher::Drain",
        "ns3::MoseModeSwitcher::FixedDrain",
        "ns3::MoseModeSwitcher::DrainTimeout",
        "ns3::MoseModeSwitcher::ReconfigurationDelay",
    };
    if (rdma)
    {
        used.insert("ns3::MoseRdmaTransport::PayloadSize"); // the fluid model's packet
    }
    else
    {
        // the BulkSend senders' segment, variant and TCP start
        used.insert("ns3::TcpSocket::SegmentSize");
        used.insert("ns3::MoseTrafficHelper::TcpVariant");
        const std::vector<std::string>& start = MoseFluidFabricHelper::GetTcpStartAttributes();
        used.insert(start.begin(), start.end());
    }
    const std::string reason = "the " + ToString(level) +
                               " level moves fluid flows, not packets, and reads only the "
                               "fabric's rates, delays, hosts and routing, TCP's start, the "
                               "flows and the switch (--level=packet uses it)";
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t k = 0; k < tid.GetAttributeN(); ++k)
        {
            const std::string path = tid.GetName() + "::" + tid.GetAttribute(k).name;
            if (used.count(path) == 0)
            {
                RejectModuleAttribute(path, reason);
            }
        }
    }
    const std::string variant = "ns3::MoseTrafficHelper::TcpVariant";
    if (!rdma && IsModuleAttributeSet(variant))
    {
        MoseFluidFabricHelper::CheckTcpVariant("--" + variant, GetModuleAttributeText(variant));
    }
}

uint32_t
GetLevelPlace(LlmLevel level)
{
    return level == LlmLevel::PACKET  ? AT_PACKET
           : level == LlmLevel::FLUID ? AT_FLUID
                                      : AT_AGGREGATE;
}

void
RejectFluidRouting(LlmLevel level, RoutingRule rule)
{
    if (IsFluid(level) && rule == RoutingRule::ECMP)
    {
        ThrowBadParameter("--routing",
                          QuoteText(ToString(rule)),
                          "shortest-path or random-shortest-path at the " + ToString(level) +
                              " level: it gives each transfer one path, and ECMP's per-packet "
                              "hash has no fluid counterpart (--level=packet runs ECMP)");
    }
}

} // namespace mose
} // namespace ns3
