/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-regime-map.h"

#include "mose-study-report.h"
#include "mose-switch-cost.h"
#include "mose-switch-experiment.h"

#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-percentile.h"
#include "ns3/mose-random.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-text-io.h"
#include "ns3/system-wall-clock-ms.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmRegimeMap");

namespace mose
{

namespace
{

/// seconds with 3 significant digits and a unit: "0.1 s", "25 ms"
std::string
DurationText(double seconds)
{
    return FormatDuration(seconds, DurationStyle::SIGNIFICANT);
}

/// ms with 3 decimals, no unit (the table's header names it)
std::string
Ms(double seconds)
{
    return FormatDuration(seconds, DurationStyle::MS_DECIMALS);
}

/// a margin's 95% interval in percent: "[-3.1%, +4.0%]", "-" without one
std::string
IntervalText(const MeanInterval& m)
{
    if (!m.halfWidth)
    {
        return "-";
    }
    return "[" + FormatPercent(*m.GetLow()) + ", " + FormatPercent(*m.GetHigh()) + "]";
}

/// whether a criterion has a value in a run
bool
HasValue(const LlmSummary& s, LlmCriterion c)
{
    return c == LlmCriterion::ITER_MEAN ? s.training.iterations > 0 : s.inference.served > 0;
}

/// whether a criterion enters the best-static score and the overall margin
bool
IsScored(LlmCriterion c)
{
    return c != LlmCriterion::TTFT_P99;
}

/**
 * One policy's runs on the seeds as one summary: the times are means over the seeds that have
 * them (a served request, a finished iteration), the counts totals
 * \param runs the seeds' runs of one policy (at least one) \return the summary
 */
LlmSummary
MeanOfSeeds(const std::vector<LlmSummary>& runs)
{
    LlmSummary m = runs.front();
    for (std::size_t i = 1; i < runs.size(); ++i)
    {
        const LlmSummary& s = runs[i];
        m.inference.requests += s.inference.requests;
        m.inference.served += s.inference.served;
        m.training.iterations += s.training.iterations;
        m.lost += s.lost;
        m.switches += s.switches;
        m.errors += s.errors;
        m.wallSeconds += s.wallSeconds;
        m.events += s.events;
        m.connections += s.connections;
        m.simulatedSeconds += s.simulatedSeconds;
    }
    m.simulatedSeconds /= static_cast<double>(runs.size());
    // the mean of a figure of a workload's sample over the seeds whose run has a value for it
    auto mean = [&runs](auto part,
                        auto sample,
                        double SampleStatistics::*figure,
                        bool (*has)(const LlmSummary&)) {
        double sum = 0;
        uint32_t n = 0;
        for (const LlmSummary& s : runs)
        {
            if (has(s))
            {
                const double v = ((s.*part).*sample).*figure;
                sum = n == 0 ? v : sum + v;
                ++n;
            }
        }
        return n > 0 ? sum / n : 0.0;
    };
    auto served = +[](const LlmSummary& s) { return s.inference.served > 0; };
    auto iterated = +[](const LlmSummary& s) { return s.training.iterations > 0; };
    for (double SampleStatistics::*f : {&SampleStatistics::mean,
                                        &SampleStatistics::p50,
                                        &SampleStatistics::p95,
                                        &SampleStatistics::p99,
                                        &SampleStatistics::max})
    {
        m.inference.kv.*f = mean(&LlmSummary::inference, &InferenceSummary::kv, f, served);
        m.inference.ttft.*f = mean(&LlmSummary::inference, &InferenceSummary::ttft, f, served);
        m.training.iteration.*f =
            mean(&LlmSummary::training, &TrainingSummary::iteration, f, iterated);
        m.training.collective.*f =
            mean(&LlmSummary::training, &TrainingSummary::collective, f, iterated);
    }
    // the samples' sizes are totals, like the counts
    m.inference.kv.n = m.inference.ttft.n = m.inference.served;
    m.training.iteration.n = m.training.collective.n = m.training.iterations;
    return m;
}

/**
 * Fills a cell's figures and verdicts from its seeds' runs and its margin samples
 * (LlmRegimeCell)
 * \param cell the cell, seedRuns, seedVerdicts and marginSamples set
 * \param stretch per seed, per run: the KV stretch \param offered per seed: offered KV Gb/s
 * \param tolerance ties
 */
void
CombineSeeds(LlmRegimeCell& cell,
             const std::vector<std::vector<double>>& stretch,
             const std::vector<double>& offered,
             double tolerance)
{
    const std::size_t seeds = cell.seedRuns.size();
    std::vector<double> margins;
    cell.paysSeeds = 0;
    for (const LlmCellVerdict& v : cell.seedVerdicts)
    {
        if (v.bestStatic)
        {
            margins.push_back(v.overallMargin);
        }
        cell.paysSeeds += v.kind == LlmCellVerdict::PAYS;
    }
    if (!margins.empty())
    {
        cell.marginMin = *std::min_element(margins.begin(), margins.end());
        cell.marginMax = *std::max_element(margins.begin(), margins.end());
    }
    cell.marginInterval = ComputeMeanInterval(cell.marginSamples);
    cell.intervalVerdict = DecideMargin(cell.marginInterval, tolerance);
    if (seeds == 1)
    {
        cell.runs = cell.seedRuns.front();
        cell.kvStretch = stretch.front();
        cell.offeredKvGbps = offered.front();
        cell.verdict = cell.seedVerdicts.front();
        return;
    }
    cell.offeredKvGbps = mose::Mean(offered);
    cell.runs.clear();
    cell.kvStretch.clear();
    for (std::size_t p = 0; p < cell.seedRuns.front().size(); ++p)
    {
        std::vector<LlmSummary> runs;
        std::vector<double> st;
        for (std::size_t k = 0; k < seeds; ++k)
        {
            runs.push_back(cell.seedRuns[k][p]);
            st.push_back(stretch[k][p]);
        }
        cell.runs.push_back(MeanOfSeeds(runs));
        cell.kvStretch.push_back(mose::Mean(st));
    }
    // winners, ties and the best static policy on the mean figures; margins and the kind on
    // the mean of the per-seed margins
    LlmCellVerdict v = LlmCellVerdict::Compute(cell.runs, tolerance);
    if (margins.empty())
    {
        v.kind = LlmCellVerdict::NO_VERDICT;
        cell.verdict = v;
        return;
    }
    for (std::size_t c = 0; c < ALL_LLM_CRITERIA.size(); ++c)
    {
        std::vector<double> m;
        for (const LlmCellVerdict& s : cell.seedVerdicts)
        {
            if (s.bestStatic && s.used[c])
            {
                m.push_back(s.margin[c]);
            }
        }
        v.margin[c] = mose::Mean(m);
    }
    v.overallMargin = mose::Mean(margins);
    v.kind = v.overallMargin < -tolerance  ? LlmCellVerdict::PAYS
             : v.overallMargin > tolerance ? LlmCellVerdict::DOES_NOT_PAY
                                           : LlmCellVerdict::TIE;
    cell.verdict = v;
}

} // namespace

std::string
ToString(LlmCriterion c)
{
    switch (c)
    {
    case LlmCriterion::TTFT_MEAN:
        return "ttft_mean";
    case LlmCriterion::TTFT_P99:
        return "ttft_p99";
    case LlmCriterion::ITER_MEAN:
        return "iter_mean";
    }
    return "?";
}

double
GetCriterion(const LlmSummary& s, LlmCriterion c)
{
    switch (c)
    {
    case LlmCriterion::TTFT_MEAN:
        return s.inference.ttft.mean;
    case LlmCriterion::TTFT_P99:
        return s.inference.ttft.p99;
    case LlmCriterion::ITER_MEAN:
        return s.training.iteration.mean;
    }
    return 0;
}

LlmCellVerdict
LlmCellVerdict::Compute(const std::vector<LlmSummary>& runs, double tolerance)
{
    if (!(std::isfinite(tolerance) && tolerance >= 0))
    {
        mose::ThrowBadParameter("tolerance", mose::FormatNumber(tolerance), "a finite number >= 0");
    }
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        for (std::size_t j = 0; j < i; ++j)
        {
            if (runs[i].policy == runs[j].policy)
            {
                mose::ThrowBadParameter("runs",
                                        mose::ToString(runs[i].policy) + " twice",
                                        "one run per policy");
            }
        }
    }
    LlmCellVerdict v;
    if (runs.empty())
    {
        return v;
    }
    std::array<double, 3> best{};
    for (std::size_t k = 0; k < ALL_LLM_CRITERIA.size(); ++k)
    {
        const LlmCriterion c = ALL_LLM_CRITERIA[k];
        v.used[k] = std::all_of(runs.begin(), runs.end(), [c](const LlmSummary& s) {
            return HasValue(s, c);
        });
        if (!v.used[k])
        {
            continue;
        }
        std::size_t w = 0;
        for (std::size_t i = 1; i < runs.size(); ++i)
        {
            if (GetCriterion(runs[i], c) < GetCriterion(runs[w], c))
            {
                w = i;
            }
        }
        v.winner[k] = runs[w].policy;
        best[k] = GetCriterion(runs[w], c);
        for (std::size_t i = 0; i < runs.size(); ++i)
        {
            if (i != w && GetCriterion(runs[i], c) <= best[k] * (1 + tolerance))
            {
                v.tie[k] = true;
            }
        }
    }
    const LlmSummary* mose = nullptr;
    const LlmSummary* bestStatic = nullptr;
    double bestScore = std::numeric_limits<double>::infinity();
    for (const auto& s : runs)
    {
        if (mose::IsSwitching(s.policy))
        {
            mose = &s;
            continue;
        }
        double score = 0;
        uint32_t n = 0;
        for (std::size_t k = 0; k < ALL_LLM_CRITERIA.size(); ++k)
        {
            if (v.used[k] && IsScored(ALL_LLM_CRITERIA[k]))
            {
                score += best[k] > 0 ? GetCriterion(s, ALL_LLM_CRITERIA[k]) / best[k] : 1;
                ++n;
            }
        }
        if (n > 0 && score / n < bestScore)
        {
            bestScore = score / n;
            bestStatic = &s;
        }
    }
    if (!mose || !bestStatic)
    {
        return v;
    }
    v.bestStatic = bestStatic->policy;
    double sum = 0;
    uint32_t n = 0;
    for (std::size_t k = 0; k < ALL_LLM_CRITERIA.size(); ++k)
    {
        if (!v.used[k])
        {
            continue;
        }
        const double b = GetCriterion(*bestStatic, ALL_LLM_CRITERIA[k]);
        v.margin[k] = b > 0 ? (GetCriterion(*mose, ALL_LLM_CRITERIA[k]) - b) / b : 0;
        if (IsScored(ALL_LLM_CRITERIA[k]))
        {
            sum += v.margin[k];
            ++n;
        }
    }
    v.overallMargin = sum / n;
    v.kind = v.overallMargin < -tolerance ? PAYS : v.overallMargin > tolerance ? DOES_NOT_PAY : TIE;
    return v;
}

