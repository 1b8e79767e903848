/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SCALE_H
#define MOSE_SCALE_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup mose
 * \brief MoseScale: the run's one scale setting, an ns-3 global value.
 */

namespace ns3
{

/**
 * \ingroup mose
 * \brief The one scale setting of a run: the ns-3 global value `MoseScale` (an integer >= 1,
 *        default 1).
 *
 * A scaled run divides every link rate and every workload byte count by the same factor, so
 * that each transfer takes the same time with fewer packets. MoseTopologyHelper divides the
 * rates it installs (the MoseOcs DataRate and HostDataRate) at Install(); the LLM workloads
 * divide their byte counts (MoseInferenceWorkload and MoseTrainingWorkload, attribute ByteScale
 * 0); MoseFluidFabricHelper reads the same factor for the fluid and aggregate levels. Set it as
 * any global value: `--MoseScale=8` on a CommandLine, `NS_GLOBAL_VALUE="MoseScale=8"`, or
 * `Config::SetGlobal("MoseScale", UintegerValue(8))` before the helpers install. Links and
 * applications of other ns-3 modules are not scaled. Propagation delays and timers are not
 * scaled either.
 */
class MoseScale
{
  public:
    /// \return the global value MoseScale
    static uint64_t Get();

    /**
     * \brief Sets the global value MoseScale.
     * \param scale the factor, at least 1
     * \throws mose::Error naming MoseScale, the value and what is allowed
     */
    static void Set(uint64_t scale);

    /**
     * \brief A rate as a run at this scale installs it: the bit rate divided by Get(), in whole
     *        bits per second.
     * \param rate the rate before scaling
     * \param name the rate's name, for the error
     * \return the scaled rate
     * \throws mose::Error when the scaled rate is 0 bit/s
     */
    static DataRate ScaleRate(DataRate rate, const std::string& name);

    /**
     * \brief The byte scale an object uses: its own attribute's value, or MoseScale when that
     *        is 0.
     * \param byteScale the object's attribute (0: MoseScale)
     * \param attribute the attribute's full name, for the error
     * \return the factor
     * \throws mose::Error when the attribute is set, MoseScale is above 1 and the two differ:
     *         one run has one scale
     */
    static uint64_t ResolveByteScale(uint64_t byteScale, const std::string& attribute);
};

} // namespace ns3

#endif /* MOSE_SCALE_H */
