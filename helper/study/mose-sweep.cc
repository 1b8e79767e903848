/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-sweep.h"

#include "mose-program.h"
#include "mose-seed-pool.h"
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
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSweep");

namespace
{

/// The most values one axis may have (a typo such as 1:4000000000 fails early)
constexpr std::size_t MAX_AXIS_VALUES = 10000;

/// The smallest N a sweep accepts (the paper-scaled roles need a few groups of each role)
constexpr uint32_t MIN_SWEEP_NODES = 16;

/// The smallest d a sweep accepts
constexpr uint32_t MIN_SWEEP_DEGREE = 3;

/// \return the item split at colons
std::vector<std::string>
SplitColons(const std::string& item)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true)
    {
        std::size_t colon = item.find(':', start);
        parts.push_back(item.substr(start, colon == std::string::npos ? colon : colon - start));
        if (colon == std::string::npos)
        {
            return parts;
        }
        start = colon + 1;
    }
}

/// Throws if a value of the list as typed repeats (ThrowRepeatedItem())
template <typename T>
void
RejectRepeats(const std::string& option, const std::string& text, const std::vector<T>& values)
{
    std::set<T> seen;
    for (const T& v : values)
    {
        if (!seen.insert(v).second)
        {
            std::ostringstream os;
            os << v;
            ThrowRepeatedItem(text, option, os.str());
        }
    }
}

/// Throws if the list has too many values
void
CheckListSize(const std::string& option, const std::string& text, std::size_t size)
{
    if (size > MAX_AXIS_VALUES)
    {
        ThrowBadParameter(option,
                          QuoteText(text),
                          "the list has more than " + std::to_string(MAX_AXIS_VALUES) + " values");
    }
}

/// Throws if a value repeats
template <typename T>
void
CheckDistinct(const std::string& option, const std::vector<T>& values)
{
    std::set<T> seen;
    for (const T& v : values)
    {
        if (!seen.insert(v).second)
        {
            std::ostringstream os;
            os << v;
            ThrowBadParameter(option, os.str(), "the value is listed twice");
        }
    }
}

/// File-name friendly mode name
std::string
ModeTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

/// \return a share as written in file names and tables ("0.7")
std::string
ShareText(double share)
{
    std::ostringstream os;
    os << std::setprecision(6) << share;
    return os.str();
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

/// \return index of a (mode, policy, metric) in MoseSweepResult::summaries
std::size_t
SummaryIndex(WorkloadMode mode, Policy policy, MoseMetric metric)
{
    return (static_cast<std::size_t>(mode) * ALL_POLICIES.size() +
            static_cast<std::size_t>(policy)) *
               ALL_METRICS.size() +
           static_cast<std::size_t>(metric);
}

/// A figure's terminal
const std::string TERMINAL = "pngcairo size 1000,600 butt noenhanced";

/// The figures' legend: outside, small, so that 13 degrees x 2 constructions fit
const std::string KEY = "set key outside right top font \",8\" spacing 0.9";

} // namespace

std::vector<uint32_t>
ParseSweepUnsignedList(const std::string& option, const std::string& text)
{
    NS_LOG_FUNCTION(option << text);
    std::vector<uint32_t> values;
    for (const std::string& item :
         SplitList(text, option, "a number, a range a:b or a range a:b:step"))
    {
        std::vector<std::string> parts = SplitColons(item);
        if (parts.size() == 1)
        {
            values.push_back(ParseUnsigned32(option, item));
        }
        else if (parts.size() == 2 || parts.size() == 3)
        {
            uint32_t a = ParseUnsigned32(option, parts[0]);
            uint32_t b = ParseUnsigned32(option, parts[1]);
            uint32_t step = parts.size() == 3 ? ParseUnsigned32(option, parts[2]) : 1;
            if (step == 0)
            {
                ThrowBadParameter(option,
                                  QuoteText(item),
                                  "the step of a range must be at least 1");
            }
            if (b < a)
            {
                ThrowBadParameter(option, QuoteText(item), "a range a:b needs a <= b");
            }
            CheckListSize(option, text, values.size() + (b - a) / step + 1);
            for (uint64_t v = a; v <= b; v += step)
            {
                values.push_back(static_cast<uint32_t>(v));
            }
        }
        else
        {
            ThrowBadParameter(option,
                              QuoteText(item),
                              "an item is a number, a range a:b or a range a:b:step");
        }
        CheckListSize(option, text, values.size());
    }
    RejectRepeats(option, text, values);
    return values;
}

