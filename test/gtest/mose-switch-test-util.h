/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_TEST_UTIL_H
#define MOSE_SWITCH_TEST_UTIL_H

/**
 * \file
 * \brief The drained mode-switching run that several packet-level test files share.
 */

#include "mose-presets.h"

#include "ns3/mose-mode-schedule.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace mose
{
namespace test
{

/**
 * \brief MoSE on 16 groups (d = 4) over three 150 ms intervals (inference-heavy,
 *        training-heavy, inference-heavy): two drained mode switches.
 * \param flows flows per mode
 * \param startWindow the flows start within it
 * \param stopTime the run stops then at the latest
 * \return the configuration, at the packet level with the default transport
 */
inline ExperimentConfig
ThreeIntervalSwitchConfig(uint64_t flows, Time startWindow, Time stopTime)
{
    ExperimentConfig c = MakeSwitchConfig(16, flows);
    c.policy = Policy::MOSE;
    c.SetSchedule(
        ParseSchedule("--schedule",
                      "inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms"));
    c.startWindow = startWindow;
    c.stopTime = stopTime;
    return c;
}

/**
 * \brief ThreeIntervalSwitchConfig() with 40 flows per mode, started in the first 20 ms, within
 *        10 s, over a transport.
 * \param transport the packet level's transport, a TypeId name (ns3::MoseRdmaTransport,
 *        ns3::MoseSocketTransfers)
 * \return the configuration
 */
inline ExperimentConfig
DrainedSwitchConfig(const std::string& transport)
{
    ExperimentConfig c = ThreeIntervalSwitchConfig(40, MilliSeconds(20), Seconds(10));
    c.SetTransport(LlmLevel::PACKET, transport);
    return c;
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_TEST_UTIL_H */
