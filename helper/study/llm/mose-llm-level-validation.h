/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_LEVEL_VALIDATION_H
#define MOSE_LLM_LEVEL_VALIDATION_H

#include "mose-llm-regime-map.h"

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief One cell of a regime_map.csv file as ReadRegimeMapFile() reads it.
 */
struct RegimeMapFileCell
{
    uint64_t line{0};                                //!< its line in the file
    std::map<Policy, std::array<double, 4>> figures; //!< per policy: KV, TTFT, P99, iteration (s)
    std::string verdict;                             //!< the `verdict` column
    std::string ciVerdict;  //!< the `ci_verdict` column ("" if the file has none)
    std::string bestStatic; //!< the `best_static` column ("" if the file has none)
    double requests{0};     //!< the `requests` column: the requests of the cell's runs (mean)
    std::map<Policy, double> served; //!< per policy with a `P_served` column: its mean
    std::map<Policy, double> lost;   //!< per policy with a `P_lost` column: its mean
};

/**
 * \ingroup mose-study
 * \brief A regime_map.csv file's level and cells, as ReadRegimeMapFile() reads it.
 */
struct RegimeMapFile
{
    std::string level{"packet"};                           //!< `level`, if any
    bool levelColumn{false};                               //!< the file has `level`
    std::vector<std::tuple<double, double, double>> order; //!< the cells' (load, T, D)
    std::map<std::tuple<double, double, double>, RegimeMapFileCell> cells; //!< by key
    std::vector<Policy> policies;                                          //!< with columns
    uint32_t seeds{1}; //!< the seeds each cell's figures are the mean over (`seeds`)
    /// the tie bands its ci_verdicts allow: [bandLow, bandHigh) (DecideMargin())
    double bandLow{0};
    double bandHigh{std::numeric_limits<double>::infinity()}; //!< see bandLow
    uint64_t bandLowLine{0};                                  //!< the line that set bandLow
    uint64_t bandHighLine{0};                                 //!< the line that set bandHigh
};

/**
 * \ingroup mose-study
 * \brief Reads a regime_map.csv (mose-llm's map, any level): its cells by (load, T, D), each
 *        policy's four figures, the verdicts, and where the file has them the requests, the
 *        served and lost counts and the best static policy. A UTF-8 byte-order mark is skipped
 *        (CsvTable); a level, verdict or ci_verdict that is no such word, a negative time or
 *        count, a seed count that changes, an interval whose ends are reversed, a header
 *        without cells, a cell given twice and ci_verdicts that no one tie band gives are
 *        errors naming file, line and column. LlmLevelValidation::FromCsv() and
 *        LlmLevelSuite read through it.
 * \param path the file
 * \return its cells
 */
RegimeMapFile ReadRegimeMapFile(const std::string& path);

/**
 * \ingroup mose-study
 * \brief One level against another on one regime map: the same cells, seeds and policies run
 *        at both levels, compared run by run: the fluid level against the packet level
 *        (mose-llm --level=both), or the aggregated collectives against the exact fluid level
 *        (--level=fluid,aggregate).
 *
 * Per run (cell, seed, policy) the relative difference (compared - reference) / reference of
 * mean KV time, mean TTFT, P99 TTFT and mean iteration time; per cell whether the two levels
 * give the same verdict; and the speed-up, the reference map's simulation wall time over the
 * compared map's.
 * The bounds a run is held to are the issue's: the means within 5%, P99 TTFT within 15%
 * (GetMeanBound(), GetP99Bound()).
 */
class LlmLevelValidation
{
  public:
    /// The figures compared, in column order
    enum Figure : uint8_t
    {
        KV_MEAN,   //!< mean KV transfer time
        TTFT_MEAN, //!< mean TTFT
        TTFT_P99,  //!< P99 TTFT
        ITER_MEAN, //!< mean iteration time
    };

    /// One run at both levels
    struct Row
    {
        double load{0};                          //!< requests per second
        double interval{0};                      //!< T (s)
        double darkTime{0};                      //!< D (s)
        uint32_t seed{0};                        //!< the seed k
        mose::Policy policy{mose::Policy::MOSE}; //!< the policy
        std::array<double, 4> reference{};       //!< the reference level's figures (s)
        std::array<double, 4> compared{};        //!< the compared level's figures (s)
        std::array<bool, 4> used{};              //!< both levels have the figure (> 0)
        uint32_t requests{0};                    //!< the run's requests (run by run only)
        std::array<uint32_t, 2> served{};        //!< served at each level (run by run only)
        /// \param f a figure \return (compared - reference) / reference (0 when not used)
        double GetDifference(Figure f) const;
    };

    /**
     * \param reference the map run at the reference level (e.g. packet)
     * \param compared the same map run at another level (same loads, intervals, dark times,
     *        seeds and policies; Error otherwise)
     */
    LlmLevelValidation(const LlmRegimeMap& reference, const LlmRegimeMap& compared);