std::vector<double>
ParseSweepRealList(const std::string& option, const std::string& text)
{
    NS_LOG_FUNCTION(option << text);
    std::vector<double> values;
    for (const std::string& item : SplitList(text, option, "a number or a range a:b:step"))
    {
        std::vector<std::string> parts = SplitColons(item);
        if (parts.size() == 1)
        {
            values.push_back(ParseReal(option, item));
        }
        else if (parts.size() == 3)
        {
            double a = ParseReal(option, parts[0]);
            double b = ParseReal(option, parts[1]);
            double step = ParseReal(option, parts[2]);
            if (!(step > 0))
            {
                ThrowBadParameter(option, QuoteText(item), "the step of a range must be > 0");
            }
            if (b < a)
            {
                ThrowBadParameter(option, QuoteText(item), "a range a:b:step needs a <= b");
            }
            double count = std::floor((b - a) / step + 1e-9) + 1;
            CheckListSize(option,
                          text,
                          values.size() + static_cast<std::size_t>(
                                              std::min(count, double(MAX_AXIS_VALUES + 1))));
            for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
            {
                // a + i * step, rounded to 12 significant digits so that 0.1 steps give 0.3,
                // not 0.30000000000000004
                std::ostringstream os;
                os << std::setprecision(12) << a + static_cast<double>(i) * step;
                values.push_back(std::stod(os.str()));
            }
        }
        else
        {
            ThrowBadParameter(option, QuoteText(item), "an item is a number or a range a:b:step");
        }
        CheckListSize(option, text, values.size());
    }
    RejectRepeats(option, text, values);
    return values;
}

std::vector<uint32_t>
ParseSweepReservedPorts(const std::string& option, const std::string& text)
{
    NS_LOG_FUNCTION(option << text);
    if (ToLowerAscii(text) == "all")
    {
        return {};
    }
    return ParseSweepUnsignedList(option, text);
}

std::vector<TemplateConstruction>
ParseSweepConstructions(const std::string& option, const std::string& text)
{
    NS_LOG_FUNCTION(option << text);
    return ParseEnumList<TemplateConstruction>(text, option);
}

