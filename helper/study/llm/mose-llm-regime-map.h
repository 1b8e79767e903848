/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_REGIME_MAP_H
#define MOSE_LLM_REGIME_MAP_H

#include "mose-llm-experiment.h"
#include "mose-llm-regime-figure.h"
#include "mose-study-statistics.h"
#include "mose-switch-cost.h"

#include "ns3/mose-break-even.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-policy.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
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
 * \brief The criteria a regime-map cell is judged by (lower is better for each).
 */
enum class LlmCriterion : uint8_t
{
    TTFT_MEAN, //!< mean TTFT over the served requests
    TTFT_P99,  //!< P99 TTFT
    ITER_MEAN, //!< mean training iteration time
};

/// \ingroup mose-study
/// The criteria in column order
constexpr std::array<LlmCriterion, 3> ALL_LLM_CRITERIA = {LlmCriterion::TTFT_MEAN,
                                                          LlmCriterion::TTFT_P99,
                                                          LlmCriterion::ITER_MEAN};

/// \ingroup mose-study
/// \param c a criterion \return its CSV name: "ttft_mean", "ttft_p99", "iter_mean"
std::string ToString(LlmCriterion c);

/// \ingroup mose-study
/// \param s a run's statistics \param c a criterion \return the run's value of it (seconds)
double GetCriterion(const LlmSummary& s, LlmCriterion c);

/**
 * \ingroup mose-study
 * \brief Who wins a cell, computed from the per-policy figures alone (Simulator-free, so that
 *        it can be checked with hand-made numbers).
 *
 * Per criterion the winner is the policy with the lowest value (the first in the list on exact
 * equality); it is a tie when another policy is within `tolerance` (relative) of it.
 *
 * The best static policy is the one a cluster operator would have fixed: the static policy
 * (S-Train, S-Inf, S-Comp) with the lowest score, the mean over the used criteria TTFT_MEAN and
 * ITER_MEAN of value / (the lowest value of that criterion among all policies); P99 TTFT is
 * reported but not scored. A criterion is used when every policy has a value for it (a served
 * request, a finished iteration). MoSE's margin on a criterion is (MoSE - best static) / best
 * static; its overall margin is the mean of its margins on the used criteria. The verdict:
 * PAYS when the overall margin is below -tolerance, DOES_NOT_PAY when above +tolerance, TIE
 * otherwise, NO_VERDICT when MoSE or every static policy is missing or no criterion is used.
 */
struct LlmCellVerdict
{
    /// what the cell says about switching
    enum Kind : uint8_t
    {
        PAYS,         //!< MoSE beats the best static policy by more than the tolerance
        TIE,          //!< within the tolerance
        DOES_NOT_PAY, //!< MoSE is worse by more than the tolerance
        NO_VERDICT,   //!< MoSE or the static policies missing, or nothing to compare
    };

    std::array<mose::Policy, 3> winner{};   //!< per criterion (ALL_LLM_CRITERIA order)
    std::array<bool, 3> tie{};              //!< per criterion: another policy within tolerance
    std::array<bool, 3> used{};             //!< per criterion: every policy has a value
    std::optional<mose::Policy> bestStatic; //!< the best static policy (see above)
    std::array<double, 3> margin{};         //!< MoSE vs bestStatic per criterion (fraction)
    double overallMargin{0};                //!< mean of margin over the scored criteria used
    Kind kind{NO_VERDICT};                  //!< the verdict

    /**
     * \brief Computes the verdict.
     * \param runs one summary per policy (any order; a policy at most once, Error otherwise)
     * \param tolerance relative tolerance of ties (finite, >= 0; Error otherwise)
     * \return the verdict
     */
    static LlmCellVerdict Compute(const std::vector<LlmSummary>& runs, double tolerance);

    /// \return "pays", "tie", "does-not-pay" or "none"
    std::string KindText() const;
    /// \param c a criterion \return the winner's name, "tie:" before it when tied, "-" if unused
    std::string WinnerText(LlmCriterion c) const;
};

