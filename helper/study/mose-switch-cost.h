/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COST_H
#define MOSE_SWITCH_COST_H

#include "mose-flow-experiment-helper.h"
#include "mose-study-statistics.h"

#include "ns3/mose-break-even.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-policy.h"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief The circuits of one switch: DiffCircuits(GetPreviousGraph(p, m), GetGraph(p, m)).
 */
struct MoseSwitchCircuits
{
    uint32_t circuits{0}; //!< circuits of the graph entered
    uint32_t kept{0};     //!< of them, kept lit across the switch
    uint32_t added{0};    //!< of them, set up by the switch (dark during it): circuits - kept
    uint32_t removed{0};  //!< circuits of the graph left that the switch tears down
};

/**
 * \ingroup mose
 * \brief What one seed gives the break-even model, per policy (ALL_POLICIES order) and mode
 *        entered (ALL_MODES order).
 */
struct MoseSwitchCostSeed
{
    uint64_t run{0};                                           //!< the ns-3 run
    std::array<PolicyCostRates, 4> policies;                   //!< the model's inputs per policy
    std::array<std::array<MoseSwitchCircuits, 2>, 4> circuits; //!< per policy and mode entered
};

/**
 * \ingroup mose
 * \brief A break-even point over seeds.
 */
struct MoseBreakEvenSummary
{
    BreakEven ofMeans;   //!< from the mean cycle costs: where the mean cost curves cross
    MoseSummary perSeed; //!< mean and 95% CI of T* over the seeds whose outcome is AT
    uint32_t always{0};  //!< seeds where the switching policy pays for every T
    uint32_t never{0};   //!< seeds where it never pays
};

/**
 * \ingroup mose
 * \brief Fills the break-even model (mose-break-even.h) from the flow-level study.
 *
 * Run() runs the study (MoseFlowExperimentHelper: every policy and mode, per seed) and takes
 * from it, per seed, policy and mode m, the cost rate c(p, m) (its metrics) and the switch into
 * m (MoseFlowExperimentHelper::GetSwitchCount(): DiffCircuits() of
 * MoseScenario::GetPreviousGraph(p, m) and GetGraph(p, m), and the share of the entered graph's
 * total circuit load on the added circuits, LoadShareOfCircuits(), computed by the study while
 * the loads are at hand). A policy switches into m when the two graphs differ; the unserved
 * share u(p, m) is then that load share. The graphs are taken only through those two
 * accessors, so a policy whose templates keep more circuits across a switch is costed as it is.
 *
 * Means over seeds with 95% confidence half-widths as MoseFlowExperimentHelper::Summarize().
 */
class MoseSwitchCostStudy
{
  public:
    /**
     * \param config the study's parameters (validated here: MoseError)
     * \param metric the metric charged as cost rate
     */
    MoseSwitchCostStudy(const MoseFlowExperimentConfig& config, Metric metric = Metric::AVG_COST);

    /// \return the configuration
    const MoseFlowExperimentConfig& GetConfig() const;

    /// \return the metric charged as cost rate
    Metric GetMetric() const;

    /**
     * \brief Runs the study on config.threads threads and reads every seed's inputs out of it.
     * \param progress called after each seed with (seeds done, seeds); may be empty
     */
    void Run(const std::function<void(uint32_t, uint32_t)>& progress = {});

    /// \return the study (after Run(), with every seed evaluated)
    const MoseFlowExperimentHelper& GetStudy() const;

    /// \return the number of seeds analysed (0 before Run())
    uint32_t GetSeedsDone() const;

    /**
     * \param seed seed index < GetSeedsDone() (MoseError otherwise)
     * \return the seed's inputs to the model
     */
    const MoseSwitchCostSeed& GetSeed(uint32_t seed) const;

    /**
     * \param policy the policy \param mode the mode
     * \return c(policy, mode) over seeds
     */
    MoseSummary SummarizeRate(Policy policy, WorkloadMode mode) const;

    /**
     * \param policy the policy \param mode the mode entered
     * \param params if not null, the share the penalty uses: params->unservedShare when set
     *        (for a seed where the policy switches), else the computed one
     * \return u(policy, mode) over seeds (0 for a seed where the policy does not switch)
     */
    MoseSummary SummarizeUnservedShare(Policy policy,
                                       WorkloadMode mode,
                                       const SwitchCostParameters* params = nullptr) const;

    /**
     * \param policy the policy \param mode the mode entered
     * \param kept true: circuits kept; false: circuits added (changed)
     * \return the count over seeds
     */
    MoseSummary SummarizeCircuits(Policy policy, WorkloadMode mode, bool kept) const;

    /**
     * \param policy the policy \param mode the mode entered \param params the parameters
     * \return SwitchPenalty() over seeds
     */
    MoseSummary SummarizePenalty(Policy policy,
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
    MoseSummary SummarizeSchedule(Policy policy,
                                  const std::vector<SchedulePeriod>& schedule,
                                  const SwitchCostParameters& params,
                                  MoseSummary* perUnitTime = nullptr,
                                  MoseSummary* switches = nullptr) const;

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
    MoseBreakEvenSummary SummarizeBreakEven(Policy switching,
                                            Policy other,
                                            const SwitchCostParameters& params) const;

  private:
    /**
     * \brief One seed's inputs to the model, read from the study: rates, switch counts and
     *        unserved shares (MoseSwitchCount::addedLoadShare).
     * \param seed the seed index
     * \return its inputs to the model
     */
    MoseSwitchCostSeed AnalyseSeed(uint32_t seed) const;

    /// \return a summary of f(seed) over the seeds \param f the per-seed quantity
    MoseSummary Summarize(const std::function<double(const MoseSwitchCostSeed&)>& f) const;

    MoseFlowExperimentHelper m_study;        //!< the flow-level study
    Metric m_metric;                         //!< the cost-rate metric
    std::vector<MoseSwitchCostSeed> m_seeds; //!< per seed
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COST_H */