void
MoseSweepConfig::Validate() const
{
    NS_LOG_FUNCTION(this);
    for (auto [option, empty] : {std::make_pair("--sweepNodes", nodes.empty()),
                                 std::make_pair("--sweepDegrees", degrees.empty()),
                                 std::make_pair("--sweepKvShare", kvShares.empty()),
                                 std::make_pair("--sweepConstruction", constructions.empty())})
    {
        if (empty)
        {
            ThrowBadParameter(option, "\"\"", "the list is empty");
        }
    }
    CheckDistinct("--sweepNodes", nodes);
    CheckDistinct("--sweepDegrees", degrees);
    CheckDistinct("--sweepR", reservedPorts);
    CheckDistinct("--sweepKvShare", kvShares);
    std::set<TemplateConstruction> constructionsSeen;
    for (TemplateConstruction c : constructions)
    {
        if (!constructionsSeen.insert(c).second)
        {
            ThrowBadParameter("--sweepConstruction", ToString(c), "the value is listed twice");
        }
    }
    const uint32_t minNodes = *std::min_element(nodes.begin(), nodes.end());
    for (uint32_t n : nodes)
    {
        if (n < MIN_SWEEP_NODES || n > MAX_GROUPS)
        {
            ThrowBadParameter("--sweepNodes",
                              std::to_string(n),
                              "need " + std::to_string(MIN_SWEEP_NODES) +
                                  " <= N <= " + std::to_string(MAX_GROUPS));
        }
    }
    const uint32_t maxDegree = *std::max_element(degrees.begin(), degrees.end());
    for (uint32_t d : degrees)
    {
        if (d < MIN_SWEEP_DEGREE || d >= minNodes)
        {
            ThrowBadParameter("--sweepDegrees",
                              std::to_string(d),
                              "need " + std::to_string(MIN_SWEEP_DEGREE) + " <= d < N = " +
                                  std::to_string(minNodes) + " (the smallest N swept)");
        }
        if (base.compromiseReservedPorts > d)
        {
            ThrowBadParameter("--compromiseReservedPorts",
                              std::to_string(base.compromiseReservedPorts),
                              "need r of H^C <= every swept degree, but --sweepDegrees has " +
                                  std::to_string(d));
        }
    }
    for (uint32_t r : reservedPorts)
    {
        if (r > maxDegree)
        {
            ThrowBadParameter("--sweepR",
                              std::to_string(r),
                              "need r <= d for some swept d, but the largest is " +
                                  std::to_string(maxDegree));
        }
    }
    for (double rho : kvShares)
    {
        if (!(rho > 0.0 && rho <= 1.0))
        {
            ThrowBadParameter("--sweepKvShare", FormatNumber(rho), "a share must lie in (0, 1]");
        }
    }
    for (auto [option, file] :
         {std::make_pair("--inferenceRolesFile", base.inferenceRolesFile),
          std::make_pair("--trainingRolesFile", base.trainingRolesFile),
          std::make_pair("--inferenceAssignmentFile", base.inferenceAssignmentFile),
          std::make_pair("--trainingAssignmentFile", base.trainingAssignmentFile),
          std::make_pair("--inferenceFlowsFile", base.inferenceFlowsFile),
          std::make_pair("--trainingFlowsFile", base.trainingFlowsFile)})
    {
        if (!file.empty())
        {
            ThrowBadParameter(option,
                              QuoteText(file),
                              "a sweep draws roles, assignments and flows for every point; files "
                              "fit one N and one KV share");
        }
    }
    if (base.seeds == 0)
    {
        ThrowBadParameter("--seeds", "0", "need at least one seed");
    }
    if (base.flows == 0)
    {
        ThrowBadParameter("--flows", "0", "need at least one flow per mode");
    }
}

MoseSummary
MoseSweepResult::Get(WorkloadMode mode, Policy policy, MoseMetric metric) const
{
    if (skipped)
    {
        throw MoseError("the sweep point was skipped: " + reason);
    }
    return summaries.at(SummaryIndex(mode, policy, metric));
}

MoseSwitchSummary
MoseSweepResult::GetSwitch(WorkloadMode mode) const
{
    if (skipped)
    {
        throw MoseError("the sweep point was skipped: " + reason);
    }
    return switches.at(static_cast<std::size_t>(mode));
}

MoseSweep::MoseSweep(const MoseSweepConfig& config)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
    m_config.Validate();
    for (uint32_t n : m_config.nodes)
    {
        for (uint32_t d : m_config.degrees)
        {
            std::vector<uint32_t> rs;
            if (m_config.reservedPorts.empty())
            {
                for (uint32_t r = 0; r <= d; ++r)
                {
                    rs.push_back(r);
                }
            }
            else
            {
                for (uint32_t r : m_config.reservedPorts)
                {
                    if (r <= d)
                    {
                        rs.push_back(r);
                    }
                }
            }
            for (uint32_t r : rs)
            {
                for (double rho : m_config.kvShares)
                {
                    for (TemplateConstruction c : m_config.constructions)
                    {
                        m_points.push_back({n, d, r, rho, c});
                    }
                }
            }
        }
    }
}

const MoseSweepConfig&
MoseSweep::GetConfig() const
{
    return m_config;
}

const std::vector<MoseSweepPoint>&
MoseSweep::GetPoints() const
{
    return m_points;
}

