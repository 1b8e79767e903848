/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COST_H
#define MOSE_SWITCH_COST_H

#include "mose-flow-experiment-helper.h"
#include "mose-seed-pool.h"
#include "mose-study-statistics.h"

#include "ns3/mose-break-even.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-policy.h"

#include <array>
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
 * \brief The circuits of one switch: DiffCircuits(GetPreviousGraph(p, m), GetGraph(p, m)).
 */
struct SwitchCircuits
{
    uint32_t circuits{0}; //!< circuits of the graph entered
    uint32_t kept{0};     //!< of them, kept lit across the switch
    uint32_t added{0};    //!< of them, set up by the switch (dark during it): circuits - kept
    uint32_t removed{0};  //!< circuits of the graph left that the switch tears down
};

/**
 * \ingroup mose-study
 * \brief What one seed gives the break-even model, per policy (ALL_POLICIES order) and mode
 *        entered (ALL_MODES order).
 */
struct SwitchCostSeed
{
    uint64_t run{0};                                           //!< the ns-3 run
    std::array<PolicyCostRates, ALL_POLICIES.size()> policies; //!< the model's inputs per policy
    /// per policy and mode entered
    std::array<std::array<SwitchCircuits, ALL_MODES.size()>, ALL_POLICIES.size()> circuits;
};

/**
 * \ingroup mose-study
 * \brief A break-even point over seeds.
 */
struct BreakEvenSummary
{
    BreakEven ofMeans;  //!< from the mean cycle costs: where the mean cost curves cross
    Summary perSeed;    //!< mean and 95% CI of T* over the seeds whose outcome is AT
    uint32_t always{0}; //!< seeds where the switching policy pays for every T
    uint32_t never{0};  //!< seeds where it never pays
};

/**
 * \ingroup mose-study
 * \brief Fills the break-even model (mose-break-even.h) from the flow-level study.
 *
 * Run() runs the study (FlowExperimentHelper: every policy and mode, per seed) and takes
 * from it, per seed, policy and mode m, the cost rate c(p, m) (its metrics) and the switch into
 * m (FlowExperimentHelper::GetSwitchCount(): DiffCircuits() of
 * Scenario::GetPreviousGraph(p, m) and GetGraph(p, m), and the share of the entered graph's
 * total circuit load on the added circuits, LoadShareOfCircuits(), computed by the study while
 * the loads are at hand). A policy switches into m when the two graphs differ; the unserved
 * share u(p, m) is then that load share. The graphs are taken only through those two
 * accessors, so a policy whose templates keep more circuits across a switch is costed as it is.
 *
 * Means over seeds with 95% confidence half-widths as FlowExperimentHelper::Summarize().
 */
class SwitchCostStudy
{
  public:
    /**
     * \param config the study's scenario (validated here: Error)
     * \param plan its seeds and threads (validated here: Error)
     * \param metric the metric charged as cost rate
     */
    SwitchCostStudy(const FlowExperimentConfig& config,
                    const SeedPlan& plan,
                    Metric metric = Metric::AVG_COST);

    /// \return the scenario's configuration
    const FlowExperimentConfig& GetConfig() const;

    /// \return the metric charged as cost rate
    Metric GetMetric() const;

    /**
     * \brief Runs the study on the plan's threads and reads every seed's inputs out of it.
     * \param progress called after each seed with (seeds done, seeds); may be empty
     */
    void Run(const std::function<void(uint32_t, uint32_t)>& progress = {});

    /**
     * \brief Runs the study's seeds as a list of runs (FlowExperimentHelper's list: --jobs,
     *        --part, --merge) and, once every seed has its record, reads every seed's inputs
     *        out of it, as Run() does.
     * \param options how \param program the program, in the runs' texts
     * \param os the stream of the runner's lines
     * \return whether the study is whole (false after a part: nothing analysed)
     */
    bool Run(const RunListOptions& options, const std::string& program, std::ostream& os);

    /// \return the study (after Run(), with every seed evaluated)
    const FlowExperimentHelper& GetStudy() const;

    /// \return the number of seeds analysed (0 before Run())
    uint32_t GetSeedsDone() const;

    /**
     * \param seed seed index < GetSeedsDone() (Error otherwise)
     * \return the seed's inputs to the model
     */
    const SwitchCostSeed& GetSeed(uint32_t seed) const;

    /**
     * \param policy the policy \param mode the mode
     * \return c(policy, mode) over seeds
     */
    Summary SummarizeRate(Policy policy, WorkloadMode mode) const;

    /**
     * \param policy the policy \param mode the mode entered
     * \param params if not null, the share the penalty uses: params->unservedShare when set
     *        (for a seed where the policy switches), else the computed one
     * \return u(policy, mode) over seeds (0 for a seed where the policy does not switch)
     */
    Summary SummarizeUnservedShare(Policy policy,
                                   WorkloadMode mode,
                                   const SwitchCostParameters* params = nullptr) const;

    /**
     * \param policy the policy \param mode the mode entered
     * \param kept true: circuits kept; false: circuits added (changed)
     * \return the count over seeds
     */
    Summary SummarizeCircuits(Policy policy, WorkloadMode mode, bool kept) const;

    /**
     * \param policy the policy \param mode the mode entered \param params the parameters
     * \return SwitchPenalty() over seeds
     */
    Summary SummarizePenalty(Policy policy,
                             WorkloadMode mode,
                             const SwitchCostParameters& params) const;

    /**
     * \brief A policy's cost integrated over a schedule, over seeds.
     * \param policy the policy
     * \param schedule the periods (validated)
     * \param params the parameters (validated)
     * \param[out] perUnitTime if not null, the integrated cost per second over seeds
     * \param[out] switches if not null, the switches (the same in every seed unless a seed's
     *             graphs coincide; the mean is given)
     * \return the total integrated cost over seeds
     */
    Summary SummarizeSchedule(Policy policy,
                              const ModeSchedule& schedule,
                              const SwitchCostParameters& params,
                              Summary* perUnitTime = nullptr,
                              Summary* switches = nullptr) const;

    /**
     * \param policy the policy \param params the parameters
     * \return the mean over seeds of its alternating-schedule CycleCost
     */
    CycleCost MeanCycleCost(Policy policy, const SwitchCostParameters& params) const;

    /**
     * \param switching the switching policy (MoSE) \param other the policy it is set against
     * \param params the parameters
     * \return the break-even mode duration of the means and over seeds
     */
    BreakEvenSummary SummarizeBreakEven(Policy switching,
                                        Policy other,
                                        const SwitchCostParameters& params) const;

  private:
    /**
     * \brief One seed's inputs to the model, read from the study: rates, switch counts and
     *        unserved shares (SwitchCount::addedLoadShare).
     * \param seed the seed index
     * \return its inputs to the model
     */
    SwitchCostSeed AnalyseSeed(uint32_t seed) const;

    /// \brief AnalyseSeed() for every seed the study evaluated, into m_seeds
    void AnalyseSeeds();

    /// \return a summary of f(seed) over the seeds \param f the per-seed quantity
    Summary Summarize(const std::function<double(const SwitchCostSeed&)>& f) const;

    FlowExperimentHelper m_study;        //!< the flow-level study
    Metric m_metric;                     //!< the cost-rate metric
    std::vector<SwitchCostSeed> m_seeds; //!< per seed
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COST_H */