std::string
LlmCellVerdict::KindText() const
{
    switch (kind)
    {
    case PAYS:
        return "pays";
    case TIE:
        return "tie";
    case DOES_NOT_PAY:
        return "does-not-pay";
    case NO_VERDICT:
        return "none";
    }
    return "?";
}

std::string
LlmCellVerdict::WinnerText(LlmCriterion c) const
{
    const auto k = static_cast<std::size_t>(c);
    if (!used[k])
    {
        return "-";
    }
    return (tie[k] ? "tie:" : "") + mose::ToString(winner[k]);
}

void
LlmRegimeMapConfig::Validate() const
{
    if (loads.empty() || intervals.empty() || darkTimes.empty())
    {
        mose::ThrowBadParameter("regime map",
                                "an empty axis",
                                "at least one load, interval and dark time");
    }
    for (double l : loads)
    {
        if (!(std::isfinite(l) && l > 0))
        {
            mose::ThrowBadParameter("loads", mose::FormatNumber(l), "request rates > 0 per second");
        }
    }
    for (Time t : intervals)
    {
        if (t <= Time(0))
        {
            mose::ThrowBadParameter("intervals", DurationText(t.GetSeconds()), "intervals > 0");
        }
    }
    for (Time t : darkTimes)
    {
        if (t < Time(0))
        {
            mose::ThrowBadParameter("darkTimes", DurationText(t.GetSeconds()), "dark times >= 0");
        }
    }
    if (cycles == 0)
    {
        mose::ThrowBadParameter("cycles", "0", "at least 1 cycle");
    }
    if (!(std::isfinite(trainingLoadShare) && trainingLoadShare > 0 && trainingLoadShare <= 1))
    {
        mose::ThrowBadParameter(
            "trainingLoadShare",
            mose::FormatNumber(trainingLoadShare),
            "a share in (0, 1] of the load offered in training-heavy intervals");
    }
    if (std::none_of(policies.begin(), policies.end(), mose::IsSwitching) || policies.size() < 2)
    {
        mose::ThrowBadParameter("policies",
                                std::to_string(policies.size()) + " policies",
                                "MoSE and at least one static policy");
    }
    for (std::size_t i = 0; i < policies.size(); ++i)
    {
        for (std::size_t j = 0; j < i; ++j)
        {
            if (policies[i] == policies[j])
            {
                mose::ThrowBadParameter("policies",
                                        mose::ToString(policies[i]) + " twice",
                                        "each policy once");
            }
        }
    }
    if (!(std::isfinite(tolerance) && tolerance >= 0 && tolerance < 1))
    {
        mose::ThrowBadParameter("tolerance", mose::FormatNumber(tolerance), "0 <= tolerance < 1");
    }
    if (seeds == 0)
    {
        mose::ThrowBadParameter("seeds", "0", "at least 1 seed");
    }
    if (base.run + seeds < base.run)
    {
        mose::ThrowBadParameter("seeds",
                                std::to_string(seeds),
                                "seed k uses run " + std::to_string(base.run) +
                                    " + k, which must stay within 64 bits");
    }
    if (base.darkTime)
    {
        mose::ThrowBadParameter("base.darkTime",
                                DurationText(base.darkTime->GetSeconds()),
                                "unset: the map's darkTimes give it per cell");
    }
    // every cell's experiment, with its generated requests and schedule (the seeds' traces
    // have the same size and schedule: the first one's stands for them)
    for (double load : loads)
    {
        for (Time t : intervals)
        {
            ExperimentConfig c = MakeCell(load, t, mose::Policy::MOSE);
            for (Time dark : darkTimes)
            {
                c.darkTime = dark;
                ValidateLlmConfig(c);
            }
        }
    }
}

