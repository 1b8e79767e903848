/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWEEP_OPTIONS_H
#define MOSE_SWEEP_OPTIONS_H

#include "mose-scenario-options.h"
#include "mose-sweep.h"

#include "ns3/command-line.h"

#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The sweep's command-line options (--sweepNodes, --sweepDegrees, --sweepR,
 *        --sweepKvShare, --sweepConstruction) next to the study's (ScenarioOptions).
 *
 * The axes replace the study's --degree, --pdReservedPorts, --construction and
 * --kvShareInference: giving one of those is an error. Role counts that are given apply to the
 * point whose N is --nodes, which --sweepNodes must then list; every other N uses the paper's
 * shares (Sweep::MakeConfig()).
 */
class SweepCommandLine
{
  public:
    /**
     * \param defaults the axes' defaults; of defaults.base only the scale (nodes, flows) and
     *        defaults.seedPlan.seeds are defaults of the study's options, whose other defaults are
     * every program's (ScenarioOptions)
     */
    explicit SweepCommandLine(const SweepConfig& defaults = SweepConfig());

    /**
     * \brief Adds the options to a CommandLine; call before cmd.Parse().
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \brief Parses the options given; call after cmd.Parse().
     * \return the sweep's configuration, validated (Error naming the first bad option)
     */
    SweepConfig GetConfig() const;

    /// \return the run's modes for CheckOptionScopes(): IN_ROLE_COUNTS if a role count is
    ///         given, else IN_PAPER_ROLES (--nodes then names no point of its own)
    uint32_t GetPlaces() const;

    /// \return --threads as given ("--threads = \"4\""), or empty when not given
    std::string DescribeThreads() const;

  private:
    SweepConfig m_defaults;      //!< defaults
    ScenarioOptions m_study;     //!< the study's options
    std::string m_nodes;         //!< --sweepNodes
    std::string m_degrees;       //!< --sweepDegrees
    std::string m_reservedPorts; //!< --sweepR
    std::string m_kvShares;      //!< --sweepKvShare
    std::string m_constructions; //!< --sweepConstruction
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWEEP_OPTIONS_H */
