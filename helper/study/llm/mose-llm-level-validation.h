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
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

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
