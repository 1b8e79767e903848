/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-baseline-comparison.h"

#include "mose-seed-pool.h"
#include "mose-study-report.h"

#include "ns3/average.h"
#include "ns3/gnuplot.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-routing.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseBaselineComparison");

namespace
{

/// File-name friendly mode name
std::string
ModeTag(WorkloadMode mode)
{
    return mode == WorkloadMode::INFERENCE_HEAVY ? "inference" : "training";
}

/// the files of WriteCsv() named once, for it and GetCsvFileNames()
constexpr const char* SUMMARY_CSV = "baselines_summary.csv";   //!< the means with their CI
constexpr const char* PER_SEED_CSV = "baselines_per_seed.csv"; //!< every seed's metrics

/// One bar chart: x = row, bars as wide impulses, 95% CI as error bars
struct Panel
{
    WorkloadMode mode; //!< mode
    Metric metric;     //!< metric
    std::string title; //!< title

    /// \return the script's name without .plt (and the PNG's without .png)
    std::string GetFile() const
    {
        return "baselines_" + ToString(metric) + "_" + ModeTag(mode);
    }
};

/// \return the charts, for WritePlots() and GetPlotFileNames()
std::vector<Panel>
ComparisonPanels()
{
    using W = WorkloadMode;
    using M = Metric;
    return {
        {W::INFERENCE_HEAVY, M::MAX_LOAD, "MaxLoad, inference-heavy"},
        {W::TRAINING_HEAVY, M::MAX_LOAD, "MaxLoad, training-heavy"},
        {W::INFERENCE_HEAVY, M::AVG_HOP, "Average hop count, inference-heavy"},
        {W::TRAINING_HEAVY, M::AVG_HOP, "Average hop count, training-heavy"},
        {W::INFERENCE_HEAVY, M::KV_AVG_COST, "Average KV cost, inference-heavy"},
        {W::INFERENCE_HEAVY, M::KV_P95_COST, "P95 KV cost, inference-heavy"},
        {W::TRAINING_HEAVY, M::TR_AVG_COST, "Average training cost, training-heavy"},
        {W::TRAINING_HEAVY, M::TR_P95_COST, "P95 training cost, training-heavy"},
    };
}

/// Drops the per-circuit vectors: the comparison keeps scalars and hop histograms only
void
StripLoads(FlowMetrics& m)
{
    m.load = std::vector<double>();
    m.loadKv = std::vector<double>();
    m.loadTraining = std::vector<double>();
}

/// \return true if two flow lists are the same, flow for flow
bool
SameFlows(const std::vector<Flow>& a, const std::vector<Flow>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](auto& x, auto& y) {
               return x.src == y.src && x.dst == y.dst && x.cls == y.cls && x.demand == y.demand;
           });
}

} // namespace

std::vector<BaselineSpec>
DefaultBaselineSpecs(uint32_t nodes, const std::string& nodesName)
{
    NS_LOG_FUNCTION(nodes << nodesName);
    std::vector<BaselineSpec> specs;
    for (SwitchlessBaseline b : ALL_SWITCHLESS_BASELINES)
    {
        BaselineSpec spec;
        spec.baseline = b;
        spec.shape = DefaultSwitchlessShape(b, nodes, nodesName);
        spec.shapeName = ToString(b) + " shape";
        specs.push_back(spec);
    }
    return specs;
}

std::string
ComparisonRow::GetName() const
{
    return isBaseline ? ToString(baseline) : ToString(policy);
}

std::string
ComparisonRow::GetShapeText() const
{
    return isBaseline ? shape.ToString() : "random";
}

std::string
ComparisonRow::GetLabel() const
{
    return GetName() + " d=" + std::to_string(degree);
}