/**
 * \ingroup mose-study
 * \brief Parameters of a regime map: one workload (ExperimentConfig base with a request
 *        generator) at several offered loads, mode-interval lengths and OCS dark times.
 *
 * Cell (load, interval T, dark time D): the schedule is `cycles` x (inference-heavy for T,
 * training-heavy for T); the requests are GenerateLlmRequests(generator with rate = load,
 * requests = ceil(load x 2 cycles T)) from stream Stream::LLM_REQUESTS of base.run, so they
 * span the whole schedule; a request that arrives in a training-heavy interval is kept with
 * probability trainingLoadShare (one uniform draw per request from stream Stream::LLM_MIX,
 * drawn for every request so that the kept set only depends on the run), which thins the
 * Poisson arrivals to rate load x trainingLoadShare there: the cluster's mix changes with the
 * mode. Every policy runs on that trace with the same run. The static
 * policies change roles at the boundaries but never circuits, so their runs do not depend on
 * D: they run once per (load, T) and count for every D; MoSE runs once per cell with
 * base.darkTime = D.
 *
 * Seeds: with `seeds` = S, all of this is done S times, seed k (0-based) with the run
 * base.run + k (its own trace and its own scenario draw), as every mose program's --seeds. The
 * cell's verdict is decided on the 95% confidence interval of MoSE's overall margin over its
 * samples, one per seed and cycle (LlmRegimeCell); its verdict on the mean alone is kept.
 */
struct LlmRegimeMapConfig
{
    ExperimentConfig base;                      //!< fabric, model, training job, scale, run
    mose::LlmRequestGeneratorOptions generator; //!< prompt and output lengths (rate: per load)
    std::vector<double> loads{25, 800};         //!< offered loads: requests per second
    std::vector<Time> intervals{MilliSeconds(100), MilliSeconds(400)}; //!< mode intervals T
    std::vector<Time> darkTimes{MilliSeconds(10)};                     //!< OCS dark times D
    uint32_t cycles{1}; //!< cycles of (inference-heavy T, training-heavy T)
    /// the offered inference load in training-heavy intervals as a share of the load, (0, 1]
    double trainingLoadShare{1.0};
    std::vector<mose::Policy> policies{mose::SwitchingPoliciesFirst()}; //!< MoSE and statics
    double tolerance{0.02}; //!< ties (relative), LlmCellVerdict
    /// the flow-level break-even (SwitchCostStudy, metric avg_cost) on base.scenario with
    /// this many flows per mode and seeds; 0 flows: not computed
    uint64_t flowLevelFlows{20000};
    uint32_t flowLevelSeeds{3}; //!< seeds of the flow-level study (runs base.run, base.run + 1, ..)
    /// S: the packet-level runs of every cell are repeated on S seeds, seed k with the run
    /// base.run + k (its trace and scenario); the verdict is on the mean over seeds
    uint32_t seeds{1};
    /// regime_map.csv starts every row with the level (base.level: "packet" or "fluid"); off:
    /// no level column, the file as before the fluid level (mose-llm sets it unless it runs the
    /// packet level alone)
    bool levelColumn{false};

    /// \brief Throws a mose::Error naming the first invalid parameter
    void Validate() const;

    /**
     * \param load a load \param interval T \param policy the policy
     * \param seed the seed k, 0 <= k < seeds: the run base.run + k
     * \return the experiment of cell (load, T) for `policy` (dark time unset)
     */
    ExperimentConfig MakeCell(double load,
                              Time interval,
                              mose::Policy policy,
                              uint32_t seed = 0) const;
};

/**
 * \ingroup mose-study
 * \brief One run of a regime map's list (LlmRegimeMap::ListRuns()): a policy on one seed of a
 *        (load, interval) point, and for MoSE a dark time (the static policies do not switch
 *        circuits, so their runs serve every dark time).
 */
struct LlmMapRun
{
    uint32_t index{0};                       //!< its place in the list
    double load{0};                          //!< requests per second
    Time interval;                           //!< the mode interval T
    std::optional<Time> darkTime;            //!< MoSE's dark time; none for a static policy
    mose::Policy policy{mose::Policy::MOSE}; //!< the policy
    uint32_t seed{0};                        //!< the seed k: the run base.run + k
};

/**
 * \ingroup mose-study
 * \brief What a map keeps of one run: its summary, and with several cycles its summary per
 *        cycle [2 y T, 2 (y + 1) T) (the last one open-ended).
 */
struct LlmMapRunFigures
{
    LlmSummary summary;             //!< the whole run
    std::vector<LlmSummary> cycles; //!< per cycle (cycles > 1; empty otherwise)
};

/**
 * \ingroup mose-study
 * \brief The memory a map keeps per run and per cycle when --cycles > 1: a cycle's summary
 *        (LlmMapRunFigures::cycles) and its figures in the run record. Measured with
 *        LlmMapRunBytes() below (5.7 kB a run per cycle from 2 to 20 cycles).
 */
