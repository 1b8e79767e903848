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
 * \brief The mapping from (policy, mode) to template.
 * \param policy the policy
 * \param mode the workload mode
 * \return the template the policy's fabric uses in that mode
 */
TemplateId SelectTemplate(Policy policy, WorkloadMode mode);

/**
 * \ingroup mose-flow
 * \brief Whether a policy is a switching one: its template changes between the workload modes
 *        (SelectTemplate()), so its fabric is reconfigured at a mode change. True for MoSE only
 *        today; the static policies keep one template.
 * \param policy the policy
 * \return whether the policy changes its template between the modes
 */
bool IsSwitching(Policy policy);

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