BaselineComparison::BaselineComparison(const BaselineComparisonConfig& config)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
    const FlowExperimentConfig& study = m_config.study;
    study.Validate();
    m_config.seedPlan.Validate(study.firstRun);
    // the baselines: shapes checked against N, graphs built once (they are not random)
    std::set<uint32_t> degrees{study.degree};
    for (const BaselineSpec& spec : m_config.baselines)
    {
        ValidateSwitchlessShape(spec.baseline, study.nodes, spec.shape, spec.shapeName, "--nodes");
        m_graphs.push_back(std::make_shared<const CircuitGraph>(
            BuildSwitchlessBaseline(spec.baseline, study.nodes, spec.shape, spec.shapeName)));
        if (m_config.moseAtBaselineDegrees)
        {
            degrees.insert(GetBaselineDegree(spec.baseline, spec.shape));
        }
    }

    const std::map<uint32_t, std::string> skipped = BuildDegreeGroups(degrees);
    AddRows(degrees);
    AddNotes(skipped);
}

std::map<uint32_t, std::string>
BaselineComparison::BuildDegreeGroups(const std::set<uint32_t>& degrees)
{
    const FlowExperimentConfig& study = m_config.study;
    // the policies at each degree: the study's own builder at study.degree; at another degree
    // the same config with degree d and r = d - 1 (or the r given), and the assignment cap
    // pinned so that the P-D assignment, hence the flows, stay the study's
    std::map<uint32_t, std::string> skipped;
    for (uint32_t d : degrees)
    {
        DegreeGroup group;
        group.degree = d;
        if (d == study.degree)
        {
            group.builder = std::make_unique<ScenarioBuilder>(study);
            m_studyGroup = m_groups.size();
        }
        else
        {
            FlowExperimentConfig c = study;
            c.degree = d;
            c.pdReservedPorts = m_config.baselineReservedPorts.value_or(DefaultPdReservedPorts(d));
            if (c.assignment == PdAssignmentKind::MANY_TO_ONE && c.assignmentCap == 0)
            {
                c.assignmentCap = study.pdReservedPorts;
            }
            try
            {
                group.builder = std::make_unique<ScenarioBuilder>(c);
                // the templates of the first run: a degree where they cannot be built is left
                // out here rather than failing every seed later
                for (TemplateId id : ALL_TEMPLATES)
                {
                    group.builder->BuildTemplate(study.firstRun, id);
                }
            }
            catch (const Error& e)
            {
                NS_LOG_LOGIC("no policies at d=" << d << ": " << e.what());
                skipped[d] = e.what();
                continue;
            }
        }
        m_groups.push_back(std::move(group));
    }
    return skipped;
}

void
BaselineComparison::AddRows(const std::set<uint32_t>& degrees)
{
    // rows by degree: the policies, then the baselines of that degree
    m_baselineRows.assign(m_config.baselines.size(), 0);
    for (uint32_t d : degrees)
    {
        for (DegreeGroup& g : m_groups)
        {
            if (g.degree != d)
            {
                continue;
            }
            for (std::size_t i = 0; i < ALL_POLICIES.size(); ++i)
            {
                ComparisonRow row;
                row.policy = ALL_POLICIES[i];
                row.degree = d;
                g.rows[i] = m_rows.size();
                m_rows.push_back(row);
            }
        }
        for (std::size_t i = 0; i < m_config.baselines.size(); ++i)
        {
            const BaselineSpec& spec = m_config.baselines[i];
            if (GetBaselineDegree(spec.baseline, spec.shape) != d)
            {
                continue;
            }
            ComparisonRow row;
            row.isBaseline = true;
            row.baseline = spec.baseline;
            row.shape = spec.shape;
            row.degree = d;
            m_baselineRows[i] = m_rows.size();
            m_rows.push_back(row);
        }
    }
    // a baseline whose degree was not added (moseAtBaselineDegrees off) goes last
    for (std::size_t i = 0; i < m_config.baselines.size(); ++i)
    {
        const BaselineSpec& spec = m_config.baselines[i];
        const uint32_t d = GetBaselineDegree(spec.baseline, spec.shape);
        if (degrees.count(d) == 0)
        {
            ComparisonRow row;
            row.isBaseline = true;
            row.baseline = spec.baseline;
            row.shape = spec.shape;
            row.degree = d;
            m_baselineRows[i] = m_rows.size();
            m_rows.push_back(row);
        }
    }
}

