/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROLES_H
#define MOSE_ROLES_H

#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The role a group (rack, GPU island) plays in a workload mode.
 */
enum class GroupRole : uint8_t
{
    PREFILL,  //!< produces KV cache (P)
    DECODE,   //!< consumes KV cache (D)
    TRAINING, //!< runs training collectives (T)
};

/**
 * \ingroup mose-flow
 * \brief The workload mode of the cluster. Roles change with the mode; N and d never do.
 */
enum class WorkloadMode : uint8_t
{
    INFERENCE_HEAVY, //!< KV cache transfers dominate
    TRAINING_HEAVY,  //!< training all-to-all dominates
};

/// \ingroup mose-flow
/// Names of GroupRole: "prefill", "decode", "training"; also P, D, T, train (role files)
template <>
struct EnumTable<GroupRole>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<GroupRole>>& Get();
};

/// \ingroup mose-flow
/// Names of WorkloadMode: "inference-heavy", "training-heavy"; also inference, training
template <>
struct EnumTable<WorkloadMode>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<WorkloadMode>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief How many groups play each role.
 */
struct RoleCounts
{
    uint32_t prefill{0};  //!< number of prefill groups
    uint32_t decode{0};   //!< number of decode groups
    uint32_t training{0}; //!< number of training groups

    /// \return prefill + decode + training (as 64 bits, so a sum cannot wrap)
    uint64_t Total() const;

    /// \return the paper's inference-heavy counts: 410 P, 410 D, 204 T
    static RoleCounts InferenceHeavyDefault();
    /// \return the paper's training-heavy counts: 102 P, 102 D, 820 T
    static RoleCounts TrainingHeavyDefault();
    /**
     * \brief The paper's counts scaled to N groups: P = D = floor(N * 410 / 1024) and the rest
     *        training in inference-heavy mode, P = D = floor(N * 102 / 1024) in training-heavy
     *        mode (exactly the defaults at N = 1024).
     * \param nodes N
     * \param mode the workload mode
     * \return the counts
     */
    static RoleCounts PaperScaled(uint32_t nodes, WorkloadMode mode);

    /**
     * \brief Throws a mose::Error unless the counts sum to the number of groups.
     * \param nodes the number of groups N
     * \param name how the caller calls these counts, used in the message
     */
    void Validate(uint32_t nodes, const std::string& name) const;
};

/**
 * \ingroup mose-flow
 * \brief How roles change between the inference-heavy and the training-heavy mode.
 */
enum class RoleTransition : uint8_t
{
    /// the inference-heavy T groups become the training-heavy P and D groups; the former P and D
    /// groups (and any T group left over) train
    SWAP,
    /// the training-heavy P groups are drawn from the inference-heavy P groups and the D groups
    /// from the D groups; every other group trains
    NESTED,
};

/// \ingroup mose-flow
/// Names of RoleTransition: "swap", "nested"
template <>
struct EnumTable<RoleTransition>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<RoleTransition>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief The role of every group for one workload mode.
 */
class RoleAssignment
{
  public:
    RoleAssignment() = default;

    /**
     * \param roles the role of each group, indexed by node id
     */
    explicit RoleAssignment(std::vector<GroupRole> roles);

    /**
     * \brief The default layout: node ids 0..P-1 prefill, then D decode groups, then T training.
     *
     * With random templates the layout is immaterial; contiguous ids keep files readable. The
     * circulant completion's "ring order" is the order of the ids within each side.
     * \param counts the role counts
     * \return the assignment
     */
    static RoleAssignment Contiguous(const RoleCounts& counts);

    /**
     * \brief The roles of the next mode, following a role transition.
     * \param to the role counts of the next mode; must sum to the same N
     * \param transition the transition rule
     * \param rng draws which groups take which role
     * \return the next mode's roles; throws a mose::Error if the counts do not fit the rule
     */
    RoleAssignment Transition(const RoleCounts& to, RoleTransition transition, Random& rng) const;

    /// \return the number of groups
    uint32_t GetN() const;
    /// \param node a node id \return its role
    GroupRole Get(uint32_t node) const;
    /// \return every node's role
    const std::vector<GroupRole>& GetRoles() const;
    /// \return prefill node ids, ascending
    const std::vector<uint32_t>& GetPrefill() const;
    /// \return decode node ids, ascending
    const std::vector<uint32_t>& GetDecode() const;
    /// \return training node ids, ascending
    const std::vector<uint32_t>& GetTraining() const;
    /// \return the counts
    RoleCounts GetCounts() const;
    /// \param node a node id \return true if it is a prefill or decode group
    bool IsPd(uint32_t node) const;

  private:
    std::vector<GroupRole> m_roles;   //!< role per node
    std::vector<uint32_t> m_prefill;  //!< prefill ids
    std::vector<uint32_t> m_decode;   //!< decode ids
    std::vector<uint32_t> m_training; //!< training ids
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_ROLES_H */
