/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-cost-report.h"

#include "mose-study-report.h"

#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-metrics-output.h"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchCostReport");

namespace
{

/// the files of WriteCsv() and WritePlots() named once, for them and the name functions
constexpr const char* RATES_CSV = "rates.csv";                       //!< the rates per mode
constexpr const char* PER_SEED_CSV = "per_seed.csv";                 //!< every seed's rates
constexpr const char* BREAK_EVEN_CSV = "break_even.csv";             //!< the break-even points
constexpr const char* SCHEDULE_CSV = "schedule.csv";                 //!< the schedule's cost
constexpr const char* COST_VS_DURATION_CSV = "cost_vs_duration.csv"; //!< the figure's data
constexpr const char* BREAK_EVEN_PLOT = "break_even"; //!< the figure, without .plt or .png

/// The static policies MoSE is set against
const std::vector<Policy> STATIC_POLICIES = StaticPolicies();

/// \param seconds a duration \return it for people: 4 significant digits, ms below 1 s
std::string
Duration(double seconds)
{
    return FormatDuration(seconds, DurationStyle::SIGNIFICANT, 4);
}

/**
 * \param b a break-even point
 * \return "12.3 ms" (Duration()), "always" or "never"
 */
std::string
BreakEvenText(const BreakEven& b)
{
    return b.kind == BreakEven::AT ? Duration(b.duration) : b.ToText();
}

} // namespace

SwitchCostReport::SwitchCostReport(const SwitchCostStudy& study,
                                   const SwitchCostParameters& params,
                                   ModeSchedule schedule,
                                   std::vector<double> durations,
                                   bool alternating)
    : m_study(study),
      m_params(params),
      m_schedule(std::move(schedule)),
      m_durations(std::move(durations)),
      m_alternating(alternating)
{
    NS_LOG_FUNCTION(this << m_schedule.size() << m_durations.size() << alternating);
    m_params.Validate();
    if (m_schedule.empty())
    {
        ThrowBadParameter("schedule", "empty", "at least one period");
    }
    if (m_alternating && (m_schedule.size() < 2 || m_schedule.size() % 2 != 0))
    {
        ThrowBadParameter("schedule",
                          FormatSchedule(m_schedule),
                          "an AlternatingSchedule() (whole cycles of two periods)");
    }
}

std::vector<double>
SwitchCostReport::LogSpacedDurations(double minT, double maxT, uint32_t points)
{
    NS_LOG_FUNCTION(minT << maxT << points);
    if (!(minT > 0))
    {
        ThrowBadParameter("minT", FormatNumber(minT), "a number of seconds > 0");
    }
    if (!(maxT > minT))
    {
        ThrowBadParameter("maxT", FormatNumber(maxT), "a number of seconds > minT");
    }
    if (points < 2)
    {
        ThrowBadParameter("points", std::to_string(points), "at least 2");
    }
    std::vector<double> durations;
    durations.reserve(points);
    for (uint32_t i = 0; i < points; ++i)
    {
        durations.push_back(minT * std::pow(maxT / minT, static_cast<double>(i) / (points - 1)));
    }
    return durations;
}

void
SwitchCostReport::PrintTables(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    const FlowExperimentConfig& config = m_study.GetConfig();
    const uint32_t seeds = m_study.GetSeedsDone();
    os << "When switching pays: N=" << config.nodes << " d=" << config.degree
       << " flows=" << config.flows << " seeds=" << seeds << " (runs " << config.firstRun << ".."
       << config.firstRun + seeds - 1 << "), routing=" << ToString(config.routing) << "\n";
    os << "cost rate c(p, m) = " << ToString(m_study.GetMetric())
       << " of the graph p uses in mode m, per second; switch penalty = darkTime "
       << FormatNumber(m_params.darkTime) << " s x unserved share "
       << (m_params.unservedShare ? FormatNumber(*m_params.unservedShare)
                                  : std::string("(load on added circuits)"))
       << " x unservedFactor " << FormatNumber(m_params.unservedFactor) << " x c(p, new mode)\n";
    os << "Means over seeds with 95% confidence half-widths (Student's t, n - 1 degrees of "
          "freedom).\n\n";
    PrintRates(os);
    PrintBreakEven(os);
    PrintSchedule(os);
    os.flags(flags);
    os.precision(precision);
}

