/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-sweep-report.h"

#include "mose-study-report.h"

#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-metrics-output.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSweepReport");

namespace
{

/// File-name friendly mode name
std::string
ModeTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

/// \return the text as a CSV field (quoted, with quotes doubled)
std::string
CsvField(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
    {
        out += (c == '"') ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    }
    return out + "\"";
}

/// the files of WriteCsv() named once, for it and GetCsvFileNames()
constexpr const char* SWEEP_CSV = "sweep.csv";     //!< every point's summaries
constexpr const char* SKIPPED_CSV = "skipped.csv"; //!< the points skipped, with the reason

/// \param n N \param rho the KV share \return the tag of a figure's point, "n<N>_kv<rho>"
std::string
PointTag(uint32_t n, double rho)
{
    return "n" + std::to_string(n) + "_kv" + Sweep::FormatShare(rho);
}

/**
 * \param mode the mode (inference-heavy: the KV cost; training-heavy: the training cost)
 * \param n N \param rho the KV share \param c the construction
 * \return the cost-against-r figure's name without .plt (and the PNG's without .png)
 */
std::string
CostPlotName(WorkloadMode mode, uint32_t n, double rho, TemplateConstruction c)
{
    return std::string(mode == WorkloadMode::INFERENCE_HEAVY ? "kv" : "tr") + "_cost_vs_r_" +
           PointTag(n, rho) + "_" + ToString(c);
}

/// \param n N \param rho the KV share \return the switch figure's name without .plt
std::string
SwitchPlotName(uint32_t n, double rho)
{
    return "switch_vs_r_" + PointTag(n, rho);
}

/// \param mode the mode \return the MaxLoad-against-N figure's name without .plt
std::string
MaxLoadPlotName(WorkloadMode mode)
{
    return "max_load_vs_n_" + ModeTag(mode);
}

/// A figure's terminal
const std::string TERMINAL = "pngcairo size 1000,600 butt noenhanced";

/// The figures' legend: outside, small, so that 13 degrees x 2 constructions fit
const std::string KEY = "set key outside right top font \",8\" spacing 0.9";

/**
 * \param res a sweep point's result \param n N \param rho the KV share \param c the
 *        construction, or any
 * \return whether the point ran and has these N, rho and construction
 */
bool
Matches(const SweepResult& res, uint32_t n, double rho, std::optional<TemplateConstruction> c)
{
    return !res.skipped && res.point.nodes == n && res.point.kvShare == rho &&
           (!c || res.point.construction == *c);
}

/**
 * \brief Writes a figure's gnuplot script, dir/file.plt, and lists it.
 * \param plot the figure \param dir the folder \param file the name without .plt
 * \param written the scripts written, appended to
 */
void
WritePlot(Gnuplot& plot,
          const std::string& dir,
          const std::string& file,
          std::vector<std::string>& written)
{
    std::string path = dir + "/" + file + ".plt";
    StudyReport::WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
    written.push_back(path);
}

} // namespace

SweepReport::SweepReport(const Sweep& sweep)
    : m_sweep(sweep)
{
}