    /**
     * \brief The same comparison from two maps' regime_map.csv files, run apart (two
     *        processes, two machines, the packet level on MPI ranks and the fluid level on a
     *        laptop): per cell (matched by load, T and D) and policy (the policies both files
     *        have columns for, in MoSE, S-Train, S-Inf, S-Comp order) the four figures of the
     *        files (means over the map's seeds, `seeds` of them: Print() and WriteCsv() say
     *        so), the verdicts of their `verdict` columns (the verdict on the mean). The files
     *        hold no wall time: GetSpeedUp() is 0 and Print() leaves the speed out. The levels
     *        are named by the files' `level` column ("packet" without one, as the packet
     *        level writes it; two files of one level are LEVEL_reference and LEVEL_other).
     *        Each file is checked: a UTF-8 byte-order mark is skipped (CsvTable), a level,
     *        verdict or ci_verdict that is no such word, a negative time, a seed count that
     *        changes, an interval whose ends are reversed, a header without cells, and
     *        ci_verdicts that no one tie band gives are errors naming file, line and column;
     *        two files whose verdicts need different tie bands are refused.
     * \param reference the reference map's regime_map.csv
     * \param compared the other map's, with the same cells (in any order)
     * \return the comparison; a mose::Error naming file and line for an unreadable or
     *         malformed file, a cell one file has and the other not, or no common policy
     */
    static LlmLevelValidation FromCsv(const std::string& reference, const std::string& compared);

    /// \return one row per (cell, seed, policy), in the maps' order
    const std::vector<Row>& GetRows() const;
    /// \param f a figure \return the largest |difference| over the rows that have it
    double GetWorst(Figure f) const;
    /// \param f a figure \return how many rows have it within its bound
    uint32_t CountWithinBound(Figure f) const;
    /// \param f a figure \return how many rows have it
    uint32_t CountUsed(Figure f) const;
    /// \return cells whose verdict is not a tie at either level
    uint32_t GetCellsOutsideTie() const;
    /// \return of those, the cells with the same verdict at both levels
    uint32_t GetCellsAgreeing() const;
    /// \return the reference map's simulation wall time over the compared map's
    double GetSpeedUp() const;

    /// \brief Prints the comparison: per cell and policy the differences, then the summary
    /// \param os the stream
    void Print(std::ostream& os) const;
    /// \brief level_validation.csv: one row per run with both levels' figures and differences
    /// \param os the stream
    void WriteCsv(std::ostream& os) const;

    /// \return whether the comparison is of two files' means (FromCsv()), not run by run
    bool IsFromFiles() const;
    /// \return what a row compares, for the table's title: "run by run (cell, seed, policy)",
    ///         or from files "cell by cell, each figure the mean over 3 seeds"
    std::string GetUnitText() const;

    /// \return the bound of the means (0.05)
    static double GetMeanBound();
    /// \return the bound of P99 TTFT (0.15)
    static double GetP99Bound();
    /// \param f a figure \return its CSV name ("kv_mean", "ttft_mean", "ttft_p99", "iter_mean")
    static std::string GetName(Figure f);

  private:
    LlmLevelValidation() = default; ///< FromCsv()

    std::vector<Row> m_rows;                 //!< per run
    std::string m_reference;                 //!< the reference level's name
    std::string m_compared;                  //!< the compared level's name
    std::vector<std::string> m_cellVerdicts; //!< per cell: "reference / compared verdict"
    uint32_t m_outsideTie{0};                //!< cells not tied at either level
    uint32_t m_agreeing{0};                  //!< of those, the same verdict
    double m_referenceWall{0};               //!< the reference map's wall time
    double m_comparedWall{0};                //!< the compared map's wall time
    uint32_t m_referenceSeeds{0};            //!< FromCsv(): the seeds of the reference file's means
    uint32_t m_comparedSeeds{0};             //!< FromCsv(): the seeds of the other file's means
};

/**
 * \ingroup mose-study
 * \brief Writes a regime map run at one or two levels (mose-llm's map, LlmMapRunner): each
 *        level's table, verdict, outputs (with two levels in outputDir/LEVEL, e.g.
 *        outputDir/packet and outputDir/fluid) and timing, then with two levels the
 *        LlmLevelValidation of the second against the first (printed, and
 *        level_validation.csv).
 * \param maps the maps, one per level, put together
 * \param outputDir the output folder (it exists)
 * \param render render the figures with gnuplot
 * \param os where the tables go
 */
void WriteLlmMapLevels(const std::vector<std::unique_ptr<LlmRegimeMap>>& maps,
                       const std::string& outputDir,
                       bool render,
                       std::ostream& os);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_LEVEL_VALIDATION_H */