ExperimentConfig
LlmRegimeMapConfig::MakeCell(double load, Time interval, mose::Policy policy, uint32_t seed) const
{
    if (seed >= seeds)
    {
        mose::ThrowBadParameter("seed",
                                std::to_string(seed),
                                "0 to seeds - 1 = " + std::to_string(seeds - 1));
    }
    ExperimentConfig c = base;
    c.run = base.run + seed;
    c.policy = policy;
    c.SetSchedule(mose::AlternatingSchedule(interval.GetSeconds(), cycles));
    mose::LlmRequestGeneratorOptions g = generator;
    g.rate = load;
    g.requests = static_cast<uint64_t>(std::ceil(load * 2.0 * cycles * interval.GetSeconds()));
    g.requests = std::max<uint64_t>(g.requests, 1);
    mose::Random rng = mose::Random::Create(c.run, mose::Stream::LLM_REQUESTS);
    c.llm.requests = mose::GenerateLlmRequests(g, rng);
    if (trainingLoadShare < 1)
    {
        // thinning: a Poisson process whose points are kept with probability p is a Poisson
        // process of rate p x rate; one draw per request keeps the choice independent of others
        mose::Random mix = mose::Random::Create(c.run, mose::Stream::LLM_MIX);
        const auto t = static_cast<uint64_t>(interval.GetNanoSeconds());
        std::vector<mose::LlmRequest> kept;
        kept.reserve(c.llm.requests.size());
        for (const mose::LlmRequest& r : c.llm.requests)
        {
            const double u = mix.Uniform01();
            const bool trainingHeavy = (r.arrivalNs / t) % 2 == 1; // AlternatingSchedule
            if (!trainingHeavy || u < trainingLoadShare)
            {
                kept.push_back(r);
            }
        }
        if (kept.empty())
        {
            // every request fell in a training-heavy interval and was thinned away: an
            // experiment needs one request (LlmRequestGeneratorOptions::requests >= 1), so the
            // first stays (a cell that small is a tie either way)
            kept.push_back(c.llm.requests.front());
        }
        c.llm.requests = std::move(kept);
    }
    c.stopTime = std::max(c.stopTime, c.end * 4);
    return c;
}

LlmRegimeMap::LlmRegimeMap(const LlmRegimeMapConfig& config)
    : m_config(config)
{
}

/// The runs of one (load, interval) point that every dark time shares
struct LlmRegimeMap::PointRuns
{
    /// per seed: the static runs (independent of the dark time)
    std::vector<std::map<mose::Policy, LlmSummary>> statics;
    /// per seed and static policy: its figures per cycle (cycles > 1)
    std::vector<std::map<mose::Policy, std::vector<LlmSummary>>> staticCycles;
    /// per seed: the cell's experiment with MoSE, its requests drawn once
    std::vector<ExperimentConfig> probes;
};

std::vector<LlmMapRun>
LlmRegimeMap::ListRuns() const
{
    const auto& cfg = m_config;
    std::vector<LlmMapRun> runs;
    // the order the map has always run them in: per (load, interval) point the static
    // policies of every seed, then per dark time MoSE on every seed
    for (double load : cfg.loads)
    {
        for (Time t : cfg.intervals)
        {
            for (uint32_t k = 0; k < cfg.seeds; ++k)
            {
                for (mose::Policy p : cfg.policies)
                {
                    if (!mose::IsSwitching(p))
                    {
                        runs.push_back(LlmMapRun{static_cast<uint32_t>(runs.size()),
                                                 load,
                                                 t,
                                                 std::nullopt,
                                                 p,
                                                 k});
                    }
                }
            }
            for (Time dark : cfg.darkTimes)
            {
                for (uint32_t k = 0; k < cfg.seeds; ++k)
                {
                    runs.push_back(LlmMapRun{static_cast<uint32_t>(runs.size()),
                                             load,
                                             t,
                                             dark,
                                             mose::Policy::MOSE,
                                             k});
                }
            }
        }
    }
    return runs;
}

uint64_t
LlmRegimeMap::CountRuns(const LlmRegimeMapConfig& config)
{
    const auto statics = static_cast<uint64_t>(
        std::count_if(config.policies.begin(), config.policies.end(), [](mose::Policy p) {
            return !mose::IsSwitching(p);
        }));
    return uint64_t{config.loads.size()} * config.intervals.size() * config.seeds *
           (statics + config.darkTimes.size());
}