void
SwitchCostReport::PrintRates(std::ostream& os) const
{
    os << "Cost rates and switches (a switch into the mode from the other one)\n";
    os << std::left << std::setw(8) << "policy" << std::setw(17) << "mode" << std::setw(22)
       << "cost rate" << std::setw(20) << "circuits kept" << std::setw(20) << "circuits changed"
       << std::setw(20) << "unserved share"
       << "penalty per switch\n";
    for (Policy p : ALL_POLICIES)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            os << std::left << std::setw(8) << ToString(p) << std::setw(17) << ToString(mode)
               << std::setw(22) << FormatSummary(m_study.SummarizeRate(p, mode), 2) << std::setw(20)
               << FormatSummary(m_study.SummarizeCircuits(p, mode, true), 1) << std::setw(20)
               << FormatSummary(m_study.SummarizeCircuits(p, mode, false), 1) << std::setw(20)
               << FormatSummary(m_study.SummarizeUnservedShare(p, mode, &m_params), 4)
               << FormatSummary(m_study.SummarizePenalty(p, mode, m_params), 4) << "\n";
        }
    }
}

void
SwitchCostReport::PrintBreakEven(std::ostream& os) const
{
    os << "\nBreak-even mode duration T* (alternating modes of equal duration T; MoSE "
          "is cheaper for T > T*)\n";
    os << std::left << std::setw(18) << "MoSE vs" << std::setw(22) << "rate saving/cycle"
       << std::setw(22) << "extra penalty/cycle" << std::setw(16) << "T* (of means)"
       << "T* per seed\n";
    for (Policy other : STATIC_POLICIES)
    {
        BreakEvenSummary b = m_study.SummarizeBreakEven(Policy::MOSE, other, m_params);
        std::ostringstream perSeed;
        if (b.perSeed.n > 0)
        {
            perSeed << Duration(b.perSeed.mean) << " +-" << Duration(b.perSeed.ci95) << " ("
                    << b.perSeed.n << " seeds)";
        }
        if (b.always > 0)
        {
            perSeed << (b.perSeed.n > 0 ? ", " : "") << "always in " << b.always << " seeds";
        }
        if (b.never > 0)
        {
            perSeed << (b.perSeed.n + b.always > 0 ? ", " : "") << "never in " << b.never
                    << " seeds";
        }
        std::ostringstream saving;
        saving << std::setprecision(6) << b.ofMeans.rateSaving;
        std::ostringstream extra;
        extra << std::setprecision(6) << b.ofMeans.extraPenalty;
        os << std::left << std::setw(18) << ToString(other) << std::setw(22) << saving.str()
           << std::setw(22) << extra.str() << std::setw(16) << BreakEvenText(b.ofMeans)
           << perSeed.str() << "\n";
    }
}

void
SwitchCostReport::PrintSchedule(std::ostream& os) const
{
    const FlowExperimentConfig& config = m_study.GetConfig();
    double scheduleSeconds = 0;
    for (const ModeSchedule::Period& period : m_schedule)
    {
        scheduleSeconds += period.duration;
    }
    std::string name = FormatSchedule(m_schedule);
    if (m_alternating)
    {
        name = std::to_string(m_schedule.size() / 2) + " cycles of " +
               FormatSchedule({m_schedule[0], m_schedule[1]});
    }
    else if (name.size() > 200)
    {
        name = name.substr(0, 200) + "...";
    }
    os << "\nSchedule: " << name << " (" << m_schedule.size() << " periods, "
       << FormatNumber(scheduleSeconds) << " s)\n";
    os << std::left << std::setw(8) << "policy" << std::setw(30) << "integrated cost"
       << std::setw(24) << "per second"
       << "switches\n";
    double bestStatic = std::numeric_limits<double>::infinity();
    Policy best = Policy::STATIC_TRAINING;
    double moseTotal = 0;
    for (Policy p : ALL_POLICIES)
    {
        Summary perSecond;
        Summary switches;
        Summary total = m_study.SummarizeSchedule(p, m_schedule, m_params, &perSecond, &switches);
        std::ostringstream sw;
        sw << switches.mean;
        os << std::left << std::setw(8) << ToString(p) << std::setw(30) << FormatSummary(total, 1)
           << std::setw(24) << FormatSummary(perSecond, 3) << sw.str() << "\n";
        if (IsSwitching(p))
        {
            moseTotal = total.mean;
        }
        else if (total.mean < bestStatic)
        {
            bestStatic = total.mean;
            best = p;
        }
    }
    os << "verdict: switching " << (moseTotal < bestStatic ? "pays" : "does not pay")
       << " on this schedule: MoSE " << std::setprecision(6) << moseTotal
       << " vs the best static policy (" << ToString(best) << ") " << bestStatic << " (MoSE "
       << std::setprecision(3) << std::abs(100.0 * (1.0 - moseTotal / bestStatic)) << "% "
       << (moseTotal < bestStatic ? "less" : "more") << "); it holds for the flow-level cost "
       << "model only: N=" << config.nodes << " d=" << config.degree << ", " << config.flows
       << " flows per mode, metric " << ToString(m_study.GetMetric()) << ", dark time "
       << FormatNumber(m_params.darkTime) << " s, " << m_study.GetSeedsDone() << " seeds\n";
}

