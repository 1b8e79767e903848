/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_REFERENCE_FIGURES_H
#define MOSE_REFERENCE_FIGURES_H

#include "mose-flow-experiment-helper.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief A figure a reference (a paper) reports for one mode, policy and metric, with the
 *        tolerance a reproduction targets.
 */
struct ReferenceFigure
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< policy
    Metric metric;     //!< metric
    double value;      //!< the reference's value
    double tolerance;  //!< allowed deviation: relative (0.15 = 15%) or absolute (for shares)
    bool relative;     //!< whether tolerance is relative
};

/**
 * \ingroup mose-study
 * \brief A reduction (percent) a reference reports: a policy against a baseline.
 */
struct ReferenceReduction
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< the policy that reduces
    Policy baseline;   //!< the baseline
    Metric metric;     //!< metric
    double percent;    //!< the reference's reduction
};

/**
 * \ingroup mose-study
 * \brief The figures and reductions of a reference, set next to a study's (mose-paper puts the
 *        MoSE paper's Table I and headline reductions here; the values are the program's, the
 *        comparison is this class's).
 */
struct ReferenceFigures
{
    std::vector<ReferenceFigure> figures;       //!< the figures
    std::vector<ReferenceReduction> reductions; //!< the reductions
    double reductionTolerance{3.0}; //!< a reduction's target: within this many percentage points
    std::string name{"paper"};      //!< the reference's name, for the table ("paper")

    /**
     * \return the MoSE paper's figures: Table I's MaxLoad and P95 load of S-Train, S-Inf and
     *         MoSE (relative tolerance 15% and 10%), section IV's shares of direct and 3+-hop KV
     *         flows (absolute tolerance 0.05), and the abstract's headline cost reductions
     *         (target: within 3 percentage points), as mose-paper compares them
     */
    static ReferenceFigures Paper();

    /**
     * \brief Prints a table "Headline figures next to the NAME's": per figure and reduction
     *        the study's value, the reference's, the target and whether the study is within it.
     * \param study the study, after Run()
     * \param os the stream
     */
    void Print(const FlowExperimentHelper& study, std::ostream& os) const;

    /**
     * \brief Writes the same as a CSV file (mode,policy,baseline,metric,ours,NAME,kind),
     *        GetCsvFileName() in a folder, with StudyReport::WriteOutput().
     * \param study the study, after Run()
     * \param dir the folder (it exists)
     */
    void WriteCsv(const FlowExperimentHelper& study, const std::string& dir) const;

    /**
     * \return the file WriteCsv() writes in its folder, headline.csv, so that a program
     *         declares it before its study runs (Program::AddOutputFiles())
     */
    static std::string GetCsvFileName();
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_REFERENCE_FIGURES_H */
