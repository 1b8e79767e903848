/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-template-report.h"

#include "ns3/log.h"
#include "ns3/mose-graph-properties.h"

#include <iomanip>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseTemplateReport");

bool
PrintTemplateTable(const Scenario& s,
                   const FlowExperimentConfig& config,
                   uint32_t distanceSources,
                   const std::function<void(TemplateId, uint32_t, uint32_t)>& progress,
                   std::ostream& os)
{
    NS_LOG_FUNCTION(s.run << distanceSources);
    const std::ios_base::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "Templates of run " << s.run << ": N=" << config.nodes << " d=" << config.degree
       << ", H^PD r=" << config.pdReservedPorts << ", H^C r=" << config.compromiseReservedPorts
       << ", completion=" << ToString(config.completion)
       << ", assignment=" << ToString(config.assignment) << "\n";
    const bool sampled = distanceSources != 0 && distanceSources < config.nodes;
    if (sampled)
    {
        os << "AvgHop and diameter from " << distanceSources << " of " << config.nodes
           << " sources, spread evenly (the diameter is a lower bound); "
              "--distanceSources=0 for all pairs\n";
    }
    os << std::flush;
    os << std::left << std::setw(12) << "template" << std::setw(10) << "circuits" << std::setw(9)
       << "degree" << std::setw(8) << "simple" << std::setw(11) << "connected" << std::setw(12)
       << "P-D/group" << std::setw(12) << "P-D total" << std::setw(12) << "pairs made"
       << std::setw(10) << "AvgHop"
       << "diameter\n";
    for (TemplateId id : ALL_TEMPLATES)
    {
        const CircuitGraph& g = s.templates[static_cast<std::size_t>(id)];
        auto report = [&](uint32_t done, uint32_t total) {
            if (progress)
            {
                progress(id, done, total);
            }
        };
        TemplateProperties p =
            MeasureTemplate(g, s.roles[0], s.assignment[0], distanceSources, report);
        std::ostringstream degree;
        degree << p.minDegree << ".." << p.maxDegree;
        std::ostringstream pd;
        pd << p.minPdCircuits << ".." << p.maxPdCircuits;
        os << std::left << std::setw(12) << ToString(id) << std::setw(10) << p.circuits
           << std::setw(9) << degree.str() << std::setw(8) << (p.simple ? "yes" : "no")
           << std::setw(11) << (p.connected ? "yes" : "no") << std::setw(12) << pd.str()
           << std::setw(12) << p.pdCircuits << std::setw(12) << std::fixed << std::setprecision(3)
           << p.assignmentRealised << std::setw(10) << p.distances.averageHops
           << p.distances.diameter << "\n"
           << std::flush;
    }
    os.flags(flags);
    os.precision(precision);
    return sampled;
}

} // namespace mose
} // namespace ns3
