/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-eval-options.h"

#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowEvalOptions");

void
FlowEvalOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    m_routing = ToString(FlowExperimentConfig().routing);
    AddTextOption(cmd, "graph", "circuit graph, edge-list CSV (u,v)", m_graph);
    AddTextOption(cmd, "flowsFile", "flows CSV (src,dst,class,demand)", m_flows);
    AddTextOption(cmd, "routing", "shortest-path, random-shortest-path or ecmp", m_routing);
    AddTextOption(cmd, "nodes", "number of groups N (0: largest id + 1)", m_nodes);
    AddTextOption(cmd, "degree", "required degree d (0: no regularity check)", m_degree);
    AddTextOption(cmd, "repeat", "evaluate this many times, report the fastest", m_repeat);
    AddTextOption(cmd, "loads", "if set, write per-circuit loads to this CSV file", m_loads);
}

FlowEvalConfig
FlowEvalOptions::GetConfig() const
{
    NS_LOG_FUNCTION(this);
    if (m_graph.empty() || m_flows.empty())
    {
        throw Error("both --graph and --flowsFile are required (see --PrintHelp)");
    }
    FlowEvalConfig c;
    c.graphFile = m_graph;
    c.flowsFile = m_flows;
    c.loadsFile = m_loads;
    c.routing = ParseEnum<RoutingRule>(m_routing, "--routing");
    c.nodes = ParseUnsigned32("--nodes", m_nodes);
    if (c.nodes > MAX_GROUPS)
    {
        ThrowBadParameter("--nodes",
                          QuoteText(m_nodes),
                          "at most " + std::to_string(MAX_GROUPS) +
                              " groups (node ids are 32-bit; one value means none)");
    }
    // the evaluation's per-group storage alone (FlowEvaluator::EstimateBytes())
    CheckMemory("--nodes=" + m_nodes, FlowEvaluator::EstimateBytes(c.nodes, 0));
    c.degree = ParseUnsigned32("--degree", m_degree);
    c.repeat = ParseUnsigned32("--repeat", m_repeat);
    if (c.repeat == 0)
    {
        ThrowBadParameter("--repeat", "\"0\"", "need at least one evaluation");
    }
    return c;
}

} // namespace mose
} // namespace ns3
