/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_BENCH_UTIL_H
#define MOSE_BENCH_UTIL_H

/**
 * \file
 * \brief Fixtures that several benchmark programs share: the paper's roles scaled to N, and
 *        the one-to-one P-D assignment and the uniform template drawn from run 1 of their streams.
 */

#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-topology-template.h"

#include <cstdint>
#include <sys/resource.h>

namespace ns3
{
namespace mose
{
namespace bench
{

/**
 * \param n the number of groups N
 * \return the inference-heavy roles scaled to n groups (410/410/204 of 1024)
 */
inline RoleCounts
ScaledRoles(uint32_t n)
{
    return RoleCounts::PaperScaled(n, WorkloadMode::INFERENCE_HEAVY);
}

/**
 * \param roles the roles
 * \return the one-to-one P-D assignment of run 1 (cap 1)
 */
inline PdAssignment
OneToOneAssignment(const RoleAssignment& roles)
{
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    return PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, rng);
}

/**
 * \param n the number of groups N
 * \param d the degree
 * \return the uniform template H^U of run 1
 */
inline CircuitGraph
UniformGraph(uint32_t n, uint32_t d)
{
    Random rng = Random::Create(1, Stream::UNIFORM);
    return BuildUniformTemplate(n, d, rng);
}

/**
 * \return the process's peak resident set size so far, in MiB (getrusage(): Linux reports
 *         ru_maxrss in KiB); a high-water mark over the whole process, so a benchmark that
 *         reports it should run alone (--benchmark_filter) for a figure of its own
 */
inline double
PeakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace bench
} // namespace mose
} // namespace ns3

#endif /* MOSE_BENCH_UTIL_H */
