/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_EXPERIMENT_REPORT_H
#define MOSE_SWITCH_EXPERIMENT_REPORT_H

#include "mose-switch-experiment.h"

#include "ns3/gnuplot.h"
#include "ns3/nstime.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The report of a switching preset's run (mose-mode-switch, InstallSwitchWorkload()):
 *        the printed timeline and intervals, the CSV files and the goodput figure.
 */
class SwitchExperimentReport
{
  public:
    /// \param experiment the run (after Run() for the packet-level parts) \param result its
    ///        workload's result (InstallSwitchWorkload()); both must outlive this object
    SwitchExperimentReport(const Experiment& experiment, const SwitchResult& result);

    /// \brief Prints the timeline, per interval the switch, the flow-level metrics and the
    ///        packet-level FCT per class, and the whole run \param os the stream
    void Print(std::ostream& os) const;

    /**
     * \brief Writes into a folder (created if missing): PREFIXintervals.csv (one row per
     *        interval: timeline, switch costs (switch_done 0: unfinished, its figures up to
     *        switch_until_s; batches: the batches used), flow-level metrics, packet-level FCT
     *        per class, circuit bytes), PREFIXcircuits.csv (interval, circuit, u, v, flow-level
     *        load, load x bytes per unit, measured bytes), PREFIXgoodput.csv (time bins) and
     *        PREFIXtransfers.csv (every transfer with its interval).
     * \param dir the folder
     * \param prefix file name prefix, e.g. "MoSE_"
     */
    void WriteCsv(const std::string& dir, const std::string& prefix) const;

    /// \return the names WriteCsv() gives its files after the prefix, for a program to declare
    ///         them as outputs before it runs
    static std::vector<std::string> GetCsvFileNames();

    /**
     * \brief The goodput timeline as a gnuplot figure: Gb/s per class per time bin, the
     *        switches' starts (solid) and ends (dashed) as vertical lines, interval modes as
     *        labels.
     * \param pngFile the figure's file name (pngcairo terminal)
     * \return the plot (GenerateOutput() writes its script)
     */
    Gnuplot MakeGoodputPlot(const std::string& pngFile) const;

  private:
    /// \brief Print(): one interval's switch, flow level, FCT per class and circuits
    /// \param os the stream \param iv the interval
    void PrintInterval(std::ostream& os, const SwitchInterval& iv) const;
    /// \brief IntervalsCsv(): the switch columns of an interval's row (empty without a switch)
    /// \param os the row \param interval the interval
    void WriteSwitchColumns(std::ostream& os, uint32_t interval) const;
    /// \return intervals.csv's text (WriteCsv())
    std::string IntervalsCsv() const;
    /// \return circuits.csv's text (WriteCsv())
    std::string CircuitsCsv() const;
    /// \return goodput.csv's text (WriteCsv())
    std::string GoodputCsv() const;
    /// \return transfers.csv's text (WriteCsv())
    std::string TransfersCsv() const;

    const Experiment& m_experiment; //!< the run
    const SwitchResult& m_result;   //!< its workload's result
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_EXPERIMENT_REPORT_H */
