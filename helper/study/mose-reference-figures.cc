/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-reference-figures.h"

#include "mose-study-report.h"

#include "ns3/log.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseReferenceFigures");

void
MoseReferenceFigures::Print(const MoseFlowExperimentHelper& study, std::ostream& os) const
{
    NS_LOG_FUNCTION(figures.size() << reductions.size());
    const std::ios_base::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "\nHeadline figures next to the " << name << "'s\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "metric" << std::setw(12) << "ours" << std::setw(12) << name << std::setw(14) << "target"
       << "within\n";
    for (const MoseReferenceFigure& f : figures)
    {
        const double ours = study.Summarize(f.mode, f.policy, f.metric).mean;
        const bool within = f.relative ? std::abs(ours - f.value) <= f.tolerance * f.value
                                       : std::abs(ours - f.value) <= f.tolerance;
        std::ostringstream target;
        target << "+-";
        if (f.relative)
        {
            target << static_cast<int>(f.tolerance * 100) << "%";
        }
        else
        {
            target << f.tolerance;
        }
        os << std::left << std::setw(17) << ToString(f.mode) << std::setw(8) << ToString(f.policy)
           << std::setw(22) << ToString(f.metric) << std::setw(12) << std::fixed
           << std::setprecision(3) << ours << std::setw(12) << f.value << std::setw(14)
           << target.str() << (within ? "yes" : "no") << "\n";
    }
    for (const MoseReferenceReduction& r : reductions)
    {
        const double ours = study.Reduction(r.mode, r.policy, r.baseline, r.metric);
        const bool within = std::abs(ours - r.percent) <= reductionTolerance;
        const std::string label = ToString(r.policy) + " vs " + ToString(r.baseline);
        std::ostringstream target;
        target << "+-" << reductionTolerance << " pp";
        os << std::left << std::setw(17) << ToString(r.mode) << std::setw(16) << label
           << std::setw(18) << (ToString(r.metric) + " cut %") << std::setw(12) << std::fixed
           << std::setprecision(1) << ours << std::setw(12) << r.percent << std::setw(14)
           << target.str() << (within ? "yes" : "no") << "\n";
    }
    os.flags(flags);
    os.precision(precision);
}

void
MoseReferenceFigures::WriteCsv(const MoseFlowExperimentHelper& study, const std::string& path) const
{
    NS_LOG_FUNCTION(path);
    MoseStudyReport::WriteOutput(path, [&](std::ostream& out) {
        out << "mode,policy,baseline,metric,ours," << name << ",kind\n";
        for (const MoseReferenceFigure& f : figures)
        {
            out << ToString(f.mode) << "," << ToString(f.policy) << ",," << ToString(f.metric)
                << "," << study.Summarize(f.mode, f.policy, f.metric).mean << "," << f.value
                << ",value\n";
        }
        for (const MoseReferenceReduction& r : reductions)
        {
            out << ToString(r.mode) << "," << ToString(r.policy) << "," << ToString(r.baseline)
                << "," << ToString(r.metric) << ","
                << study.Reduction(r.mode, r.policy, r.baseline, r.metric) << "," << r.percent
                << ",reduction_percent\n";
        }
    });
}

} // namespace mose
} // namespace ns3
