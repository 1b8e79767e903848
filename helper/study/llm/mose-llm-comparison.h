/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_COMPARISON_H
#define MOSE_LLM_COMPARISON_H

#include "mose-llm-experiment.h"
#include "mose-policy-comparison.h"
#include "mose-run-list-runner.h"

#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-policy.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \param s a run's statistics
 * \return why some requests were not served: "MoSE: 40 of 40 requests not served when the run
 *         stopped at 30 s: 40 had their KV bytes delivered, but the completion notice
 *         (--noticeDelay = 40 s after the last byte) was due after the stop" (LlmComparison
 *         prints it under the policy's row when served < requests)
 */
std::string UnservedText(const LlmSummary& s);

/**
 * \ingroup mose-study
 * \param s a fluid-level run's statistics
 * \return "fluid: 9876 transfers (1234/s), 5432 rate computations (678/s), 20000 events
 *         (2500/s) in 8.000 s": the fluid level's work and speed
 */
std::string FluidRunText(const LlmSummary& s);

/**
 * \ingroup mose-study
 * \brief The measured error of a fluid-level run with a rate epoch (--rateEpoch), an
 *        approximation, against the same run with exact rates.
 * \param approximate the run with the epoch \param exact the run with exact rates (epoch 0)
 * \param epoch the epoch
 * \return "MoSE with rate epoch 1 ms (--rateEpoch) against exact rates: served 40/40 (exact
 *         40/40), kv_mean 486.000 ms (exact 8.000 ms, +5975.0%), ttft_mean ..., iterations 3
 *         (exact 60), iter_mean ... ms (exact ... ms, ...), wall 0.100 s (exact 0.500 s)"
 *         (LlmComparison prints it under the policy's row)
 */
std::string RateEpochErrorText(const LlmSummary& approximate, const LlmSummary& exact, Time epoch);

/**
 * \ingroup mose-study
 * \brief One LLM experiment under several policies on the same requests and run (what
 *        `mose-llm --map=false` does): runs an LLM run (BuildLlmRun()) per policy, in order, prints
 * a row per policy as it finishes (KV transfer time and TTFT: mean, P50, P99; iteration and
 *        collective time: mean, P99; requests served, iterations, packets lost, wall time and
 *        events per second), keeps MoSE's switch records and the rows of requests.csv,
 *        iterations.csv and intervals.csv (with a policy column first).
 *
 * Its runs (level x policy, levels outer) are a list of independent runs too (Run() with
 * RunListOptions: --jobs, --runs, --part, --merge, --resume). A run's record carries its
 * summary and lists the files it wrote next to it with their SHA-256 (its rows of
 * requests.csv, iterations.csv, intervals.csv and of the KV export, each with its header
 * line; its switch records): the comparison's files are put together from them, the same
 * for every --jobs and from merged parts as from Run(os) in one process.
 * At a fluid level with a rate epoch (LlmWorkloadConfig::fluidRateEpoch > 0, an
 * approximation), Run(os) also runs each policy with exact rates on the same requests and
 * scenario, and RateEpochErrorText() follows its row: the approximation carries its measured
 * error (mose-llm runs such a comparison in one process). The files and the table hold the run
 * with the epoch; GetExactSummaries() the exact runs.
 */
class LlmComparison
{
  public:
    /**
     * \param config the experiment (its policy is replaced by each of `policies`, its level by
     *        each of `levels`)
     * \param policies the policies, in order
     * \param levels the levels, in order (one or both; packet only: the tables and files have no
     *        level column, as before the fluid level existed; otherwise every row and file starts
     *        with the level, and with both levels the differences fluid vs packet follow)
     */
    LlmComparison(const ExperimentConfig& config,
                  const std::vector<mose::Policy>& policies,
                  const std::vector<LlmLevel>& levels = {LlmLevel::PACKET});

    /**
     * \brief Runs the policies; once.
     * \param os where the table goes: its header, then a row per policy as it finishes
     * \param showProgress passed to InstallLlmWorkload()
     */
    void Run(std::ostream& os, bool showProgress = false);

    /// \return the runs of the list: levels x policies
    uint32_t GetTotal() const;
    /// \brief Prints the list as CSV: index,level,policy \param os the stream
    void WriteList(std::ostream& os) const;
    /**
     * \brief Runs the policies as a list of runs (RunListRunner: on --jobs workers, a share of
     *        the list, or merged from parts); once. Threads when every level is a fluid one,
     *        else a process per run (one Simulator per process).
     * \param options how \param os where the table goes (all its rows once the list is
     *        whole), and the lines of kept runs and a part's summary
     * \param showProgress passed to InstallLlmWorkload() (one worker only)
     * \return whether every run has its record (the files can be written); false after a part
     */
    bool Run(const RunListOptions& options, std::ostream& os, bool showProgress = false);