std::string
LlmRegimeMap::Describe(const LlmMapRun& r) const
{
    std::string what = "load " + mose::FormatNumber(r.load) + "/s, interval " +
                       DurationText(r.interval.GetSeconds());
    if (m_config.seeds > 1)
    {
        what += ", seed " + std::to_string(r.seed) + " (run " +
                std::to_string(m_config.base.run + r.seed) + ")";
    }
    if (r.darkTime)
    {
        what += ", dark " + DurationText(r.darkTime->GetSeconds());
    }
    return what + ", " + mose::ToString(r.policy);
}

ExperimentConfig
LlmRegimeMap::MakeRun(const LlmMapRun& r) const
{
    ExperimentConfig c = m_config.MakeCell(r.load, r.interval, mose::Policy::MOSE, r.seed);
    c.policy = r.policy;
    if (r.darkTime)
    {
        c.darkTime = *r.darkTime;
    }
    return c;
}

LlmRun
LlmRegimeMap::BuildRun(const LlmMapRun& r,
                       std::shared_ptr<const mose::Scenario>& scenario,
                       bool progress) const
{
    LlmRun e = BuildLlmRun(MakeRun(r), scenario, progress);
    scenario = e.experiment->GetSharedScenario();
    return e;
}

LlmMapRunFigures
LlmRegimeMap::Collect(const LlmMapRun& r, const LlmRun& e) const
{
    LlmMapRunFigures f;
    f.summary = SummarizeLlmRun(*e.experiment, *e.result);
    if (m_config.cycles > 1)
    {
        const ExperimentConfig& c = e.experiment->GetConfig();
        const int64_t cycleNs = 2 * r.interval.GetNanoSeconds();
        for (uint32_t y = 0; y < m_config.cycles; ++y)
        {
            const Time to = y + 1 < m_config.cycles ? NanoSeconds(cycleNs * (y + 1)) : Time::Max();
            f.cycles.push_back(SummarizeLlmWindow(c.policy,
                                                  e.result->requests,
                                                  e.result->iterations,
                                                  NanoSeconds(cycleNs * y),
                                                  to));
        }
    }
    return f;
}

void
LlmRegimeMap::Run(const std::function<void(uint32_t, uint32_t, const std::string&)>& progress,
                  bool showProgress)
{
    NS_LOG_FUNCTION(this);
    if (m_ran)
    {
        throw mose::Error("LlmRegimeMap::Run runs once");
    }
    m_config.Validate(); // every cell's configuration, before anything runs
    SystemWallClockMs clock;
    clock.Start();
    const std::vector<LlmMapRun> runs = ListRuns();
    std::vector<LlmMapRunFigures> figures;
    // each seed's scenario (roles, assignments, templates) is drawn once and shared by all its
    // cells and policies: it depends on the run and the scenario options only
    std::vector<std::shared_ptr<const mose::Scenario>> scenarios(m_config.seeds);
    for (const LlmMapRun& r : runs)
    {
        if (progress)
        {
            progress(r.index, static_cast<uint32_t>(runs.size()), Describe(r));
        }
        const LlmRun e = BuildRun(r, scenarios[r.seed], showProgress);
        e.experiment->Run(GetLlmRunLabel(e.experiment->GetConfig()));
        figures.push_back(Collect(r, e));
    }
    if (progress)
    {
        progress(static_cast<uint32_t>(runs.size()), static_cast<uint32_t>(runs.size()), "");
    }
    Assemble(figures);
    m_runSeconds = static_cast<double>(clock.End()) / 1000.0;
}

void
LlmRegimeMap::Assemble(const std::vector<LlmMapRunFigures>& figures, double runSeconds)
{
    m_config.Validate(); // Run() checked it before its runs
    Assemble(figures);
    m_runSeconds = runSeconds;
}

void
LlmRegimeMap::Assemble(const std::vector<LlmMapRunFigures>& figures)
{
    NS_LOG_FUNCTION(this << figures.size());
    if (m_ran)
    {
        throw mose::Error("LlmRegimeMap::Run runs once");
    }
    const auto& cfg = m_config;
    const std::vector<LlmMapRun> runs = ListRuns();
    if (figures.size() != runs.size())
    {
        throw mose::Error("the regime map has " + std::to_string(runs.size()) + " runs, not " +
                          std::to_string(figures.size()));
    }
    for (const LlmMapRunFigures& f : figures)
    {
        m_wallSeconds += f.summary.wallSeconds;
        m_events += f.summary.events;
        m_transfers += f.summary.transfers;
        m_flows += f.summary.flows;
        m_rateComputations += f.summary.rateComputations;
    }
    // the flow-level break-even inputs, once: they depend on N, d, roles and seeds only
    std::optional<mose::SwitchCostStudy> flow;
    if (cfg.flowLevelFlows > 0)
    {
        mose::FlowExperimentConfig f = cfg.base.scenario;
        f.flows = cfg.flowLevelFlows;
        f.firstRun = cfg.base.run;
        flow.emplace(f, mose::SeedPlan{cfg.flowLevelSeeds, 1}, mose::Metric::AVG_COST);
        flow->Run();
    }
    std::size_t next = 0;
    for (double load : cfg.loads)
    {
        for (Time t : cfg.intervals)
        {
            PointRuns point;
            point.statics.resize(cfg.seeds);
            point.staticCycles.resize(cfg.seeds);
            for (uint32_t k = 0; k < cfg.seeds; ++k)
            {
                // the cell's requests are drawn once per seed; each policy ran on a copy
                point.probes.push_back(cfg.MakeCell(load, t, mose::Policy::MOSE, k));
                for (mose::Policy p : cfg.policies)
                {
                    if (!mose::IsSwitching(p))
                    {
                        point.statics[k][p] = figures[next].summary;
                        point.staticCycles[k][p] = figures[next].cycles;
                        ++next;
                    }
                }
            }
            for (Time dark : cfg.darkTimes)
            {
                m_cells.push_back(AssembleCell(point, load, t, dark, figures, next, flow));
                next += cfg.seeds;
            }
        }
    }
    m_ran = true;
}

