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

TemplateId
SelectTemplate(Policy policy, WorkloadMode mode)
{
    NS_LOG_FUNCTION(ToString(policy) << ToString(mode));
    switch (policy)
    {
    case Policy::STATIC_TRAINING:
        return TemplateId::UNIFORM;
    case Policy::STATIC_INFERENCE:
        return TemplateId::PD_BIASED;
    case Policy::STATIC_COMPROMISE:
        return TemplateId::COMPROMISE;
    case Policy::MOSE: {
        const TemplateId chosen =
            mode == WorkloadMode::INFERENCE_HEAVY ? TemplateId::PD_BIASED : TemplateId::UNIFORM;
        NS_LOG_LOGIC("MoSE switches to the " << ToString(chosen) << " template for the "
                                             << ToString(mode) << " mode");
        return chosen;
    }
    }
    throw Error("unknown policy");
}

bool
IsSwitching(Policy policy)
{
    return policy == Policy::MOSE;
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