void
SweepReport::PrintTable(std::ostream& os) const
{
    const SweepConfig& config = m_sweep.GetConfig();
    NS_LOG_FUNCTION(this << &os);
    const FlowExperimentConfig& b = config.base;
    const uint32_t seeds = config.seedPlan.seeds;
    os << "MoSE design-space sweep: " << m_sweep.GetPoints().size() << " points, flows=" << b.flows
       << " seeds=" << seeds << " (runs " << b.firstRun << ".." << b.firstRun + seeds - 1
       << "), routing=" << ToString(b.routing) << "; means over seeds\n";
    os << "KVcost: MoSE KV avg cost inference-heavy (S-Train's in brackets); TRcost: MoSE "
          "training avg cost training-heavy;\nMaxLd: MoSE MaxLoad inference-heavy; changed: "
          "circuits changed by MoSE's switch into inference / training\n";
    os << std::left << std::setw(7) << "N" << std::setw(4) << "d" << std::setw(4) << "r"
       << std::setw(6) << "rho" << std::setw(16) << "construction" << std::setw(20) << "KVcost"
       << std::setw(10) << "TRcost" << std::setw(10) << "MaxLd"
       << "changed\n";
    for (const SweepResult& res : m_sweep.GetResults())
    {
        const SweepPoint& p = res.point;
        os << std::left << std::setw(7) << p.nodes << std::setw(4) << p.degree << std::setw(4)
           << p.reservedPorts << std::setw(6) << Sweep::FormatShare(p.kvShare) << std::setw(16)
           << ToString(p.construction);
        if (res.skipped)
        {
            os << "skipped: " << res.reason << "\n";
            continue;
        }
        using W = WorkloadMode;
        using M = Metric;
        std::ostringstream kv;
        kv << std::fixed << std::setprecision(1)
           << res.Get(W::INFERENCE_HEAVY, Policy::MOSE, M::KV_AVG_COST).mean << " ("
           << res.Get(W::INFERENCE_HEAVY, Policy::STATIC_TRAINING, M::KV_AVG_COST).mean << ")";
        std::ostringstream changed;
        changed << std::fixed << std::setprecision(1)
                << res.GetSwitch(W::INFERENCE_HEAVY).added.mean << " / "
                << res.GetSwitch(W::TRAINING_HEAVY).added.mean;
        os << std::setw(20) << kv.str() << std::setw(10) << std::fixed << std::setprecision(1)
           << res.Get(W::TRAINING_HEAVY, Policy::MOSE, M::TR_AVG_COST).mean << std::setw(10)
           << res.Get(W::INFERENCE_HEAVY, Policy::MOSE, M::MAX_LOAD).mean << changed.str() << "\n";
        os.unsetf(std::ios::floatfield);
    }
}

void
SweepReport::WriteCsv(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    auto pointFields = [](const SweepPoint& p) {
        std::ostringstream os;
        os << p.nodes << "," << p.degree << "," << p.reservedPorts << ","
           << Sweep::FormatShare(p.kvShare) << "," << ToString(p.construction);
        return os.str();
    };
    StudyReport::WriteOutput(dir + "/" + SWEEP_CSV, [&](std::ostream& out) {
        out << "nodes,degree,r,kv_share,construction,mode,policy,metric,mean,ci95,n\n";
        for (const SweepResult& res : m_sweep.GetResults())
        {
            if (res.skipped)
            {
                continue;
            }
            const std::string point = pointFields(res.point);
            for (WorkloadMode mode : ALL_MODES)
            {
                for (Policy p : ALL_POLICIES)
                {
                    for (Metric metric : ALL_METRICS)
                    {
                        Summary s = res.Get(mode, p, metric);
                        out << point << "," << ToString(mode) << "," << ToString(p) << ","
                            << ToString(metric) << "," << s.mean << "," << s.ci95 << "," << s.n
                            << "\n";
                    }
                }
                SwitchSummary sw = res.GetSwitch(mode);
                out << point << "," << ToString(mode) << "," << ToString(Policy::MOSE)
                    << ",switch_kept," << sw.kept.mean << "," << sw.kept.ci95 << "," << sw.kept.n
                    << "\n";
                out << point << "," << ToString(mode) << "," << ToString(Policy::MOSE)
                    << ",switch_changed," << sw.added.mean << "," << sw.added.ci95 << ","
                    << sw.added.n << "\n";
            }
        }
    });
    StudyReport::WriteOutput(dir + "/" + SKIPPED_CSV, [&](std::ostream& out) {
        out << "nodes,degree,r,kv_share,construction,reason\n";
        for (const SweepResult& res : m_sweep.GetResults())
        {
            if (res.skipped)
            {
                out << pointFields(res.point) << "," << CsvField(res.reason) << "\n";
            }
        }
    });
}

