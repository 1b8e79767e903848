/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_EXPERIMENT_HELPER_H
#define MOSE_FLOW_EXPERIMENT_HELPER_H

#include "mose-seed-list.h"
#include "mose-seed-pool.h"
#include "mose-study-statistics.h"

#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-scenario.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The circuits of one switch into a mode: what the OCS keeps and what it re-pairs.
 */
struct SwitchCount
{
    uint64_t kept{0};    //!< circuits in place before and after
    uint64_t added{0};   //!< circuits set up (as many as torn down in a d-regular fabric)
    uint64_t removed{0}; //!< circuits torn down
    /// the share of the entered graph's total circuit load (its mode's flows) on the circuits
    /// the switch set up (LoadShareOfCircuits()): the traffic not served while they are dark;
    /// 0 without a switch
    double addedLoadShare{0};
};

/**
 * \ingroup mose-study
 * \brief Means over seeds of a policy's switches into a mode.
 */
struct SwitchSummary
{
    Summary kept;  //!< circuits kept
    Summary added; //!< circuits set up (changed)
};

/**
 * \ingroup mose-study
 * \brief Runs the paper's flow-level study: policies x modes x seeds.
 *
 * For each seed it draws a Scenario (ScenarioBuilder), evaluates each distinct circuit
 * graph of a mode once (Scenario::GetGraph()) and files the result under every policy that
 * uses it in that mode, with the circuits each policy's switch into the mode keeps and changes
 * (DiffCircuits() of Scenario::GetPreviousGraph() and GetGraph()). It keeps every seed's
 * scalar metrics and the first seed's per-circuit loads and hop histograms; StudyReport
 * prints and writes them.
 */
class FlowExperimentHelper
{
  public:
    /**
     * \param config the study's scenario; validated here, and the role and assignment files
     *        it names are read and checked here (Error)
     * \param plan how many seeds (runs config.firstRun + k) and on how many threads; validated
     *        here (Error)
     */
    FlowExperimentHelper(const FlowExperimentConfig& config, const SeedPlan& plan);

    /**
     * \return the memory the study keeps per seed, whatever its scale, for the limit on
     *         --seeds: its run record (about 320 figures, RunRecord) and its figures of every
     *         mode and policy (FlowMetrics, SwitchCount). Measured: the peak memory of
     *         mose-paper --flows=500 grows by 48.4 kB a seed at N = 64 (2,000 to 8,000 seeds) and
     *         by 53.5 kB at N = 1024 (--flows=2000, 200 to 800 seeds).
     */
    static constexpr uint64_t GetSeedBytes()
    {
        return 48000;
    }

    /// \return the scenario's configuration
    const FlowExperimentConfig& GetConfig() const;

    /// \return the seeds and threads
    const SeedPlan& GetSeedPlan() const;

    /// \return the builder of the study's scenarios
    const ScenarioBuilder& GetScenarioBuilder() const;

    /**
     * \brief Draws one seed's roles, assignments, templates and flows
     *        (ScenarioBuilder::Build()).
     * \param run the ns-3 run number
     * \return the scenario
     */
    Scenario BuildScenario(uint64_t run) const;

    /**
     * \brief Evaluates every seed, on the plan's worker threads.
     * \param progress called after each seed with (seeds done, seeds in all), may be empty;
     *        calls are serialised but may come from any worker thread
     */
    void Run(const std::function<void(uint32_t, uint32_t)>& progress = {});

    /**
     * \brief Evaluates the seeds as a list of runs (SeedList): --jobs seeds at once on worker
     *        threads, a part of them, or a merge of parts; each seed's figures go to its record,
     *        and the study is put together from the records, so that it is the one Run() gives.
     * \param options how (the plan's threads are not used: options.jobs are the workers)
     * \param program the program, in the runs' texts ("mose-paper")
     * \param os the stream of the runner's lines
     * \return whether the study is whole (false after a part: no seed is evaluated then)
     */
    bool Run(const RunListOptions& options, const std::string& program, std::ostream& os);

    /// \return the number of seeds evaluated (0 before Run())
    uint32_t GetSeedsDone() const;

    /**
     * \param seed seed index, 0 <= seed < seeds
     * \param mode the workload mode
     * \param policy the policy
     * \return the metrics of that evaluation (per-circuit vectors kept for seed 0 only)
     */
    const FlowMetrics& GetMetrics(uint32_t seed, WorkloadMode mode, Policy policy) const;

    /**
     * \param mode the workload mode
     * \param policy the policy
     * \param metric the metric
     * \return its mean and 95% confidence half-width over seeds
     */
    Summary Summarize(WorkloadMode mode, Policy policy, Metric metric) const;

    /**
     * \param seed seed index, 0 <= seed < seeds
     * \param mode the workload mode entered
     * \param policy the policy
     * \return the circuits of the policy's switch into the mode (none changed if static)
     */
    const SwitchCount& GetSwitchCount(uint32_t seed, WorkloadMode mode, Policy policy) const;

    /**
     * \param mode the workload mode entered
     * \param policy the policy
     * \return the circuits kept and changed by its switch into the mode, means over seeds
     */
    SwitchSummary SummarizeSwitch(WorkloadMode mode, Policy policy) const;

    /**
     * \brief Relative reduction 1 - mean(policy) / mean(baseline) of a metric, in percent.
     * \param mode the workload mode
     * \param policy the policy
     * \param baseline the baseline policy
     * \param metric the metric
     * \return the reduction in percent
     */
    double Reduction(WorkloadMode mode, Policy policy, Policy baseline, Metric metric) const;

  private:
    /**
     * \brief Evaluates one seed's scenario and files the results under every policy.
     * \param seed the seed index
     * \param s its scenario (its routingSeed seeds the random tie-break's hash)
     */
    void EvaluateScenario(uint32_t seed, const Scenario& s);

    /// \return index into m_results
    std::size_t Index(uint32_t seed, WorkloadMode mode, Policy policy) const;

    /// \brief Makes room for every seed's results, none evaluated
    void Allocate();

    /// \brief Puts a seed's results into its record \param seed the seed
    /// \param record its record \param store its store (the per-circuit loads' files)
    void PutSeed(uint32_t seed, RunRecord& record, const RunRecordStore& store) const;

    /// \brief Takes a seed's results from its record \param seed the seed \param record it
    void GetSeed(uint32_t seed, const RunRecord& record);

    /// \brief Logs every seed's MaxLoad per mode and policy
    void LogSeeds() const;

    ScenarioBuilder m_builder;           //!< parameters and scenarios
    SeedPlan m_plan;                     //!< seeds and threads
    std::vector<FlowMetrics> m_results;  //!< per (seed, mode, policy)
    std::vector<SwitchCount> m_switches; //!< per (seed, mode, policy)
    uint32_t m_seedsDone{0};             //!< seeds evaluated
};

/// The largest number of groups: node ids are 32-bit and one value is kept for "none"
constexpr uint32_t MAX_GROUPS = UINT32_MAX - 1;

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_EXPERIMENT_HELPER_H */
