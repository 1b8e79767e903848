/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PD_ASSIGNMENT_H
#define MOSE_PD_ASSIGNMENT_H

#include "mose-roles.h"

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
 * \brief One prefill->decode pair of the P-D assignment and the share of KV traffic it carries.
 */
struct PdPair
{
    uint32_t prefill; //!< prefill node id (KV source)
    uint32_t decode;  //!< decode node id (KV destination)
    double weight;    //!< relative share of KV flows, > 0
};

/**
 * \ingroup mose-flow
 * \brief How the P-D assignment is drawn.
 */
enum class PdAssignmentKind : uint8_t
{
    /// a random perfect matching: every prefill sends to exactly one decode and every decode
    /// receives from exactly one prefill (needs |P| == |D|)
    ONE_TO_ONE,
    /// every prefill picks one decode uniformly among those with fewer than `cap` prefills so far
    /// (needs |P| <= cap * |D|); with cap = r the pairs fit the template's reserved ports
    MANY_TO_ONE,
};

/// \ingroup mose-flow
/// Names of PdAssignmentKind: "one-to-one", "many-to-one" (ToString(), ParseEnum())
template <>
struct EnumTable<PdAssignmentKind>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<PdAssignmentKind>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief The prefill->decode pairs that KV traffic follows in one workload mode.
 *
 * KV flows pick a pair with probability proportional to its weight. The P-D-biased templates
 * make these pairs circuits where the reserved ports allow, so the assignment is shared by the
 * traffic model and the template.
 */
class PdAssignment
{
  public:
    PdAssignment() = default;

    /**
     * \param pairs the pairs; Validate() checks them against roles
     */
    explicit PdAssignment(std::vector<PdPair> pairs);

    /**
     * \brief Draws an assignment.
     * \param roles the roles of the mode
     * \param kind one-to-one or bounded many-to-one
     * \param cap for MANY_TO_ONE, the most prefills one decode may receive from (>= 1)
     * \param rng the random stream
     * \return the assignment, one pair per prefill, weight 1 each; throws a mose::Error if the
     *         roles do not allow the kind
     */
    static PdAssignment Draw(const RoleAssignment& roles,
                             PdAssignmentKind kind,
                             uint32_t cap,
                             Random& rng);

    /**
     * \brief Throws a mose::Error unless every pair joins a prefill to a decode of these roles,
     *        no pair repeats and every weight is positive and finite.
     * \param roles the roles of the mode
     */
    void Validate(const RoleAssignment& roles) const;

    /// \return the pairs
    const std::vector<PdPair>& GetPairs() const;
    /// \return the sum of weights
    double GetTotalWeight() const;

  private:
    std::vector<PdPair> m_pairs; //!< the pairs
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_PD_ASSIGNMENT_H */
