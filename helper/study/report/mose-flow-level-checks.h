/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLOW_LEVEL_CHECKS_H
#define MOSE_FLOW_LEVEL_CHECKS_H

#include "mose-experiment.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief One run of mose-packet or mose-mode-switch measured at the packet and the fluid level
 *        (MoSE, run 1, the program's schedule): its settings and the error of the fluid level's
 *        mean FCT per class, (fluid - packet) / packet (doc/mose.rst, "Flow lists at the fluid
 * level").
 */
struct FlowLevelCheck
{
    std::string program;      //!< mose-packet or mose-mode-switch
    bool rdma{false};         //!< over RoCEv2 (false: ns-3's TCP)
    uint32_t nodes{0};        //!< N
    uint32_t degree{0};       //!< d
    uint64_t flows{0};        //!< flows per mode
    uint64_t bytesPerUnit{0}; //!< MoseTrafficHelper BytesPerUnit
    uint32_t packetBytes{0};  //!< payload per packet: TCP's segment or RDMA's PayloadSize
    double kvError{0};        //!< the fluid level's error of the mean KV FCT
    double trainingError{0};  //!< the fluid level's error of the mean training FCT
};

/**
 * \ingroup mose-study
 * \return the runs checked (doc/mose.rst, "Flow lists at the fluid level"), measured with
 *         the commands the doc gives
 */
const std::vector<FlowLevelCheck>& GetFlowLevelChecks();

/**
 * \ingroup mose-study
 * \brief The settings of a run of a flow-list program, as FlowLevelCheck names them: the
 *        configuration's N, d and flows, and the attributes' values now (BytesPerUnit, and
 *        TcpSocket SegmentSize or MoseRdmaTransport PayloadSize).
 * \param program mose-packet or mose-mode-switch
 * \param config the run's configuration
 * \return its settings (errors 0)
 */
FlowLevelCheck GetFlowLevelSettings(const std::string& program, const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief The checked run nearest to a run: the same program and transport, the fewest
 *        settings that differ, then the nearest N.
 * \param run the run's settings (GetFlowLevelSettings())
 * \param checks the checked runs
 * \param differences set to the settings that differ, as "N 128 where the nearest has 64"
 * \return the nearest, or null when none has the program and transport
 */
const FlowLevelCheck* FindNearestFlowLevelCheck(const FlowLevelCheck& run,
                                                const std::vector<FlowLevelCheck>& checks,
                                                std::vector<std::string>& differences);

/**
 * \ingroup mose-study
 * \brief At the fluid and aggregate levels, one line with the error of the nearest checked run
 *        (validated (LEVEL, TRANSPORT): ...), or that the run lies outside every checked run
 *        and by which settings; nothing at the packet level.
 * \param os the stream
 * \param program mose-packet or mose-mode-switch
 * \param config the run's configuration
 */
void PrintFlowLevelCheck(std::ostream& os,
                         const std::string& program,
                         const ExperimentConfig& config);

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLOW_LEVEL_CHECKS_H */
