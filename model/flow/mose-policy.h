/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_POLICY_H
#define MOSE_POLICY_H

#include "mose-roles.h"

#include "ns3/mose-parse.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The three topology templates of the paper.
 */
enum class TemplateId : uint8_t
{
    UNIFORM,    //!< H^U, a uniform random regular expander
    PD_BIASED,  //!< H^PD, r = d - 1 reserved P-D ports by default
    COMPROMISE, //!< H^C, r = 1 reserved P-D port by default
};

/**
 * \ingroup mose-flow
 * \brief A topology policy: which template the fabric uses in each workload mode.
 */
enum class Policy : uint8_t
{
    STATIC_TRAINING,   //!< H^U always (S-Train)
    STATIC_INFERENCE,  //!< H^PD always, stale in training-heavy mode (S-Inf)
    STATIC_COMPROMISE, //!< H^C always (S-Comp)
    MOSE,              //!< H^PD in inference-heavy mode, H^U in training-heavy mode
};

/// All policies, in the paper's table order
constexpr std::array<Policy, 4> ALL_POLICIES = {Policy::STATIC_TRAINING,
                                                Policy::STATIC_INFERENCE,
                                                Policy::STATIC_COMPROMISE,
                                                Policy::MOSE};

/// Both workload modes, inference-heavy first
constexpr std::array<WorkloadMode, 2> ALL_MODES = {WorkloadMode::INFERENCE_HEAVY,
                                                   WorkloadMode::TRAINING_HEAVY};

/// All templates
constexpr std::array<TemplateId, 3> ALL_TEMPLATES = {TemplateId::UNIFORM,
                                                     TemplateId::PD_BIASED,
                                                     TemplateId::COMPROMISE};

/**
 * \ingroup mose-flow
 * \brief Which template each policy's fabric uses in each mode: one row per policy, in
 *        ALL_POLICIES order, one column per mode, in ALL_MODES order. A new policy is a value of
 *        Policy, its place in ALL_POLICIES, its row here and its names (EnumTable<Policy>);
 *        SelectTemplate(), IsSwitching(), StaticPolicies() and every list of the studies follow.
 */
constexpr std::array<std::array<TemplateId, 2>, ALL_POLICIES.size()> POLICY_TEMPLATES = {{
    {TemplateId::UNIFORM, TemplateId::UNIFORM},       // S-Train: H^U always
    {TemplateId::PD_BIASED, TemplateId::PD_BIASED},   // S-Inf: H^PD always
    {TemplateId::COMPROMISE, TemplateId::COMPROMISE}, // S-Comp: H^C always
    {TemplateId::PD_BIASED, TemplateId::UNIFORM},     // MoSE: H^PD, then H^U
}};

/**
 * \ingroup mose-flow
 * \brief The mapping from (policy, mode) to template (POLICY_TEMPLATES).
 * \param policy the policy
 * \param mode the workload mode
 * \return the template the policy's fabric uses in that mode
 */
TemplateId SelectTemplate(Policy policy, WorkloadMode mode);

/**
 * \ingroup mose-flow
 * \brief Whether a policy is a switching one: its template changes between the workload modes
 *        (POLICY_TEMPLATES), so its fabric is reconfigured at a mode change. True for MoSE only
 *        today; the static policies keep one template.
 * \param policy the policy
 * \return whether the policy changes its template between the modes
 */
bool IsSwitching(Policy policy);

/**
 * \ingroup mose-flow
 * \return the policies that keep one template (IsSwitching() false), in ALL_POLICIES order: the
 *         ones a switching policy is set against
 */
std::vector<Policy> StaticPolicies();

/**
 * \ingroup mose-flow
 * \return every policy, the switching ones first, each group in ALL_POLICIES order (MoSE,
 *         S-Train, S-Inf, S-Comp): the order of the LLM studies' tables
 */
std::vector<Policy> SwitchingPoliciesFirst();

/// \ingroup mose-flow
/// Names of Policy: the paper's short names "S-Train", "S-Inf", "S-Comp", "MoSE"; also
/// static-training, static-inference, static-compromise
template <>
struct EnumTable<Policy>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<Policy>>& Get();
};

/// \ingroup mose-flow
/// Names of TemplateId: "uniform", "pd-biased", "compromise"
template <>
struct EnumTable<TemplateId>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<TemplateId>>& Get();
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_POLICY_H */
