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
ReferenceFigures::Print(const FlowExperimentHelper& study, std::ostream& os) const
{
    NS_LOG_FUNCTION(figures.size() << reductions.size());
    const std::ios_base::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << "\nHeadline figures next to the " << name << "'s\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "metric" << std::setw(12) << "ours" << std::setw(12) << name << std::setw(14) << "target"
       << "within\n";
    for (const ReferenceFigure& f : figures)
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
    for (const ReferenceReduction& r : reductions)
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
ReferenceFigures::WriteCsv(const FlowExperimentHelper& study, const std::string& dir) const
{
    NS_LOG_FUNCTION(dir);
    StudyReport::WriteOutput(dir + "/" + GetCsvFileName(), [&](std::ostream& out) {
        out << "mode,policy,baseline,metric,ours," << name << ",kind\n";
        for (const ReferenceFigure& f : figures)
        {
            out << ToString(f.mode) << "," << ToString(f.policy) << ",," << ToString(f.metric)
                << "," << study.Summarize(f.mode, f.policy, f.metric).mean << "," << f.value
                << ",value\n";
        }
        for (const ReferenceReduction& r : reductions)
        {
            out << ToString(r.mode) << "," << ToString(r.policy) << "," << ToString(r.baseline)
                << "," << ToString(r.metric) << ","
                << study.Reduction(r.mode, r.policy, r.baseline, r.metric) << "," << r.percent
                << ",reduction_percent\n";
        }
    });
}

std::string
ReferenceFigures::GetCsvFileName()
{
    return "headline.csv";
}

ReferenceFigures
ReferenceFigures::Paper()
{
    using W = WorkloadMode;
    using P = Policy;
    using M = Metric;
    // Table I and the text of section IV (shares: absolute tolerance 0.05), and the abstract's
    // headline reductions (target: within 3 percentage points)
    return ReferenceFigures{
        {
            {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1041.95, 0.15, true},
            {W::INFERENCE_HEAVY, P::MOSE, M::MAX_LOAD, 529.35, 0.15, true},
            {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::P95_LOAD, 596.04, 0.10, true},
            {W::INFERENCE_HEAVY, P::MOSE, M::P95_LOAD, 287.80, 0.10, true},
            {W::TRAINING_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1157.75, 0.15, true},
            {W::TRAINING_HEAVY, P::STATIC_INFERENCE, M::MAX_LOAD, 1885.60, 0.15, true},
            {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::DIRECT_KV, 0.004, 0.05, false},
            {W::INFERENCE_HEAVY, P::MOSE, M::DIRECT_KV, 1.000, 0.05, false},
            {W::INFERENCE_HEAVY, P::STATIC_COMPROMISE, M::DIRECT_KV, 0.626, 0.05, false},
            {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::KV_THREE_PLUS, 0.983, 0.05, false},
            {W::INFERENCE_HEAVY, P::MOSE, M::KV_THREE_PLUS, 0.000, 0.05, false},
        },
        {
            {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_AVG_COST, 90.8},
            {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_P95_COST, 91.9},
            {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_AVG_COST, 22.7},
            {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_P95_COST, 27.6},
        },
        3.0,
        "paper"};
}

} // namespace mose
} // namespace ns3