void
BaselineComparison::AddNotes(const std::map<uint32_t, std::string>& skipped)
{
    const FlowExperimentConfig& study = m_config.study;
    // notes: each baseline's port budget and what it is compared with
    for (const BaselineSpec& spec : m_config.baselines)
    {
        const uint32_t d = GetBaselineDegree(spec.baseline, spec.shape);
        std::ostringstream note;
        note << ToString(spec.baseline) << " " << spec.shape.ToString() << ": d = " << d;
        if (spec.baseline == SwitchlessBaseline::FULL_MESH_3D)
        {
            note << " (its own degree, the sum of (size - 1) over the dimensions)";
        }
        if (d == study.degree)
        {
            note << ", equal port budget with the policies at the study's d = " << study.degree;
        }
        else if (!m_config.moseAtBaselineDegrees)
        {
            note << ", differs from the study's d = " << study.degree
                 << "; the policies were not evaluated at d = " << d
                 << " (policies at baseline degrees switched off)";
        }
        else if (skipped.count(d) != 0)
        {
            note << ", differs from the study's d = " << study.degree
                 << "; the policies cannot be built at d = " << d << ": " << skipped.at(d);
        }
        else
        {
            note << ", equal port budget with the policies at d = " << d
                 << " (H^PD with pdReservedPorts = "
                 << m_config.baselineReservedPorts.value_or(DefaultPdReservedPorts(d))
                 << ", H^C with " << study.compromiseReservedPorts << ")";
        }
        m_notes.push_back(note.str());
    }
}

const BaselineComparisonConfig&
BaselineComparison::GetConfig() const
{
    return m_config;
}

const std::vector<ComparisonRow>&
BaselineComparison::GetRows() const
{
    return m_rows;
}

const std::vector<std::string>&
BaselineComparison::GetNotes() const
{
    return m_notes;
}

const CircuitGraph&
BaselineComparison::GetBaselineGraph(std::size_t i) const
{
    if (i >= m_graphs.size())
    {
        throw Error("baseline " + std::to_string(i) + " does not exist (" +
                    std::to_string(m_graphs.size()) + " baselines)");
    }
    return *m_graphs[i];
}

uint32_t
BaselineComparison::GetSeedsDone() const
{
    return m_seedsDone;
}

std::size_t
BaselineComparison::Index(uint32_t seed, WorkloadMode mode, std::size_t row) const
{
    return (static_cast<std::size_t>(seed) * ALL_MODES.size() + static_cast<std::size_t>(mode)) *
               m_rows.size() +
           row;
}

