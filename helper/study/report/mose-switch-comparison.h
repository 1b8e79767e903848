/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COMPARISON_H
#define MOSE_SWITCH_COMPARISON_H

#include "mose-switch-experiment.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Compares the same switching run under several policies and answers "is switching
 *        worth it?": MoSE, which pays its switches, against the best static policy, which pays
 *        none but keeps a stale template in the other mode.
 *
 * The criterion is the mean FCT over every transfer of every interval (both classes); the
 * verdict (DescribeSwitchVerdict()) also gives each class's mean FCT, the makespan and MoSE's
 * switch cost. The best static policy is the static one with the lowest mean FCT. The
 * comparison holds the runs' summaries; its report is the free functions below.
 */
class SwitchComparison
{
  public:
    /// \param summary one policy's run
    void Add(const SwitchRunSummary& summary);
    /// \return the runs added, in order
    const std::vector<SwitchRunSummary>& GetSummaries() const;
    /// \return the best static policy's run, or null if none was added
    const SwitchRunSummary* GetBestStatic() const;
    /// \return the switching policy's run (mose::IsSwitching()), or null if it was not added
    const SwitchRunSummary* GetMose() const;
    /// \param workload what the runs added share: SwitchResult::GetWorkloadText() of one
    ///        of them; the verdict names it
    void SetWorkload(const std::string& workload);
    /// \return what SetWorkload() gave, or empty
    const std::string& GetWorkload() const;

    /**
     * \return MoSE's margin on the mean FCT, (MoSE - best static) / best static (negative:
     *         switching is better); empty without MoSE or a static policy, or when the best
     *         static policy's mean FCT is 0
     */
    std::optional<double> GetMargin() const;

  private:
    std::vector<SwitchRunSummary> m_runs; //!< the runs
    std::string m_workload;               //!< what the runs share (SetWorkload()), or empty
};

/**
 * \ingroup mose-study
 * \param comparison the comparison
 * \return the verdict line ("verdict: switching pays off: ..." or "verdict: switching does
 *         not pay off: ..."), followed, when the comparison names its workload, by the line
 *         "the verdict holds for this workload only: ...", or an explanation if MoSE or every
 *         static policy is missing
 */
std::string DescribeSwitchVerdict(const SwitchComparison& comparison);

/**
 * \ingroup mose-study
 * \brief Prints the table (one row per policy), the mean FCT and flow-level MaxLoad per
 *        interval and policy, and the verdict (DescribeSwitchVerdict()).
 * \param os the stream \param comparison the comparison
 */
void PrintSwitchComparison(std::ostream& os, const SwitchComparison& comparison);

/**
 * \ingroup mose-study
 * \brief Writes the table as CSV, without wall-clock times (so that two runs with the same
 *        RngRun write the same file; wallSeconds is for standard output).
 * \param comparison the comparison \param path the file
 */
void WriteSwitchComparisonCsv(const SwitchComparison& comparison, const std::string& path);

/**
 * \ingroup mose-study
 * \brief The verdict over seeds with a 95% confidence interval (mose-mode-switch --seeds):
 *        the samples are the seeds' margins (SwitchComparison::GetMargin(), each seed against
 *        its own best static policy), their mean and Student's t interval
 *        (ComputeMeanInterval()) decide with DecideMargin(): "pays" only when the whole
 *        interval lies below -tolerance, "does-not-pay" above +tolerance, "tie" inside the
 *        band, "undecided" otherwise and with one seed (no interval), "none" without a margin.
 * \param seeds one comparison per seed, seed k on the run firstRun + k
 * \param firstRun the first seed's run
 * \param tolerance the tie band's half-width (finite, >= 0; mose::Error otherwise)
 * \return the line "verdict with 95% confidence over S seeds (...): WORD: ..."
 */
std::string DescribeSeedsVerdict(const std::vector<SwitchComparison>& seeds,
                                 uint64_t firstRun,
                                 double tolerance);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COMPARISON_H */
