/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-study-report.h"

#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseStudyReport");

namespace
{

/// File-name friendly mode name
std::string
ModeTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

/// the files of WriteCsv() named once, for it and GetCsvFileNames()
constexpr const char* SUMMARY_CSV = "summary.csv";   //!< the means with their CI
constexpr const char* PER_SEED_CSV = "per_seed.csv"; //!< every seed's metrics
constexpr const char* SWITCHES_CSV = "switches.csv"; //!< the circuits per switch

/// \param mode the mode \param policy the policy \return the file of seed 0's circuit loads
std::string
LoadsCsvName(WorkloadMode mode, Policy policy)
{
    return "loads_" + ModeTag(mode) + "_" + ToString(policy) + ".csv";
}

/// \param mode the mode \return the hop histograms' name without its extension (.csv, .plt)
std::string
HopsName(WorkloadMode mode)
{
    return "hops_" + ModeTag(mode);
}

/// One panel of Figure 5: a bar chart per policy of one metric in one mode
struct Panel
{
    std::string file;  //!< the script's name without .plt (and the PNG's without .png)
    std::string title; //!< the figure's title
    WorkloadMode mode; //!< the mode
    Metric metric;     //!< the metric
};

/// \return Figure 5's panels, for WritePlots() and GetPlotFileNames()
std::vector<Panel>
Figure5Panels()
{
    using W = WorkloadMode;
    using M = Metric;
    return {
        {"fig5_kv_max_load", "KV MaxLoad, inference-heavy", W::INFERENCE_HEAVY, M::KV_MAX_LOAD},
        {"fig5_tr_max_load", "Training MaxLoad, training-heavy", W::TRAINING_HEAVY, M::TR_MAX_LOAD},
        {"fig5_kv_avg_cost",
         "Average KV cost, inference-heavy",
         W::INFERENCE_HEAVY,
         M::KV_AVG_COST},
        {"fig5_kv_p95_cost", "P95 KV cost, inference-heavy", W::INFERENCE_HEAVY, M::KV_P95_COST},
        {"fig5_tr_avg_cost",
         "Average training cost, training-heavy",
         W::TRAINING_HEAVY,
         M::TR_AVG_COST},
        {"fig5_tr_p95_cost",
         "P95 training cost, training-heavy",
         W::TRAINING_HEAVY,
         M::TR_P95_COST},
        {"fig5_direct_kv", "Direct-KV ratio, inference-heavy", W::INFERENCE_HEAVY, M::DIRECT_KV},
        {"fig5_kv_3plus", "3+-hop KV ratio, inference-heavy", W::INFERENCE_HEAVY, M::KV_THREE_PLUS},
    };
}

} // namespace

StudyReport::StudyReport(const FlowExperimentHelper& study)
    : m_study(study)
{
    NS_LOG_FUNCTION(this);
}

void
StudyReport::WriteOutput(const std::string& path, const std::function<void(std::ostream&)>& put)
{
    NS_LOG_FUNCTION(path);
    WriteTextFile(path, [&put](std::ostream& out) {
        out << std::setprecision(10);
        put(out);
    });
}

