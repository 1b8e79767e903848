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
 * mose-packet (PacketExperiment::RunPolicies()), mose-mode-switch
 * (its RunPolicies()) and `mose-llm --map=false` (LlmComparison) compare
 * through it. The regime map (LlmRegimeMap), whose cells run the static policies once and MoSE
 * once per dark time, draws each seed's scenario once the same way and hands it to every run
 * of that seed (LlmExperiment::SetScenario()).
 *
 * E is a preset: PacketExperiment, SwitchExperiment or LlmExperiment, with `E::Config` (its
 * configuration: `policy`, Validate(), ToExperimentConfig()), a constructor from it,
 * SetScenario() and Build().
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

    /// \return the scenario given or drawn (null before a Run() of more than one policy)
    std::shared_ptr<const mose::Scenario> GetScenario() const;

    /// \return the policies, in order
    const std::vector<mose::Policy>& GetPolicies() const;

    /**
     * \brief Runs each policy in order: a copy of config with the policy, the experiment made
     *        from it, given the scenario (drawn here before the first policy when more than one
     *        runs and none was given: a single policy's experiment draws what it needs itself),
     *        built, then handed to `each`, which runs it and reports.
     * \param config the experiment; its policy is replaced by each policy in turn
     * \param each called with every built experiment, in policy order
     */
    template <class E>
    void Run(const typename E::Config& config, const std::function<void(E&)>& each);

  private:
    /// \brief Draws the scenario of a run, once \param config the run's experiment
    void Draw(const ExperimentConfig& config);

    std::vector<mose::Policy> m_policies;             //!< the policies
    std::shared_ptr<const mose::Scenario> m_scenario; //!< given or drawn
};

template <class E>
void
PolicyComparison::Run(const typename E::Config& config, const std::function<void(E&)>& each)
{
    for (const mose::Policy policy : m_policies)
    {
        typename E::Config c = config;
        c.policy = policy;
        if (!m_scenario && m_policies.size() > 1)
        {
            c.Validate(); // its errors first, as the experiment's Build() gives them
            Draw(c.ToExperimentConfig());
        }
        E experiment(c);
        if (m_scenario)
        {
            experiment.SetScenario(m_scenario);
        }
        experiment.Build();
        each(experiment);
    }
}

} // namespace mose
} // namespace ns3

#endif /* MOSE_POLICY_COMPARISON_H */
