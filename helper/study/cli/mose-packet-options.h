/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PACKET_OPTIONS_H
#define MOSE_PACKET_OPTIONS_H

#include "mose-packet-experiment.h"
#include "mose-scenario-options.h"
#include "mose-transport-options.h"

#include "ns3/command-line.h"

#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The options of mose-packet beside the scenario options and the output options: the
 *        workload mode (--mode), the policies run (--policies), a circuit graph from a file
 *        (--graph), the stop time (--stopTime), the level (--level), --flowMonitor and
 *        --writeScenario. GetConfig() checks them (ValidatePacketConfig()), naming
 *        the option; at the fluid and aggregate levels it refuses --flowMonitor and every
 *        attribute those levels do not read (RejectPacketOnlyAttributes()).
 */
class PacketOptions
{
  public:
    /**
     * \brief Adds the options to a command line (this object must outlive cmd.Parse()).
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \param scenario the scenario options, after cmd.Parse()
     * \return the experiment's configuration, checked (policy: the first of --policies)
     */
    ExperimentConfig GetConfig(const ScenarioOptions& scenario) const;

    /// \return --policies, read (after cmd.Parse())
    std::vector<Policy> GetPolicies() const;

    /// \return whether --writeScenario is set
    bool IsWritingScenario() const;

  private:
    std::string m_mode{"inference-heavy"};  //!< --mode
    std::string m_policies{"S-Train,MoSE"}; //!< --policies
    std::string m_graph;                    //!< --graph
    std::string m_stopTime{"60"};           //!< --stopTime
    std::string m_level{"packet"};          //!< --level
    bool m_flowMonitor{true};               //!< --flowMonitor
    bool m_flowMonitorGiven{false};         //!< whether --flowMonitor was given
    bool m_writeScenario{false};            //!< --writeScenario
    TransportOptions m_transport;           //!< --transport, --ecnKmin, --ecnKmax, --ecnPmax
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_PACKET_OPTIONS_H */
