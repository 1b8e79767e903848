/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-packet-options.h"

#include "mose-level-options.h"
#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-policy.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePacketOptions");

void
PacketOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    AddTextOption(cmd, "mode", "workload mode: inference-heavy or training-heavy", m_mode);
    AddTextOption(cmd,
                  "policies",
                  "policies to run, comma-separated: " + mose::AllowedEnumNames<mose::Policy>(),
                  m_policies);
    AddTextOption(cmd,
                  "graph",
                  "edge-list CSV circuit graph to use instead of the policy's template",
                  m_graph);
    AddTextOption(cmd,
                  "stopTime",
                  "the simulation ends here at the latest (a duration; no unit: seconds)",
                  m_stopTime);
    AddTextOption(cmd,
                  "level",
                  "packet (ns-3 packets), fluid (max-min fair fluid flows on the same routes, no "
                  "Simulator) or aggregate (the fluid level: a flow list has no collective to "
                  "aggregate)",
                  m_level);
    m_transport.AddOptions(cmd, "the transfers'");
    AddBoolOption(cmd,
                  "flowMonitor",
                  "install FlowMonitor (packets lost per class; packet level only)",
                  m_flowMonitor,
                  m_flowMonitorGiven);
    AddBoolOption(cmd,
                  "writeScenario",
                  "also write the mode's roles, P-D assignment and flows and each policy's "
                  "circuit graph to outputDir, in the files the file options read",
                  m_writeScenario);
}

ExperimentConfig
PacketOptions::GetConfig(const ScenarioOptions& scenario) const
{
    NS_LOG_FUNCTION(this);
    const FlowExperimentConfig flows = scenario.GetConfig();
    const auto mode = ParseEnum<WorkloadMode>(m_mode, "--mode");
    const Time stopTime = ParseTimeOption("--stopTime", m_stopTime);
    const LlmLevel level = ParseOneLevel("--level", m_level, "mose-packet");
    const std::string transport = m_transport.GetTypeName();
    const bool rdma = IsRdmaTransport(transport);
    const EcnMarking ecn = m_transport.ReadEcn(rdma, !IsFluid(level), EcnMarking().discSize);
    ExperimentConfig config = MakePacketConfig(flows, mode, level, transport, ecn);
    config.graphFile = m_graph;
    config.run = flows.firstRun;
    config.stopTime = stopTime;
    config.flowMonitor = m_flowMonitor;
    config.pfc = m_transport.ReadPfc(rdma, !IsFluid(level));
    TransportOptions::RejectTcpOnlyAttributes(config.IsRdma(), !IsFluid(config.level));
    if (IsFluid(config.level))
    {
        if (m_flowMonitorGiven)
        {
            ThrowBadParameter("--flowMonitor",
                              m_flowMonitor ? "true" : "false",
                              "the option would not be used: FlowMonitor counts packets, and the " +
                                  ToString(config.level) + " level has none (--level=packet)");
        }
        config.flowMonitor = false;
        RejectPacketOnlyAttributes(config.level, config.IsRdma());
        RejectFluidRouting(config.level, config.scenario.routing);
    }
    config.policy = GetPolicies().front();
    ValidatePacketConfig(config);
    return config;
}

std::vector<Policy>
PacketOptions::GetPolicies() const
{
    return ParseEnumList<Policy>(m_policies, "--policies");
}

bool
PacketOptions::IsWritingScenario() const
{
    return m_writeScenario;
}

} // namespace mose
} // namespace ns3
