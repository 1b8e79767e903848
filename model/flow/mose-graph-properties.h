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
#include <functional>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief Shortest-path distances from a set of source groups to every other group (all groups:
 *        every ordered pair of distinct groups).
 */
struct DistanceSummary
{
    double averageHops{0};           //!< mean distance over the pairs measured (s != t)
    uint32_t diameter{0};            //!< largest distance measured (a lower bound if sampled)
    std::vector<uint64_t> histogram; //!< pairs per distance (index = hops)
    uint32_t sources{0};             //!< source groups measured
    bool sampled{false};             //!< whether sources < N
};

/**
 * \ingroup mose-flow
 * \brief Distances by one breadth-first search per source, O(sources (N + E)): all-pairs when
 *        maxSources is 0 or >= N, else from maxSources sources spread evenly over the ids
 *        (source i is floor(i N / maxSources)), so the cost stays linear in N.
 * \param graph a connected circuit graph (throws a mose::Error otherwise)
 * \param maxSources at most this many sources (0: all groups)
 * \param progress if set, called after each batch of searches with (sources done, sources)
 * \return the summary
 */
DistanceSummary SummarizeDistances(const CircuitGraph& graph,
                                   uint32_t maxSources = 0,
                                   const std::function<void(uint32_t, uint32_t)>& progress = {});

/**
 * \ingroup mose-flow
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
    DistanceSummary distances;    //!< distances (only if connected; see SummarizeDistances())
};

/**
 * \ingroup mose-flow
 * \brief Measures a template against roles and the P-D assignment.
 * \param graph the circuit graph
 * \param roles the roles it was built for
 * \param assignment the P-D assignment (may be empty)
 * \param maxSources distances from at most this many sources (0: all pairs)
 * \param progress as for SummarizeDistances()
 * \return the properties
 */
TemplateProperties MeasureTemplate(const CircuitGraph& graph,
                                   const RoleAssignment& roles,
                                   const PdAssignment& assignment,
                                   uint32_t maxSources = 0,
                                   const std::function<void(uint32_t, uint32_t)>& progress = {});

} // namespace mose
} // namespace ns3

#endif /* MOSE_GRAPH_PROPERTIES_H */