MoseFlowExperimentConfig
MoseSweep::MakeConfig(const MoseSweepPoint& point) const
{
    MoseFlowExperimentConfig c = m_config.base;
    if (point.nodes != c.nodes)
    {
        c.inferenceRoles = RoleCounts::PaperScaled(point.nodes, WorkloadMode::INFERENCE_HEAVY);
        c.trainingRoles = RoleCounts::PaperScaled(point.nodes, WorkloadMode::TRAINING_HEAVY);
    }
    c.nodes = point.nodes;
    c.degree = point.degree;
    c.pdReservedPorts = point.reservedPorts;
    c.kvShareInference = point.kvShare;
    c.construction = point.construction;
    return c;
}

void
MoseSweep::RunPoint(std::size_t index, uint32_t threads)
{
    NS_LOG_FUNCTION(this << index << threads);
    MoseSweepResult& result = m_results[index];
    result = MoseSweepResult();
    result.point = m_points[index];
    MoseFlowExperimentConfig config = MakeConfig(m_points[index]);
    config.threads = threads;
    try
    {
        MoseFlowExperimentHelper study(config);
        study.Run();
        result.summaries.resize(ALL_MODES.size() * ALL_POLICIES.size() * ALL_METRICS.size());
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (MoseMetric metric : ALL_METRICS)
                {
                    result.summaries[SummaryIndex(mode, p, metric)] =
                        study.Summarize(mode, p, metric);
                }
            }
            result.switches.push_back(study.SummarizeSwitch(mode, Policy::MOSE));
        }
    }
    catch (const MoseError& e)
    {
        NS_LOG_INFO("point " << index << " skipped: " << e.what());
        result.skipped = true;
        result.reason = e.what();
        result.summaries.clear();
        result.switches.clear();
    }
}

void
MoseSweep::Run(const std::function<void(uint32_t, uint32_t, const MoseSweepResult&)>& progress)
{
    NS_LOG_FUNCTION(this);
    m_results.assign(m_points.size(), MoseSweepResult());
    const uint32_t total = static_cast<uint32_t>(m_points.size());
    uint32_t threads =
        m_config.base.threads != 0 ? m_config.base.threads : std::thread::hardware_concurrency();
    threads = std::max<uint32_t>(1, threads);
    // Points are independent: with at least as many points as threads, each worker takes whole
    // points and runs their seeds on one thread; otherwise the points run one after the other,
    // each on every thread. Results go to the point's slot either way.
    const uint32_t workers = std::max<uint32_t>(1, std::min(threads, total));
    const uint32_t perPoint = std::max<uint32_t>(1, threads / workers);
    std::mutex progressMutex;
    uint32_t done = 0;
    try
    {
        ForEachSeed(total, workers, [&](uint32_t i) {
            RunPoint(i, perPoint);
            std::lock_guard<std::mutex> lock(progressMutex);
            ++done;
            if (progress)
            {
                progress(done, total, m_results[i]);
            }
        });
    }
    catch (...)
    {
        m_results.clear();
        throw;
    }
}

const std::vector<MoseSweepResult>&
MoseSweep::GetResults() const
{
    return m_results;
}

