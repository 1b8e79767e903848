/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FCT_CDF_PLOT_H
#define MOSE_FCT_CDF_PLOT_H

#include "ns3/gnuplot.h"
#include "ns3/mose-transfer-monitor.h"

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
 * \brief The figure of mose-packet: the CDF of the flow completion times per traffic class
 *        (one plot for KV transfers, one for training), one line per run (a policy's template
 *        or a circuit graph from a file), as one gnuplot script with two PNG outputs.
 */
class FctCdfPlot
{
  public:
    /**
     * \brief Adds one run's completed transfers: a line in each class's plot.
     * \param transfers the run's transfers (the incomplete ones are left out)
     * \param title the line's title
     */
    void AddRun(const std::vector<MoseTransfer>& transfers, const std::string& title);
    /**
     * \brief Adds one run's completion times (GetCompletionTimes()): what AddRun() adds, from
     *        a run's record (mose-packet's runs as a list).
     * \param kvMs the KV transfers' \param trainingMs the training transfers'
     * \param title the line's title
     */
    void AddTimes(const std::vector<double>& kvMs,
                  const std::vector<double>& trainingMs,
                  const std::string& title);
    /**
     * \param transfers transfers \param cls a traffic class
     * \return the class's completed transfers' completion times, milliseconds, ascending
     */
    static std::vector<double> GetCompletionTimes(const std::vector<MoseTransfer>& transfers,
                                                  TrafficClass cls);

    /**
     * \brief Writes the script: BASE_kv.png and BASE_training.png, titled with the mode and N,
     *        FCT in milliseconds against the CDF.
     * \param base the PNG files' base name ("fct_cdf_inference-heavy")
     * \param mode the workload mode, for the titles
     * \param nodes N, for the titles
     * \param os the stream
     */
    void GenerateOutput(const std::string& base,
                        const std::string& mode,
                        uint32_t nodes,
                        std::ostream& os);

    /**
     * \param transfers transfers
     * \param cls a traffic class
     * \param title the data set's title
     * \return the CDF of the class's completed transfers' completion times (milliseconds)
     */
    static Gnuplot2dDataset MakeCdf(const std::vector<MoseTransfer>& transfers,
                                    TrafficClass cls,
                                    const std::string& title);

  private:
    Gnuplot m_kv;       //!< the KV transfers' plot
    Gnuplot m_training; //!< the training transfers' plot
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FCT_CDF_PLOT_H */
