/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COST_OPTIONS_H
#define MOSE_SWITCH_COST_OPTIONS_H

#include "mose-switch-cost-report.h"

#include "ns3/command-line.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-flow-experiment-config.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief What mose-break-even's options give, checked (SwitchCostOptions::GetConfig()).
 */
struct SwitchCostConfig
{
    Metric metric{Metric::AVG_COST}; //!< the cost rate (--metric)
    SwitchCostParameters params;     //!< the penalty, with the options that gave it
    ModeSchedule schedule;           //!< --schedule, or the alternating one
    bool alternating{true};          //!< whether the schedule is AlternatingSchedule()
    std::vector<double> durations;   //!< the mode durations T of the figure
};

/**
 * \ingroup mose-study
 * \brief The options of mose-break-even beside the scenario options: the cost rate (--metric),
 *        the switch penalty (--darkTime, --unservedFactor, --unservedShare), the schedule
 *        (--schedule, or --cycles x --modeDuration) and the figure's mode durations
 *        (--minDuration, --maxDuration, --points). GetConfig() checks them before the study
 *        runs, SwitchCostParameters::Validate() with the options' names.
 */
class SwitchCostOptions
{
  public:
    /**
     * \brief Adds the options to a command line (this object must outlive cmd.Parse()).
     * \param cmd the command line
     */
    void AddOptions(CommandLine& cmd);

    /**
     * \brief The options read and checked; with drawn flows (no flows file) also whether a
     *        switch's penalty can overflow (the cost rates are bounded by MaxDrawnCostRate()).
     * \param study the study's configuration (--nodes, --flows and the flows files)
     * \return the configuration; a mose::Error naming the option otherwise
     */
    SwitchCostConfig GetConfig(const FlowExperimentConfig& study) const;

    /**
     * \brief SwitchCostReport::PrintTables(), with a cycle cost that overflows (flows from
     *        files bound no rate before the study) reported as too large a --darkTime or
     *        --unservedFactor. Prints nothing in that case.
     * \param report the report
     * \param os the stream
     */
    void PrintTables(const SwitchCostReport& report, std::ostream& os) const;

  private:
    std::string m_metric{"avg_cost"};   //!< --metric
    std::string m_darkTime{"0.025"};    //!< --darkTime
    std::string m_factor{"1"};          //!< --unservedFactor
    std::string m_share;                //!< --unservedShare
    std::string m_schedule;             //!< --schedule
    std::string m_modeDuration{"3600"}; //!< --modeDuration
    std::string m_cycles{"12"};         //!< --cycles
    std::string m_minDuration{"1e-3"};  //!< --minDuration
    std::string m_maxDuration{"1e4"};   //!< --maxDuration
    std::string m_points{"141"};        //!< --points
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COST_OPTIONS_H */
