/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_CIRCUIT_KEEPING_H
#define MOSE_CIRCUIT_KEEPING_H

#include "mose-circuit-graph.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief How a template is built at a switch: from scratch, or keeping circuits of the fabric
 *        it replaces.
 */
enum class TemplateConstruction : uint8_t
{
    /// drawn from scratch, as if the fabric were empty (the paper's construction)
    FRESH,
    /// keeps as many of the current circuits as the template's definition allows, and fills
    /// the rest at random as FRESH does (BuildUniformTemplate() and BuildPdBiasedTemplate()
    /// with a current graph)
    REWIRING_AWARE,
};

/// \ingroup mose-flow
/// Names of TemplateConstruction: "fresh", "rewiring-aware"
template <>
struct EnumTable<TemplateConstruction>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<TemplateConstruction>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief The most circuits of a candidate set that fit per-group port budgets: a maximum
 *        b-matching (every group v ends in at most budget[v] kept circuits).
 *
 * This is how a rewiring-aware template decides which current circuits to keep: the
 * candidates are the current circuits the template may hold where it fills ports at random,
 * the budgets the ports left to fill. Self-loops and repeats among the candidates are dropped
 * (a template is simple). Candidates whose two ends have no more candidates than budget are
 * all kept; the rest goes to Boost.Graph's maximum cardinality matching
 * (edmonds_maximum_cardinality_matching) on the standard reduction of b-matching to matching:
 * budget[v] copies of each group whose candidates exceed its budget, and per candidate circuit
 * u-v two vertices e_u - e_v, e_u joined to u's copies and e_v to v's (or, when v's budget
 * binds nowhere, one vertex joined to u's copies). A maximum matching there has |circuits with
 * two binding ends| + (maximum b-matching) edges, and a circuit is kept when both of its
 * vertices are matched to copies. Boost has no b-matching of its own, hence the reduction.
 * Deterministic: the same input gives the same circuits.
 * Cost: O(E) plus the matching on at most sum(budget) + 2 E vertices and
 * sum over binding groups of budget * candidates + E edges (Edmonds: O(V E alpha) in the
 * worst case, near-linear from its greedy start in practice).
 * \param nodes N
 * \param candidates the circuits that may be kept
 * \param budget per group, the most kept circuits it may end in (size N)
 * \return the kept circuits, sorted
 */
std::vector<Circuit> SelectKeptCircuits(uint32_t nodes,
                                        const std::vector<Circuit>& candidates,
                                        const std::vector<uint32_t>& budget);

} // namespace mose
} // namespace ns3

#endif /* MOSE_CIRCUIT_KEEPING_H */