std::vector<std::string>
SweepReport::GetCsvFileNames()
{
    return {SWEEP_CSV, SKIPPED_CSV};
}

std::vector<std::string>
SweepReport::GetPlotFileNames(const SweepConfig& config)
{
    // in WritePlots()'s order
    std::vector<std::string> names;
    for (uint32_t n : config.nodes)
    {
        for (double rho : config.kvShares)
        {
            for (TemplateConstruction c : config.constructions)
            {
                for (WorkloadMode mode : ALL_MODES)
                {
                    names.push_back(CostPlotName(mode, n, rho, c) + ".plt");
                }
            }
            names.push_back(SwitchPlotName(n, rho) + ".plt");
        }
    }
    if (config.nodes.size() > 1)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            names.push_back(MaxLoadPlotName(mode) + ".plt");
        }
    }
    return names;
}

std::vector<std::string>
SweepReport::WritePlots(const std::string& dir) const
{
    const SweepConfig& config = m_sweep.GetConfig();
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    std::vector<std::string> written;
    for (uint32_t n : config.nodes)
    {
        for (double rho : config.kvShares)
        {
            WriteCostPlots(dir, n, rho, written);
            WriteSwitchPlot(dir, n, rho, written);
        }
    }
    // (c) MaxLoad against N per policy, when several N are swept
    if (config.nodes.size() > 1)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            WriteMaxLoadPlot(dir, mode, written);
        }
    }
    return written;
}

void
SweepReport::WriteCostPlots(const std::string& dir,
                            uint32_t n,
                            double rho,
                            std::vector<std::string>& written) const
{
    const SweepConfig& config = m_sweep.GetConfig();
    // (a) MoSE's KV cost (inference-heavy) and training cost (training-heavy) against r, one
    // curve per d
    for (TemplateConstruction c : config.constructions)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            const bool kv = mode == WorkloadMode::INFERENCE_HEAVY;
            const Metric metric = kv ? Metric::KV_AVG_COST : Metric::TR_AVG_COST;
            const std::string file = CostPlotName(mode, n, rho, c);
            Gnuplot plot(file + ".png");
            plot.SetTerminal(TERMINAL);
            plot.SetTitle(std::string("MoSE ") + (kv ? "KV" : "training") + " avg cost, " +
                          ToString(mode) + "; N=" + std::to_string(n) +
                          ", rho=" + Sweep::FormatShare(rho) + ", " + ToString(c));
            plot.SetLegend("r (ports of H^PD reserved for P-D circuits)", ToString(metric));
            plot.AppendExtra(KEY);
            plot.AppendExtra("set yrange [0:*]");
            for (uint32_t d : config.degrees)
            {
                Gnuplot2dDataset ds("d=" + std::to_string(d));
                ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
                bool any = false;
                for (const SweepResult& res : m_sweep.GetResults())
                {
                    if (Matches(res, n, rho, c) && res.point.degree == d)
                    {
                        ds.Add(res.point.reservedPorts, res.Get(mode, Policy::MOSE, metric).mean);
                        any = true;
                    }
                }
                if (any)
                {
                    plot.AddDataset(ds);
                }
            }
            WritePlot(plot, dir, file, written);
        }
    }
}