void
BaselineComparison::EvaluateSeed(uint32_t seed)
{
    NS_LOG_FUNCTION(this << seed);
    const FlowExperimentConfig& c = m_config.study;
    const uint64_t run = c.firstRun + seed;
    const Scenario study = m_groups[m_studyGroup].builder->Build(run);
    for (std::size_t gi = 0; gi < m_groups.size(); ++gi)
    {
        const DegreeGroup& g = m_groups[gi];
        Scenario other;
        if (gi != m_studyGroup)
        {
            other = g.builder->Build(run);
            for (WorkloadMode mode : ALL_MODES)
            {
                const auto m = static_cast<std::size_t>(mode);
                if (!SameFlows(other.flows[m], study.flows[m]))
                {
                    throw Error("the policies at d = " + std::to_string(g.degree) + " drew other " +
                                ToString(mode) + " flows than at d = " + std::to_string(c.degree) +
                                " in run " + std::to_string(run));
                }
            }
        }
        const Scenario& s = gi == m_studyGroup ? study : other;
        for (WorkloadMode mode : ALL_MODES)
        {
            const auto m = static_cast<std::size_t>(mode);
            for (TemplateId tpl : ALL_TEMPLATES)
            {
                std::vector<std::size_t> rows;
                for (std::size_t p = 0; p < ALL_POLICIES.size(); ++p)
                {
                    if (SelectTemplate(ALL_POLICIES[p], mode) == tpl)
                    {
                        rows.push_back(g.rows[p]);
                    }
                }
                if (rows.empty())
                {
                    continue;
                }
                ShortestPathRouting routing(s.templates[static_cast<std::size_t>(tpl)],
                                            c.routing,
                                            study.routingSeed);
                FlowMetrics metrics = EvaluateFlows(routing, study.flows[m]);
                StripLoads(metrics);
                for (std::size_t row : rows)
                {
                    m_results[Index(seed, mode, row)] = metrics;
                }
            }
        }
    }
    for (std::size_t i = 0; i < m_graphs.size(); ++i)
    {
        ShortestPathRouting routing(m_graphs[i], c.routing, study.routingSeed);
        for (WorkloadMode mode : ALL_MODES)
        {
            FlowMetrics metrics =
                EvaluateFlows(routing, study.flows[static_cast<std::size_t>(mode)]);
            StripLoads(metrics);
            m_results[Index(seed, mode, m_baselineRows[i])] = std::move(metrics);
        }
    }
}

void
BaselineComparison::Run(const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(this);
    const SeedPlan& plan = m_config.seedPlan;
    Allocate();
    // as FlowExperimentHelper::Run(): each seed's results go to their own slots
    ForEachSeed(
        plan.seeds,
        plan.threads,
        [this](uint32_t seed) { EvaluateSeed(seed); },
        progress);
    m_seedsDone = plan.seeds;
}

void
BaselineComparison::Allocate()
{
    m_results.assign(static_cast<std::size_t>(m_config.seedPlan.seeds) * ALL_MODES.size() *
                         m_rows.size(),
                     FlowMetrics());
    m_seedsDone = 0;
}

bool
BaselineComparison::Run(const RunListOptions& options, const std::string& program, std::ostream& os)
{
    NS_LOG_FUNCTION(this << options.jobs << program);
    Allocate();
    // a seed's figures: per mode and row (rows are fixed by the options the records carry)
    const auto prefix = [](WorkloadMode mode, std::size_t row) {
        return "m" + std::to_string(static_cast<uint32_t>(mode)) + ".r" + std::to_string(row);
    };
    const SeedList list(program, m_config.study.firstRun, m_config.seedPlan.seeds);
    const bool whole = list.Run(
        options,
        [this](uint32_t seed) { EvaluateSeed(seed); },
        [&](uint32_t seed, RunRecord& record, const RunRecordStore& store) {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (std::size_t row = 0; row < m_rows.size(); ++row)
                {
                    SeedList::PutMetrics(record,
                                         store,
                                         prefix(mode, row),
                                         m_results[Index(seed, mode, row)]);
                }
            }
        },
        [&](uint32_t seed, const RunRecord& record) {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (std::size_t row = 0; row < m_rows.size(); ++row)
                {
                    m_results[Index(seed, mode, row)] =
                        SeedList::GetMetrics(record, prefix(mode, row));
                }
            }
        },
        os);
    if (!whole)
    {
        Allocate(); // a part: its seeds are in their records, the comparison has none
        return false;
    }
    m_seedsDone = m_config.seedPlan.seeds;
    return true;
}

const FlowMetrics&
BaselineComparison::GetMetrics(uint32_t seed, WorkloadMode mode, std::size_t row) const
{
    if (seed >= m_seedsDone || row >= m_rows.size())
    {
        throw Error("seed " + std::to_string(seed) + ", row " + std::to_string(row) +
                    " has not been evaluated (" + std::to_string(m_seedsDone) + " seeds done, " +
                    std::to_string(m_rows.size()) + " rows)");
    }
    return m_results[Index(seed, mode, row)];
}