void
StudyReport::PrintTables(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    const FlowExperimentConfig& c = m_study.GetConfig();
    os << "MoSE flow-level study: N=" << c.nodes << " d=" << c.degree << " flows=" << c.flows
       << " seeds=" << m_study.GetSeedsDone() << " (runs " << c.firstRun << ".."
       << c.firstRun + m_study.GetSeedsDone() - 1 << "), routing=" << ToString(c.routing)
       << ", assignment=" << ToString(c.assignment) << ", completion=" << ToString(c.completion)
       << ", roles=" << ToString(c.transition) << "\n";
    os << "Means over seeds with 95% confidence half-widths (Student's t, n - 1 degrees of "
          "freedom).\n\n";

    using M = Metric;
    const std::vector<TableColumn> tableI = {{"MaxLoad", M::MAX_LOAD, 20, 2},
                                             {"P95Load", M::P95_LOAD, 20, 2},
                                             {"AvgHop", M::AVG_HOP, 16, 3},
                                             {"DirectKV", M::DIRECT_KV, 16, 3},
                                             {"KV3+hop", M::KV_THREE_PLUS, 16, 3}};
    const std::vector<TableColumn> tableII = {{"KV avg", M::KV_AVG_COST, 22, 1},
                                              {"KV P95", M::KV_P95_COST, 22, 1},
                                              {"train avg", M::TR_AVG_COST, 22, 1},
                                              {"train P95", M::TR_P95_COST, 22, 1},
                                              {"KV MaxLoad", M::KV_MAX_LOAD, 18, 1},
                                              {"train MaxLoad", M::TR_MAX_LOAD, 0, 1}};
    auto table = [this, &os](const std::vector<TableColumn>& columns) {
        os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy";
        PrintColumnHeaders(os, columns);
        os << "\n";
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                os << std::left << std::setw(17) << ToString(mode) << std::setw(8) << ToString(p);
                PrintColumnCells(os, columns, [this, mode, p](Metric metric) {
                    return m_study.Summarize(mode, p, metric);
                });
                os << "\n";
            }
        }
    };
    os << "Table I: flow-level results\n";
    table(tableI);
    os << "\nTable II: load-aware communication cost (sum of circuit loads along the path)\n";
    table(tableII);

    os << "\nTable III: circuits per switch into the mode (construction="
       << ToString(c.construction) << "; static policies never switch)\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "kept" << std::setw(22) << "changed"
       << "changed share\n";
    for (WorkloadMode mode : ALL_MODES)
    {
        SwitchSummary sw = m_study.SummarizeSwitch(mode, Policy::MOSE);
        const double total = sw.kept.mean + sw.added.mean;
        os << std::left << std::setw(17) << ToString(mode) << std::setw(8) << ToString(Policy::MOSE)
           << std::setw(22) << FormatSummary(sw.kept, 1) << std::setw(22)
           << FormatSummary(sw.added, 1) << std::fixed << std::setprecision(3)
           << (total > 0 ? sw.added.mean / total : 0.0) << "\n";
    }
}

void
StudyReport::WriteCsv(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    WriteOutput(dir + "/" + SUMMARY_CSV, [&](std::ostream& out) {
        out << "mode,policy,metric,mean,ci95,n\n";
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (Metric metric : ALL_METRICS)
                {
                    Summary s = m_study.Summarize(mode, p, metric);
                    out << ToString(mode) << "," << ToString(p) << "," << ToString(metric) << ","
                        << s.mean << "," << s.ci95 << "," << s.n << "\n";
                }
            }
        }
    });
    WriteOutput(dir + "/" + PER_SEED_CSV, [&](std::ostream& out) {
        out << "run,mode,policy";
        for (Metric metric : ALL_METRICS)
        {
            out << "," << ToString(metric);
        }
        out << "\n";
        for (uint32_t seed = 0; seed < m_study.GetSeedsDone(); ++seed)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (Policy p : ALL_POLICIES)
                {
                    out << m_study.GetConfig().firstRun + seed << "," << ToString(mode) << ","
                        << ToString(p);
                    for (Metric metric : ALL_METRICS)
                    {
                        out << "," << GetMetric(m_study.GetMetrics(seed, mode, p), metric);
                    }
                    out << "\n";
                }
            }
        }
    });
    WriteOutput(dir + "/" + SWITCHES_CSV, [&](std::ostream& out) {
        out << "run,mode,policy,kept,added,removed\n";
        for (uint32_t seed = 0; seed < m_study.GetSeedsDone(); ++seed)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (Policy p : ALL_POLICIES)
                {
                    const SwitchCount& sw = m_study.GetSwitchCount(seed, mode, p);
                    out << m_study.GetConfig().firstRun + seed << "," << ToString(mode) << ","
                        << ToString(p) << "," << sw.kept << "," << sw.added << "," << sw.removed
                        << "\n";
                }
            }
        }
    });
    if (m_study.GetSeedsDone() == 0)
    {
        return;
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            const FlowMetrics& m = m_study.GetMetrics(0, mode, p);
            WriteOutput(dir + "/" + LoadsCsvName(mode, p), [&m](std::ostream& out) {
                out << "circuit,load,load_kv,load_training\n";
                for (std::size_t e = 0; e < m.load.size(); ++e)
                {
                    out << e << "," << m.load[e] << "," << m.loadKv[e] << "," << m.loadTraining[e]
                        << "\n";
                }
            });
        }
        WriteOutput(dir + "/" + HopsName(mode) + ".csv", [&](std::ostream& out) {
            out << "policy,class,hops,flows\n";
            for (Policy p : ALL_POLICIES)
            {
                const FlowMetrics& m = m_study.GetMetrics(0, mode, p);
                for (std::size_t h = 0; h < m.hopHistogramKv.size(); ++h)
                {
                    out << ToString(p) << ",kv," << h << "," << m.hopHistogramKv[h] << "\n";
                }
                for (std::size_t h = 0; h < m.hopHistogramTraining.size(); ++h)
                {
                    out << ToString(p) << ",training," << h << "," << m.hopHistogramTraining[h]
                        << "\n";
                }
            }
        });
    }
}

