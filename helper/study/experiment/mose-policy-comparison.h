/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_POLICY_COMPARISON_H
#define MOSE_POLICY_COMPARISON_H

#include "mose-experiment.h"

#include "ns3/mose-policy.h"
#include "ns3/mose-scenario.h"

#include <functional>
#include <memory>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The one policy comparison of the study programs: one experiment per policy, in order,
 *        on the same run, with the run's scenario (roles, P-D assignments, flows, templates,
 *        routing seed) drawn once and handed to every policy's experiment, so that the
 *        policies differ in their circuits only. The requests of an LLM run are the
 *        configuration's, drawn once by whoever made it.
 *
 * mose-packet (RunPacketPolicies()), mose-mode-switch (SwitchComparisonRuns, one
 * comparison per seed) and `mose-llm --map=false` (LlmComparison, one comparison per level)
 * take each policy's scenario from Share(). The regime map (LlmRegimeMap), whose cells run
 * the static policies once and MoSE once per dark time, draws each seed's scenario once the
 * same way and hands it to every run of that seed (Experiment::SetScenario()).
 *
 * The comparison knows no preset: it draws the scenario from an ExperimentConfig (its scenario
 * and run); every preset (InstallPacketWorkload(), InstallSwitchWorkload(),
 * InstallLlmWorkload()) is made from one policy's configuration (WithPolicy()) and that
 * scenario, which is all a comparison needs.
 */
class PolicyComparison
{
  public:
    /// \param policies the policies, in order (at least one; Error otherwise)
    explicit PolicyComparison(const std::vector<mose::Policy>& policies);

    /**
     * \brief Gives the scenario instead of drawing it (e.g. one seed's, shared by several
     *        comparisons): it must be the one the configurations draw (their run and group
     *        count are checked by the experiments).
     * \param scenario the scenario
     */
    void SetScenario(std::shared_ptr<const mose::Scenario> scenario);

    /// \return the scenario given or drawn (null before a Share() of more than one policy)
    std::shared_ptr<const mose::Scenario> GetScenario() const;

    /// \return the policies, in order
    const std::vector<mose::Policy>& GetPolicies() const;

    /**
     * \brief The scenario every policy's experiment gets: the one given (SetScenario()) or
     *        drawn at the first call when more than one policy runs; null for a single policy
     *        (its experiment draws what it needs itself).
     *
     * The caller validates its configuration before (its errors first, as its experiment's
     * Build() gives them): the scenario drawn here is the configuration's.
     * \param config the runs' experiment: what is drawn is ScenarioBuilder(config.scenario)
     *        .Build(config.run)
     * \return the scenario, or null
     */
    std::shared_ptr<const mose::Scenario> Share(const ExperimentConfig& config);

    /**
     * \brief The run of one policy: makes the policy's experiment from `config` (the caller's
     *        configuration with the policy as its policy) and `scenario` (null: the experiment
     *        draws what it needs itself), builds it, runs it and reports.
     */
    using PolicyRun = std::function<void(const ExperimentConfig& config,
                                         std::shared_ptr<const mose::Scenario> scenario)>;

    /**
     * \brief Runs each policy in order: calls `each` with WithPolicy(config, policy) and
     *        Share(config).
     * \param config the runs' experiment
     * \param each called with every policy's configuration, in order, and the scenario
     */
    void Run(const ExperimentConfig& config, const PolicyRun& each);

  private:
    std::vector<mose::Policy> m_policies;             //!< the policies
    std::shared_ptr<const mose::Scenario> m_scenario; //!< given or drawn
};

/**
 * \ingroup mose-study
 * \param config a comparison's configuration \param policy one of its policies
 * \return the configuration of that policy's run: `config` with `policy` as its policy
 */
ExperimentConfig WithPolicy(const ExperimentConfig& config, mose::Policy policy);

} // namespace mose
} // namespace ns3

#endif /* MOSE_POLICY_COMPARISON_H */