Summary
BaselineComparison::Summarize(WorkloadMode mode, std::size_t row, Metric metric) const
{
    Average<double> avg;
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        avg.Update(GetMetric(GetMetrics(seed, mode, row), metric));
    }
    return mose::Summarize(avg);
}

void
BaselineComparison::PrintTables(std::ostream& os) const
{
    NS_LOG_FUNCTION(this << &os);
    const FlowExperimentConfig& c = m_config.study;
    auto head = [this, &os](WorkloadMode mode, std::size_t row) {
        const ComparisonRow& r = m_rows[row];
        os << std::left << std::setw(17) << ToString(mode) << std::setw(14) << r.GetName()
           << std::setw(10) << r.GetShapeText() << std::setw(4) << r.degree;
    };
    os << "MoSE vs switchless baselines (flow level): N=" << c.nodes << " flows=" << c.flows
       << " seeds=" << m_seedsDone << " (runs " << c.firstRun << ".."
       << c.firstRun + m_seedsDone - 1 << "), routing=" << ToString(c.routing)
       << ", assignment=" << ToString(c.assignment) << ", completion=" << ToString(c.completion)
       << ", roles=" << ToString(c.transition) << "\n";
    os << "Every row is evaluated on the same flows of each seed; d = ports (circuits) per group.\n"
       << "Means over seeds with 95% confidence half-widths (Student's t, n - 1 degrees of "
          "freedom).\n\n";

    using M = Metric;
    const std::vector<TableColumn> loads = {{"MaxLoad", M::MAX_LOAD, 20, 2},
                                            {"P95Load", M::P95_LOAD, 20, 2},
                                            {"AvgHop", M::AVG_HOP, 16, 3},
                                            {"DirectKV", M::DIRECT_KV, 16, 3},
                                            {"KV3+hop", M::KV_THREE_PLUS, 0, 3}};
    const std::vector<TableColumn> costs = {{"KV avg", M::KV_AVG_COST, 22, 1},
                                            {"KV P95", M::KV_P95_COST, 22, 1},
                                            {"train avg", M::TR_AVG_COST, 22, 1},
                                            {"train P95", M::TR_P95_COST, 0, 1}};
    auto table = [this, &os, &head](const std::vector<TableColumn>& columns) {
        os << std::left << std::setw(17) << "mode" << std::setw(14) << "topology" << std::setw(10)
           << "shape" << std::setw(4) << "d";
        PrintColumnHeaders(os, columns);
        os << "\n";
        for (WorkloadMode mode : ALL_MODES)
        {
            for (std::size_t row = 0; row < m_rows.size(); ++row)
            {
                head(mode, row);
                PrintColumnCells(os, columns, [this, mode, row](Metric metric) {
                    return Summarize(mode, row, metric);
                });
                os << "\n";
            }
        }
    };
    os << "Loads and hops\n";
    table(loads);
    os << "\nLoad-aware communication cost (sum of circuit loads along the path)\n";
    table(costs);
    if (!m_notes.empty())
    {
        os << "\nPort budgets\n";
        for (const std::string& note : m_notes)
        {
            os << "  " << note << "\n";
        }
    }
}

void
BaselineComparison::WriteCsv(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    StudyReport::WriteOutput(dir + "/" + SUMMARY_CSV, [&](std::ostream& out) {
        out << "mode,topology,shape,degree,metric,mean,ci95,n\n";
        for (WorkloadMode mode : ALL_MODES)
        {
            for (std::size_t row = 0; row < m_rows.size(); ++row)
            {
                const ComparisonRow& r = m_rows[row];
                for (Metric metric : ALL_METRICS)
                {
                    Summary s = Summarize(mode, row, metric);
                    out << ToString(mode) << "," << r.GetName() << "," << r.GetShapeText() << ","
                        << r.degree << "," << ToString(metric) << "," << s.mean << "," << s.ci95
                        << "," << s.n << "\n";
                }
            }
        }
    });
    StudyReport::WriteOutput(dir + "/" + PER_SEED_CSV, [&](std::ostream& out) {
        out << "run,mode,topology,shape,degree";
        for (Metric metric : ALL_METRICS)
        {
            out << "," << ToString(metric);
        }
        out << "\n";
        for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                for (std::size_t row = 0; row < m_rows.size(); ++row)
                {
                    const ComparisonRow& r = m_rows[row];
                    out << m_config.study.firstRun + seed << "," << ToString(mode) << ","
                        << r.GetName() << "," << r.GetShapeText() << "," << r.degree;
                    for (Metric metric : ALL_METRICS)
                    {
                        out << "," << GetMetric(GetMetrics(seed, mode, row), metric);
                    }
                    out << "\n";
                }
            }
        }
    });
}