std::vector<std::string>
StudyReport::GetCsvFileNames()
{
    std::vector<std::string> names{SUMMARY_CSV, PER_SEED_CSV, SWITCHES_CSV};
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            names.push_back(LoadsCsvName(mode, p));
        }
        names.push_back(HopsName(mode) + ".csv");
    }
    return names;
}

std::vector<std::string>
StudyReport::GetPlotFileNames()
{
    std::vector<std::string> names;
    for (const Panel& panel : Figure5Panels())
    {
        names.push_back(panel.file + ".plt");
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        names.push_back(HopsName(mode) + ".plt");
    }
    return names;
}

std::vector<std::string>
StudyReport::WritePlots(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    std::vector<std::string> written;

    // one bar chart per panel: x = policy index, bars as wide impulses, 95% CI as error bars
    std::string xtics = "set xtics (";
    for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
    {
        xtics += (i ? ", \"" : "\"") + ToString(ALL_POLICIES[i]) + "\" " + std::to_string(i);
    }
    xtics += ")";
    for (const Panel& panel : Figure5Panels())
    {
        Gnuplot plot(panel.file + ".png");
        plot.SetTerminal("pngcairo size 640,420 butt noenhanced");
        plot.SetTitle(panel.title);
        plot.SetLegend("policy", ToString(panel.metric));
        plot.AppendExtra(xtics);
        plot.AppendExtra("set xrange [-0.6:" + std::to_string(ALL_POLICIES.size() - 0.4) + "]");
        plot.AppendExtra("set yrange [0:*]");
        plot.AppendExtra("set key off");
        Gnuplot2dDataset bars("mean");
        bars.SetStyle(Gnuplot2dDataset::IMPULSES);
        bars.SetExtra("lw 40 lc rgb \"#4477aa\"");
        Gnuplot2dDataset errors("95% CI");
        errors.SetStyle(Gnuplot2dDataset::POINTS);
        errors.SetErrorBars(Gnuplot2dDataset::Y);
        errors.SetExtra("lc rgb \"black\" pt 7 ps 0.6");
        for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
        {
            Summary s = m_study.Summarize(panel.mode, ALL_POLICIES[i], panel.metric);
            bars.Add(static_cast<double>(i), s.mean);
            errors.Add(static_cast<double>(i), s.mean, s.ci95);
        }
        plot.AddDataset(bars);
        plot.AddDataset(errors);
        std::string path = dir + "/" + panel.file + ".plt";
        WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
        written.push_back(path);
    }
    WriteHopPlots(dir, written);
    return written;
}

void
StudyReport::WriteHopPlots(const std::string& dir, std::vector<std::string>& written) const
{
    if (m_study.GetSeedsDone() == 0)
    {
        return;
    }
    for (WorkloadMode mode : ALL_MODES)
    {
        std::string file = HopsName(mode);
        Gnuplot plot(file + ".png");
        plot.SetTerminal("pngcairo size 640,420 butt noenhanced");
        plot.SetTitle("KV hop-count distribution, " + ToString(mode) + " (run " +
                      std::to_string(m_study.GetConfig().firstRun) + ")");
        plot.SetLegend("hops", "share of KV flows");
        plot.AppendExtra("set yrange [0:1.05]");
        plot.AppendExtra("set xrange [0.5:*]");
        for (Policy p : ALL_POLICIES)
        {
            const FlowMetrics& m = m_study.GetMetrics(0, mode, p);
            Gnuplot2dDataset ds(ToString(p));
            ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
            double total = 0;
            for (uint64_t count : m.hopHistogramKv)
            {
                total += static_cast<double>(count);
            }
            for (std::size_t h = 1; h < m.hopHistogramKv.size(); ++h)
            {
                ds.Add(static_cast<double>(h),
                       total > 0 ? static_cast<double>(m.hopHistogramKv[h]) / total : 0.0);
            }
            plot.AddDataset(ds);
        }
        std::string path = dir + "/" + file + ".plt";
        WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
        written.push_back(path);
    }
}