LlmRegimeCell
LlmRegimeMap::AssembleCell(const PointRuns& point,
                           double load,
                           Time t,
                           Time dark,
                           const std::vector<LlmMapRunFigures>& figures,
                           std::size_t first,
                           const std::optional<mose::SwitchCostStudy>& flow) const
{
    const auto& cfg = m_config;
    const uint32_t seeds = cfg.seeds;
    LlmRegimeCell cell;
    cell.load = load;
    cell.interval = t;
    cell.darkTime = dark;
    std::vector<std::vector<double>> stretch(seeds);
    std::vector<double> offered(seeds);
    for (uint32_t k = 0; k < seeds; ++k)
    {
        const ExperimentConfig& c = point.probes[k];
        cell.requests = static_cast<uint32_t>(c.llm.requests.size());
        uint64_t tokens = 0;
        for (const auto& r : c.llm.requests)
        {
            tokens += r.inputTokens;
        }
        offered[k] = static_cast<double>(tokens) * static_cast<double>(c.llm.kvBytesPerToken) *
                     8.0 / c.end.GetSeconds() / 1e9;
        const LlmSummary& m = figures[first + k].summary;
        const std::vector<LlmSummary>& moseCycles = figures[first + k].cycles;
        std::vector<LlmSummary> runs;
        for (mose::Policy p : cfg.policies)
        {
            runs.push_back(mose::IsSwitching(p) ? m : point.statics[k].at(p));
        }
        // KV stretch: the mean KV time against the mean KV size at one circuit's rate
        const double bytesPerRequest =
            static_cast<double>(tokens) * static_cast<double>(c.llm.kvBytesPerToken) /
            static_cast<double>(std::max<std::size_t>(c.llm.requests.size(), 1));
        const double ideal = bytesPerRequest * 8.0 / static_cast<double>(c.ocsRate->GetBitRate());
        for (const auto& s : runs)
        {
            stretch[k].push_back(ideal > 0 && s.inference.served > 0 ? s.inference.kv.mean / ideal
                                                                     : 0);
        }
        cell.seedVerdicts.push_back(LlmCellVerdict::Compute(runs, cfg.tolerance));
        // the margin's samples: the seed's, or one per cycle of the seed
        if (cfg.cycles == 1 && cell.seedVerdicts.back().bestStatic)
        {
            cell.marginSamples.push_back(cell.seedVerdicts.back().overallMargin);
        }
        for (uint32_t y = 0; cfg.cycles > 1 && y < cfg.cycles; ++y)
        {
            std::vector<LlmSummary> cycleRuns;
            for (mose::Policy p : cfg.policies)
            {
                cycleRuns.push_back(mose::IsSwitching(p) ? moseCycles.at(y)
                                                         : point.staticCycles[k].at(p).at(y));
            }
            const LlmCellVerdict v = LlmCellVerdict::Compute(cycleRuns, cfg.tolerance);
            if (v.bestStatic)
            {
                cell.marginSamples.push_back(v.overallMargin);
            }
        }
        cell.seedRuns.push_back(std::move(runs));
    }
    CombineSeeds(cell, stretch, offered, cfg.tolerance);
    if (flow && cell.verdict.bestStatic)
    {
        mose::SwitchCostParameters params;
        params.darkTime = dark.GetSeconds();
        cell.flow =
            flow->SummarizeBreakEven(mose::Policy::MOSE, *cell.verdict.bestStatic, params).ofMeans;
    }
    return cell;
}

double
LlmRegimeMap::GetRunSeconds() const
{
    return m_runSeconds;
}

void
LlmRegimeMap::WriteOutputs(const std::string& dir, bool render, std::ostream& os) const
{
    NS_LOG_FUNCTION(this << dir << render);
    WriteTextFile(dir + "/regime_map.csv", [this](std::ostream& out) { WriteCsv(out); });
    WriteTextFile(dir + "/regime_map.plt", [this](std::ostream& out) { WritePlot(out); });
    os << "\nwrote " << dir << "/regime_map.csv and regime_map.plt";
    if (!render)
    {
        os << " (render it with: cd " << QuoteText(dir) << " && gnuplot regime_map.plt)";
    }
    else if (StudyReport::RenderPlots(dir, {"regime_map.plt"}) > 0)
    {
        os << " (rendered to regime_map.png)";
    }
    os << "\n";
}

void
LlmRegimeMap::PrintTiming(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << std::setprecision(3) << "wall time " << m_runSeconds << " s, " << m_events << " events, "
       << (m_wallSeconds > 0 ? static_cast<double>(m_events) / m_wallSeconds : 0)
       << " events per wall second of simulation\n";
    if (IsFluid(m_config.base.level) && m_wallSeconds > 0)
    {
        os << ToString(m_config.base.level) << " level: " << m_transfers << " transfers ("
           << static_cast<double>(m_transfers) / m_wallSeconds << " per wall second), ";
        if (m_flows != m_transfers)
        {
            os << m_flows << " flows (" << static_cast<double>(m_flows) / m_wallSeconds
               << " per wall second), ";
        }
        os << m_rateComputations << " rate computations ("
           << static_cast<double>(m_rateComputations) / m_wallSeconds << " per wall second) in "
           << m_wallSeconds << " s of simulation\n";
    }
    os.flags(flags);
    os.precision(precision);
}

const LlmRegimeMapConfig&
LlmRegimeMap::GetConfig() const
{
    return m_config;
}

const std::vector<LlmRegimeCell>&
LlmRegimeMap::GetCells() const
{
    return m_cells;
}

double
LlmRegimeMap::GetWallSeconds() const
{
    return m_wallSeconds;
}

uint64_t
LlmRegimeMap::GetEvents() const
{
    return m_events;
}

