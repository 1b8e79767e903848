/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-sweep-options.h"

#include "mose-option-scope.h"

#include "ns3/log.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSweepOptions");

namespace
{
/// the role counts, given for the point N = --nodes
constexpr std::array<const char*, 6> ROLE_COUNT_OPTIONS =
    {"prefill", "decode", "training", "trPrefill", "trDecode", "trTraining"};
} // namespace

SweepCommandLine::SweepCommandLine(const SweepConfig& defaults)
    : m_defaults(defaults),
      m_study(ScenarioDefaults{defaults.base.nodes, defaults.base.flows, defaults.seedPlan.seeds},
              ScenarioOptions::STUDY | ScenarioOptions::SWEPT_TEMPLATES)
{
    auto join = [](const auto& values) {
        std::ostringstream os;
        for (std::size_t i = 0; i < values.size(); ++i)
        {
            os << (i ? "," : "") << values[i];
        }
        return os.str();
    };
    m_nodes = join(defaults.nodes);
    m_degrees = join(defaults.degrees);
    m_reservedPorts = defaults.reservedPorts.empty() ? "all" : join(defaults.reservedPorts);
    std::vector<std::string> shares;
    for (double rho : defaults.kvShares)
    {
        shares.push_back(Sweep::FormatShare(rho));
    }
    m_kvShares = join(shares);
    std::vector<std::string> constructions;
    for (TemplateConstruction c : defaults.constructions)
    {
        constructions.push_back(ToString(c));
    }
    m_constructions = join(constructions);
}

void
SweepCommandLine::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    m_study.AddOptions(cmd);
    AddTextOption(cmd,
                  "sweepNodes",
                  "values of N: comma list of numbers or ranges a:b, a:b:step",
                  m_nodes);
    AddTextOption(cmd, "sweepDegrees", "values of d (list or ranges, each d >= 3)", m_degrees);
    AddTextOption(cmd,
                  "sweepR",
                  "values of r of H^PD: \"all\" (0..d for each d) or a list/ranges",
                  m_reservedPorts);
    AddTextOption(cmd,
                  "sweepKvShare",
                  "inference-heavy KV shares in (0, 1]: list, or ranges a:b:step",
                  m_kvShares);
    AddTextOption(cmd,
                  "sweepConstruction",
                  "MoSE's template constructions: fresh, rewiring-aware (comma list)",
                  m_constructions);
}

SweepConfig
SweepCommandLine::GetConfig() const
{
    NS_LOG_FUNCTION(this);
    SweepConfig c = m_defaults;
    c.nodes = ParseSweepUnsignedList("--sweepNodes", m_nodes);
    c.degrees = ParseSweepUnsignedList("--sweepDegrees", m_degrees);
    c.reservedPorts = ParseSweepReservedPorts("--sweepR", m_reservedPorts);
    c.kvShares = ParseSweepRealList("--sweepKvShare", m_kvShares);
    c.constructions = ParseSweepConstructions("--sweepConstruction", m_constructions);
    c.base = m_study.GetConfig();
    c.seedPlan = m_study.GetSeedPlan();
    // the study's single-point options that the axes replace
    for (const auto& [option, axis] :
         {std::make_pair("degree", "d from --sweepDegrees"),
          std::make_pair("pdReservedPorts", "r from --sweepR"),
          std::make_pair("construction", "the construction from --sweepConstruction"),
          std::make_pair("kvShareInference", "the inference-heavy KV share from --sweepKvShare")})
    {
        if (m_study.IsGiven(option))
        {
            ThrowBadParameter(std::string("--") + option,
                              m_study.Describe(option),
                              std::string("a sweep takes ") + axis);
        }
    }
    // role counts given are those of N = --nodes; a sweep without that N would not use them
    for (const char* option : ROLE_COUNT_OPTIONS)
    {
        if (m_study.IsGiven(option) &&
            std::find(c.nodes.begin(), c.nodes.end(), c.base.nodes) == c.nodes.end())
        {
            ThrowBadParameter(std::string("--") + option,
                              m_study.Describe(option),
                              "role counts given apply to the point N = --nodes = " +
                                  std::to_string(c.base.nodes) +
                                  ", which --sweepNodes does not list (every other N uses the "
                                  "paper's shares)");
        }
    }
    c.Validate();
    return c;
}

uint32_t
SweepCommandLine::GetPlaces() const
{
    for (const char* option : ROLE_COUNT_OPTIONS)
    {
        if (m_study.IsGiven(option))
        {
            return IN_ROLE_COUNTS;
        }
    }
    return IN_PAPER_ROLES;
}

std::string
SweepCommandLine::DescribeThreads() const
{
    return m_study.IsGiven("threads") ? m_study.Describe("threads") : std::string();
}

} // namespace mose
} // namespace ns3
