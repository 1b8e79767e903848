/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_BASELINE_COMPARISON_H
#define MOSE_BASELINE_COMPARISON_H

#include "mose-seed-list.h"
#include "mose-seed-pool.h"
#include "mose-study-statistics.h"

#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-switchless-template.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief One switchless baseline of a comparison and its shape.
 */
struct BaselineSpec
{
    SwitchlessBaseline baseline{SwitchlessBaseline::TORUS_2D}; //!< which baseline
    GridShape shape; //!< its shape (product = the study's nodes)
    /// how messages name the shape (e.g. "--torus2d")
    std::string shapeName{"shape"};
};

/**
 * \ingroup mose-study
 * \brief The parameters of a comparison of MoSE with the switchless baselines.
 */
struct BaselineComparisonConfig
{
    /// the study's scenario: nodes, traffic, routing; MoSE and the static policies are
    /// evaluated at its degree as configured
    FlowExperimentConfig study;
    /// the study's seeds (runs study.firstRun + k) and worker threads
    SeedPlan seedPlan;
    /// the baselines (shapes validated against study.nodes)
    std::vector<BaselineSpec> baselines;
    /// also evaluate MoSE and the static policies at each baseline degree that differs from
    /// study.degree (equal port budget), with pdReservedPorts = baselineReservedPorts there
    bool moseAtBaselineDegrees{true};
    /// r of H^PD at the baseline degrees d: empty for d - 1 (every program's default rule);
    /// mose-baselines sets it to --pdReservedPorts when that option is given, so that a given r
    /// holds at every degree
    std::optional<uint32_t> baselineReservedPorts;
};

/**
 * \ingroup mose-study
 * \brief The default baselines for N groups: the 2D torus, the 3D torus and the 3D full-mesh in
 *        their most balanced shapes (DefaultSwitchlessShape()).
 * \param nodes N
 * \param nodesName how messages name N
 * \return the specs; throws a mose::Error if N has no default shape for one of them
 */
std::vector<BaselineSpec> DefaultBaselineSpecs(uint32_t nodes,
                                               const std::string& nodesName = "nodes");

/**
 * \ingroup mose-study
 * \brief One row of the comparison: a policy at a degree, or a switchless baseline.
 */
struct ComparisonRow
{
    bool isBaseline{false};                                    //!< a baseline, not a policy
    Policy policy{Policy::MOSE};                               //!< the policy (!isBaseline)
    SwitchlessBaseline baseline{SwitchlessBaseline::TORUS_2D}; //!< the baseline (isBaseline)
    GridShape shape;                                           //!< its shape (isBaseline)
    uint32_t degree{0}; //!< d: ports per group, the same for every group

    /// \return the policy's or the baseline's name ("MoSE", "torus-3d")
    std::string GetName() const;
    /// \return the shape ("16x8x8"), or "random" for a policy's templates
    std::string GetShapeText() const;
    /// \return a label for figures: name and degree, e.g. "MoSE d=6"
    std::string GetLabel() const;
};

/**
 * \ingroup mose-study
 * \brief Evaluates MoSE, the static policies and the switchless baselines on the same traffic,
 *        with the same routing and metrics as the flow-level study.
 *
 * For each seed (run firstRun + k) it draws the study's scenario (ScenarioBuilder::Build())
 * and evaluates, on the flows of both modes: every policy's template at study.degree; the same
 * at every baseline degree that differs (a builder whose config has degree = d and
 * pdReservedPorts = d - 1, or baselineReservedPorts if set; its flows are checked to be the
 * study's, flow for flow); and each baseline's fixed graph. All evaluations use ShortestPathRouting
 * with the study's rule and the run's routingSeed, and EvaluateFlows(); the statistics over seeds
 * are those of the study (mean and 95% confidence half-width, Summary). If the policies cannot
 * be built at a baseline's degree (FlowExperimentConfig::Validate() rejects it), that degree's
 * policy rows are left out and GetNotes() says why.
 */
class BaselineComparison
{
  public:
    /**
     * \param config the parameters: validated here (Error naming the parameter), the
     *        baselines' graphs are built here
     */
    explicit BaselineComparison(const BaselineComparisonConfig& config);

    /// \return the configuration
    const BaselineComparisonConfig& GetConfig() const;

    /// \return the rows, in table order: by degree, the policies before the baselines
    const std::vector<ComparisonRow>& GetRows() const;

    /// \return remarks on the comparison (port budgets, degrees left out and why)
    const std::vector<std::string>& GetNotes() const;

    /// \param i index into GetConfig().baselines \return its circuit graph
    const CircuitGraph& GetBaselineGraph(std::size_t i) const;

    /**
     * \brief Evaluates every seed, on seedPlan.threads worker threads (0: one per core).
     * \param progress called after each seed with (seeds done, seeds in all), may be empty;
     *        calls are serialised but may come from any worker thread
     */
    void Run(const std::function<void(uint32_t, uint32_t)>& progress = {});