std::vector<LlmCrossover>
LlmRegimeMap::GetCrossovers() const
{
    std::vector<LlmCrossover> out;
    const std::size_t ni = m_config.intervals.size();
    const std::size_t nd = m_config.darkTimes.size();
    // intervals in ascending order (the configuration may list them in any order)
    std::vector<std::size_t> order(ni);
    for (std::size_t i = 0; i < ni; ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
        return m_config.intervals[a] < m_config.intervals[b];
    });
    for (std::size_t l = 0; l < m_config.loads.size(); ++l)
    {
        for (std::size_t d = 0; d < nd; ++d)
        {
            LlmCrossover x;
            x.load = m_config.loads[l];
            x.darkTime = m_config.darkTimes[d];
            auto cellAt = [&](std::size_t i) -> const LlmRegimeCell& {
                return m_cells.at((l * ni + order[i]) * nd + d);
            };
            std::vector<double> margins;
            for (std::size_t i = 0; i < ni; ++i)
            {
                margins.push_back(cellAt(i).verdict.overallMargin);
            }
            const bool allPay =
                std::all_of(margins.begin(), margins.end(), [](double m) { return m < 0; });
            const bool nonePays =
                std::all_of(margins.begin(), margins.end(), [](double m) { return m >= 0; });
            if (allPay)
            {
                x.kind = LlmCrossover::ALWAYS;
            }
            else if (nonePays)
            {
                x.kind = LlmCrossover::NEVER;
            }
            else
            {
                // pays from some interval on and at every longer one: a crossover
                std::size_t k = ni;
                while (k > 0 && margins[k - 1] < 0)
                {
                    --k;
                }
                if (std::any_of(margins.begin(), margins.begin() + k, [](double m) {
                        return m < 0;
                    }))
                {
                    x.kind = LlmCrossover::NON_MONOTONIC;
                }
                else
                {
                    x.kind = LlmCrossover::AT;
                    const double t0 = std::log(cellAt(k - 1).interval.GetSeconds());
                    const double t1 = std::log(cellAt(k).interval.GetSeconds());
                    const double m0 = margins[k - 1];
                    const double m1 = margins[k];
                    x.interval = std::exp(t0 + (t1 - t0) * m0 / (m0 - m1));
                }
            }
            const LlmRegimeCell& last = cellAt(ni - 1);
            if (last.flow)
            {
                x.flowLevel = last.flow->kind == mose::BreakEven::NEVER
                                  ? std::numeric_limits<double>::infinity()
                                  : last.flow->duration;
                const bool flowNever = last.flow->kind == mose::BreakEven::NEVER;
                if (x.kind == LlmCrossover::AT && !flowNever && x.flowLevel > 0)
                {
                    const double ratio = x.interval / x.flowLevel;
                    x.disagrees = ratio > 2 || ratio < 0.5;
                }
                else if (x.kind == LlmCrossover::AT || x.kind == LlmCrossover::ALWAYS)
                {
                    x.disagrees = flowNever;
                }
                else if (x.kind == LlmCrossover::NEVER)
                {
                    // the flow level says MoSE pays below the longest interval measured
                    const double longest = m_config.intervals[order.back()].GetSeconds();
                    x.disagrees = !flowNever && x.flowLevel * 2 < longest;
                }
            }
            out.push_back(x);
        }
    }
    return out;
}

std::string
LlmCrossover::ToText(const std::vector<Time>& intervals) const
{
    Time lo = *std::min_element(intervals.begin(), intervals.end());
    Time hi = *std::max_element(intervals.begin(), intervals.end());
    switch (kind)
    {
    case AT:
        return DurationText(interval);
    case ALWAYS:
        return "always (from " + DurationText(lo.GetSeconds()) + ")";
    case NEVER:
        return "not in [" + DurationText(lo.GetSeconds()) + ", " + DurationText(hi.GetSeconds()) +
               "]";
    case NON_MONOTONIC:
        return "non-monotonic";
    }
    return "?";
}

void
LlmRegimeMap::PrintTable(std::ostream& os) const
{
    os << std::left << std::setw(8) << "load/s" << std::setw(9) << "T" << std::setw(8) << "dark"
       << std::right << std::setw(6) << "reqs" << std::setw(8) << "KVGb/s";
    for (mose::Policy p : m_config.policies)
    {
        os << ' ' << std::setw(25) << (mose::ToString(p) + " ttft/p99/iter");
    }
    const uint32_t seeds = m_config.seeds;
    os << "  " << std::left << std::setw(13) << "win ttft" << std::setw(13) << "win p99"
       << std::setw(13) << "win iter" << std::setw(8) << "static" << std::right << std::setw(8)
       << "margin";
    if (seeds > 1)
    {
        os << std::setw(8) << "min" << std::setw(8) << "max" << std::setw(7) << "pays";
    }
    os << std::setw(18) << "95% interval" << std::setw(4) << "n"
       << "  " << std::left << std::setw(13) << "ci verdict";
    os << "  " << std::left << std::setw(13) << "verdict"
       << "flow T*   (times in ms";
    if (seeds > 1)
    {
        os << ", means over " << seeds << " seeds; margin: mean over the seeds of MoSE vs the "
           << "seed's best static; pays: seeds where MoSE pays";
    }
    else
    {
        os << "; margin: MoSE vs best static";
    }
    os << "; 95% interval: of the margin's mean over n samples, one per seed"
       << (m_config.cycles > 1 ? " and cycle" : "")
       << "; ci verdict: the interval against the tie band +-" << m_config.tolerance * 100
       << "%, undecided when it straddles an edge or n = 1; verdict: on the mean alone)\n";
    for (const auto& c : m_cells)
    {
        std::ostringstream load;
        load << c.load;
        os << std::left << std::setw(8) << load.str() << std::setw(9)
           << DurationText(c.interval.GetSeconds()) << std::setw(8)
           << DurationText(c.darkTime.GetSeconds()) << std::right << std::setw(6) << c.requests
           << std::setw(8) << std::fixed << std::setprecision(0) << c.offeredKvGbps
           << std::defaultfloat << std::setprecision(6);
        for (const auto& s : c.runs)
        {
            os << ' ' << std::setw(25)
               << (Ms(s.inference.ttft.mean) + "/" + Ms(s.inference.ttft.p99) + "/" +
                   Ms(s.training.iteration.mean));
        }
        const LlmCellVerdict& v = c.verdict;
        os << "  " << std::left;
        for (LlmCriterion k : ALL_LLM_CRITERIA)
        {
            os << std::setw(13) << v.WinnerText(k);
        }
        os << std::setw(8) << (v.bestStatic ? mose::ToString(*v.bestStatic) : "-") << std::right
           << std::setw(8) << (v.bestStatic ? FormatPercent(v.overallMargin) : "-");
        if (seeds > 1)
        {
            os << std::setw(8) << FormatPercent(c.marginMin) << std::setw(8)
               << FormatPercent(c.marginMax) << std::setw(7)
               << (std::to_string(c.paysSeeds) + "/" + std::to_string(c.seedVerdicts.size()));
        }
        os << std::setw(18) << IntervalText(c.marginInterval) << std::setw(4) << c.marginInterval.n
           << "  " << std::left << std::setw(13) << ToString(c.intervalVerdict);
        os << "  " << std::left << std::setw(13) << v.KindText()
           << (c.flow ? c.flow->ToText() : "-") << std::right << '\n';
    }
}

