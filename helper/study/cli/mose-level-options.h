/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LEVEL_OPTIONS_H
#define MOSE_LEVEL_OPTIONS_H

#include "mose-llm-experiment.h"

#include "ns3/mose-routing.h"

#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief Reads the --level of a program that runs one level per run (mose-packet,
 *        mose-mode-switch): mose-llm's spelling (ParseLlmLevels()), one level only.
 * \param option the option's name, for the message ("--level")
 * \param text what was given
 * \param program the program, for the message ("mose-packet")
 * \return the level; a mose::Error naming the option, the text and the choices otherwise
 */
LlmLevel ParseOneLevel(const std::string& option,
                       const std::string& text,
                       const std::string& program);

/**
 * \ingroup mose-study
 * \brief At the fluid and aggregate levels of a flow workload (mose-packet, mose-mode-switch):
 *        throws a mose::Error naming the first attribute the user set (on the command line or
 *        with Config::SetDefault()) that those levels do not read, so that an option that does
 *        nothing is refused. They read the fabric (MoseOcs DataRate and Delay, MoseTopologyHelper
 *        Groups, PortsPerGroup, HostsPerGroup, HostDataRate and HostDelay, MoseRouteTable Rule,
 *        TcpSocket SegmentSize), the flows (MoseTrafficHelper BytesPerUnit, MaxFlows,
 *        Aggregation, StartMode, StartTime, StartWindow, PoissonRate) and the switch
 *        (MoseModeSwitcher Phases, Drain, FixedDrain, DrainTimeout, ReconfigurationDelay);
 *        every other attribute (queues, queue discs, the transport's sockets, addresses, ...)
 *        acts on packets only.
 * With rdma the fluid level reads ns3::MoseRdmaTransport::PayloadSize instead of TcpSocket's
 * SegmentSize.
 * \param level the level run (nothing is checked at the packet level)
 * \param rdma whether the transport is rdma (--transport)
 */
void RejectPacketOnlyAttributes(LlmLevel level, bool rdma = false);

/**
 * \ingroup mose-study
 * \param level a level
 * \return its OptionPlace bit (AT_PACKET, AT_FLUID or AT_AGGREGATE), for CheckOptionScopes()
 */
uint32_t GetLevelPlace(LlmLevel level);

/**
 * \ingroup mose-study
 * \brief At the fluid and aggregate levels: throws a mose::Error naming --routing for ECMP, whose
 *        per-packet hash has no fluid counterpart (each fluid transfer takes one path).
 * \param level the level run
 * \param rule the routing rule (FlowExperimentConfig::routing)
 */
void RejectFluidRouting(LlmLevel level, RoutingRule rule);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LEVEL_OPTIONS_H */