void
SwitchCostReport::WriteCsv(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    const SwitchCostStudy& study = m_study;
    const SwitchCostParameters& params = m_params;
    StudyReport::WriteOutput(dir + "/" + RATES_CSV, [&](std::ostream& out) {
        out << "policy,mode,rate_mean,rate_ci95,unserved_share_mean,unserved_share_ci95,"
               "circuits_kept_mean,circuits_added_mean,penalty_mean,penalty_ci95,n\n";
        for (Policy p : ALL_POLICIES)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                Summary rate = study.SummarizeRate(p, mode);
                Summary share = study.SummarizeUnservedShare(p, mode, &params);
                Summary pen = study.SummarizePenalty(p, mode, params);
                out << ToString(p) << "," << ToString(mode) << "," << rate.mean << "," << rate.ci95
                    << "," << share.mean << "," << share.ci95 << ","
                    << study.SummarizeCircuits(p, mode, true).mean << ","
                    << study.SummarizeCircuits(p, mode, false).mean << "," << pen.mean << ","
                    << pen.ci95 << "," << rate.n << "\n";
            }
        }
    });
    StudyReport::WriteOutput(dir + "/" + PER_SEED_CSV, [&](std::ostream& out) {
        out << "run,policy,mode_entered,rate,switches_into,unserved_share,circuits,kept,added,"
               "removed\n";
        for (uint32_t seed = 0; seed < study.GetSeedsDone(); ++seed)
        {
            const SwitchCostSeed& s = study.GetSeed(seed);
            for (std::size_t pi = 0; pi < ALL_POLICIES.size(); ++pi)
            {
                for (WorkloadMode mode : ALL_MODES)
                {
                    auto m = static_cast<std::size_t>(mode);
                    const SwitchCircuits& c = s.circuits[pi][m];
                    out << s.run << "," << ToString(ALL_POLICIES[pi]) << "," << ToString(mode)
                        << "," << s.policies[pi].rate[m] << ","
                        << (s.policies[pi].switchesInto[m] ? 1 : 0) << ","
                        << s.policies[pi].unservedShare[m] << "," << c.circuits << "," << c.kept
                        << "," << c.added << "," << c.removed << "\n";
                }
            }
        }
    });
    StudyReport::WriteOutput(dir + "/" + BREAK_EVEN_CSV, [&](std::ostream& out) {
        out << "switching,other,outcome,break_even_s,rate_saving_per_cycle,"
               "extra_penalty_per_cycle,per_seed_mean_s,per_seed_ci95_s,seeds_at,seeds_always,"
               "seeds_never\n";
        for (Policy other : STATIC_POLICIES)
        {
            BreakEvenSummary b = study.SummarizeBreakEven(Policy::MOSE, other, params);
            out << ToString(Policy::MOSE) << "," << ToString(other) << "," << b.ofMeans.ToText()
                << "," << b.ofMeans.duration << "," << b.ofMeans.rateSaving << ","
                << b.ofMeans.extraPenalty << "," << b.perSeed.mean << "," << b.perSeed.ci95 << ","
                << b.perSeed.n << "," << b.always << "," << b.never << "\n";
        }
    });
    StudyReport::WriteOutput(dir + "/" + SCHEDULE_CSV, [&](std::ostream& out) {
        out << "# schedule " << FormatSchedule(m_schedule) << "\n";
        out << "policy,total_mean,total_ci95,per_second_mean,per_second_ci95,switches,n\n";
        for (Policy p : ALL_POLICIES)
        {
            Summary perSecond;
            Summary switches;
            Summary total = study.SummarizeSchedule(p, m_schedule, params, &perSecond, &switches);
            out << ToString(p) << "," << total.mean << "," << total.ci95 << "," << perSecond.mean
                << "," << perSecond.ci95 << "," << switches.mean << "," << total.n << "\n";
        }
    });
    StudyReport::WriteOutput(dir + "/" + COST_VS_DURATION_CSV, [&](std::ostream& out) {
        out << "mode_duration_s";
        for (Policy p : ALL_POLICIES)
        {
            out << "," << ToString(p);
        }
        out << "\n";
        for (double t : m_durations)
        {
            out << t;
            for (Policy p : ALL_POLICIES)
            {
                out << "," << study.MeanCycleCost(p, params).PerUnitTime(t);
            }
            out << "\n";
        }
    });
}