void
LlmRegimeMap::WriteCsv(std::ostream& os) const
{
    const std::string level = m_config.levelColumn ? ToString(m_config.base.level) + "," : "";
    os << (m_config.levelColumn ? "level," : "")
       << "load_per_s,interval_s,dark_s,requests,offered_kv_gbps";
    for (mose::Policy p : m_config.policies)
    {
        const std::string n = mose::ToString(p);
        os << ',' << n << "_served," << n << "_ttft_mean_s," << n << "_ttft_p99_s," << n
           << "_kv_mean_s," << n << "_kv_stretch," << n << "_iterations," << n << "_iter_mean_s,"
           << n << "_lost";
    }
    os << ",win_ttft_mean,win_ttft_p99,win_iter_mean,best_static,margin_ttft_mean,margin_ttft_p99,"
          "margin_iter_mean,margin,verdict,flow_break_even,flow_break_even_s";
    os << ",samples,margin_mean,margin_ci_low,margin_ci_high,ci_verdict";
    const uint32_t seeds = m_config.seeds;
    if (seeds > 1)
    {
        os << ",seeds,margin_min,margin_max,pays_seeds";
        for (uint32_t k = 0; k < seeds; ++k)
        {
            const std::string n = "seed" + std::to_string(k);
            os << ',' << n << "_run," << n << "_best_static," << n << "_margin," << n << "_verdict";
        }
    }
    os << '\n';
    os << std::setprecision(10);
    for (const auto& c : m_cells)
    {
        os << level << c.load << ',' << c.interval.GetSeconds() << ',' << c.darkTime.GetSeconds()
           << ',' << c.requests << ',' << c.offeredKvGbps;
        for (std::size_t i = 0; i < c.runs.size(); ++i)
        {
            const LlmSummary& s = c.runs[i];
            os << ',' << s.inference.served << ',' << s.inference.ttft.mean << ','
               << s.inference.ttft.p99 << ',' << s.inference.kv.mean << ',' << c.kvStretch[i] << ','
               << s.training.iterations << ',' << s.training.iteration.mean << ',' << s.lost;
        }
        const LlmCellVerdict& v = c.verdict;
        for (LlmCriterion k : ALL_LLM_CRITERIA)
        {
            os << ',' << v.WinnerText(k);
        }
        os << ',' << (v.bestStatic ? mose::ToString(*v.bestStatic) : "-");
        for (std::size_t k = 0; k < ALL_LLM_CRITERIA.size(); ++k)
        {
            os << ',' << v.margin[k];
        }
        os << ',' << v.overallMargin << ',' << v.KindText() << ',';
        if (c.flow)
        {
            os << c.flow->ToText() << ','
               << (c.flow->kind == mose::BreakEven::NEVER ? std::string("inf")
                                                          : mose::FormatNumber(c.flow->duration));
        }
        else
        {
            os << "-,";
        }
        const MeanInterval& m = c.marginInterval;
        os << ',' << m.n << ',';
        if (m.n > 0)
        {
            os << m.mean;
        }
        os << ',';
        if (m.halfWidth)
        {
            os << *m.GetLow() << ',' << *m.GetHigh();
        }
        else
        {
            os << ',';
        }
        os << ',' << ToString(c.intervalVerdict);
        if (seeds > 1)
        {
            os << ',' << c.seedVerdicts.size() << ',' << c.marginMin << ',' << c.marginMax << ','
               << c.paysSeeds;
            for (std::size_t k = 0; k < c.seedVerdicts.size(); ++k)
            {
                const LlmCellVerdict& sv = c.seedVerdicts[k];
                os << ',' << m_config.base.run + k << ','
                   << (sv.bestStatic ? mose::ToString(*sv.bestStatic) : "-") << ','
                   << sv.overallMargin << ',' << sv.KindText();
            }
        }
        os << '\n';
    }
}

void
LlmRegimeMap::WritePlot(std::ostream& os) const
{
    const auto& b = m_config.base;
    const uint32_t perCell = m_config.seeds * m_config.cycles;
    std::ostringstream samples;
    samples << m_config.seeds << (m_config.seeds == 1 ? " seed" : " seeds");
    if (m_config.cycles > 1)
    {
        samples << " x " << m_config.cycles << " cycles";
    }
    LlmRegimeFigure figure(m_config.tolerance);
    for (const auto& c : m_cells)
    {
        figure.Add(ToPoint(c));
    }
    figure.WritePlot(os,
                     std::string("Regime map") +
                         (m_config.levelColumn ? " (" + ToString(b.level) + " level)" : "") +
                         ", N=" + std::to_string(b.scenario.nodes) +
                         ", d=" + std::to_string(b.scenario.degree) + ", scale " +
                         std::to_string(b.scale) + ", " + samples.str() +
                         " per cell\\nMoSE vs the best static policy; grey: tie band +-" +
                         FormatNumber(m_config.tolerance * 100) + "%; bars: 95% interval" +
                         (perCell > 1 ? "" : " (none: one sample)"),
                     "regime_map.png");
}

LlmRegimePoint
LlmRegimeMap::ToPoint(const LlmRegimeCell& c) const
{
    LlmRegimePoint p;
    p.level = m_config.levelColumn ? ToString(m_config.base.level) : "";
    p.load = c.load;
    p.interval = c.interval.GetSeconds();
    p.darkTime = c.darkTime.GetSeconds();
    p.samples = c.marginInterval.n;
    p.mean = c.marginInterval.mean;
    p.low = c.marginInterval.GetLow();
    p.high = c.marginInterval.GetHigh();
    p.verdict = c.intervalVerdict;
    p.bestStatic = c.verdict.bestStatic ? mose::ToString(*c.verdict.bestStatic) : "-";
    if (c.flow && c.flow->kind == mose::BreakEven::AT && c.flow->duration > 0)
    {
        p.flowBreakEven = c.flow->duration;
    }
    return p;
}