constexpr uint64_t LLM_MAP_CYCLE_BYTES = 5400;

/**
 * \ingroup mose-study
 * \param cycles the map's --cycles
 * \return the memory a map keeps per run, for the limits on --seeds and --cycles: its run
 *         record (RunRecord: about 40 figures, and 33 more per cycle when cycles > 1), its
 *         place in the list and its figures (LlmMapRunFigures). Measured at the aggregate level
 *         (--loads=1 --intervals=10ms --darkTimes=10ms): the peak memory grows by 13.7 kB a
 *         run from 100 to 400 seeds, and by 5.7 kB a run per cycle from 2 to 20 cycles.
 */
constexpr uint64_t
LlmMapRunBytes(uint32_t cycles)
{
    constexpr uint64_t run = 13000;
    return run + (cycles > 1 ? uint64_t{cycles} * LLM_MAP_CYCLE_BYTES : 0);
}

/**
 * \ingroup mose-study
 * \brief One cell of the map.
 *
 * With one seed, `runs` are the runs and `verdict` is LlmCellVerdict::Compute() of them.
 * With S > 1 seeds, `seedRuns[k]` and `seedVerdicts[k]` are seed k's, and the cell's figures
 * are over the seeds: in `runs` the times (and kvStretch, offeredKvGbps) are the means over
 * the seeds, the counts (requests, served, iterations, lost, switches, errors, events,
 * connections) their totals; `verdict`'s winners per criterion, ties and best static policy are
 * those of the mean figures (Compute() of `runs`); its margins are the means of the per-seed
 * margins (each seed's MoSE against that seed's best static policy), and its kind (pays, tie,
 * does not pay) is decided on the mean overall margin. `requests` is one trace's (every seed's
 * trace has as many).
 *
 * The confident verdict: `marginSamples` are MoSE's overall margins, one per seed and cycle
 * (seed-major): with one cycle the seeds' margins (those of `seedVerdicts`); with C > 1 cycles,
 * per seed and cycle LlmCellVerdict::Compute() of the policies' figures in that cycle's two
 * mode intervals (SummarizeLlmWindow(): the requests arriving and the iterations starting in
 * them; the last cycle also takes what starts after the schedule's end), so that the cycles
 * of one run count as independent samples. A sample with no best static policy (no criterion
 * with a value for every policy) is left out. `marginInterval` is their mean and 95% Student's
 * t interval (ComputeMeanInterval()), `intervalVerdict` DecideMargin() of it with the map's
 * tolerance: "pays" only when the whole interval lies below -tolerance, and one sample
 * (one seed, one cycle) is "undecided".
 */
struct LlmRegimeCell
{
    double load{0};                      //!< requests per second
    Time interval;                       //!< mode interval T
    Time darkTime;                       //!< OCS dark time D
    uint32_t requests{0};                //!< requests of the cell's trace
    double offeredKvGbps{0};             //!< requests x mean KV bytes x 8 / duration, unscaled
    std::vector<LlmSummary> runs;        //!< one per policy, in the configuration's order
    std::vector<double> kvStretch;       //!< per run: mean KV time / KV bytes at the circuit rate
    LlmCellVerdict verdict;              //!< who wins (on the mean over seeds)
    std::optional<mose::BreakEven> flow; //!< flow-level T* of MoSE vs verdict.bestStatic
    std::vector<std::vector<LlmSummary>> seedRuns; //!< per seed k: one run per policy
    std::vector<LlmCellVerdict> seedVerdicts;      //!< per seed k: Compute() of seedRuns[k]
    double marginMin{0};                           //!< the least per-seed overall margin
    double marginMax{0};                           //!< the largest per-seed overall margin
    uint32_t paysSeeds{0};             //!< seeds whose own verdict is PAYS ("pays in k of S seeds")
    std::vector<double> marginSamples; //!< MoSE's overall margin per seed and cycle (see above)
    MeanInterval marginInterval;       //!< the samples' mean and 95% interval
    MarginVerdict intervalVerdict{MarginVerdict::NONE}; //!< the interval against the tie band
};

/**
 * \ingroup mose-study
 * \brief The packet-level crossover of one (load, dark time) row: the mode interval at which
 *        MoSE's overall margin changes sign along the interval axis.
 */
struct LlmCrossover
{
    double load{0}; //!< requests per second
    Time darkTime;  //!< D

