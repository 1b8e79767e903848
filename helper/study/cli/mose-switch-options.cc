/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-options.h"

#include "mose-level-options.h"
#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-policy.h"

#include <optional>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchOptions");

void
SwitchOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    AddTextOption(cmd,
                  "policies",
                  "policies to run on the same run, comma-separated: " +
                      mose::AllowedEnumNames<mose::Policy>() +
                      "; the first is reported in detail; with more than one, the comparison "
                      "and the verdict",
                  m_policies);
    AddTextOption(cmd,
                  "schedule",
                  "the workload modes from time 0: " + ScheduleSyntax(),
                  m_schedule);
    AddTextOption(cmd,
                  "startWindow",
                  "transfers of an interval start uniformly over its first this long "
                  "(sets ns3::MoseTrafficHelper::StartWindow)",
                  m_startWindow,
                  m_startWindowGiven);
    AddTextOption(cmd,
                  "stopTime",
                  "the simulation ends here at the latest (a duration; no unit: seconds)",
                  m_stopTime);
    AddTextOption(cmd, "binWidth", "time bin of the goodput timeline (e.g. 1ms)", m_binWidth);
    m_transport.AddOptions(cmd, "the transfers'");
    AddTextOption(cmd,
                  "level",
                  "packet (ns-3 packets), fluid (max-min fair fluid flows on the same routes and "
                  "switches, no Simulator) or aggregate (the fluid level: a flow list has no "
                  "collective to aggregate)",
                  m_level);
    AddTextOption(cmd,
                  "tolerance",
                  "the tie band of the verdict over --seeds: MoSE's relative difference in mean "
                  "FCT counted as a tie (0.02: +-2%)",
                  m_tolerance);
    AddBoolOption(cmd,
                  "writeScenario",
                  "also write the run's roles, P-D assignments, flows and templates to "
                  "outputDir, in the files the file options read (as mose-templates does)",
                  m_writeScenario);
}

ExperimentConfig
SwitchOptions::GetConfig(const ScenarioOptions& scenario) const
{
    NS_LOG_FUNCTION(this);
    ExperimentConfig config = MakeSwitchConfig(scenario.GetConfig());
    config.policy = GetPolicies().front();
    // the transfers' start attributes that the program sets per mode interval
    RejectModuleAttribute("ns3::MoseTrafficHelper::StartMode",
                          "the transfers of each mode interval start uniformly over "
                          "--startWindow");
    RejectModuleAttribute("ns3::MoseTrafficHelper::StartTime",
                          "the transfers of each mode interval start at the interval's "
                          "start (--schedule)");
    RejectModuleAttribute("ns3::MoseTrafficHelper::SinkPortBase",
                          "each mode interval's sinks listen on ports of their own");
    const std::string window =
        ResolveAttributeOption(
            AttributeOption{"startWindow", "ns3::MoseTrafficHelper::StartWindow", ReadTimeOption},
            m_startWindowGiven ? std::optional(m_startWindow) : std::nullopt)
            .value_or(m_startWindow);
    config.optionText = {{"--schedule", m_schedule},
                         {"--startWindow", window},
                         {"--stopTime", m_stopTime},
                         {"--binWidth", m_binWidth}};
    config.SetSchedule(ParseSchedule("--schedule", m_schedule));
    CheckSwitchesFit(config.GetRunSchedule());
    config.startWindow = ParseTimeOption("--startWindow", window);
    config.stopTime = ParseTimeOption("--stopTime", m_stopTime);
    config.binWidth = ParseTimeOption("--binWidth", m_binWidth);
    config.run = config.scenario.firstRun;
    const LlmLevel level = ParseOneLevel("--level", m_level, "mose-mode-switch");
    const std::string transport = m_transport.GetTypeName();
    const bool rdma = IsRdmaTransport(transport);
    config.SetTransport(level,
                        transport,
                        m_transport.ReadEcn(rdma, !IsFluid(level), EcnMarking().discSize));
    config.pfc = m_transport.ReadPfc(rdma, !IsFluid(level));
    TransportOptions::RejectTcpOnlyAttributes(config.IsRdma(), !IsFluid(config.level));
    RejectPacketOnlyAttributes(config.level, config.IsRdma());
    RejectFluidRouting(config.level, config.scenario.routing);
    if (scenario.IsGiven("threads"))
    {
        ThrowBadParameter("--threads",
                          scenario.Describe("threads"),
                          "the option would not be used: the packet-level runs are sequential");
    }
    GetSeeds(scenario); // the seeds are runs of the whole comparison
    GetTolerance();
    ValidateSwitchConfig(config);
    return config;
}

uint32_t
SwitchOptions::GetSeeds(const ScenarioOptions& scenario) const
{
    const uint32_t seeds = scenario.GetSeedPlan().seeds;
    if (seeds > 1 && !IsComparing())
    {
        ThrowBadParameter("--seeds",
                          scenario.Describe("seeds"),
                          "1 with one policy: more seeds repeat a comparison (--policies with "
                          "MoSE and a static policy)");
    }
    return seeds;
}

double
SwitchOptions::GetTolerance() const
{
    const double tolerance = ParseReal("--tolerance", m_tolerance);
    if (!(tolerance >= 0 && tolerance < 1))
    {
        ThrowBadParameter("--tolerance",
                          QuoteText(m_tolerance),
                          "a relative difference from 0 to below 1 (0.02: +-2%)");
    }
    return tolerance;
}

std::vector<Policy>
SwitchOptions::GetPolicies() const
{
    return ParseEnumList<Policy>(m_policies, "--policies");
}

bool
SwitchOptions::IsComparing() const
{
    return GetPolicies().size() > 1;
}

bool
SwitchOptions::IsWritingScenario() const
{
    return m_writeScenario;
}

} // namespace mose
} // namespace ns3
