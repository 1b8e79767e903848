/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TRAFFIC_H
#define MOSE_TRAFFIC_H

#include "mose-pd-assignment.h"
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
 * \brief The traffic class of a flow.
 */
enum class TrafficClass : uint8_t
{
    KV,       //!< KV cache transfer, prefill -> decode
    TRAINING, //!< training collective traffic, training -> training
};

/// \ingroup mose-flow
/// Names of TrafficClass: "kv", "training" (also "tr")
template <>
struct EnumTable<TrafficClass>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<TrafficClass>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief One flow f = (s_f, t_f, x_f, k_f).
 */
struct Flow
{
    uint32_t src;     //!< source group s_f
    uint32_t dst;     //!< destination group t_f, != src
    TrafficClass cls; //!< traffic class k_f
    double demand;    //!< demand x_f (> 0; 1 for the paper's unit flows)
};

/**
 * \ingroup mose-flow
 * \brief The traffic of one workload mode.
 */
struct TrafficOptions
{
    uint64_t flows{100000}; //!< number of flows F
    double kvShare{0.7};    //!< share rho of KV flows, 0 <= rho <= 1; round(rho * F) KV flows
    double demand{1.0};     //!< demand of every flow (> 0)
    /// how error messages name kvShare (a program sets its option, e.g. "--kvShareInference")
    std::string kvShareName{"kvShare"};
};

/**
 * \ingroup mose-flow
 * \brief Draws the flows of one workload mode.
 *
 * llround(rho * F) KV flows (halves round away from zero) each pick an assignment pair with
 * probability proportional to its weight (prefill -> decode), by inverse-CDF sampling: one
 * Uniform01() draw per flow, binary search in the cumulative weights. The other F - KV flows are
 * ordered pairs (s, t): s uniform among the training groups, t uniform among the others (two
 * Index() draws). KV flows come first in the result, then training flows, each in draw order;
 * the draws depend only on the stream, so a run gives the same flows on every machine.
 * Throws a mose::Error naming the parameter for kvShare outside [0, 1] or NaN ("kvShare"),
 * F = 0 ("flows"), a demand that is not positive and finite ("demand"), KV flows with an empty
 * assignment ("assignment"), or training flows with fewer than 2 training groups ("roles"); and
 * for an assignment that does not fit the roles (PdAssignment::Validate()).
 * \param roles the mode's roles
 * \param assignment the mode's P-D assignment
 * \param options F, rho and demand
 * \param rng the random stream
 * \return the flows
 */
std::vector<Flow> GenerateTraffic(const RoleAssignment& roles,
                                  const PdAssignment& assignment,
                                  const TrafficOptions& options,
                                  Random& rng);

} // namespace mose
} // namespace ns3

#endif /* MOSE_TRAFFIC_H */