std::vector<std::string>
BaselineComparison::GetCsvFileNames()
{
    return {SUMMARY_CSV, PER_SEED_CSV};
}

std::vector<std::string>
BaselineComparison::GetPlotFileNames()
{
    std::vector<std::string> names;
    for (const Panel& panel : ComparisonPanels())
    {
        names.push_back(panel.GetFile() + ".plt");
    }
    return names;
}

std::vector<std::string>
BaselineComparison::WritePlots(const std::string& dir) const
{
    NS_LOG_FUNCTION(this << dir);
    MakeOutputDirectory(dir);
    std::vector<std::string> written;

    std::string xtics = "set xtics rotate by -40 (";
    for (std::size_t i = 0; i < m_rows.size(); ++i)
    {
        xtics += (i ? ", \"" : "\"") + m_rows[i].GetLabel() + "\" " + std::to_string(i);
    }
    xtics += ")";
    for (const Panel& panel : ComparisonPanels())
    {
        const std::string file = panel.GetFile();
        Gnuplot plot(file + ".png");
        plot.SetTerminal("pngcairo size 900,480 butt noenhanced");
        plot.SetTitle(panel.title + " (N=" + std::to_string(m_config.study.nodes) + ", " +
                      std::to_string(m_seedsDone) + " seeds)");
        plot.SetLegend("", ToString(panel.metric));
        plot.AppendExtra(xtics);
        plot.AppendExtra("set xrange [-0.6:" + std::to_string(m_rows.size() - 0.4) + "]");
        plot.AppendExtra("set yrange [0:*]");
        plot.AppendExtra("set bmargin 7");
        plot.AppendExtra("set key off");
        Gnuplot2dDataset policies("policies");
        policies.SetStyle(Gnuplot2dDataset::IMPULSES);
        policies.SetExtra("lw 30 lc rgb \"#4477aa\"");
        Gnuplot2dDataset baselines("baselines");
        baselines.SetStyle(Gnuplot2dDataset::IMPULSES);
        baselines.SetExtra("lw 30 lc rgb \"#ee6677\"");
        Gnuplot2dDataset errors("95% CI");
        errors.SetStyle(Gnuplot2dDataset::POINTS);
        errors.SetErrorBars(Gnuplot2dDataset::Y);
        errors.SetExtra("lc rgb \"black\" pt 7 ps 0.6");
        bool anyPolicy = false;
        bool anyBaseline = false;
        for (std::size_t i = 0; i < m_rows.size(); ++i)
        {
            Summary s = Summarize(panel.mode, i, panel.metric);
            (m_rows[i].isBaseline ? baselines : policies).Add(static_cast<double>(i), s.mean);
            (m_rows[i].isBaseline ? anyBaseline : anyPolicy) = true;
            errors.Add(static_cast<double>(i), s.mean, s.ci95);
        }
        // gnuplot rejects a plot of an empty inline data set
        if (anyPolicy)
        {
            plot.AddDataset(policies);
        }
        if (anyBaseline)
        {
            plot.AddDataset(baselines);
        }
        plot.AddDataset(errors);
        const std::string path = dir + "/" + file + ".plt";
        StudyReport::WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
        written.push_back(path);
    }
    return written;
}

} // namespace mose
} // namespace ns3
