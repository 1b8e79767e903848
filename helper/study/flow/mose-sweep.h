/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWEEP_H
#define MOSE_SWEEP_H

#include "mose-flow-experiment-helper.h"
#include "mose-run-list-runner.h"

#include "ns3/mose-flow-experiment-config.h"

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
 * \brief The axes of a design-space sweep and the study every point runs.
 *
 * A point is (N, d, r, rho, construction): N groups of degree d, r ports of H^PD reserved for
 * P-D circuits, an inference-heavy KV share rho and MoSE's template construction. Every other
 * scenario parameter (flows, routing, assignment, completion, r of H^C, training-heavy KV share,
 * ...) is the base configuration's; every point runs the seeds of seedPlan.
 *
 * Roles: a point whose N equals base.nodes uses base.inferenceRoles and base.trainingRoles (the
 * counts the user gave, by default the paper's 410/410/204 and 102/102/820 at N = 1024); every
 * other N uses RoleCounts::PaperScaled(N, mode).
 */
struct SweepConfig
{
    std::vector<uint32_t> nodes{1024};                                           //!< values of N
    std::vector<uint32_t> degrees{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}; //!< values of d
    /// values of r of H^PD; empty means "all": 0..d for each d. Explicit values above a
    /// point's d are not enumerated for that d.
    std::vector<uint32_t> reservedPorts;
    std::vector<double> kvShares{0.7}; //!< values of the inference-heavy KV share rho
    std::vector<TemplateConstruction> constructions{
        TemplateConstruction::FRESH,
        TemplateConstruction::REWIRING_AWARE}; //!< MoSE's template constructions
    FlowExperimentConfig base;                 //!< every other scenario parameter
    SeedPlan seedPlan;                         //!< the seeds of every point, and the threads

    /**
     * \brief Throws a mose::Error naming the first invalid axis (with its option name, e.g.
     *        "--sweepDegrees") and value: an empty or repeated list, N < 16, d < 3 or d >= N,
     *        an explicit r above every d, a share outside (0, 1], role, assignment or flows files
     *        in the base, or base.compromiseReservedPorts above a d.
     */
    void Validate() const;
};

/**
 * \ingroup mose-study
 * \brief One point of a sweep.
 */
struct SweepPoint
{
    uint32_t nodes{0};                                              //!< N
    uint32_t degree{0};                                             //!< d
    uint32_t reservedPorts{0};                                      //!< r of H^PD
    double kvShare{0};                                              //!< inference-heavy KV share
    TemplateConstruction construction{TemplateConstruction::FRESH}; //!< MoSE's construction
};

/**
 * \ingroup mose-study
 * \brief What a sweep point yielded: every summary of its study, or why it was skipped.
 */
struct SweepResult
{
    SweepPoint point;    //!< the point
    bool skipped{false}; //!< true if the templates could not be built (or another Error)
    std::string reason;  //!< the Error's message when skipped
    /// Summarize(mode, policy, metric) per (mode, policy, metric), indexed by (mode x
    /// ALL_POLICIES.size() + policy) x METRIC_COUNT + metric (the entries of metrics outside
    /// ALL_METRICS stay empty); empty when skipped; read it with Get()
    std::vector<Summary> summaries;
    /// SummarizeSwitch(mode, MoSE) per mode, in ALL_MODES order; empty when skipped
    std::vector<SwitchSummary> switches;

    /**
     * \param mode the workload mode \param policy the policy \param metric the metric
     * \return its mean and 95% CI over seeds; throws a mose::Error if the point was skipped
     */
    Summary Get(WorkloadMode mode, Policy policy, Metric metric) const;

    /**
     * \param mode the mode entered
     * \return the circuits kept and changed by MoSE's switch into the mode (means over seeds);
     *         throws a mose::Error if the point was skipped
     */
    SwitchSummary GetSwitch(WorkloadMode mode) const;
};

/**
 * \ingroup mose-study
 * \brief Runs a flow-level study (FlowExperimentHelper) at every point of a design-space
 *        sweep; SweepReport prints its table and writes sweep.csv, skipped.csv and gnuplot
 *        figures.
 *
 * Points are enumerated in a fixed order: N (as listed), then d, then r (ascending 0..d for
 * "all", else as listed), then rho, then the construction. Points run on config.seedPlan.threads
 * workers (0: one per core); each point's results go to its own slot, so neither the number of
 * threads nor scheduling changes any result, and the same inputs and --RngRun give identical
 * files.
 */
class Sweep
{
  public:
    /// \param config the axes and the base study; validated here (Error)
    explicit Sweep(const SweepConfig& config);

    /// \return the configuration
    const SweepConfig& GetConfig() const;

    /// \return every point, in the sweep's order
    const std::vector<SweepPoint>& GetPoints() const;

    /**
     * \param point a point
     * \return the study's configuration at that point (base with N, d, roles, r, rho and the
     *         construction of the point); not validated
     */
    FlowExperimentConfig MakeConfig(const SweepPoint& point) const;

    /**
     * \brief Evaluates every point. A point whose study throws a mose::Error (templates that
     *        cannot be built: r = d with training groups, r-regular bipartite sides that do not
     *        fit, odd port sums, ...) is recorded as skipped with the message; any other
     *        exception stops the sweep and is rethrown.
     * \param progress called after each point with (points done, points in all, its result);
     *        calls are serialised but may come from any worker thread; may be empty
     */
    void Run(const std::function<void(uint32_t, uint32_t, const SweepResult&)>& progress = {});

    /**
     * \brief Evaluates the points as a list of runs (mose-sweep's --jobs, --runs, --part,
     *        --merge, --resume): a run per point, on worker threads (no Simulator), each
     *        point's result recorded exactly (RunListRunner); once every point has its
     *        record, the results are read back from the records, so the files do not depend on
     *        the workers or the parts.
     * \param options how; options.jobs workers each run a point's seeds on one thread, unless
     *        `seedThreads` is given
     * \param seedThreads the threads of each point's seeds (0: one; --threads without --jobs
     *        gives what Run() does: min(threads, points) workers, the rest on the seeds)
     * \param os the stream of the lines (kept runs, a part's summary)
     * \return whether every point has its result (false after a part)
     */
    bool Run(const RunListOptions& options, uint32_t seedThreads, std::ostream& os);

    /// \param index a point \return it in words ("N=64 d=8 r=2 rho=0.7 fresh")
    std::string Describe(std::size_t index) const;
    /**
     * \brief A point's result as a record's figures (numbers exact), and back.
     * \param result the result \param record the record to fill
     */
    static void PutResult(const SweepResult& result, RunRecord& record);
    /// \param record a record of PutResult() \param point its point \return the result
    static SweepResult GetResult(const RunRecord& record, const SweepPoint& point);

    /// \return one result per point, in GetPoints() order (empty before Run())
    const std::vector<SweepResult>& GetResults() const;

    /// \param share a KV share \return it as written in file names, tables and option
    ///        defaults ("0.7": 6 significant digits)
    static std::string FormatShare(double share);

  private:
    /**
     * \brief Runs one point's study.
     * \param index the point's index
     * \param threads worker threads for its seeds
     */
    void RunPoint(std::size_t index, uint32_t threads);

    SweepConfig m_config;               //!< axes and base
    std::vector<SweepPoint> m_points;   //!< points in order
    std::vector<SweepResult> m_results; //!< per point
};

/**
 * \ingroup mose-study
 * \brief Reads a list of unsigned integers: comma-separated items, each a number, "a:b"
 *        (a, a+1, ..., b) or "a:b:step"; the list syntax of mose::SplitList() (no empty list or
 *        item) and no value twice (ThrowRepeatedItem()). Throws a mose::Error naming the option
 *        and the text.
 * \param option the option's name, e.g. "--sweepDegrees"
 * \param text the text
 * \return the values, in the order given
 */
std::vector<uint32_t> ParseSweepUnsignedList(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \brief Reads a list of reals: comma-separated items, each a number or "a:b:step" (a, a+step,
 *        ... up to b, within 1e-9 step); SplitList()'s syntax, no value twice. Throws a
 *        mose::Error naming the option and the text.
 * \param option the option's name
 * \param text the text
 * \return the values, in the order given
 */
std::vector<double> ParseSweepRealList(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \brief Reads the r axis: "all" (any letter case) or a list as ParseSweepUnsignedList().
 * \param option the option's name
 * \param text the text
 * \return the values; empty for "all"
 */
std::vector<uint32_t> ParseSweepReservedPorts(const std::string& option, const std::string& text);

/**
 * \ingroup mose-study
 * \brief Reads a comma-separated list of template constructions ("fresh", "rewiring-aware"):
 *        mose::ParseEnumList().
 * \param option the option's name
 * \param text the text
 * \return the values, in the order given
 */
std::vector<TemplateConstruction> ParseSweepConstructions(const std::string& option,
                                                          const std::string& text);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWEEP_H */