void
SweepReport::WriteSwitchPlot(const std::string& dir,
                             uint32_t n,
                             double rho,
                             std::vector<std::string>& written) const
{
    const SweepConfig& config = m_sweep.GetConfig();
    // (b) circuits changed per MoSE switch against r, fresh (solid) vs rewiring-aware
    const std::string file = SwitchPlotName(n, rho);
    Gnuplot plot(file + ".png");
    plot.SetTerminal(TERMINAL);
    plot.SetTitle("Circuits changed per MoSE switch (mean of both); N=" + std::to_string(n) +
                  ", rho=" + Sweep::FormatShare(rho));
    plot.SetLegend("r (ports of H^PD reserved for P-D circuits)", "circuits changed per switch");
    plot.AppendExtra(KEY);
    plot.AppendExtra("set yrange [0:*]");
    std::size_t colour = 1;
    for (uint32_t d : config.degrees)
    {
        for (TemplateConstruction c : config.constructions)
        {
            Gnuplot2dDataset ds(ToString(c) + " d=" + std::to_string(d));
            ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
            ds.SetExtra("lc " + std::to_string(colour) + " dt " +
                        (c == TemplateConstruction::FRESH ? "1" : "2"));
            bool any = false;
            for (const SweepResult& res : m_sweep.GetResults())
            {
                if (Matches(res, n, rho, c) && res.point.degree == d)
                {
                    double changed = (res.GetSwitch(WorkloadMode::INFERENCE_HEAVY).added.mean +
                                      res.GetSwitch(WorkloadMode::TRAINING_HEAVY).added.mean) /
                                     2;
                    ds.Add(res.point.reservedPorts, changed);
                    any = true;
                }
            }
            if (any)
            {
                plot.AddDataset(ds);
            }
        }
        ++colour;
    }
    WritePlot(plot, dir, file, written);
}

std::optional<uint32_t>
SweepReport::ChooseMaxLoadR(uint32_t degree) const
{
    // r = d - 1 if swept for d, else the smallest r swept for d
    std::optional<uint32_t> chosen;
    for (const SweepPoint& p : m_sweep.GetPoints())
    {
        if (p.degree != degree)
        {
            continue;
        }
        if (p.reservedPorts + 1 == degree)
        {
            chosen = p.reservedPorts;
            break;
        }
        if (!chosen || p.reservedPorts < *chosen)
        {
            chosen = p.reservedPorts;
        }
    }
    return chosen;
}

void
SweepReport::WriteMaxLoadPlot(const std::string& dir,
                              WorkloadMode mode,
                              std::vector<std::string>& written) const
{
    const SweepConfig& config = m_sweep.GetConfig();
    const double rho = config.kvShares.front();
    const TemplateConstruction c = config.constructions.front();
    const std::string file = MaxLoadPlotName(mode);
    Gnuplot plot(file + ".png");
    plot.SetTerminal(TERMINAL);
    plot.SetTitle("MaxLoad, " + ToString(mode) + "; rho=" + Sweep::FormatShare(rho) + ", " +
                  ToString(c) + ", r = d - 1 where swept");
    plot.SetLegend("N (groups)", "MaxLoad");
    plot.AppendExtra("set logscale x 2");
    plot.AppendExtra(KEY);
    plot.AppendExtra("set yrange [0:*]");
    std::size_t colour = 1;
    for (uint32_t d : config.degrees)
    {
        const std::optional<uint32_t> chosen = ChooseMaxLoadR(d);
        if (!chosen)
        {
            continue;
        }
        std::size_t dash = 1;
        for (Policy pol : ALL_POLICIES)
        {
            Gnuplot2dDataset ds(ToString(pol) + " d=" + std::to_string(d) +
                                " r=" + std::to_string(*chosen));
            ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
            ds.SetExtra("lc " + std::to_string(colour) + " dt " + std::to_string(dash++));
            bool any = false;
            for (uint32_t n : config.nodes)
            {
                for (const SweepResult& res : m_sweep.GetResults())
                {
                    if (Matches(res, n, rho, c) && res.point.degree == d &&
                        res.point.reservedPorts == *chosen)
                    {
                        ds.Add(n, res.Get(mode, pol, Metric::MAX_LOAD).mean);
                        any = true;
                    }
                }
            }
            if (any)
            {
                plot.AddDataset(ds);
            }
        }
        ++colour;
    }
    WritePlot(plot, dir, file, written);
}

} // namespace mose
} // namespace ns3
