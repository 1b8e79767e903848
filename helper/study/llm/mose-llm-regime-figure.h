/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_REGIME_FIGURE_H
#define MOSE_LLM_REGIME_FIGURE_H

#include "mose-study-statistics.h"

#include <cstdint>
#include <functional>
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
 * \brief One cell of a regime map as its figure and a merged grid need it: MoSE's margin
 *        against the best static policy at one (load, mode interval, dark time), its 95%
 *        interval and verdict, and the flow-level break-even T*.
 */
struct LlmRegimePoint
{
    std::string level;          //!< "packet", "fluid", ...; empty: not named
    double load{0};             //!< requests per second
    double interval{0};         //!< the mode interval T (s)
    double darkTime{0};         //!< the OCS dark time D (s)
    uint32_t samples{0};        //!< samples of the margin (seeds x cycles)
    double mean{0};             //!< MoSE's overall margin, the samples' mean (fraction)
    std::optional<double> low;  //!< the 95% interval's lower end (none: one sample)
    std::optional<double> high; //!< its upper end
    MarginVerdict verdict{MarginVerdict::NONE}; //!< the interval against the tie band
    std::string bestStatic{"-"};                //!< the best static policy ("-": none)
    /// the flow-level break-even T* (s) of MoSE against bestStatic, when it is a finite T > 0
    std::optional<double> flowBreakEven;
};

/**
 * \ingroup mose-study
 * \brief The validated error beside one cell of a map (LlmValidatedRegimes::Validate()): the
 *        validation suite's cell nearest to it and the measured error of MoSE's overall margin
 *        there (fluid level minus packet level).
 */
struct LlmRegimeValidation
{
    std::string suiteCell;             //!< the nearest suite cell, "SET/LOAD" (empty: no suite)
    bool inside{false};                //!< the cell lies inside the validated regimes
    std::optional<double> marginError; //!< that suite cell's margin error (none: not measured)
};

/**
 * \ingroup mose-study
 * \brief The figure of a regime map, or of a grid merged from several maps' regime_map.csv
 *        (maps run apart: by load, by interval, on several cores or machines).
 *
 * The figure (WritePlot()) has one panel per dark time, MoSE's margin (%) against the mode
 * interval in each, one line per load with each point's 95% interval as an error bar, the tie
 * band shaded, the zero line always in range and the flow-level break-even T* of the panel's
 * dark time marked on it. A panel whose margins reach beyond ten tie bands gets an asinh y
 * axis (linear inside the band, logarithmic far from it), so that margins of a few percent and
 * of thousands stay readable in one panel; x is logarithmic when T and T* span a factor of 10.
 */
class LlmRegimeFigure
{
  public:
    /// \param tolerance the tie band's half-width (0.02: +-2%), finite and >= 0 (Error)
    explicit LlmRegimeFigure(double tolerance);

    /**
     * \brief Adds a cell; a mose::Error for a non-finite or negative load, interval or dark
     *        time, a non-finite margin, an interval not around its mean, or a cell (level,
     *        load, interval, dark time) already added.
     * \param point the cell
     */
    void Add(const LlmRegimePoint& point);

    /**
     * \brief Adds every row of a regime_map.csv (LlmRegimeMap::WriteCsv(), or WriteCsv()'s
     *        merged grid). A mose::Error "PATH:LINE: problem" for a file that cannot be read,
     *        a missing column, a malformed number, a cell already added, a level unlike the
     *        cells' before, or a ci_verdict that does not follow from the row's interval with
     *        this figure's tolerance (the map was run with another tie band).
     * \param path the file
     * \return the rows read
     */
    uint32_t AddCsv(const std::string& path);

    /// \return the cells, sorted by load, dark time and interval
    std::vector<LlmRegimePoint> GetPoints() const;

    /**
     * \brief Puts the validated error beside every cell: WriteCsv() appends the columns
     *        suite_cell, validated (inside or outside the validated regimes),
     *        validated_margin_error and near_band (IsNearBand() with |error|: 1 or 0; empty
     *        when the suite cell has no margin error), and Summarize() names the cells near
     *        the band.
     * \param validate a cell's validation, called once per cell
     */
    void Validate(const std::function<LlmRegimeValidation(const LlmRegimePoint&)>& validate);

    /**
     * \brief Whether a cell's verdict lies within an error of the tie band: its 95% interval
     *        widened by `error` on each side would give another verdict. Pays: high + error >=
     *        -tolerance; does not pay: low - error <= +tolerance; tie: low - error < -tolerance
     *        or high + error > +tolerance. An undecided cell (or one without an interval) stays
     *        undecided however wide: false.
     * \param point the cell
     * \param error the error, >= 0 (its magnitude is taken)
     * \param tolerance the tie band's half-width
     * \return whether it is near the band
     */
    static bool IsNearBand(const LlmRegimePoint& point, double error, double tolerance);

    /// \return the tie band's half-width
    double GetTolerance() const;

    /**
     * \brief The merged grid as CSV: level, load_per_s, interval_s, dark_s, samples,
     *        margin_mean, margin_ci_low, margin_ci_high, ci_verdict, best_static,
     *        flow_break_even_s (and after Validate() its four columns), one row per cell in
     * GetPoints()' order (AddCsv() reads it back). \param os the stream
     */
    void WriteCsv(std::ostream& os) const;

    /**
     * \brief The gnuplot script of the figure (see the class), pngcairo.
     * \param os the stream
     * \param title the figure's title, lines separated by "\\n" (gnuplot's escape); a text
     *        from the command line in it is escaped first (EscapeGnuplotText())
     * \param png the image it writes
     */
    void WritePlot(std::ostream& os, const std::string& title, const std::string& png) const;

    /**
     * \return "pays in P of C cells, ties in T, does not pay in N, undecided in U" and one line
     *         per cell that pays or ties
     */
    std::string Summarize() const;

  private:
    /// \param p a cell \return its validation (Validate()), or none
    const LlmRegimeValidation* FindValidation(const LlmRegimePoint& p) const;

    double m_tolerance;                   //!< the tie band's half-width
    std::vector<LlmRegimePoint> m_points; //!< in the order added
    /// per cell (load, interval, dark time) its validation; empty: Validate() not called
    std::vector<std::pair<LlmRegimePoint, LlmRegimeValidation>> m_validation;
};

} // namespace mose
} // namespace ns3

#endif // MOSE_LLM_REGIME_FIGURE_H