void
LlmRegimeMap::PrintVerdictHeader(std::ostream& os) const
{
    const auto& b = m_config.base;
    std::ostringstream loads;
    for (std::size_t i = 0; i < m_config.loads.size(); ++i)
    {
        loads << (i ? "," : "") << m_config.loads[i];
    }
    std::ostringstream intervals;
    for (std::size_t i = 0; i < m_config.intervals.size(); ++i)
    {
        intervals << (i ? "," : "") << DurationText(m_config.intervals[i].GetSeconds());
    }
    std::ostringstream darks;
    for (std::size_t i = 0; i < m_config.darkTimes.size(); ++i)
    {
        darks << (i ? "," : "") << DurationText(m_config.darkTimes[i].GetSeconds());
    }
    os << "verdict (N=" << b.scenario.nodes << ", d=" << b.scenario.degree << ", scale " << b.scale
       << ", " << b.llm.kvBytesPerToken << " B/token KV, prompts mean "
       << m_config.generator.input.mean << " tokens, prefill " << b.llm.prefillTokensPerSecond
       << " tokens/s per group, " << b.llm.DescribeTraining()
       << (b.llm.training && !b.llm.trainingPlan
               ? " after " + DurationText(b.llm.computeTime.GetSeconds()) + " compute"
               : std::string())
       << ", circuits " << b.ocsRate->GetBitRate() / 1e9 << " Gb/s unscaled, " << m_config.cycles
       << " cycle(s) of both modes, loads " << loads.str() << " requests/s, intervals "
       << intervals.str() << ", dark " << darks.str();
    if (m_config.trainingLoadShare < 1)
    {
        os << ", training-heavy intervals at " << m_config.trainingLoadShare << " x the load";
    }
    if (m_config.seeds > 1)
    {
        os << ", runs " << b.run << " to " << b.run + m_config.seeds - 1 << " (" << m_config.seeds
           << " seeds)";
    }
    else
    {
        os << ", run " << b.run;
    }
    os << ", tolerance " << m_config.tolerance * 100 << "%):\n";
}

void
LlmRegimeMap::PrintCellVerdict(std::ostream& os, const LlmRegimeCell& c) const
{
    std::ostringstream l;
    l << c.load;
    os << "  load " << l.str() << "/s, T " << DurationText(c.interval.GetSeconds()) << ", dark "
       << DurationText(c.darkTime.GetSeconds()) << ": " << ToString(c.intervalVerdict) << " (";
    if (c.marginInterval.halfWidth)
    {
        os << "mean " << FormatPercent(c.marginInterval.mean) << ", 95% interval "
           << IntervalText(c.marginInterval) << " over " << c.marginInterval.n << " samples";
    }
    else
    {
        os << c.marginInterval.n << " sample" << (c.marginInterval.n == 1 ? "" : "s")
           << ": no 95% interval";
    }
    os << "); on the mean: " << c.verdict.KindText() << " (MoSE "
       << FormatPercent(c.verdict.overallMargin) << " vs " << mose::ToString(*c.verdict.bestStatic)
       << ": TTFT " << FormatPercent(c.verdict.margin[0]) << ", P99 TTFT "
       << FormatPercent(c.verdict.margin[1]) << ", iteration " << FormatPercent(c.verdict.margin[2])
       << ")";
    if (m_config.seeds > 1)
    {
        os << "; over " << c.seedVerdicts.size() << " seeds: mean "
           << FormatPercent(c.verdict.overallMargin) << ", min " << FormatPercent(c.marginMin)
           << ", max " << FormatPercent(c.marginMax) << ", pays in " << c.paysSeeds << " of "
           << c.seedVerdicts.size() << " seeds";
    }
    os << "\n";
}

std::string
LlmRegimeMap::GetVerdict() const
{
    std::ostringstream os;
    PrintVerdictHeader(os);
    std::map<MarginVerdict, uint32_t> confident;
    uint32_t pays = 0;
    uint32_t notPay = 0;
    uint32_t ties = 0;
    uint32_t fewest = std::numeric_limits<uint32_t>::max();
    for (const auto& c : m_cells)
    {
        ++confident[c.intervalVerdict];
        fewest = std::min(fewest, c.marginInterval.n);
        pays += c.verdict.kind == LlmCellVerdict::PAYS;
        notPay += c.verdict.kind == LlmCellVerdict::DOES_NOT_PAY;
        ties += c.verdict.kind == LlmCellVerdict::TIE;
    }
    const uint32_t perCell = m_config.seeds * m_config.cycles;
    os << "  with 95% confidence (the Student's t interval of MoSE's margin over " << perCell
       << (perCell == 1 ? " sample" : " samples") << " per cell, one per seed"
       << (m_config.cycles > 1 ? " and cycle, the cycles of a run counted as independent" : "")
       << "; pays or does not pay only when the whole interval lies beyond the tie band): "
       << "switching pays in " << confident[MarginVerdict::PAYS] << " of " << m_cells.size()
       << " cells, ties in " << confident[MarginVerdict::TIE] << ", does not pay in "
       << confident[MarginVerdict::DOES_NOT_PAY] << ", undecided in "
       << confident[MarginVerdict::UNDECIDED];
    if (confident[MarginVerdict::NONE] > 0)
    {
        os << ", no verdict in " << confident[MarginVerdict::NONE];
    }
    if (fewest < 2)
    {
        os << " (one sample gives no interval: --seeds or --cycles above 1 give one)";
    }
    os << '\n';
    os << "  on the mean alone: switching pays in " << pays << " of " << m_cells.size()
       << " cells, ties in " << ties << ", does not pay in " << notPay << '\n';
    for (const auto& c : m_cells)
    {
        if (c.verdict.bestStatic)
        {
            PrintCellVerdict(os, c);
        }
    }
    for (const auto& x : GetCrossovers())
    {
        std::ostringstream l;
        l << x.load;
        os << "  crossover at load " << l.str() << "/s, dark "
           << DurationText(x.darkTime.GetSeconds()) << ": " << ToString(m_config.base.level)
           << " level " << x.ToText(m_config.intervals) << ", flow level T* "
           << (x.flowLevel == 0          ? std::string("-")
               : std::isinf(x.flowLevel) ? std::string("never")
                                         : DurationText(x.flowLevel))
           << (x.disagrees ? " (disagree by more than 2x)" : "") << '\n';
    }
    return os.str();
}

} // namespace mose
} // namespace ns3