    /**
     * \brief Evaluates the seeds as a list of runs (SeedList): --jobs seeds at once on worker
     *        threads, a part of them, or a merge of parts; every row's metrics of a seed go to
     *        its record, and the comparison is put together from the records (as Run() gives it).
     * \param options how (seedPlan.threads is not used: options.jobs are the workers)
     * \param program the program, in the runs' texts ("mose-baselines")
     * \param os the stream of the runner's lines
     * \return whether the comparison is whole (false after a part)
     */
    bool Run(const RunListOptions& options, const std::string& program, std::ostream& os);

    /// \return the number of seeds evaluated (0 before Run())
    uint32_t GetSeedsDone() const;

    /**
     * \param seed seed index, 0 <= seed < seeds
     * \param mode the workload mode
     * \param row index into GetRows()
     * \return the metrics (scalars and hop histograms; no per-circuit loads)
     */
    const FlowMetrics& GetMetrics(uint32_t seed, WorkloadMode mode, std::size_t row) const;

    /**
     * \param mode the workload mode
     * \param row index into GetRows()
     * \param metric the metric
     * \return its mean and 95% confidence half-width over seeds
     */
    Summary Summarize(WorkloadMode mode, std::size_t row, Metric metric) const;

    /**
     * \brief Prints the comparison: loads and hops, then the load-aware costs, both modes, one
     *        row per topology with its d, means with 95% CI; then the notes.
     * \param os the stream
     */
    void PrintTables(std::ostream& os) const;

    /**
     * \brief Writes baselines_summary.csv (mode, topology, shape, degree, metric, mean, ci95, n)
     *        and baselines_per_seed.csv (run, mode, topology, shape, degree, every metric) into
     *        a folder (created if missing).
     * \param dir the folder
     */
    void WriteCsv(const std::string& dir) const;

    /**
     * \return the files WriteCsv() writes, whatever the configuration, so that a program
     *         declares them before the comparison runs (Program::AddOutputFiles())
     */
    static std::vector<std::string> GetCsvFileNames();

    /**
     * \return the scripts WritePlots() writes (baselines_<metric>_<mode>.plt), for
     *         Program::AddPlotFiles()
     */
    static std::vector<std::string> GetPlotFileNames();

    /**
     * \brief Writes bar charts (one per mode and headline metric, rows on the x axis with their
     *        d, 95% CI as error bars) as gnuplot scripts with inline data (baselines_*.plt).
     * \param dir the folder (created if missing)
     * \return the .plt files written
     */
    std::vector<std::string> WritePlots(const std::string& dir) const;

  private:
    /**
     * \brief Evaluates one seed and files its results.
     * \param seed the seed index
     */
    void EvaluateSeed(uint32_t seed);

    /// \return index into m_results
    std::size_t Index(uint32_t seed, WorkloadMode mode, std::size_t row) const;

    /// \brief Makes room for every seed's results, none evaluated
    void Allocate();

    /**
     * \brief Builds m_groups: the policies' scenario builder at each degree that can hold them.
     * \param degrees the study's degree and, with moseAtBaselineDegrees, the baselines'
     * \return the degrees left out, with why (the builder's or the templates' Error)
     */
    std::map<uint32_t, std::string> BuildDegreeGroups(const std::set<uint32_t>& degrees);

    /**
     * \brief Lays out m_rows: by degree the policies, then the baselines of that degree; a
     *        baseline whose degree is not in `degrees` last.
     * \param degrees the degrees, as given to BuildDegreeGroups()
     */
    void AddRows(const std::set<uint32_t>& degrees);

    /**
     * \brief Writes m_notes: each baseline's port budget and what it is compared with.
     * \param skipped the degrees left out (BuildDegreeGroups())
     */
    void AddNotes(const std::map<uint32_t, std::string>& skipped);

    /// The policies at one degree: their scenario builder and their rows
    struct DegreeGroup
    {
        uint32_t degree;                                     //!< d
        std::unique_ptr<ScenarioBuilder> builder;            //!< the study's builder at d
        std::array<std::size_t, ALL_POLICIES.size()> rows{}; //!< row of each policy
    };

    BaselineComparisonConfig m_config;                         //!< parameters
    std::vector<DegreeGroup> m_groups;                         //!< policies per degree
    std::size_t m_studyGroup{0};                               //!< the group at study.degree
    std::vector<std::shared_ptr<const CircuitGraph>> m_graphs; //!< per baseline
    std::vector<std::size_t> m_baselineRows;                   //!< per baseline, its row
    std::vector<ComparisonRow> m_rows;                         //!< table rows
    std::vector<std::string> m_notes;                          //!< remarks
    std::vector<FlowMetrics> m_results;                        //!< per (seed, mode, row)
    uint32_t m_seedsDone{0};                                   //!< seeds evaluated
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_BASELINE_COMPARISON_H */