std::vector<std::string>
SwitchCostReport::GetCsvFileNames()
{
    return {RATES_CSV, PER_SEED_CSV, BREAK_EVEN_CSV, SCHEDULE_CSV, COST_VS_DURATION_CSV};
}

std::vector<std::string>
SwitchCostReport::GetPlotFileNames()
{
    return {std::string(BREAK_EVEN_PLOT) + ".plt"};
}

std::vector<std::string>
SwitchCostReport::WritePlots(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    const Metric metric = m_study.GetMetric();
    Gnuplot plot(std::string(BREAK_EVEN_PLOT) + ".png");
    plot.SetTerminal("pngcairo size 800,500 noenhanced");
    plot.SetTitle("When switching pays: alternating modes of duration T, dark time " +
                  Duration(m_params.darkTime) + ", metric " + ToString(metric));
    plot.SetLegend("mode duration T (s)",
                   "integrated " + ToString(metric) + " per second (mean of " +
                       std::to_string(m_study.GetSeedsDone()) + " seeds)");
    plot.AppendExtra("set logscale x");
    plot.AppendExtra("set logscale y");
    plot.AppendExtra("set key top right");
    plot.AppendExtra("set grid");
    for (Policy p : ALL_POLICIES)
    {
        CycleCost c = m_study.MeanCycleCost(p, m_params);
        std::string title = ToString(p);
        if (!IsSwitching(p))
        {
            title += " (T* " +
                     BreakEvenText(m_study.SummarizeBreakEven(Policy::MOSE, p, m_params).ofMeans) +
                     ")";
        }
        Gnuplot2dDataset ds(title);
        ds.SetStyle(Gnuplot2dDataset::LINES);
        ds.SetExtra(IsSwitching(p) ? "lw 3" : "lw 2 dt 2");
        for (double t : m_durations)
        {
            ds.Add(t, c.PerUnitTime(t));
        }
        plot.AddDataset(ds);
    }
    Gnuplot2dDataset marks("break-even");
    marks.SetStyle(Gnuplot2dDataset::POINTS);
    marks.SetExtra("pt 7 ps 1.5 lc rgb \"black\"");
    const CycleCost mose = m_study.MeanCycleCost(Policy::MOSE, m_params);
    for (Policy other : STATIC_POLICIES)
    {
        BreakEvenSummary b = m_study.SummarizeBreakEven(Policy::MOSE, other, m_params);
        if (b.ofMeans.kind != BreakEven::AT)
        {
            continue;
        }
        double t = b.ofMeans.duration;
        double y = mose.PerUnitTime(t);
        marks.Add(t, y);
        std::ostringstream label;
        label << "set label \"vs " << ToString(other) << ": " << Duration(t) << "\" at " << t << ","
              << y << " offset 1,1";
        plot.AppendExtra(label.str());
    }
    plot.AddDataset(marks);
    std::string path = dir + "/" + BREAK_EVEN_PLOT + ".plt";
    StudyReport::WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
    return {path};
}

} // namespace mose
} // namespace ns3
