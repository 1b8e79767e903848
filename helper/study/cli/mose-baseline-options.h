/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_BASELINE_OPTIONS_H
#define MOSE_BASELINE_OPTIONS_H

#include "mose-baseline-comparison.h"
#include "mose-scenario-options.h"

#include "ns3/command-line.h"

#include <array>
#include <string>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The options of mose-baselines beside the scenario options: which switchless
 *        baselines (--baselines), their shapes (--torus2d, --torus3d, --fullMesh3d) and whether
 *        MoSE is also evaluated at their degrees (--moseAtBaselineDegrees); GetConfig() checks
 *        them and names the option in every message.
 */
class BaselineOptions
{
  public:
    /**
     * \brief Adds the options to a command line (this object must outlive cmd.Parse()).
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \brief The comparison the options describe, checked: every baseline once, a shape only for
     *        a baseline in --baselines, a shape's product --nodes (a baseline without a shape
     *        takes DefaultSwitchlessShape(), or the message says to leave it out); --nodes and
     *        --pdReservedPorts as the scenario options give them (a given r holds at every
     *        degree, the default d - 1 follows each degree).
     * \param scenario the scenario options, after cmd.Parse()
     * \return the configuration
     */
    BaselineComparisonConfig GetConfig(const ScenarioOptions& scenario) const;

    /**
     * \param config a comparison's configuration
     * \return its study at the largest degree it evaluates (for CheckStudyMemory())
     */
    static FlowExperimentConfig GetLargestStudy(const BaselineComparisonConfig& config);

    /**
     * \param config a comparison's configuration
     * \return its baselines as OptionPlace bits (IN_TORUS_2D, ...), for CheckOptionScopes()
     */
    static uint32_t GetPlaces(const BaselineComparisonConfig& config);

    /**
     * \param b a baseline
     * \return the option that gives its shape, without dashes ("torus2d")
     */
    static std::string GetShapeOption(SwitchlessBaseline b);

  private:
    std::string m_baselines{"torus-2d,torus-3d,full-mesh-3d"}; //!< --baselines
    /// --torus2d, --torus3d, --fullMesh3d (ALL_SWITCHLESS_BASELINES order)
    std::array<std::string, 3> m_shapes;
    bool m_moseAtBaselineDegrees{true}; //!< --moseAtBaselineDegrees
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_BASELINE_OPTIONS_H */
