/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_COST_REPORT_H
#define MOSE_SWITCH_COST_REPORT_H

#include "mose-switch-cost.h"

#include "ns3/mose-break-even.h"

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
 * \brief The report of a SwitchCostStudy (mose-break-even, "When switching pays" in
 *        doc/mose.rst): the tables of cost rates, break-even mode durations and the integrated
 *        cost of a schedule, their CSV files and the gnuplot figure of the cost per second of
 *        the alternating schedule against the mode duration T.
 */
class SwitchCostReport
{
  public:
    /**
     * \param study the study, after Run(); must outlive this object (its metric is the cost
     *        rate reported)
     * \param params the switch penalty's parameters (valid)
     * \param schedule the schedule whose integrated cost is reported (not empty)
     * \param durations the mode durations T of the figure and of cost_vs_duration.csv
     * \param alternating whether the schedule is AlternatingSchedule(): the table names it by
     *        its cycles instead of listing its periods
     */
    SwitchCostReport(const SwitchCostStudy& study,
                     const SwitchCostParameters& params,
                     ModeSchedule schedule,
                     std::vector<double> durations,
                     bool alternating);

    /**
     * \brief Prints the study's parameters, the cost rates and switches per policy and mode,
     *        the break-even mode durations of MoSE against each static policy and the
     *        integrated cost of the schedule with its verdict. The stream's format is restored.
     * \param os the stream
     */
    void PrintTables(std::ostream& os) const;

    /**
     * \brief Writes rates.csv (cost rate, unserved share, circuits and penalty per policy and
     *        mode), per_seed.csv, break_even.csv, schedule.csv and cost_vs_duration.csv into a
     *        folder (created if missing).
     * \param dir the folder
     */
    void WriteCsv(const std::string& dir) const;

    /**
     * \return the files WriteCsv() writes, whatever the study and schedule, so that a program
     *         declares them before its study runs (Program::AddOutputFiles())
     */
    static std::vector<std::string> GetCsvFileNames();

    /// \return the script WritePlots() writes, break_even.plt, for Program::AddPlotFiles()
    static std::vector<std::string> GetPlotFileNames();

    /**
     * \brief Writes break_even.plt: the cost per second of the alternating schedule against T
     *        (log scales, break-even points marked; gnuplot script with inline data, PNG
     *        terminal) into a folder (created if missing). Render it with
     *        StudyReport::RenderPlots().
     * \param dir the folder
     * \return the .plt files written
     */
    std::vector<std::string> WritePlots(const std::string& dir) const;

    /**
     * \brief Log-spaced mode durations for the figure: minT * (maxT / minT)^(i / (points - 1)).
     * \param minT the smallest, seconds (> 0)
     * \param maxT the largest, seconds (> minT)
     * \param points how many (>= 2)
     * \return the durations, ascending; Error if an argument is out of range
     */
    static std::vector<double> LogSpacedDurations(double minT, double maxT, uint32_t points);

  private:
    /// \param os the stream; prints the cost rates, circuits and penalties per policy and mode
    void PrintRates(std::ostream& os) const;
    /// \param os the stream; prints T* of MoSE against each static policy
    void PrintBreakEven(std::ostream& os) const;
    /// \param os the stream; prints the schedule's integrated costs and the verdict
    void PrintSchedule(std::ostream& os) const;

    const SwitchCostStudy& m_study;  //!< the study
    SwitchCostParameters m_params;   //!< the penalty's parameters
    ModeSchedule m_schedule;         //!< the schedule
    std::vector<double> m_durations; //!< the mode durations plotted
    bool m_alternating;              //!< the schedule is AlternatingSchedule()
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_COST_REPORT_H */