    /// the outcome along the intervals given
    enum Kind : uint8_t
    {
        AT,            //!< the margin goes from >= 0 to < 0 between two intervals: at `interval`
        ALWAYS,        //!< MoSE pays (margin < 0) at every interval
        NEVER,         //!< MoSE never pays (margin >= 0) at every interval
        NON_MONOTONIC, //!< it pays at a shorter interval but not at a longer one
    };

    Kind kind{NEVER};      //!< the outcome
    double interval{0};    //!< AT: the crossover T (s), interpolated linearly in log T
    double flowLevel{0};   //!< the flow-level T* (s) of the row's last cell; 0 if none; inf: never
    bool disagrees{false}; //!< both finite and more than a factor of 2 apart, or one never

    /// \return "0.23 s", "always (<= 0.1 s)", "not in [0.1 s, 0.4 s]", "non-monotonic"
    std::string ToText(const std::vector<Time>& intervals) const;
};

/**
 * \ingroup mose-study
 * \brief Runs a regime map (an LLM run, BuildLlmRun(), per cell and policy), then writes it: a
 * table, regime_map.csv, regime_map.plt and the verdict text.
 */
class LlmRegimeMap
{
  public:
    /// \param config the parameters (validated by Run())
    explicit LlmRegimeMap(const LlmRegimeMapConfig& config);

    /**
     * \brief Runs every cell; Error before any simulation for a bad configuration.
     * \param progress called before each packet-level run with (runs done, runs in all, what
     *        runs next); may be empty
     * \param showProgress passed to InstallLlmWorkload() (simulated-time progress)
     */
    void Run(const std::function<void(uint32_t, uint32_t, const std::string&)>& progress = {},
             bool showProgress = false);

    /**
     * \return the map's runs, in the order Run() runs them: per (load, interval) point the
     *         static policies of every seed, then per dark time MoSE on every seed. A run's
     *         figures depend on the run alone (its cell, policy and seed), so the runs may be
     *         carried out in any order, by any process (LlmMapRunner), and put together by
     *         Assemble().
     */
    std::vector<LlmMapRun> ListRuns() const;

    /**
     * \brief The size of ListRuns() from the configuration alone, before a map is made (the
     *        memory checks of mose-llm's options).
     * \param config the map's configuration (its loads, intervals, dark times, policies, seeds)
     * \return per (load, interval) point, seeds x (static policies + dark times)
     */
    static uint64_t CountRuns(const LlmRegimeMapConfig& config);
    /// \param run one of ListRuns() \return it in words ("load 25/s, interval 100 ms, S-Inf")
    std::string Describe(const LlmMapRun& run) const;
    /// \param run one of ListRuns() \return its experiment's configuration
    ExperimentConfig MakeRun(const LlmMapRun& run) const;
    /**
     * \brief Builds a run's experiment (BuildLlmRun()), on the seed's scenario when an earlier
     *        run drew it (it depends on the run and the scenario options only).
     * \param run one of ListRuns()
     * \param scenario the seed's scenario, or none; set to the experiment's
     * \param progress the simulated-time progress lines (InstallLlmWorkload())
     * \return the experiment and its result, built, not run
     */
    LlmRun BuildRun(const LlmMapRun& run,
                    std::shared_ptr<const mose::Scenario>& scenario,
                    bool progress = false) const;
    /**
     * \param run one of ListRuns() \param e its experiment and result, after Run()
     * \return what the map keeps of it
     */
    LlmMapRunFigures Collect(const LlmMapRun& run, const LlmRun& e) const;
    /**
     * \brief Puts the map together from its runs' figures, as Run() does after running them:
     *        the cells, their verdicts and the flow-level break-even. A map is put together
     *        once (Run() or Assemble()).
     * \param figures one per run of ListRuns(), in its order
     * \param runSeconds the wall seconds the runs took (PrintTiming())
     */
    void Assemble(const std::vector<LlmMapRunFigures>& figures, double runSeconds);

    /// \return the configuration
    const LlmRegimeMapConfig& GetConfig() const;
    /// \return the cells, load-major, then interval, then dark time
    const std::vector<LlmRegimeCell>& GetCells() const;
    /// \return one crossover per (load, dark time), load-major
    std::vector<LlmCrossover> GetCrossovers() const;
    /// \return wall seconds of all packet-level runs (not in any file)
    double GetWallSeconds() const;
    /// \return events of all packet-level runs
    uint64_t GetEvents() const;
    /// \return wall seconds of the whole Run() (break-even study and every run included)
    double GetRunSeconds() const;

