/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_LEVEL_SUITE_H
#define MOSE_LLM_LEVEL_SUITE_H

#include "mose-llm-level-validation.h"

#include <array>
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
 * \brief The settings that tell the suite's regimes apart: a cell set's fabric and workload,
 *        as its runs' records give them (the options the set was run with).
 */
struct LlmSuiteRegime
{
    uint32_t nodes{0};         //!< N (0: not known)
    uint32_t degree{0};        //!< d
    uint32_t hostsPerGroup{0}; //!< G
    std::string transport;     //!< tcp or rdma
    std::string collective;    //!< the training job's collective (canonical name)
    std::string placement;     //!< the placement rule (canonical name)

    /// \return whether the records gave every setting
    bool IsKnown() const;
    /// \return "N 64, d 8, rdma, all-to-all, circuit-aware, G 1" ("unknown" if not known)
    std::string GetText() const;
    /**
     * \brief Reads a set's regime from the `options=` line of the first run record in
     *        FOLDER/runs, or FOLDER/../work/runs for a map merged by utils/mose-slurm.sh. Every
     *        setting must be given there (utils/fluid-suite.sh names each one); a folder
     *        without records, or options that leave one out, give a regime that is not known.
     * \param folder the set's folder
     * \return the regime
     */
    static LlmSuiteRegime Read(const std::string& folder);
};

/**
 * \ingroup mose-study
 * \brief The fluid level's validation suite (issue 41): the level comparisons of many cell sets
 *        (each a mose-llm map run at two levels, --level=packet,fluid, over several seeds) put
 *        in one table, per cell and policy, with the bounds the suite holds the compared level
 *        to.
 *
 * A cell set is a folder of such a map: level_validation.csv (run by run: one row per cell,
 * seed and policy), and REFERENCE/regime_map.csv and COMPARED/regime_map.csv (one per level,
 * named by level_validation.csv's columns). Per cell and policy the suite gives each level's
 * mean over the seeds of the four figures (mean KV time, mean TTFT, P99 TTFT, mean iteration
 * time), the relative error of the compared level's mean, (compared - reference) /
 * reference, and the worst seed's error (the largest |error|, signed); the requests served at
 * each level (over all seeds) and the packets the reference level lost; each level's verdict.
 *
 * A policy is overloaded in a cell when one of its runs served fewer requests than its trace
 * offered at either level (a backlog that the run's end cut; level_validation.csv's requests
 * and LEVEL_served columns). A cell's verdict is decided by MoSE and the
 * best static policy (of either level). The bounds (LlmLevelValidation::GetMeanBound(),
 * GetP99Bound()): a cell holds them when every deciding policy that is not overloaded has its
 * three means within 5% and its P99 TTFT within 15%; a cell whose deciding policies are all
 * overloaded is not judged.
 */
class LlmLevelSuite
{
  public:
    /// One policy in one cell of a cell set
    struct Row
    {
        std::string set;                         //!< the cell set's name
        LlmSuiteRegime regime;                   //!< the set's regime
        double load{0};                          //!< requests per second
        double interval{0};                      //!< T (s)
        double darkTime{0};                      //!< D (s)
        mose::Policy policy{mose::Policy::MOSE}; //!< the policy
        uint32_t seeds{0};                       //!< the seeds the means are over
        std::array<double, 4> reference{};       //!< the reference level's means (s)
        std::array<double, 4> compared{};        //!< the compared level's means (s)
        std::array<double, 4> worst{};           //!< the worst seed's error per figure
        std::array<bool, 4> used{};              //!< every seed has the figure at both levels
        uint64_t requests{0};                    //!< the requests of its runs (all seeds)
        uint64_t referenceServed{0};             //!< of those, served at the reference level
        uint64_t comparedServed{0};              //!< served at the compared level
        uint64_t referenceLost{0};               //!< packets the reference level lost (all seeds)
        bool overloaded{false}; //!< a run served fewer than its requests at either level
        bool decides{false};    //!< MoSE or a best static policy of the cell
        /// \param f a figure \return (compared - reference) / reference of the means (0 if
        ///         not used)
        double GetError(LlmLevelValidation::Figure f) const;
    };

