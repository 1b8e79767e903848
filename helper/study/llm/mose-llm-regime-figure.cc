/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-regime-figure.h"

#include "mose-csv-table.h"
#include "mose-level.h"

#include "ns3/gnuplot.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace ns3
{
namespace mose
{

namespace
{

/// "load 800/s, T 60 s, dark 10 ms" (and the level when it has one)
std::string
CellText(const LlmRegimePoint& p)
{
    std::ostringstream os;
    os << (p.level.empty() ? "" : p.level + " level, ") << "load " << p.load << "/s, T "
       << FormatDuration(p.interval, DurationStyle::SIGNIFICANT) << ", dark "
       << FormatDuration(p.darkTime, DurationStyle::SIGNIFICANT);
    return os.str();
}

/// the order of GetPoints(): level, load, dark time, interval
bool
Before(const LlmRegimePoint& a, const LlmRegimePoint& b)
{
    return std::tie(a.level, a.load, a.darkTime, a.interval) <
           std::tie(b.level, b.load, b.darkTime, b.interval);
}

/// the verdicts' texts (ToString(MarginVerdict)) back to the verdict
bool
ParseVerdict(std::string_view text, MarginVerdict& v)
{
    for (MarginVerdict k : {MarginVerdict::PAYS,
                            MarginVerdict::TIE,
                            MarginVerdict::DOES_NOT_PAY,
                            MarginVerdict::UNDECIDED,
                            MarginVerdict::NONE})
    {
        if (text == ToString(k))
        {
            v = k;
            return true;
        }
    }
    return false;
}

/// the interval of a point as DecideMargin() takes it
MeanInterval
IntervalOf(const LlmRegimePoint& p)
{
    MeanInterval m;
    m.n = p.samples;
    m.mean = p.mean;
    if (p.low && p.high)
    {
        m.mean = (*p.low + *p.high) / 2;
        m.halfWidth = (*p.high - *p.low) / 2;
    }
    return m;
}

/// "%g"-like text of a tick value
std::string
TickText(double v)
{
    std::ostringstream os;
    os << std::setprecision(6) << v;
    return os.str();
}

/// \return the lines of a gnuplot title: one, and one more per line break "\n" (an escaped
///         backslash "\\" is none)
std::size_t
CountTitleLines(const std::string& title)
{
    std::size_t lines = 1;
    for (std::size_t i = 0; i + 1 < title.size(); ++i)
    {
        if (title[i] == '\\')
        {
            lines += title[i + 1] == 'n' ? 1 : 0;
            ++i;
        }
    }
    return lines;
}

/// The extent of a panel's data: every point with its bar, the tie band, 0 and the break-even
/// marks
struct PanelRanges
{
    double yLow;  //!< the lowest margin (%)
    double yHigh; //!< the highest margin (%)
    double xLow;  //!< the shortest interval or break-even (s)
    double xHigh; //!< the longest (s)
};

/// \param here a panel's points \param band the tie band (%) \return their extent
PanelRanges
ComputePanelRanges(const std::vector<const LlmRegimePoint*>& here, double band)
{
    PanelRanges r{-band, band, std::numeric_limits<double>::infinity(), 0};
    for (const LlmRegimePoint* p : here)
    {
        if (p->samples == 0)
        {
            continue;
        }
        r.yLow = std::min(r.yLow, p->low.value_or(p->mean) * 100);
        r.yHigh = std::max(r.yHigh, p->high.value_or(p->mean) * 100);
        r.xLow = std::min(r.xLow, p->interval);
        r.xHigh = std::max(r.xHigh, p->interval);
        if (p->flowBreakEven)
        {
            r.xLow = std::min(r.xLow, *p->flowBreakEven);
            r.xHigh = std::max(r.xHigh, *p->flowBreakEven);
        }
    }
    if (!(r.xHigh > 0))
    {
        r.xLow = 0.1;
        r.xHigh = 1;
    }
    return r;
}

/// \return a stream for a gnuplot command, its numbers with 10 significant digits
std::ostringstream
CommandStream()
{
    std::ostringstream text;
    text << std::setprecision(10);
    return text;
}

/**
 * \brief A panel's y axis: beyond ten tie bands (or 10% with no band) asinh(y / s), linear
 *        within about s of 0 and logarithmic beyond, so that +-2% and +2000% both read in one
 *        panel; linear otherwise.
 * \param plot the panel \param r its extent \param band the tie band (%)
 */
void
SetPanelYAxis(Gnuplot& plot, const PanelRanges& r, double band)
{
    const double s = band > 0 ? band : 1.0;
    const bool stretch = std::max(-r.yLow, r.yHigh) > 10 * s;
    std::ostringstream text = CommandStream();
    if (stretch)
    {
        text << "set nonlinear y via asinh(y/" << s << ") inverse " << s << "*sinh(y)";
        plot.AppendExtra(text.str());
        text.str("");
        // ticks at 0, the band's edges and 1-2-5 steps beyond twice the band
        std::vector<double> ticks{0};
        if (band > 0)
        {
            ticks.push_back(band);
            ticks.push_back(-band);
        }
        for (double decade = 1; decade <= 1e9; decade *= 10)
        {
            for (double m : {1.0, 2.0, 5.0})
            {
                const double v = m * decade;
                if (v >= 2 * s && v <= r.yHigh * 1.5)
                {
                    ticks.push_back(v);
                }
                if (v >= 2 * s && -v >= r.yLow * 1.5)
                {
                    ticks.push_back(-v);
                }
            }
        }
        std::sort(ticks.begin(), ticks.end());
        text << "set ytics (";
        for (std::size_t k = 0; k < ticks.size(); ++k)
        {
            text << (k ? ", " : "") << "\"" << TickText(ticks[k]) << "\" " << ticks[k];
        }
        text << ")";
        plot.AppendExtra(text.str());
        text.str("");
        // pad by a fifth of the farthest end on the asinh axis's own terms
        const double padLow = std::max(-r.yLow * 0.25, 0.5 * s);
        const double padHigh = std::max(r.yHigh * 0.25, 0.5 * s);
        text << "set yrange [" << r.yLow - padLow << ":" << r.yHigh + padHigh << "]";
    }
    else
    {
        // a margin of the band's width at least (a band of 0 and equal margins: a range)
        const double pad = std::max((r.yHigh - r.yLow) * 0.08, 0.5);
        text << "set yrange [" << r.yLow - pad << ":" << r.yHigh + pad << "]";
    }
    plot.AppendExtra(text.str());
}

/// How a panel's x axis places the intervals
struct PanelXAxis
{
    bool logX;    //!< logarithmic (the intervals span a decade or more)
    double xSpan; //!< the intervals' span (s), or the shortest when they are one
};

/**
 * \brief A panel's x axis (logarithmic when the intervals span a decade) and its tie band.
 * \param plot the panel \param r its extent \param band the tie band (%)
 * \return how the axis places the intervals
 */
PanelXAxis
SetPanelXAxis(Gnuplot& plot, const PanelRanges& r, double band)
{
    PanelXAxis x{r.xHigh >= 10 * r.xLow, r.xHigh > r.xLow ? r.xHigh - r.xLow : r.xLow};
    std::ostringstream text = CommandStream();
    plot.AppendExtra("set format x \"%g\"");
    if (x.logX)
    {
        plot.AppendExtra("set logscale x");
        text << "set xrange [" << r.xLow / 1.5 << ":" << r.xHigh * 1.5 << "]";
    }
    else
    {
        text << "set xrange [" << std::max(0.0, r.xLow - 0.1 * x.xSpan) << ":"
             << r.xHigh + 0.1 * x.xSpan << "]";
    }
    plot.AppendExtra(text.str());
    text.str("");
    text << "set object 1 rectangle from graph 0, first " << -band << " to graph 1, first " << band
         << " fillcolor rgb \"#d9d9d9\" fillstyle solid 0.6 noborder behind";
    plot.AppendExtra(text.str());
    return x;
}

/**
 * \brief A line per load, each point with its 95% interval. The loads' points at one T are
 *        drawn slightly apart (3% of T on a log axis, 0.5% of the span on a linear one,
 *        centred on T) so that their bars do not hide each other.
 * \param plot the panel \param here its points \param loads every load of the figure
 * \param x how the axis places the intervals
 */
void
AddLoadLines(Gnuplot& plot,
             const std::vector<const LlmRegimePoint*>& here,
             const std::vector<double>& loads,
             const PanelXAxis& x)
{
    const double lines = static_cast<double>(loads.size());
    auto dodge = [&](double t, std::size_t line) {
        const double k = static_cast<double>(line) - (lines - 1) / 2;
        return x.logX ? t * std::pow(1.03, k) : t + 0.005 * x.xSpan * k;
    };
    for (std::size_t l = 0; l < loads.size(); ++l)
    {
        std::ostringstream name;
        name << "load " << loads[l] << "/s";
        Gnuplot2dDataset ds(name.str());
        ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
        ds.SetErrorBars(Gnuplot2dDataset::Y);
        // one colour and point type per load in every panel
        ds.SetExtra("lc " + std::to_string(l + 1) + " pt " + std::to_string(l + 1) + " lw 1.5");
        bool any = false;
        for (const LlmRegimePoint* p : here)
        {
            if (p->load == loads[l] && p->samples > 0)
            {
                const double half = p->low ? (*p->high - *p->low) / 2 : 0;
                const double mid = p->low ? (*p->high + *p->low) / 2 : p->mean;
                ds.Add(dodge(p->interval, l), mid * 100, half * 100);
                any = true;
            }
        }
        if (any)
        {
            plot.AddDataset(ds);
        }
    }
}

/**
 * \brief The flow-level break-even of the panel's dark time against each best static policy:
 *        a mark on the zero line, and one upright label per group of close marks (within 25%
 *        on a log axis, 4% of the span on a linear one), so that labels do not overlap.
 * \param plot the panel \param here its points \param x how the axis places the intervals
 */
void
AddBreakEvenMarks(Gnuplot& plot,
                  const std::vector<const LlmRegimePoint*>& here,
                  const PanelXAxis& x)
{
    Gnuplot2dDataset marks("flow-level T*");
    marks.SetStyle(Gnuplot2dDataset::POINTS);
    marks.SetExtra("pt 7 ps 1.5 lc rgb \"black\"");
    std::vector<std::pair<double, std::string>> labels; // T*, its text
    for (const LlmRegimePoint* p : here)
    {
        if (!p->flowBreakEven)
        {
            continue;
        }
        const std::string what = "vs " + p->bestStatic;
        const bool seen = std::any_of(labels.begin(), labels.end(), [&](const auto& l) {
            return l.first == *p->flowBreakEven && l.second == what;
        });
        if (!seen)
        {
            labels.emplace_back(*p->flowBreakEven, what);
            marks.Add(*p->flowBreakEven, 0);
        }
    }
    std::stable_sort(labels.begin(), labels.end());
    std::ostringstream text = CommandStream();
    for (std::size_t i = 0; i < labels.size();)
    {
        std::string label = "T* " + labels[i].second;
        std::size_t j = i + 1;
        while (j < labels.size() &&
               (x.logX ? labels[j].first <= labels[j - 1].first * 1.25
                       : labels[j].first - labels[j - 1].first <= 0.04 * x.xSpan))
        {
            label += "; " + labels[j].second;
            ++j;
        }
        text << "set label \"" << label << "\" at " << labels[i].first
             << ",0 rotate by 90 offset 0,1 front";
        plot.AppendExtra(text.str());
        text.str("");
        i = j;
    }
    if (!labels.empty())
    {
        plot.AddDataset(marks);
    }
}

/**
 * \brief One panel of the figure: a dark time's points.
 * \param here its points \param dark the dark time (s) \param loads every load of the figure
 * \param band the tie band (%)
 * \return the panel, without terminal or output
 */
Gnuplot
MakePanel(const std::vector<const LlmRegimePoint*>& here,
          double dark,
          const std::vector<double>& loads,
          double band)
{
    Gnuplot plot;
    plot.SetTitle("dark time " + FormatDuration(dark, DurationStyle::SIGNIFICANT));
    plot.SetLegend("mode interval T (s)", "MoSE's margin (%), below 0: switching pays");
    // a panel starts from the last one's settings: clear what each sets
    plot.AppendExtra("unset label");
    plot.AppendExtra("unset object");
    plot.AppendExtra("unset logscale x");
    plot.AppendExtra("unset nonlinear y");
    plot.AppendExtra("set ytics autofreq");
    plot.AppendExtra("set grid");
    plot.AppendExtra("set key outside bottom center horizontal");
    // the zero line as an arrow in data coordinates (gnuplot 5.4 draws xzeroaxis at the
    // bottom of a nonlinear axis)
    plot.AppendExtra("unset arrow");
    plot.AppendExtra("set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lt -1 lw 2");
    const PanelRanges r = ComputePanelRanges(here, band);
    SetPanelYAxis(plot, r, band);
    const PanelXAxis x = SetPanelXAxis(plot, r, band);
    AddLoadLines(plot, here, loads, x);
    AddBreakEvenMarks(plot, here, x);
    return plot;
}

} // namespace

LlmRegimeFigure::LlmRegimeFigure(double tolerance)
    : m_tolerance(tolerance)
{
    if (!(std::isfinite(tolerance) && tolerance >= 0))
    {
        ThrowBadParameter("tolerance", FormatNumber(tolerance), "a finite number >= 0");
    }
}

double
LlmRegimeFigure::GetTolerance() const
{
    return m_tolerance;
}

void
LlmRegimeFigure::Add(const LlmRegimePoint& p)
{
    if (!(std::isfinite(p.load) && p.load > 0))
    {
        ThrowBadParameter("load", FormatNumber(p.load), "a finite number of requests/s > 0");
    }
    if (!(std::isfinite(p.interval) && p.interval > 0))
    {
        ThrowBadParameter("interval", FormatNumber(p.interval), "a finite time > 0 s");
    }
    if (!(std::isfinite(p.darkTime) && p.darkTime >= 0))
    {
        ThrowBadParameter("dark time", FormatNumber(p.darkTime), "a finite time >= 0 s");
    }
    if (!std::isfinite(p.mean))
    {
        ThrowBadParameter("margin of " + CellText(p), FormatNumber(p.mean), "a finite number");
    }
    if (p.low.has_value() != p.high.has_value() ||
        (p.low && !(std::isfinite(*p.low) && std::isfinite(*p.high) && *p.low <= *p.high)))
    {
        throw Error("the 95% interval of " + CellText(p) +
                    " is not a pair of finite ends, the lower first");
    }
    if (p.low && p.samples < 2)
    {
        throw Error(CellText(p) + " has an interval from " + std::to_string(p.samples) +
                    " sample(s); an interval needs 2 or more");
    }
    if (!m_points.empty() && p.level != m_points.front().level)
    {
        throw Error(CellText(p) + ": its level (" + (p.level.empty() ? "none" : p.level) +
                    ") is not the level of the cells before (" +
                    (m_points.front().level.empty() ? "none" : m_points.front().level) +
                    "): a figure compares cells of one level");
    }
    if (!m_validation.empty())
    {
        throw Error(CellText(p) + " added after the cells were validated: add every cell first");
    }
    for (const LlmRegimePoint& q : m_points)
    {
        if (q.load == p.load && q.interval == p.interval && q.darkTime == p.darkTime)
        {
            throw Error(CellText(p) + " is there twice (a cell belongs to one map)");
        }
    }
    m_points.push_back(p);
}

uint32_t
LlmRegimeFigure::AddCsv(const std::string& path)
{
    CsvTable in(path,
                "a regime_map.csv",
                "the columns of a regime_map.csv: load_per_s, interval_s, dark_s, samples, "
                "margin_mean, margin_ci_low, margin_ci_high, ci_verdict, best_static, "
                "flow_break_even_s");
    const std::size_t cLoad = in.RequireColumn("load_per_s");
    const std::size_t cInterval = in.RequireColumn("interval_s");
    const std::size_t cDark = in.RequireColumn("dark_s");
    const std::size_t cSamples = in.RequireColumn("samples");
    const std::size_t cMean = in.RequireColumn("margin_mean");
    const std::size_t cLow = in.RequireColumn("margin_ci_low");
    const std::size_t cHigh = in.RequireColumn("margin_ci_high");
    const std::size_t cVerdict = in.RequireColumn("ci_verdict");
    const std::size_t cBest = in.RequireColumn("best_static");
    const std::size_t cFlow = in.RequireColumn("flow_break_even_s");
    const std::optional<std::size_t> cLevel = in.FindColumn("level");
    const std::vector<std::string> levelNames = LevelNames();
    uint32_t rows = 0;
    while (in.NextRow())
    {
        LlmRegimePoint p;
        p.level = cLevel ? std::string(in.GetWord(*cLevel, levelNames)) : std::string();
        p.load = in.GetNumber(cLoad);
        p.interval = in.GetNumber(cInterval);
        p.darkTime = in.GetNumber(cDark);
        const double samples = in.GetNumber(cSamples);
        if (!(samples >= 0 && samples <= std::numeric_limits<uint32_t>::max() &&
              samples == std::floor(samples)))
        {
            in.FailField(cSamples, "not a count (an integer >= 0)");
        }
        p.samples = static_cast<uint32_t>(samples);
        p.mean = p.samples > 0 ? in.GetNumber(cMean) : in.GetOptionalNumber(cMean).value_or(0);
        p.low = in.GetOptionalNumber(cLow);
        p.high = in.GetOptionalNumber(cHigh);
        // the margin is the centre of its own interval (mean +- half-width); the file's 10
        // significant digits may move it by a few units in the last place
        if (p.low && p.high && *p.low <= *p.high && p.samples > 0)
        {
            const double slack = 1e-8 * (std::abs(*p.low) + std::abs(*p.high)) + 1e-12;
            if (!(p.mean >= *p.low - slack && p.mean <= *p.high + slack))
            {
                in.FailField(cMean,
                             "outside its own 95% interval [" + FormatNumber(*p.low) + ", " +
                                 FormatNumber(*p.high) + "] (margin_ci_low, margin_ci_high)");
            }
        }
        if (!ParseVerdict(in.GetText(cVerdict), p.verdict))
        {
            in.FailField(cVerdict, "not pays, tie, does-not-pay, undecided or none");
        }
        p.bestStatic = in.IsEmpty(cBest) ? "-" : std::string(in.GetText(cBest));
        if (!in.IsEmpty(cFlow) && in.GetText(cFlow) != "inf")
        {
            const double t = in.GetNumber(cFlow);
            if (!(t >= 0))
            {
                in.FailField(cFlow,
                             "a break-even time >= 0 s, inf (never) or empty (not computed)");
            }
            if (t > 0)
            {
                p.flowBreakEven = t;
            }
        }
        try
        {
            Add(p);
        }
        catch (const Error& e)
        {
            in.Fail(e.what());
        }
        // the verdict must follow from the interval with this figure's tie band (the file's
        // ends have 10 significant digits: an end on the band's edge may round either way)
        const MeanInterval m = IntervalOf(p);
        const bool follows =
            DecideMargin(m, m_tolerance) == p.verdict ||
            DecideMargin(m, m_tolerance * (1 + 1e-8) + 1e-12) == p.verdict ||
            DecideMargin(m, std::max(0.0, m_tolerance * (1 - 1e-8) - 1e-12)) == p.verdict;
        if (!follows)
        {
            m_points.pop_back();
            in.Fail("ci_verdict " + ToString(p.verdict) + " of " + CellText(p) +
                    " does not follow from its interval with a tie band of +-" +
                    FormatNumber(m_tolerance * 100) +
                    "%: the map was run with another --tolerance; give that one");
        }
        ++rows;
    }
    if (rows == 0)
    {
        ThrowFileError(path,
                       in.GetLine(),
                       "no cells, only a header: a regime_map.csv has a row per cell (a map "
                       "that ran nothing has no file to merge)");
    }
    return rows;
}

void
LlmRegimeFigure::Validate(const std::function<LlmRegimeValidation(const LlmRegimePoint&)>& validate)
{
    m_validation.clear();
    for (const LlmRegimePoint& p : m_points)
    {
        m_validation.emplace_back(p, validate(p));
    }
}

const LlmRegimeValidation*
LlmRegimeFigure::FindValidation(const LlmRegimePoint& p) const
{
    for (const auto& [q, v] : m_validation)
    {
        if (q.load == p.load && q.interval == p.interval && q.darkTime == p.darkTime)
        {
            return &v;
        }
    }
    return nullptr;
}

bool
LlmRegimeFigure::IsNearBand(const LlmRegimePoint& p, double error, double tolerance)
{
    const double e = std::abs(error);
    const double low = p.low.value_or(p.mean) - e;
    const double high = p.high.value_or(p.mean) + e;
    switch (p.verdict)
    {
    case MarginVerdict::PAYS:
        return high >= -tolerance;
    case MarginVerdict::DOES_NOT_PAY:
        return low <= tolerance;
    case MarginVerdict::TIE:
        return low < -tolerance || high > tolerance;
    case MarginVerdict::UNDECIDED:
    case MarginVerdict::NONE:
        return false;
    }
    return false;
}

std::vector<LlmRegimePoint>
LlmRegimeFigure::GetPoints() const
{
    std::vector<LlmRegimePoint> out = m_points;
    std::stable_sort(out.begin(), out.end(), Before);
    return out;
}

void
LlmRegimeFigure::WriteCsv(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const std::streamsize precision = os.precision();
    os << std::setprecision(10);
    os << "level,load_per_s,interval_s,dark_s,samples,margin_mean,margin_ci_low,margin_ci_high,"
          "ci_verdict,best_static,flow_break_even_s";
    os << (m_validation.empty() ? "" : ",suite_cell,validated,validated_margin_error,near_band")
       << '\n';
    for (const LlmRegimePoint& p : GetPoints())
    {
        os << p.level << ',' << p.load << ',' << p.interval << ',' << p.darkTime << ',' << p.samples
           << ',';
        if (p.samples > 0)
        {
            os << p.mean;
        }
        os << ',';
        if (p.low)
        {
            os << *p.low << ',' << *p.high;
        }
        else
        {
            os << ',';
        }
        os << ',' << ToString(p.verdict) << ',' << p.bestStatic << ',';
        if (p.flowBreakEven)
        {
            os << *p.flowBreakEven;
        }
        if (const LlmRegimeValidation* v = FindValidation(p))
        {
            os << ',' << v->suiteCell << ',' << (v->inside ? "inside" : "outside") << ',';
            if (v->marginError)
            {
                os << *v->marginError << ',' << IsNearBand(p, *v->marginError, m_tolerance);
            }
            else
            {
                os << ',';
            }
        }
        os << '\n';
    }
    os.flags(flags);
    os.precision(precision);
}

std::string
LlmRegimeFigure::Summarize() const
{
    std::map<MarginVerdict, uint32_t> count;
    for (const LlmRegimePoint& p : m_points)
    {
        ++count[p.verdict];
    }
    std::ostringstream os;
    os << "with 95% confidence switching pays in " << count[MarginVerdict::PAYS] << " of "
       << m_points.size() << " cells, ties in " << count[MarginVerdict::TIE] << ", does not pay in "
       << count[MarginVerdict::DOES_NOT_PAY] << ", undecided in "
       << count[MarginVerdict::UNDECIDED] + count[MarginVerdict::NONE] << " (tie band +-"
       << FormatNumber(m_tolerance * 100) << "%)\n";
    for (const LlmRegimePoint& p : GetPoints())
    {
        if (p.verdict == MarginVerdict::PAYS || p.verdict == MarginVerdict::TIE)
        {
            os << "  " << CellText(p) << ": " << ToString(p.verdict) << " (mean "
               << FormatPercent(p.mean) << ", 95% interval [" << FormatPercent(*p.low) << ", "
               << FormatPercent(*p.high) << "] over " << p.samples << " samples, vs "
               << p.bestStatic << ")\n";
        }
    }
    if (m_validation.empty())
    {
        return os.str();
    }
    // the cells whose verdict the validated error of the margin could move across the band
    std::vector<std::string> near;
    uint32_t outside = 0;
    uint32_t unmeasured = 0;
    for (const LlmRegimePoint& p : GetPoints())
    {
        const LlmRegimeValidation* v = FindValidation(p);
        outside += v->inside ? 0 : 1;
        if (!v->marginError)
        {
            ++unmeasured;
        }
        else if (IsNearBand(p, *v->marginError, m_tolerance))
        {
            near.push_back("  " + CellText(p) + ": " + ToString(p.verdict) +
                           ", within the margin error " + FormatPercent(*v->marginError) +
                           " of suite cell " + v->suiteCell + " from the band\n");
        }
    }
    os << "within the validated margin error of the tie band: " << near.size() << " of "
       << m_points.size() << " cells";
    if (unmeasured > 0)
    {
        os << " (" << unmeasured << " with no margin error measured)";
    }
    if (outside > 0)
    {
        os << "; " << outside << " of the " << m_points.size()
           << " cells lie outside every validated regime: their errors are the nearest suite "
              "cell's, not bounds";
    }
    os << "\n";
    for (const std::string& line : near)
    {
        os << line;
    }
    return os.str();
}

void
LlmRegimeFigure::WritePlot(std::ostream& os, const std::string& title, const std::string& png) const
{
    const std::vector<LlmRegimePoint> points = GetPoints();
    std::vector<double> darks;
    std::vector<double> loads;
    for (const LlmRegimePoint& p : points)
    {
        darks.push_back(p.darkTime);
        loads.push_back(p.load);
    }
    for (auto* v : {&darks, &loads})
    {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    // The panels: gnuplot's multiplot, which ns-3's Gnuplot does not write (it writes one plot
    // per script); each panel is a Gnuplot without terminal or output, framed here.
    const std::size_t nd = std::max<std::size_t>(darks.size(), 1);
    const std::size_t cols = nd <= 3 ? nd : (nd == 4 ? 2 : 3);
    const std::size_t rows = (nd + cols - 1) / cols;
    os << "set terminal pngcairo size " << 40 + 560 * cols << ","
       << 30 * CountTitleLines(title) + 500 * rows << " noenhanced\n"
       << "set output \"" << png << "\"\n"
       << "set multiplot layout " << rows << "," << cols << " title \"" << title << "\"\n";
    for (double dark : darks)
    {
        std::vector<const LlmRegimePoint*> here;
        for (const LlmRegimePoint& p : points)
        {
            if (p.darkTime == dark)
            {
                here.push_back(&p);
            }
        }
        MakePanel(here, dark, loads, m_tolerance * 100).GenerateOutput(os);
    }
    os << "unset multiplot\n";
}

} // namespace mose
} // namespace ns3
