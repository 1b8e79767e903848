/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_GRAPH_PROPERTIES_H
#define MOSE_GRAPH_PROPERTIES_H

#include "mose-circuit-graph.h"
#include "mose-pd-assignment.h"
#include "mose-roles.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief Shortest-path distances over all ordered pairs of distinct groups.
 */
struct DistanceSummary
{
    double averageHops{0};           //!< mean distance over ordered pairs (s != t)
    uint32_t diameter{0};            //!< largest distance
    std::vector<uint64_t> histogram; //!< ordered pairs per distance (index = hops)
};

/**
 * \ingroup mose
 * \brief All-pairs distances by one breadth-first search per node, O(N (N + E)).
 * \param graph a connected circuit graph (throws a MoseError otherwise)
 * \return the summary
 */
DistanceSummary SummarizeDistances(const CircuitGraph& graph);

/**
 * \ingroup mose
 * \brief The structural properties of a template that the paper's design relies on.
 */
struct TemplateProperties
{
    uint32_t nodes{0};            //!< N
    uint32_t circuits{0};         //!< number of circuits
    uint32_t minDegree{0};        //!< smallest degree
    uint32_t maxDegree{0};        //!< largest degree
    bool simple{false};           //!< no self-loop, no repeated circuit
    bool connected{false};        //!< one component
    uint32_t minPdCircuits{0};    //!< fewest P-D circuits at a P or D group
    uint32_t maxPdCircuits{0};    //!< most P-D circuits at a P or D group
    uint32_t pdCircuits{0};       //!< circuits joining a P and a D group
    double assignmentRealised{0}; //!< share of assignment pairs that are circuits
    DistanceSummary distances;    //!< all-pairs distances (only if connected)
};

/**
 * \ingroup mose
 * \brief Measures a template against roles and the P-D assignment.
 * \param graph the circuit graph
 * \param roles the roles it was built for
 * \param assignment the P-D assignment (may be empty)
 * \return the properties
 */
TemplateProperties MeasureTemplate(const CircuitGraph& graph,
                                   const RoleAssignment& roles,
                                   const PdAssignment& assignment);

} // namespace mose
} // namespace ns3

#endif /* MOSE_GRAPH_PROPERTIES_H */
