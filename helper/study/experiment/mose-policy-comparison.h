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
 * mose-packet (PacketExperiment::RunPolicies()) and mose-mode-switch (its RunPolicies())
 * compare through it. `mose-llm --map=false` (LlmComparison), a list of runs, follows its
 * rule run by run: a level's scenario drawn once when several policies run. The regime map
 * (LlmRegimeMap), whose cells run the static policies once and MoSE once per dark time, draws each
 * seed's scenario once the same way and hands it to every run of that seed
 * (LlmExperiment::SetScenario()).
 *
 * The comparison knows no preset: it draws the scenario from an ExperimentConfig (its scenario
 * and run) and hands each policy with the scenario to the caller's PolicyRun, which makes that
 * policy's experiment (PacketExperiment, SwitchExperiment, LlmExperiment or an Experiment with
 * workloads of its own), gives it the scenario, builds and runs it.
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
     * \brief The run of one policy: makes the policy's experiment from the caller's
     *        configuration with `policy` as its policy, gives it `scenario` when there is one
     *        (SetScenario(); null: the experiment draws what it needs itself), builds it, runs
     *        it and reports.
     */
    using PolicyRun =
        std::function<void(mose::Policy policy, std::shared_ptr<const mose::Scenario> scenario)>;

    /**
     * \brief Runs each policy in order: draws the scenario before the first policy when more
     *        than one runs and none was given (a single policy's experiment draws what it needs
     *        itself), then calls `each` with the policy and the scenario.
     *
     * The caller validates its configuration before (its errors first, as its experiment's
     * Build() gives them): the scenario drawn here is the configuration's.
     * \param config the runs' experiment: what is drawn is ScenarioBuilder(config.scenario)
     *        .Build(config.run)
     * \param each called with every policy, in order, and the scenario (null if none)
     */
    void Run(const ExperimentConfig& config, const PolicyRun& each);

  private:
    /// \brief Draws the scenario of a run, once \param config the run's experiment
    void Draw(const ExperimentConfig& config);

    std::vector<mose::Policy> m_policies;             //!< the policies
    std::shared_ptr<const mose::Scenario> m_scenario; //!< given or drawn
};

/**
 * \ingroup mose-study
 * \brief The step every policy's run of a comparison begins with (PolicyComparison::PolicyRun):
 *        the preset's experiment made from the comparison's configuration with `policy` as its
 *        policy, given the comparison's scenario (if any), built. The caller runs it and reports.
 *
 * A function template only because the presets are unrelated classes: PacketExperiment,
 * SwitchExperiment, LlmExperiment (each constructed from an ExperimentConfig, with
 * SetScenario() and Build()).
 * \param config the comparison's configuration \param policy the policy
 * \param scenario the comparison's scenario, or null (the experiment draws its own)
 * \return the experiment, built
 */
template <typename PresetExperiment>
std::unique_ptr<PresetExperiment>
BuildPolicyExperiment(const ExperimentConfig& config,
                      mose::Policy policy,
                      std::shared_ptr<const mose::Scenario> scenario)
{
    ExperimentConfig c = config;
    c.policy = policy;
    auto experiment = std::make_unique<PresetExperiment>(c);
    if (scenario)
    {
        experiment->SetScenario(std::move(scenario));
    }
    experiment->Build();
    return experiment;
}

} // namespace mose
} // namespace ns3

#endif /* MOSE_POLICY_COMPARISON_H */
