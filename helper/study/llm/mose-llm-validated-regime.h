/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_VALIDATED_REGIME_H
#define MOSE_LLM_VALIDATED_REGIME_H

#include "mose-experiment.h"
#include "mose-llm-level-suite.h"

#include <array>
#include <cstdint>
#include <istream>
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
 * \brief The regimes the fluid level was validated in, from the validation suite's
 *        level_suite.csv (LlmLevelSuite::WriteCsv()): per judged cell its regime, load and the
 *        worst errors of its deciding policies. A fluid or aggregate answer names the suite cell
 *        nearest to its own settings and that cell's errors (Describe()); a run outside every
 *        validated regime says so.
 *
 * The module carries the suite measured on its fluid model (doc/figures/level-suite.csv, made
 * by utils/fluid-suite.sh; GetBuiltIn()). Nearest: a cell of the same transport, collective,
 * placement and hosts per group first; among those the least sum of |log2| ratios of N, d and
 * the load per group. Per cell it also keeps the error of MoSE's overall margin
 * (Cell::marginError), what a verdict near the tie band must be weighed against. A run is inside
 * the validated regimes when such a cell exists and its N, d and load per group lie within the
 * ranges those cells span.
 */
class LlmValidatedRegimes
{
  public:
    /// One judged cell of the suite
    struct Cell
    {
        std::string set;       //!< its cell set
        LlmSuiteRegime regime; //!< the set's regime
        double load{0};        //!< requests per second
        double interval{0};    //!< T (s)
        double darkTime{0};    //!< D (s)
        uint32_t seeds{0};     //!< seeds per policy
        /// per figure (LlmLevelValidation::Figure) the error of the means with the largest
        /// magnitude over the deciding policies that are not overloaded (signed)
        std::array<double, 4> worst{};
        bool withinBounds{false}; //!< the cell holds the bounds
        bool sameVerdict{false};  //!< both levels give the same verdict
        /// the measured error of MoSE's overall margin itself: its margin at the compared
        /// level minus that at the reference level (fluid minus packet), each by the map's rule
        /// (LlmCellVerdict::Compute()) on the level's per-policy means over the seeds, every
        /// policy of the cell taking part; none when a level gives no margin (MoSE or every
        /// static policy missing, no criterion used)
        std::optional<double> marginError;
    };

    /// A run's settings, to be matched with the suite's cells
    struct Query
    {
        LlmSuiteRegime regime; //!< its regime
        double load{0};        //!< its load, requests per second
        /// its training job runs a trace's plan (--trainingTrace), which the suite did not:
        /// outside every validated regime
        bool tracedTraining{false};
        /// the fluid level runs with queues (--fluidQueues), which the suite did not: outside
        bool fluidQueues{false};
    };

    /// What Find() gives: the nearest cell, and why the run is outside the validated regimes
    struct Match
    {
        const Cell* cell{nullptr};        //!< the nearest judged cell (none: no suite)
        std::vector<std::string> outside; //!< empty: inside the validated regimes
    };

    LlmValidatedRegimes() = default;

    /**
     * \brief Reads a level_suite.csv; a malformed one is a mose::Error naming `name` and the
     *        line. Rows whose set has no known regime (its records were not found) are left
     *        out, and cells none of whose deciding policies is left (every one overloaded).
     * \param in the text
     * \param name its name in messages
     * \return the regimes
     */
    static LlmValidatedRegimes FromCsv(std::istream& in, const std::string& name);

    /// \return the suite built into the module (doc/figures/level-suite.csv; empty if the
    ///         module was built without one)
    static const LlmValidatedRegimes& GetBuiltIn();

    /// \return the judged cells
    const std::vector<Cell>& GetCells() const;

    /**
     * \param query a run's settings
     * \return the nearest cell and the reasons the run is outside the validated regimes
     */
    Match Find(const Query& query) const;

    /**
     * \brief The line a fluid or aggregate answer carries: the nearest suite cell, its errors
     *        (compared level against packet level) and whether the run lies inside the
     *        validated regimes.
     * \param query a run's settings
     * \param level the level of the answer ("fluid", "aggregate")
     * \return the text, one line
     */
    std::string Describe(const Query& query, const std::string& level) const;

    /**
     * \brief The validated error beside one cell of a regime map or grid: the nearest suite
     *        cell to (regime, load) by Find()'s rule, its margin error, and whether the cell
     *        lies inside the validated regimes.
     * \param regime the map's regime (its N, d, transport, ...)
     * \param load the cell's load, requests per second
     * \return the cell's validation (suiteCell empty: no suite)
     */
    LlmRegimeValidation Validate(const LlmSuiteRegime& regime, double load) const;

  private:
    std::vector<Cell> m_cells; //!< the judged cells
    std::string m_levels;      //!< "fluid vs packet": what the errors compare
};

/**
 * \ingroup mose-study
 * \brief Reads a map's regime as mose-regime-figure --regime gives it: "nodes=N,degree=D,
 *        transport=T" with optionally collective=C, placement=P and hostsPerGroup=G (mose-llm's
 *        options; when left out, mose-llm's defaults all-to-all, circuit-aware and 1). A
 *        mose::Error naming the option, the text and what is allowed for an unknown or repeated
 *        key, a missing one or a value that is not allowed.
 * \param option the option as typed ("--regime")
 * \param text its value
 * \return the regime
 */
LlmSuiteRegime ParseSuiteRegime(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \brief Prints, for each fluid or aggregate level of a run and each of its loads, the line of
 *        the built-in validation suite (LlmValidatedRegimes::Describe()): "validated (fluid,
 *        800/s): ...". Nothing for a run at the packet level only.
 * \param os the stream
 * \param config the run's configuration (its fabric, transport, workload and hosts)
 * \param loads its loads, requests per second (the map's; one experiment's mean rate)
 * \param levels its levels
 */
void PrintValidatedRegimes(std::ostream& os,
                           const ExperimentConfig& config,
                           const std::vector<double>& loads,
                           const std::vector<LlmLevel>& levels);

/**
 * \ingroup mose-study
 * \param requests one experiment's requests
 * \return their mean rate, requests per second: the count over the span of their arrivals (0
 *         for fewer than two or a span of 0)
 */
double MeanRequestRate(const std::vector<mose::LlmRequest>& requests);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_VALIDATED_REGIME_H */
