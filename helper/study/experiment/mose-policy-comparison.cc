/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-policy-comparison.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-policy.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MosePolicyComparison");

namespace mose
{

PolicyComparison::PolicyComparison(const std::vector<mose::Policy>& policies)
    : m_policies(policies)
{
    NS_LOG_FUNCTION(this);
    if (m_policies.empty())
    {
        throw mose::Error("PolicyComparison: no policy to run (one or more of " +
                          mose::AllowedEnumNames<mose::Policy>() + ")");
    }
}

void
PolicyComparison::SetScenario(std::shared_ptr<const mose::Scenario> scenario)
{
    NS_LOG_FUNCTION(this);
    m_scenario = std::move(scenario);
}

std::shared_ptr<const mose::Scenario>
PolicyComparison::GetScenario() const
{
    return m_scenario;
}

const std::vector<mose::Policy>&
PolicyComparison::GetPolicies() const
{
    return m_policies;
}

std::shared_ptr<const mose::Scenario>
PolicyComparison::Share(const ExperimentConfig& config)
{
    NS_LOG_FUNCTION(this << config.run);
    if (!m_scenario && m_policies.size() > 1)
    {
        m_scenario = std::make_shared<const mose::Scenario>(
            mose::ScenarioBuilder(config.scenario).Build(config.run));
    }
    return m_scenario;
}

void
PolicyComparison::Run(const ExperimentConfig& config, const PolicyRun& each)
{
    NS_LOG_FUNCTION(this << m_policies.size());
    for (const mose::Policy policy : m_policies)
    {
        each(WithPolicy(config, policy), Share(config));
    }
}

ExperimentConfig
WithPolicy(const ExperimentConfig& config, mose::Policy policy)
{
    ExperimentConfig c = config;
    c.policy = policy;
    return c;
}

} // namespace mose
} // namespace ns3