    /// \brief Prints the table, one row per cell (with S > 1 seeds also the least and largest
    ///        per-seed margin and "pays" k/S; then the margin's 95% interval, its samples and
    ///        the interval's verdict) \param os the stream
    void PrintTable(std::ostream& os) const;
    /// \brief The first line of GetVerdict(): the map's parameters, its workloads named
    /// \param os the stream
    void PrintVerdictHeader(std::ostream& os) const;
    /**
     * \brief regime_map.csv: one row per cell, no wall time (byte-identical for the same
     *        configuration). After flow_break_even_s every map has samples, margin_mean,
     *        margin_ci_low, margin_ci_high and ci_verdict (LlmRegimeCell::marginInterval and
     *        intervalVerdict; the interval's ends empty with one sample). With S > 1 seeds the
     *        policy columns are the cell's figures over the seeds (LlmRegimeCell), margin is the
     *        mean per-seed margin, and more columns follow: seeds, margin_min, margin_max,
     *        pays_seeds, then per seed k seedK_run, seedK_best_static, seedK_margin,
     *        seedK_verdict; with one seed there are none.
     * \param os the stream
     */
    void WriteCsv(std::ostream& os) const;
    /**
     * \brief regime_map.plt: LlmRegimeFigure's figure of the cells (ToPoint()): one panel per
     *        dark time, MoSE's overall margin (%, the samples' mean) against the mode interval,
     *        one line per load, each point's 95% interval as an error bar (none with one
     *        sample), the tie band shaded, 0 always in range, the flow-level break-even T*
     *        marked; pngcairo into regime_map.png.
     * \param os the stream
     */
    void WritePlot(std::ostream& os) const;
    /**
     * \param c one of the map's cells
     * \return its point of the figure (LlmRegimeFigure): margin, interval, verdict, T*
     */
    LlmRegimePoint ToPoint(const LlmRegimeCell& c) const;
    /**
     * \return the verdict lines: what the map holds for (workload, N, scale, settings), the
     *         cells where switching pays and where it does not, and each row's crossover next
     *         to the flow-level break-even
     */
    std::string GetVerdict() const;

    /**
     * \brief Writes DIR/regime_map.csv and DIR/regime_map.plt and prints what it wrote; renders
     *        the script to regime_map.png with gnuplot (StudyReport::RenderPlots()) only when
     *        asked, else prints the command that renders it.
     * \param dir the output folder (it exists)
     * \param render whether to run gnuplot (mose-llm --plot)
     * \param os the stream of the lines
     */
    void WriteOutputs(const std::string& dir, bool render, std::ostream& os) const;

    /// \brief Prints "wall time T s, E events, R events per wall second of simulation"
    /// \param os the stream
    void PrintTiming(std::ostream& os) const;

  private:
    struct PointRuns; //!< the runs of a (load, interval) point that its dark times share

    /// \brief Assemble() without the wall time and the configuration's check (Run() made it
    ///        before its runs) \param figures as Assemble()'s
    void Assemble(const std::vector<LlmMapRunFigures>& figures);
    /**
     * \brief Assemble(): one cell from MoSE's runs of every seed and the point's static runs:
     *        its verdicts, margin samples and flow-level break-even.
     * \param point the point's static runs \param load the request rate \param t the mode
     *        interval \param dark the dark time \param figures every run's
     * \param first the index of MoSE's run of seed 0 (seed k: first + k)
     * \param flow the flow-level study, if the map has one
     * \return the cell
     */
    LlmRegimeCell AssembleCell(const PointRuns& point,
                               double load,
                               Time t,
                               Time dark,
                               const std::vector<LlmMapRunFigures>& figures,
                               std::size_t first,
                               const std::optional<mose::SwitchCostStudy>& flow) const;
    /**
     * \brief GetVerdict(): a cell's line (its interval's verdict, the verdict on the mean)
     * \param os the stream \param c a cell with a best static policy
     */
    void PrintCellVerdict(std::ostream& os, const LlmRegimeCell& c) const;

    LlmRegimeMapConfig m_config;        //!< parameters
    std::vector<LlmRegimeCell> m_cells; //!< results
    double m_wallSeconds{0};            //!< all runs
    double m_runSeconds{0};             //!< the whole Run()
    uint64_t m_events{0};               //!< all runs
    uint64_t m_transfers{0};            //!< all runs (fluid level)
    uint64_t m_flows{0};                //!< all runs (fluid level)
    uint64_t m_rateComputations{0};     //!< all runs (fluid level)
    bool m_ran{false};                  //!< Run() ran
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_REGIME_MAP_H */
