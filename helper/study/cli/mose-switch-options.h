/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_OPTIONS_H
#define MOSE_SWITCH_OPTIONS_H

#include "mose-scenario-options.h"
#include "mose-switch-experiment.h"
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
 * \brief The options of mose-mode-switch beside the scenario options and the output options:
 *        the policies (--policies, the first reported in detail), the schedule (--schedule),
 *        --startWindow
 *        (or the attribute ns3::MoseTrafficHelper::StartWindow), --stopTime, --binWidth,
 *        --writeScenario, the level (--level: packet, fluid or aggregate) and the verdict's tie
 *        band --tolerance. GetConfig() checks them
 * (ValidateSwitchConfig(), with the options' texts), naming the option.
 */
class SwitchOptions
{
  public:
    /**
     * \brief Adds the options to a command line (this object must outlive cmd.Parse()).
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \brief The experiment's configuration, checked. The traffic attributes the program sets
     *        per mode interval (StartMode, StartTime, SinkPortBase) are rejected if the user set
     *        them; StartWindow and --startWindow must agree if both are given.
     * \param scenario the scenario options, after cmd.Parse()
     * \return the configuration
     */
    ExperimentConfig GetConfig(const ScenarioOptions& scenario) const;

    /// \return the policies of --policies, in order (the first is GetConfig().policy)
    std::vector<Policy> GetPolicies() const;

    /// \return whether more than one policy runs (the comparison and the verdict)
    bool IsComparing() const;

    /// \return whether --writeScenario is set
    bool IsWritingScenario() const;

    /**
     * \brief The seeds of the comparison: --seeds (the shared scenario option), more than one
     *        only with a comparison (IsComparing(); mose::Error naming --seeds otherwise).
     *        Seed k runs every policy on the run RngRun + k (its own scenario draw).
     * \param scenario the scenario options, after cmd.Parse()
     * \return the number of seeds
     */
    uint32_t GetSeeds(const ScenarioOptions& scenario) const;

    /// \return --tolerance: the tie band of the verdict over seeds, 0 <= tolerance < 1
    ///         (mose::Error naming --tolerance, its text and what is allowed otherwise)
    double GetTolerance() const;

  private:
    std::string m_policies{"MoSE,S-Train,S-Inf,S-Comp"}; //!< --policies
    /// --schedule
    std::string m_schedule{"inference-heavy:200ms,training-heavy:200ms,inference-heavy:200ms"};
    std::string m_startWindow{"150ms"}; //!< --startWindow
    bool m_startWindowGiven{false};     //!< whether --startWindow was given
    std::string m_stopTime{"30s"};      //!< --stopTime
    std::string m_binWidth{"1ms"};      //!< --binWidth
    std::string m_level{"packet"};      //!< --level
    TransportOptions m_transport;       //!< --transport, --ecnKmin, --ecnKmax, --ecnPmax
    bool m_writeScenario{false};        //!< --writeScenario
    std::string m_tolerance{"0.02"};    //!< --tolerance
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_OPTIONS_H */
