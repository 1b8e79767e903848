/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COMPARISON_RUNS_H
#define MOSE_SWITCH_COMPARISON_RUNS_H

#include "mose-policy-comparison.h"
#include "mose-run-list-runner.h"
#include "mose-run-list.h"
#include "mose-switch-comparison.h"
#include "mose-switch-experiment.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief mose-mode-switch's comparison as a list of runs (RunListRunner, a process per run):
 *        one switching experiment per seed and policy, seed-major, on the seed's run
 *        (RngRun + seed) and scenario.
 *
 * Every run keeps its summary (PutSummary()); a run of seed 0 also keeps its CSV files
 * (SwitchExperimentReport::WriteCsv(), POLICY_*.csv), and the reported policy's run (the first
 * policy) its printed report, its workload's text, its goodput figure's script and, with
 * writeScenario, the scenario files. Run() puts the comparison together from the records: the
 * files, the report and the comparisons of every seed are the same for any --jobs, and for parts
 * merged, as for the runs one after the other in one process.
 */
class SwitchComparisonRuns
{
  public:
    /**
     * \param config the experiment; its policy is the reported one (the first of policies)
     * \param policies the policies, in order (at least one)
     * \param seeds the seeds (1 or more): seed k runs on config.run + k
     * \param writeScenario the reported policy's run writes the scenario files
     */
    SwitchComparisonRuns(const ExperimentConfig& config,
                         const std::vector<mose::Policy>& policies,
                         uint32_t seeds,
                         bool writeScenario);

    /// \return the runs in all (seeds times policies)
    uint32_t GetTotal() const;
    /// \brief Prints the list as CSV: index,seed,run,policy \param os the stream
    void WriteList(std::ostream& os) const;

    /// called with the reported policy's goodput figure: its base name ("goodput_MoSE") and
    /// its gnuplot script
    using Plot = std::function<void(const std::string& base, const std::string& script)>;

    /**
     * \brief Carries out what the options select (or merges); when every run has its record,
     *        writes seed 0's files into dir and prints its reports in the list's order, as the
     *        runs one after the other did.
     * \param options how \param dir the output folder \param os the reports' stream
     * \param plot called with the reported policy's figure (may be empty)
     * \return whether the comparison is whole (GetComparisons() then holds it)
     */
    bool Run(const RunListOptions& options,
             const std::string& dir,
             std::ostream& os,
             const Plot& plot);

    /// \return per seed, the comparison of its runs (seed 0's with its workload set)
    const std::vector<SwitchComparison>& GetComparisons() const;

    /**
     * \brief A run's summary as a record's figures ("summary." names).
     * \param summary the run's \param record the record to fill
     */
    static void PutSummary(const SwitchRunSummary& summary, RunRecord& record);
    /**
     * \param record a record of PutSummary()
     * \return the summary; mose::Error naming the record for a missing or unreadable figure
     */
    static SwitchRunSummary GetSummary(const RunRecord& record);

  private:
    /// \param index a run \return its configuration (its seed's run)
    ExperimentConfig GetRunConfig(uint32_t index) const;
    /**
     * \brief Run(): the task of run i: its experiment with the switching workload (the seed's
     *        scenario shared), and what it keeps (its summary; seed 0's files, report,
     *        workload text and figure script)
     * \param i the run \param store the run records \param comparisons per seed, its scenario
     * \return the task
     */
    std::unique_ptr<RunTask> MakeTask(uint32_t i,
                                      const RunRecordStore& store,
                                      std::vector<PolicyComparison>& comparisons);

    ExperimentConfig m_config;                   //!< the experiment
    std::vector<mose::Policy> m_policies;        //!< the policies
    uint32_t m_seeds;                            //!< the seeds
    bool m_writeScenario;                        //!< the reported run writes the scenario files
    std::vector<SwitchComparison> m_comparisons; //!< per seed
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COMPARISON_RUNS_H */