GnuplotResult
RunGnuplot(const std::string& dir, const std::string& script)
{
    NS_LOG_FUNCTION(dir << script);
    // the executable, looked up here so that the child only calls async-signal-safe functions
    std::string program;
    const char* path = std::getenv("PATH");
    std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (program.empty() && start <= folders.size())
    {
        std::size_t colon = folders.find(':', start);
        std::string folder =
            folders.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        std::string candidate = (folder.empty() ? std::string(".") : folder) + "/gnuplot";
        if (access(candidate.c_str(), X_OK) == 0)
        {
            program = candidate;
        }
        start = colon == std::string::npos ? folders.size() + 1 : colon + 1;
    }
    if (program.empty())
    {
        return GnuplotResult::NOT_INSTALLED;
    }
    std::string arg0 = "gnuplot";
    std::string arg1 = script;
    char* argv[] = {arg0.data(), arg1.data(), nullptr};
    const pid_t pid = fork();
    if (pid < 0)
    {
        NS_LOG_WARN("fork failed: " << std::strerror(errno));
        return GnuplotResult::FAILED;
    }
    if (pid == 0)
    {
        // the child: change into the folder, silence the output, run gnuplot
        if (chdir(dir.c_str()) != 0)
        {
            _exit(127);
        }
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
        {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(program.c_str(), argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            return GnuplotResult::FAILED;
        }
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? GnuplotResult::RENDERED
                                                         : GnuplotResult::FAILED;
}

std::string
EscapeGnuplotText(const std::string& option, const std::string& text)
{
    std::string out;
    for (const char c : text)
    {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
        {
            ThrowBadParameter(option,
                              QuoteFileText(text),
                              "a text of one line for the figure (no line break or other "
                              "control character)");
        }
        switch (c)
        {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '`':
            out += "\\140";
            break;
        case '@':
            out += "\\100";
            break;
        default:
            out += c;
        }
    }
    return out;
}

namespace
{

/**
 * \param dir the script's folder
 * \param script the script
 * \return the files its "set output" lines name that are missing or empty, as "FILE (why)"
 */
std::vector<std::string>
FindUnrenderedOutputs(const std::string& dir, const std::string& script)
{
    std::vector<std::string> missing;
    std::ifstream in(dir + "/" + script);
    for (std::string line; std::getline(in, line);)
    {
        const std::string key = "set output ";
        if (line.rfind(key, 0) != 0 || line.size() < key.size() + 2)
        {
            continue;
        }
        const char quote = line[key.size()];
        const std::size_t end = line.find(quote, key.size() + 1);
        if ((quote != '"' && quote != '\'') || end == std::string::npos)
        {
            continue;
        }
        const std::string file = line.substr(key.size() + 1, end - key.size() - 1);
        std::error_code ec;
        const std::filesystem::path path = std::filesystem::path(dir) / file;
        if (!std::filesystem::exists(path, ec))
        {
            missing.push_back(file + " (not written)");
        }
        else if (std::filesystem::file_size(path, ec) == 0)
        {
            missing.push_back(file + " (0 bytes)");
        }
    }
    return missing;
}

} // namespace

uint32_t
StudyReport::RenderPlots(const std::string& dir, const std::vector<std::string>& scripts)
{
    NS_LOG_FUNCTION(dir << scripts.size());
    uint32_t rendered = 0;
    std::vector<std::string> failed;
    for (const std::string& script : scripts)
    {
        const std::string name = script.substr(script.find_last_of('/') + 1);
        const GnuplotResult result = RunGnuplot(dir, name);
        if (result == GnuplotResult::NOT_INSTALLED)
        {
            std::cerr << "gnuplot is not installed: the figures' scripts are in " << dir
                      << " (apt-get install gnuplot-nox, then run gnuplot on each .plt there)\n";
            return 0;
        }
        const std::vector<std::string> missing = result == GnuplotResult::RENDERED
                                                     ? FindUnrenderedOutputs(dir, name)
                                                     : std::vector<std::string>{};
        if (result == GnuplotResult::RENDERED && missing.empty())
        {
            ++rendered;
        }
        else if (result == GnuplotResult::RENDERED)
        {
            std::string files;
            for (const std::string& m : missing)
            {
                files += (files.empty() ? "" : ", ") + m;
            }
            failed.push_back(script + " (gnuplot exited with status 0 but left " + files + ")");
        }
        else
        {
            failed.push_back(script + " (gnuplot failed: a status other than 0, or it could not "
                                      "start in the folder)");
        }
    }
    if (!failed.empty())
    {
        std::string list;
        for (const std::string& f : failed)
        {
            list += "\n  " + f;
        }
        throw Error("gnuplot did not render " + std::to_string(failed.size()) + " of " +
                    std::to_string(scripts.size()) + " figures in " + dir +
                    " (the scripts are there; run gnuplot on one to see why):" + list);
    }
    return rendered;
}

} // namespace mose
} // namespace ns3
