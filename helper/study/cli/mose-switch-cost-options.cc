/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-cost-options.h"

#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchCostOptions");

void
SwitchCostOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    AddTextOption(cmd,
                  "metric",
                  "cost rate per second: avg_cost (all flows' mean load-aware cost), "
                  "p95_cost, max_load, p95_load or avg_hop",
                  m_metric);
    AddTextOption(cmd,
                  "darkTime",
                  "how long the re-paired circuits are dark per switch, a duration (no unit: "
                  "seconds; 0.025: an assumed MEMS OCS reconfiguration time)",
                  m_darkTime);
    AddTextOption(cmd,
                  "unservedFactor",
                  "cost rate of unserved traffic per unit of the new mode's cost rate (1: "
                  "waiting costs what serving costs)",
                  m_factor);
    AddTextOption(cmd,
                  "unservedShare",
                  "share of the traffic unserved during a switch, in [0, 1], instead of the "
                  "share of the load on the added circuits (1: the whole fabric is dark)",
                  m_share);
    AddTextOption(cmd,
                  "schedule",
                  ScheduleSyntax() + " (default: --cycles x both modes for --modeDuration each)",
                  m_schedule);
    AddTextOption(cmd,
                  "modeDuration",
                  "duration of each mode of the default schedule (no unit: seconds)",
                  m_modeDuration);
    AddTextOption(cmd, "cycles", "cycles of the default schedule", m_cycles);
    AddTextOption(cmd,
                  "minDuration",
                  "smallest mode duration T plotted (no unit: seconds)",
                  m_minDuration);
    AddTextOption(cmd,
                  "maxDuration",
                  "largest mode duration T plotted (no unit: seconds)",
                  m_maxDuration);
    AddTextOption(cmd, "points", "mode durations plotted (log-spaced)", m_points);
}

SwitchCostConfig
SwitchCostOptions::GetConfig(const FlowExperimentConfig& study) const
{
    NS_LOG_FUNCTION(this);
    SwitchCostConfig c;
    c.metric = ParseSwitchCostMetric(m_metric, "--metric");
    SwitchCostParameters& params = c.params;
    params.darkTime = ParseDuration("--darkTime", m_darkTime);
    params.darkTimeOption = SwitchCostParameters::Option{"--darkTime", m_darkTime};
    params.unservedFactor = ParseReal("--unservedFactor", m_factor);
    params.unservedFactorOption = SwitchCostParameters::Option{"--unservedFactor", m_factor};
    if (!m_share.empty())
    {
        params.unservedShare = ParseReal("--unservedShare", m_share);
        params.unservedShareOption = SwitchCostParameters::Option{"--unservedShare", m_share};
    }
    params.Validate();
    // drawn flows bound every cost rate: a penalty that can overflow is known before the study
    // (flows from files are checked after it, PrintTables())
    const double maxRate = MaxDrawnCostRate(study.nodes, study.flows);
    if (study.inferenceFlowsFile.empty() && study.trainingFlowsFile.empty() &&
        !std::isfinite(MaxCyclePenalty(params, maxRate)))
    {
        throw Error("invalid --darkTime = " + QuoteText(m_darkTime) +
                    " with --unservedFactor = " + QuoteText(m_factor) +
                    ": a switch's penalty (dark time x unserved share x factor x cost "
                    "rate, the rate up to (N - 1) x F = " +
                    FormatNumber(maxRate) +
                    " for --nodes and --flows) can overflow a double; give a smaller "
                    "--darkTime or --unservedFactor");
    }
    c.alternating = m_schedule.empty();
    if (c.alternating)
    {
        const double t = ParseDuration("--modeDuration", m_modeDuration);
        if (!(t > 0))
        {
            ThrowBadParameter("--modeDuration",
                              QuoteText(m_modeDuration),
                              "a finite number of seconds > 0");
        }
        const uint32_t cycles = ParseUnsigned32("--cycles", m_cycles);
        if (cycles == 0)
        {
            ThrowBadParameter("--cycles", QuoteText(m_cycles), "at least 1 cycle");
        }
        if (static_cast<double>(cycles) * 2 * t > std::numeric_limits<double>::max())
        {
            ThrowBadParameter("--modeDuration",
                              QuoteText(m_modeDuration),
                              "--cycles x 2 x --modeDuration must be a finite duration");
        }
        c.schedule = AlternatingSchedule(t, cycles);
    }
    else
    {
        c.schedule = ParseSchedule("--schedule", m_schedule);
    }
    const double minT = ParseDuration("--minDuration", m_minDuration);
    const double maxT = ParseDuration("--maxDuration", m_maxDuration);
    const uint32_t points = ParseUnsigned32("--points", m_points);
    if (!(minT > 0))
    {
        ThrowBadParameter("--minDuration",
                          QuoteText(m_minDuration),
                          "a number of seconds > 0 (the axis is logarithmic)");
    }
    if (!(maxT > minT))
    {
        ThrowBadParameter("--maxDuration",
                          QuoteText(m_maxDuration),
                          "a number of seconds > --minDuration = " + FormatNumber(minT));
    }
    if (points < 2 || points > 100000)
    {
        ThrowBadParameter("--points", QuoteText(m_points), "2 <= points <= 100000");
    }
    c.durations = SwitchCostReport::LogSpacedDurations(minT, maxT, points);
    return c;
}

void
SwitchCostOptions::PrintTables(const SwitchCostReport& report, std::ostream& os) const
{
    NS_LOG_FUNCTION(this);
    // a switch's penalty grows with --darkTime and --unservedFactor; too large ones make a
    // cycle's cost overflow, which the model reports without the options' names
    std::ostringstream tables;
    try
    {
        report.PrintTables(tables);
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        if (what.find("cycle cost") == std::string::npos)
        {
            throw;
        }
        throw Error("invalid --darkTime = " + QuoteText(m_darkTime) + " with --unservedFactor = " +
                    QuoteText(m_factor) + ": the switch penalty makes a cycle's cost overflow (" +
                    what + "); give a smaller --darkTime or --unservedFactor");
    }
    os << tables.str();
}

} // namespace mose
} // namespace ns3