void
MoseSweep::PrintTable(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    const MoseFlowExperimentConfig& b = m_config.base;
    os << "MoSE design-space sweep: " << m_points.size() << " points, flows=" << b.flows
       << " seeds=" << b.seeds << " (runs " << b.firstRun << ".." << b.firstRun + b.seeds - 1
       << "), routing=" << ToString(b.routing) << "; means over seeds\n";
    os << "KVcost: MoSE KV avg cost inference-heavy (S-Train's in brackets); TRcost: MoSE "
          "training avg cost training-heavy;\nMaxLd: MoSE MaxLoad inference-heavy; changed: "
          "circuits changed by MoSE's switch into inference / training\n";
    os << std::left << std::setw(7) << "N" << std::setw(4) << "d" << std::setw(4) << "r"
       << std::setw(6) << "rho" << std::setw(16) << "construction" << std::setw(20) << "KVcost"
       << std::setw(10) << "TRcost" << std::setw(10) << "MaxLd"
       << "changed\n";
    for (const MoseSweepResult& res : m_results)
    {
        const MoseSweepPoint& p = res.point;
        os << std::left << std::setw(7) << p.nodes << std::setw(4) << p.degree << std::setw(4)
           << p.reservedPorts << std::setw(6) << ShareText(p.kvShare) << std::setw(16)
           << ToString(p.construction);
        if (res.skipped)
        {
            os << "skipped: " << res.reason << "\n";
            continue;
        }
        using W = WorkloadMode;
        using M = MoseMetric;
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
MoseSweep::WriteCsv(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    auto pointFields = [](const MoseSweepPoint& p) {
        std::ostringstream os;
        os << p.nodes << "," << p.degree << "," << p.reservedPorts << "," << ShareText(p.kvShare)
           << "," << ToString(p.construction);
        return os.str();
    };
    MoseStudyReport::WriteOutput(dir + "/sweep.csv", [&](std::ostream& out) {
        out << "nodes,degree,r,kv_share,construction,mode,policy,metric,mean,ci95,n\n";
        for (const MoseSweepResult& res : m_results)
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
                    for (MoseMetric metric : ALL_METRICS)
                    {
                        MoseSummary s = res.Get(mode, p, metric);
                        out << point << "," << ToString(mode) << "," << ToString(p) << ","
                            << ToString(metric) << "," << s.mean << "," << s.ci95 << "," << s.n
                            << "\n";
                    }
                }
                MoseSwitchSummary sw = res.GetSwitch(mode);
                out << point << "," << ToString(mode) << "," << ToString(Policy::MOSE)
                    << ",switch_kept," << sw.kept.mean << "," << sw.kept.ci95 << "," << sw.kept.n
                    << "\n";
                out << point << "," << ToString(mode) << "," << ToString(Policy::MOSE)
                    << ",switch_changed," << sw.added.mean << "," << sw.added.ci95 << ","
                    << sw.added.n << "\n";
            }
        }
    });
    MoseStudyReport::WriteOutput(dir + "/skipped.csv", [&](std::ostream& out) {
        out << "nodes,degree,r,kv_share,construction,reason\n";
        for (const MoseSweepResult& res : m_results)
        {
            if (res.skipped)
            {
                out << pointFields(res.point) << "," << CsvField(res.reason) << "\n";
            }
        }
    });
}

