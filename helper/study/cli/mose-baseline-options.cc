/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-baseline-options.h"

#include "mose-option-scope.h"
#include "mose-program.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseBaselineOptions");

std::string
BaselineOptions::GetShapeOption(SwitchlessBaseline b)
{
    switch (b)
    {
    case SwitchlessBaseline::TORUS_2D:
        return "torus2d";
    case SwitchlessBaseline::TORUS_3D:
        return "torus3d";
    case SwitchlessBaseline::FULL_MESH_3D:
        return "fullMesh3d";
    }
    return "shape";
}

void
BaselineOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    AddTextOption(cmd,
                  "baselines",
                  "switchless baselines to evaluate, separated by commas: torus-2d, "
                  "torus-3d, full-mesh-3d",
                  m_baselines);
    AddTextOption(cmd,
                  "torus2d",
                  "shape of the 2D torus, e.g. 32x32 (default: the most balanced for "
                  "--nodes); d = 4",
                  m_shapes[0]);
    AddTextOption(cmd,
                  "torus3d",
                  "shape of the 3D torus, e.g. 16x8x8 (default: the most balanced for "
                  "--nodes); d = 6",
                  m_shapes[1]);
    AddTextOption(cmd,
                  "fullMesh3d",
                  "shape a x b x c of the 3D full-mesh, e.g. 16x8x8 (default: the most "
                  "balanced for --nodes); d = (a-1)+(b-1)+(c-1)",
                  m_shapes[2]);
    AddBoolOption(cmd,
                  "moseAtBaselineDegrees",
                  "also evaluate MoSE and the static policies at each baseline's d that "
                  "differs from --degree (equal port budget; r of H^PD there: "
                  "--pdReservedPorts if given, else d - 1)",
                  m_moseAtBaselineDegrees);
}

BaselineComparisonConfig
BaselineOptions::GetConfig(const ScenarioOptions& scenario) const
{
    NS_LOG_FUNCTION(this);
    BaselineComparisonConfig config;
    config.study = scenario.GetConfig();
    config.seedPlan = scenario.GetSeedPlan();
    config.moseAtBaselineDegrees = m_moseAtBaselineDegrees;
    if (scenario.IsGiven("pdReservedPorts"))
    {
        // a given r holds at every degree; the default, d - 1, follows each degree
        config.baselineReservedPorts = config.study.pdReservedPorts;
    }
    const std::vector<SwitchlessBaseline> chosen =
        ParseEnumList<SwitchlessBaseline>(m_baselines, "--baselines");
    for (std::size_t i = 0; i < ALL_SWITCHLESS_BASELINES.size(); ++i)
    {
        const SwitchlessBaseline b = ALL_SWITCHLESS_BASELINES[i];
        const bool wanted = std::find(chosen.begin(), chosen.end(), b) != chosen.end();
        if (!wanted && !m_shapes[i].empty())
        {
            ThrowBadParameter("--" + GetShapeOption(b),
                              QuoteText(m_shapes[i]),
                              ToString(b) + " is not in --baselines = " + m_baselines);
        }
    }
    for (SwitchlessBaseline b : chosen)
    {
        const std::size_t i = static_cast<std::size_t>(b);
        BaselineSpec spec;
        spec.baseline = b;
        spec.shapeName = "--" + GetShapeOption(b);
        if (m_shapes[i].empty())
        {
            try
            {
                spec.shape = DefaultSwitchlessShape(b, config.study.nodes, "--nodes");
            }
            catch (const Error& e)
            {
                throw Error(std::string(e.what()) + " (or leave " + ToString(b) +
                            " out of --baselines)");
            }
        }
        else
        {
            spec.shape = ParseGridShape(spec.shapeName, m_shapes[i]);
        }
        ValidateSwitchlessShape(b, config.study.nodes, spec.shape, spec.shapeName, "--nodes");
        config.baselines.push_back(spec);
    }
    return config;
}

FlowExperimentConfig
BaselineOptions::GetLargestStudy(const BaselineComparisonConfig& config)
{
    FlowExperimentConfig largest = config.study;
    for (const BaselineSpec& spec : config.baselines)
    {
        largest.degree = std::max(largest.degree, GetBaselineDegree(spec.baseline, spec.shape));
    }
    return largest;
}

uint32_t
BaselineOptions::GetPlaces(const BaselineComparisonConfig& config)
{
    uint32_t bits = 0;
    for (const BaselineSpec& spec : config.baselines)
    {
        bits |= spec.baseline == SwitchlessBaseline::TORUS_2D   ? IN_TORUS_2D
                : spec.baseline == SwitchlessBaseline::TORUS_3D ? IN_TORUS_3D
                                                                : IN_FULL_MESH_3D;
    }
    return bits;
}

} // namespace mose
} // namespace ns3