    /// \return one summary per level and policy, levels outer, in order (after Run())
    const std::vector<LlmSummary>& GetSummaries() const;
    /// \return the exact-rate runs beside the rate-epoch runs of Run(os), in the order of
    ///         GetSummaries()'s fluid-level runs (empty without a rate epoch)
    const std::vector<LlmSummary>& GetExactSummaries() const;
    /// \return MoSE's switch records (empty when MoSE did not run, or the runs' records were
    ///         kept: Run() with options carries their printed lines only)
    const std::vector<MoseSwitchRecord>& GetMoseSwitches() const;
    /// \brief Prints MoSE's switch records, if any \param os the stream
    void PrintSwitches(std::ostream& os) const;
    /**
     * \brief Writes requests.csv, iterations.csv and intervals.csv into a folder
     * \param outputDir the folder (it must exist)
     */
    void WriteCsv(const std::string& outputDir) const;
    /**
     * \brief Keeps the KV export (WriteLlmKvExport()) of every policy, in order;
     *        call before Run().
     * \param json JSON lines rather than CSV
     */
    void KeepKvExport(bool json);
    /**
     * \brief Writes the kept KV export (after Run(), with KeepKvExport()).
     * \param path the file, created or overwritten
     */
    void WriteKvExport(const std::string& path) const;

  private:
    /// one run's output: its summary and its pieces of the comparison's files
    struct RunOutput
    {
        LlmSummary summary;      //!< its figures
        std::string requests;    //!< its rows of requests.csv, after a header line
        std::string iterations;  //!< its rows of iterations.csv, after a header line
        std::string intervals;   //!< its rows of intervals.csv, after a header line
        std::string collectives; //!< its rows of collectives.csv (a training plan's only)
        std::string kv;          //!< its KV export (CSV: after a header line)
        std::string switches;    //!< its switch records, printed (MoSE only)
    };

    /// \param index a run \return its level
    LlmLevel GetLevel(uint32_t index) const;
    /// \return whether the training job runs a plan (--trainingTrace): collectives.csv is kept
    bool HasTrainingPlan() const;
    /// \param index a run \return its policy
    mose::Policy GetPolicy(uint32_t index) const;
    /// \param index a run \return it in words ("MoSE, packet level")
    std::string Describe(uint32_t index) const;
    /// \return whether the rows and files carry a level column (not packet alone)
    bool IsTagged() const;
    /// \return the level column's width
    int GetLevelWidth() const;
    /**
     * \brief A run's experiment, built
     * \param index the run \param comparison the level's policy comparison: the scenario its
     *        policies share (PolicyComparison::Share())
     * \param progress the progress lines (InstallLlmWorkload())
     * \return the run
     */
    LlmRun BuildRun(uint32_t index, PolicyComparison& comparison, bool progress) const;
    /// \param index the run \param run its experiment and result, run \return its output
    RunOutput Collect(uint32_t index, const LlmRun& run) const;
    /// \brief Prints a run's row of the table \param os the stream \param s its summary
    void PrintRow(std::ostream& os, const LlmSummary& s) const;
    /// \brief Puts the comparison together from its runs' outputs, in the list's order
    /// \param outputs every run's \param os the stream (the level differences)
    void Assemble(const std::vector<RunOutput>& outputs, std::ostream& os);

    /// \brief Prints fluid vs packet per policy (both levels ran) \param os the stream
    void PrintLevelDifferences(std::ostream& os) const;
    /**
     * \brief Prints switch records, a line each
     * \param os the stream \param records the records
     */
    static void PrintSwitchRecords(std::ostream& os, const std::vector<MoseSwitchRecord>& records);

    ExperimentConfig m_config;                //!< the experiment
    std::vector<mose::Policy> m_policies;     //!< the policies
    std::vector<LlmLevel> m_levels;           //!< the levels
    std::vector<LlmSummary> m_summaries;      //!< per policy
    std::vector<LlmSummary> m_exactSummaries; //!< exact rates beside a rate epoch (Run(os))
    std::vector<MoseSwitchRecord> m_switches; //!< MoSE's (the first level's)
    std::vector<std::pair<LlmLevel, std::string>> m_levelSwitches; //!< per level, printed
    std::string m_requestsCsv;                                     //!< requests.csv
    std::string m_iterationsCsv;                                   //!< iterations.csv
    std::string m_intervalsCsv;                                    //!< intervals.csv
    std::string m_collectivesCsv; //!< collectives.csv (a training plan's)
    bool m_keepKvExport{false};   //!< KeepKvExport() was called
    bool m_kvExportJson{false};   //!< the export as JSON lines
    std::string m_kvExport;       //!< the export
    bool m_ran{false};            //!< Run() ran
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_COMPARISON_H */
