/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-policy.h"

#include "mose-error.h"
#include "mose-parse.h"

#include "ns3/log.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePolicy");

TemplateId
SelectTemplate(Policy policy, WorkloadMode mode)
{
    switch (policy)
    {
    case Policy::STATIC_TRAINING:
        return TemplateId::UNIFORM;
    case Policy::STATIC_INFERENCE:
        return TemplateId::PD_BIASED;
    case Policy::STATIC_COMPROMISE:
        return TemplateId::COMPROMISE;
    case Policy::MOSE:
        return mode == WorkloadMode::INFERENCE_HEAVY ? TemplateId::PD_BIASED : TemplateId::UNIFORM;
    }
    throw MoseError("unknown policy");
}

std::string
ToString(Policy policy)
{
    switch (policy)
    {
    case Policy::STATIC_TRAINING:
        return "S-Train";
    case Policy::STATIC_INFERENCE:
        return "S-Inf";
    case Policy::STATIC_COMPROMISE:
        return "S-Comp";
    case Policy::MOSE:
        return "MoSE";
    }
    return "unknown";
}

std::string
ToString(TemplateId id)
{
    switch (id)
    {
    case TemplateId::UNIFORM:
        return "uniform";
    case TemplateId::PD_BIASED:
        return "pd-biased";
    case TemplateId::COMPROMISE:
        return "compromise";
    }
    return "unknown";
}

Policy
ParsePolicy(const std::string& text)
{
    std::string t = ToLowerAscii(text);
    if (t == "s-train" || t == "static-training")
    {
        return Policy::STATIC_TRAINING;
    }
    if (t == "s-inf" || t == "static-inference")
    {
        return Policy::STATIC_INFERENCE;
    }
    if (t == "s-comp" || t == "static-compromise")
    {
        return Policy::STATIC_COMPROMISE;
    }
    if (t == "mose")
    {
        return Policy::MOSE;
    }
    ThrowBadParameter("policy",
                      "\"" + text + "\"",
                      "allowed values are S-Train, S-Inf, S-Comp, MoSE (or static-training, "
                      "static-inference, static-compromise, mose)");
}

} // namespace mose
} // namespace ns3
