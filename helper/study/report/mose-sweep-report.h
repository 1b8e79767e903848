/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWEEP_REPORT_H
#define MOSE_SWEEP_REPORT_H

#include "mose-sweep.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The report of a Sweep (mose-sweep, "Design-space sweeps" in doc/mose.rst): the
 *        table of every point's headline numbers, sweep.csv and skipped.csv, and the gnuplot
 *        figures.
 */
class SweepReport
{
  public:
    /// \param sweep the sweep, after Run(); must outlive this object
    explicit SweepReport(const Sweep& sweep);

    /**
     * \brief Prints one line per point: MoSE's headline numbers (KV avg cost and MaxLoad
     *        inference-heavy, training avg cost training-heavy, S-Train's KV avg cost, circuits
     *        changed per switch into each mode), or why the point was skipped.
     * \param os the stream
     */
    void PrintTable(std::ostream& os) const;

    /**
     * \brief Writes into a folder (created if missing):
     *        sweep.csv (nodes,degree,r,kv_share,construction,mode,policy,metric,mean,ci95,n: every
     *        policy x mode x metric, plus metrics switch_kept and switch_changed for MoSE) and
     *        skipped.csv (nodes,degree,r,kv_share,construction,reason).
     * \param dir the folder
     */
    void WriteCsv(const std::string& dir) const;

    /**
     * \return the files WriteCsv() writes, sweep.csv and skipped.csv, so that a program
     *         declares them before the sweep runs (Program::AddOutputFiles())
     */
    static std::vector<std::string> GetCsvFileNames();

    /**
     * \param config the sweep's configuration (its N, rho and constructions)
     * \return the scripts WritePlots() writes for it, computed from the configuration alone (not
     *         from the results), for Program::AddPlotFiles()
     */
    static std::vector<std::string> GetPlotFileNames(const SweepConfig& config);

    /**
     * \brief Writes the figures as gnuplot scripts with inline data (PNG terminal):
     *        per (N, rho, construction): kv_cost_vs_r_n<N>_kv<rho>_<construction>.plt (MoSE's
     *        KV avg cost, inference-heavy, against r, one curve per d) and
     *        tr_cost_vs_r_n<N>_kv<rho>_<construction>.plt (MoSE's training avg cost,
     *        training-heavy, against r); per (N, rho): switch_vs_r_n<N>_kv<rho>.plt (circuits
     * changed per MoSE switch, mean of the two switches, against r; one colour per d, solid fresh,
     * dashed rewiring-aware); if several N: per mode, max_load_vs_n_<mode>.plt (MaxLoad against N,
     * one curve per policy and d, at r = d - 1 if swept, else the smallest r swept for that d;
     * first rho and construction). \param dir the folder \return the .plt files written
     */
    std::vector<std::string> WritePlots(const std::string& dir) const;

  private:
    /**
     * \brief Writes kv_cost_vs_r_ and tr_cost_vs_r_n<N>_kv<rho>_<construction>.plt for every
     *        construction (WritePlots()).
     * \param dir the folder \param n N \param rho the KV share
     * \param written the scripts written, appended to
     */
    void WriteCostPlots(const std::string& dir,
                        uint32_t n,
                        double rho,
                        std::vector<std::string>& written) const;
    /**
     * \brief Writes switch_vs_r_n<N>_kv<rho>.plt (WritePlots()).
     * \param dir the folder \param n N \param rho the KV share
     * \param written the scripts written, appended to
     */
    void WriteSwitchPlot(const std::string& dir,
                         uint32_t n,
                         double rho,
                         std::vector<std::string>& written) const;
    /**
     * \param degree d
     * \return the r of the MaxLoad-against-N curves at d: d - 1 if swept for d, else the
     *         smallest r swept for d; none if d has no point
     */
    std::optional<uint32_t> ChooseMaxLoadR(uint32_t degree) const;
    /**
     * \brief Writes max_load_vs_n_<mode>.plt (WritePlots()).
     * \param dir the folder \param mode the mode
     * \param written the scripts written, appended to
     */
    void WriteMaxLoadPlot(const std::string& dir,
                          WorkloadMode mode,
                          std::vector<std::string>& written) const;

    const Sweep& m_sweep; //!< the sweep
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWEEP_REPORT_H */