    /// One cell of a cell set
    struct Cell
    {
        std::string set;              //!< the cell set's name
        double load{0};               //!< requests per second
        double interval{0};           //!< T (s)
        double darkTime{0};           //!< D (s)
        std::string referenceVerdict; //!< the reference level's verdict (on the mean)
        std::string comparedVerdict;  //!< the compared level's
        std::string referenceCi;      //!< the reference level's ci_verdict ("" without)
        std::string comparedCi;       //!< the compared level's
        bool judged{false};           //!< some deciding policy is not overloaded
        /// the figures out of bounds: "MoSE P99 TTFT +21.3%", empty when the cell holds them
        std::vector<std::string> outOfBounds;
    };

    LlmLevelSuite() = default;

    /**
     * \brief Adds a cell set: reads FOLDER/level_validation.csv and both levels'
     *        FOLDER/LEVEL/regime_map.csv (ReadRegimeMapFile()). The set is named after the
     *        folder (its parent's name for a folder named "map", as utils/mose-slurm.sh's
     *        merge writes it). Every cell of the validation must be in both maps, with the
     *        same seeds; a set of other levels than the sets before, a set named twice, and a
     *        level_validation.csv of two files' means (mose-regime-figure --compare) are
     *        errors naming the file.
     * \param folder the map's output folder
     * \return the cells it added
     */
    uint32_t AddSet(const std::string& folder);

    /**
     * \param folder a cell set's folder
     * \return the set's name: the folder's last part, its parent's for a folder named "map"
     */
    static std::string GetSetName(const std::string& folder);

    /// \param f a figure \return its name in the tables ("KV", "TTFT", "P99 TTFT", "iteration")
    static std::string GetFigureTitle(LlmLevelValidation::Figure f);

    /**
     * \brief Refuses, before any file is read, a list of folders that names a set twice.
     * \param folders the folders as given
     * \param option the option they were given with ("--suite"), for the message
     */
    static void CheckSetNames(const std::vector<std::string>& folders, const std::string& option);

    /// \return the rows, by set, cell and policy in the files' order
    const std::vector<Row>& GetRows() const;
    /// \return the cells, by set, in the files' order
    const std::vector<Cell>& GetCells() const;
    /// \return the reference level's name ("packet")
    const std::string& GetReferenceLevel() const;
    /// \return the compared level's name ("fluid")
    const std::string& GetComparedLevel() const;

    /// \return the cells with the same verdict (on the mean) at both levels
    uint32_t CountSameVerdicts() const;
    /// \return the judged cells (some deciding policy not overloaded)
    uint32_t CountJudged() const;
    /// \return of those, the cells that hold the bounds
    uint32_t CountWithinBounds() const;
    /**
     * \param f a figure
     * \param decidingOnly only the deciding policies that are not overloaded
     * \return the row with the largest |error of the means| of the figure (none: nullptr)
     */
    const Row* GetWorst(LlmLevelValidation::Figure f, bool decidingOnly) const;

    /// \brief Prints the table per cell and policy, the verdicts and the bounds
    /// \param os the stream
    void Print(std::ostream& os) const;
    /// \brief level_suite.csv: one row per cell and policy
    /// \param os the stream
    void WriteCsv(std::ostream& os) const;
    /// \brief The table per cell and policy as reStructuredText, for doc/mose.rst
    /// \param os the stream
    void WriteRst(std::ostream& os) const;

  private:
    std::vector<Row> m_rows;         //!< per set, cell and policy
    std::vector<Cell> m_cells;       //!< per set and cell
    std::vector<std::string> m_sets; //!< the sets' names, in order
    std::string m_reference;         //!< the reference level
    std::string m_compared;          //!< the compared level
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_LEVEL_SUITE_H */