std::vector<std::string>
MoseSweep::WritePlots(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    std::vector<std::string> written;
    auto write = [&](Gnuplot& plot, const std::string& file) {
        std::string path = dir + "/" + file + ".plt";
        MoseStudyReport::WriteOutput(path,
                                     [&plot](std::ostream& out) { plot.GenerateOutput(out); });
        written.push_back(path);
    };
    auto matches = [](const MoseSweepResult& res,
                      uint32_t n,
                      double rho,
                      std::optional<TemplateConstruction> c) {
        return !res.skipped && res.point.nodes == n && res.point.kvShare == rho &&
               (!c || res.point.construction == *c);
    };
    using W = WorkloadMode;
    using M = MoseMetric;

    for (uint32_t n : m_config.nodes)
    {
        for (double rho : m_config.kvShares)
        {
            const std::string tag = "n" + std::to_string(n) + "_kv" + ShareText(rho);
            // (a) MoSE's KV cost (inference-heavy) and training cost (training-heavy) against
            // r, one curve per d
            for (TemplateConstruction c : m_config.constructions)
            {
                for (WorkloadMode mode : ALL_MODES)
                {
                    const bool kv = mode == W::INFERENCE_HEAVY;
                    const MoseMetric metric = kv ? M::KV_AVG_COST : M::TR_AVG_COST;
                    const std::string file =
                        std::string(kv ? "kv" : "tr") + "_cost_vs_r_" + tag + "_" + ToString(c);
                    Gnuplot plot(file + ".png");
                    plot.SetTerminal(TERMINAL);
                    plot.SetTitle(std::string("MoSE ") + (kv ? "KV" : "training") + " avg cost, " +
                                  ToString(mode) + "; N=" + std::to_string(n) +
                                  ", rho=" + ShareText(rho) + ", " + ToString(c));
                    plot.SetLegend("r (ports of H^PD reserved for P-D circuits)", ToString(metric));
                    plot.AppendExtra(KEY);
                    plot.AppendExtra("set yrange [0:*]");
                    for (uint32_t d : m_config.degrees)
                    {
                        Gnuplot2dDataset ds("d=" + std::to_string(d));
                        ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
                        bool any = false;
                        for (const MoseSweepResult& res : m_results)
                        {
                            if (matches(res, n, rho, c) && res.point.degree == d)
                            {
                                ds.Add(res.point.reservedPorts,
                                       res.Get(mode, Policy::MOSE, metric).mean);
                                any = true;
                            }
                        }
                        if (any)
                        {
                            plot.AddDataset(ds);
                        }
                    }
                    write(plot, file);
                }
            }
            // (b) circuits changed per MoSE switch against r, fresh (solid) vs rewiring-aware
            {
                const std::string file = "switch_vs_r_" + tag;
                Gnuplot plot(file + ".png");
                plot.SetTerminal(TERMINAL);
                plot.SetTitle("Circuits changed per MoSE switch (mean of both); N=" +
                              std::to_string(n) + ", rho=" + ShareText(rho));
                plot.SetLegend("r (ports of H^PD reserved for P-D circuits)",
                               "circuits changed per switch");
                plot.AppendExtra(KEY);
                plot.AppendExtra("set yrange [0:*]");
                std::size_t colour = 1;
                for (uint32_t d : m_config.degrees)
                {
                    for (TemplateConstruction c : m_config.constructions)
                    {
                        Gnuplot2dDataset ds(ToString(c) + " d=" + std::to_string(d));
                        ds.SetStyle(Gnuplot2dDataset::LINES_POINTS);
                        ds.SetExtra("lc " + std::to_string(colour) + " dt " +
                                    (c == TemplateConstruction::FRESH ? "1" : "2"));
                        bool any = false;
                        for (const MoseSweepResult& res : m_results)
                        {
                            if (matches(res, n, rho, c) && res.point.degree == d)
                            {
                                double changed = (res.GetSwitch(W::INFERENCE_HEAVY).added.mean +
                                                  res.GetSwitch(W::TRAINING_HEAVY).added.mean) /
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
                write(plot, file);
            }
        }
    }

    // (c) MaxLoad against N per policy, when several N are swept
    if (m_config.nodes.size() > 1)
    {
        const double rho = m_config.kvShares.front();
        const TemplateConstruction c = m_config.constructions.front();
        for (WorkloadMode mode : ALL_MODES)
        {
            const std::string file = "max_load_vs_n_" + ModeTag(mode);
            Gnuplot plot(file + ".png");
            plot.SetTerminal(TERMINAL);
            plot.SetTitle("MaxLoad, " + ToString(mode) + "; rho=" + ShareText(rho) + ", " +
                          ToString(c) + ", r = d - 1 where swept");
            plot.SetLegend("N (groups)", "MaxLoad");
            plot.AppendExtra("set logscale x 2");
            plot.AppendExtra(KEY);
            plot.AppendExtra("set yrange [0:*]");
            std::size_t colour = 1;
            for (uint32_t d : m_config.degrees)
            {
                // r = d - 1 if swept for d, else the smallest r swept for d
                std::optional<uint32_t> chosen;
                for (const MoseSweepPoint& p : m_points)
                {
                    if (p.degree != d)
                    {
                        continue;
                    }
                    if (p.reservedPorts + 1 == d)
                    {
                        chosen = p.reservedPorts;
                        break;
                    }
                    if (!chosen || p.reservedPorts < *chosen)
                    {
                        chosen = p.reservedPorts;
                    }
                }
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
                    for (uint32_t n : m_config.nodes)
                    {
                        for (const MoseSweepResult& res : m_results)
                        {
                            if (matches(res, n, rho, c) && res.point.degree == d &&
                                res.point.reservedPorts == *chosen)
                            {
                                ds.Add(n, res.Get(mode, pol, M::MAX_LOAD).mean);
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
            write(plot, file);
        }
    }
    return written;
}

MoseSweepCommandLine::MoseSweepCommandLine(const MoseSweepConfig& defaults)
    : m_defaults(defaults),
      m_study(MoseScenarioDefaults{defaults.base.nodes, defaults.base.flows, defaults.base.seeds})
{
    auto join = [](const auto& values) {
        std::ostringstream os;
        for (std::size_t i = 0; i < values.size(); ++i)
        {
            os << (i ? "," : "") << values[i];
        }
        return os.str();
    };
    m_nodes = join(defaults.nodes);
    m_degrees = join(defaults.degrees);
    m_reservedPorts = defaults.reservedPorts.empty() ? "all" : join(defaults.reservedPorts);
    std::vector<std::string> shares;
    for (double rho : defaults.kvShares)
    {
        shares.push_back(ShareText(rho));
    }
    m_kvShares = join(shares);
    std::vector<std::string> constructions;
    for (TemplateConstruction c : defaults.constructions)
    {
        constructions.push_back(ToString(c));
    }
    m_constructions = join(constructions);
}

void
MoseSweepCommandLine::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    m_study.AddOptions(cmd);
    AddTextOption(cmd,
                  "sweepNodes",
                  "values of N: comma list of numbers or ranges a:b, a:b:step",
                  m_nodes);
    AddTextOption(cmd, "sweepDegrees", "values of d (list or ranges, each d >= 3)", m_degrees);
    AddTextOption(cmd,
                  "sweepR",
                  "values of r of H^PD: \"all\" (0..d for each d) or a list/ranges",
                  m_reservedPorts);
    AddTextOption(cmd,
                  "sweepKvShare",
                  "inference-heavy KV shares in (0, 1]: list, or ranges a:b:step",
                  m_kvShares);
    AddTextOption(cmd,
                  "sweepConstruction",
                  "MoSE's template constructions: fresh, rewiring-aware (comma list)",
                  m_constructions);
}

MoseSweepConfig
MoseSweepCommandLine::GetConfig() const
{
    NS_LOG_FUNCTION(this);
    MoseSweepConfig c = m_defaults;
    c.nodes = ParseSweepUnsignedList("--sweepNodes", m_nodes);
    c.degrees = ParseSweepUnsignedList("--sweepDegrees", m_degrees);
    c.reservedPorts = ParseSweepReservedPorts("--sweepR", m_reservedPorts);
    c.kvShares = ParseSweepRealList("--sweepKvShare", m_kvShares);
    c.constructions = ParseSweepConstructions("--sweepConstruction", m_constructions);
    c.base = m_study.GetConfig();
    // the study's single-point options that the axes replace
    for (const auto& [option, axis] :
         {std::make_pair("degree", "d from --sweepDegrees"),
          std::make_pair("pdReservedPorts", "r from --sweepR"),
          std::make_pair("construction", "the construction from --sweepConstruction"),
          std::make_pair("kvShareInference", "the inference-heavy KV share from --sweepKvShare")})
    {
        if (m_study.IsGiven(option))
        {
            ThrowBadParameter(std::string("--") + option,
                              m_study.Describe(option),
                              std::string("a sweep takes ") + axis);
        }
    }
    // role counts given are those of N = --nodes; a sweep without that N would not use them
    for (const char* option :
         {"prefill", "decode", "training", "trPrefill", "trDecode", "trTraining"})
    {
        if (m_study.IsGiven(option) &&
            std::find(c.nodes.begin(), c.nodes.end(), c.base.nodes) == c.nodes.end())
        {
            ThrowBadParameter(std::string("--") + option,
                              m_study.Describe(option),
                              "role counts given apply to the point N = --nodes = " +
                                  std::to_string(c.base.nodes) +
                                  ", which --sweepNodes does not list (every other N uses the "
                                  "paper's shares)");
        }
    }
    c.Validate();
    return c;
}

} // namespace mose
} // namespace ns3
