/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-policy.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePolicy");

namespace
{

/// \return the row of POLICY_TEMPLATES of a policy; throws for a value outside ALL_POLICIES
const std::array<TemplateId, 2>&
TemplatesOf(Policy policy)
{
    for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
    {
        if (ALL_POLICIES[i] == policy)
        {
            return POLICY_TEMPLATES[i];
        }
    }
    throw Error("unknown policy " + std::to_string(static_cast<int>(policy)));
}

} // namespace

TemplateId
SelectTemplate(Policy policy, WorkloadMode mode)
{
    NS_LOG_FUNCTION(ToString(policy) << ToString(mode));
    const TemplateId chosen = TemplatesOf(policy)[static_cast<std::size_t>(mode)];
    NS_LOG_LOGIC(ToString(policy) << " uses the " << ToString(chosen) << " template in the "
                                  << ToString(mode) << " mode");
    return chosen;
}

bool
IsSwitching(Policy policy)
{
    const std::array<TemplateId, 2>& t = TemplatesOf(policy);
    return t[0] != t[1];
}

std::vector<Policy>
StaticPolicies()
{
    std::vector<Policy> policies;
    for (Policy p : ALL_POLICIES)
    {
        if (!IsSwitching(p))
        {
            policies.push_back(p);
        }
    }
    return policies;
}

std::vector<Policy>
SwitchingPoliciesFirst()
{
    std::vector<Policy> policies;
    for (Policy p : ALL_POLICIES)
    {
        if (IsSwitching(p))
        {
            policies.push_back(p);
        }
    }
    const std::vector<Policy> statics = StaticPolicies();
    policies.insert(policies.end(), statics.begin(), statics.end());
    return policies;
}

const std::vector<EnumEntry<Policy>>&
EnumTable<Policy>::Get()
{
    static const std::vector<EnumEntry<Policy>> names = {
        {Policy::STATIC_TRAINING, "S-Train", {"static-training"}},
        {Policy::STATIC_INFERENCE, "S-Inf", {"static-inference"}},
        {Policy::STATIC_COMPROMISE, "S-Comp", {"static-compromise"}},
        {Policy::MOSE, "MoSE", {}},
    };
    return names;
}

const std::vector<EnumEntry<TemplateId>>&
EnumTable<TemplateId>::Get()
{
    static const std::vector<EnumEntry<TemplateId>> names = {
        {TemplateId::UNIFORM, "uniform", {}},
        {TemplateId::PD_BIASED, "pd-biased", {}},
        {TemplateId::COMPROMISE, "compromise", {}},
    };
    return names;
}

} // namespace mose
} // namespace ns3
