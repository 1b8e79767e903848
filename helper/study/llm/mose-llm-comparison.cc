/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-comparison.h"

#include "mose-experiment.h"
#include "mose-llm-map-runner.h"
#include "mose-llm-run-report.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-scenario.h"

#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmComparison");

namespace mose
{

namespace
{

/// ms with 3 decimals, no unit (the table's header names it)
std::string
Ms(double seconds)
{
    return FormatDuration(seconds, DurationStyle::MS_DECIMALS);
}

} // namespace

std::string
FluidRunText(const LlmSummary& s)
{
    const auto perSecond = [&s](double count) {
        return s.wallSeconds > 0 ? FormatNumber(std::round(count / s.wallSeconds)) + "/s"
                                 : std::string("-");
    };
    std::ostringstream os;
    os << ToString(s.level) << ": " << s.transfers << " transfers ("
       << perSecond(static_cast<double>(s.transfers)) << ")";
    if (s.flows != s.transfers)
    {
        os << " in " << s.flows << " flows (" << perSecond(static_cast<double>(s.flows)) << ")";
    }
    os << ", " << s.rateComputations << " rate computations ("
       << perSecond(static_cast<double>(s.rateComputations)) << "), " << s.events << " events ("
       << perSecond(static_cast<double>(s.events)) << ") in " << std::fixed << std::setprecision(3)
       << s.wallSeconds << " s";
    if (s.fluidQueues)
    {
        os << "; queues: " << s.queueCuts << " start-ups cut, " << FormatNumber(s.droppedBytes)
           << " bytes dropped at " << s.droppingPorts << " ports";
    }
    return os.str();
}

std::string
UnservedText(const LlmSummary& s)
{
    const auto seconds = [](Time t) { return mose::FormatNumber(t.GetSeconds()) + " s"; };
    std::vector<std::string> parts;
    if (s.unservedNotArrived > 0)
    {
        parts.push_back(std::to_string(s.unservedNotArrived) + " had not arrived");
    }
    if (s.unservedInPrefill > 0)
    {
        parts.push_back(std::to_string(s.unservedInPrefill) + " were in prefill");
    }
    if (s.unservedInFlight > 0)
    {
        parts.push_back(std::to_string(s.unservedInFlight) + " had their KV transfer in flight");
    }
    if (s.unservedNoticeLate > 0)
    {
        parts.push_back(std::to_string(s.unservedNoticeLate) +
                        " had their KV bytes delivered, but the completion notice (--noticeDelay "
                        "= " +
                        seconds(s.noticeDelay) + " after the last byte) was due after the stop");
    }
    std::string text = mose::ToString(s.policy) + ": " +
                       std::to_string(s.inference.requests - s.inference.served) + " of " +
                       std::to_string(s.inference.requests) +
                       " requests not served when the run stopped at " + seconds(s.stopTime);
    for (std::size_t i = 0; i < parts.size(); ++i)
    {
        text += (i == 0 ? ": " : (i + 1 == parts.size() ? " and " : ", ")) + parts[i];
    }
    return text;
}

std::string
RateEpochErrorText(const LlmSummary& approximate, const LlmSummary& exact, Time epoch)
{
    const LlmSummary& a = approximate;
    const LlmSummary& e = exact;
    const auto served = [](const LlmSummary& s) {
        return std::to_string(s.inference.served) + "/" + std::to_string(s.inference.requests);
    };
    // a mean in ms, the exact one and the relative error ("-" where the exact one is 0)
    const auto mean = [](const std::string& name, double value, double reference) {
        return name + " " + Ms(value) + " ms (exact " + Ms(reference) + " ms" +
               (reference > 0 ? ", " + FormatChange(value, reference) : std::string()) + ")";
    };
    std::ostringstream os;
    os << mose::ToString(a.policy) << " with rate epoch "
       << FormatDuration(epoch, DurationStyle::SIGNIFICANT) << " (--rateEpoch) against exact "
       << "rates: served " << served(a) << " (exact " << served(e) << "), "
       << mean("kv_mean", a.inference.kv.mean, e.inference.kv.mean) << ", "
       << mean("ttft_mean", a.inference.ttft.mean, e.inference.ttft.mean) << ", iterations "
       << a.training.iterations << " (exact " << e.training.iterations << "), "
       << mean("iter_mean", a.training.iteration.mean, e.training.iteration.mean) << ", wall "
       << std::fixed << std::setprecision(3) << a.wallSeconds << " s (exact " << e.wallSeconds
       << " s)";
    return os.str();
}

LlmComparison::LlmComparison(const ExperimentConfig& config,
                             const std::vector<mose::Policy>& policies,
                             const std::vector<LlmLevel>& levels)
    : m_config(config),
      m_policies(policies),
      m_levels(levels)
{
    NS_LOG_FUNCTION(this);
    if (m_levels.empty())
    {
        mose::ThrowBadParameter("levels", "none", "packet, fluid or both");
    }
}

namespace
{

/// \return text with `header` before its first line and `row` before every other line
std::string
PrefixLines(const std::string& text, const std::string& header, const std::string& row)
{
    std::string out;
    std::size_t begin = 0;
    bool first = true;
    while (begin < text.size())
    {
        std::size_t end = text.find('\n', begin);
        end = end == std::string::npos ? text.size() : end + 1;
        out += (first && !header.empty() ? header : row) + text.substr(begin, end - begin);
        first = false;
        begin = end;
    }
    return out;
}

/// \return JSON lines with "level":level as the first key of every object
std::string
PrefixObjects(const std::string& lines, const std::string& level)
{
    std::string out;
    std::size_t begin = 0;
    while (begin < lines.size())
    {
        std::size_t end = lines.find('\n', begin);
        end = end == std::string::npos ? lines.size() : end + 1;
        const std::string line = lines.substr(begin, end - begin);
        out += line.rfind('{', 0) == 0 ? "{\"level\": \"" + level + "\", " + line.substr(1) : line;
        begin = end;
    }
    return out;
}

/**
 * \brief The header line of the comparison's table
 * \param os the stream \param tagged whether a level column comes first
 * \param levelWidth the level column's width
 */
void
PrintTableHeader(std::ostream& os, bool tagged, int levelWidth)
{
    if (tagged)
    {
        os << std::left << std::setw(levelWidth) << "level";
    }
    os << std::left << std::setw(8) << "policy" << std::right << std::setw(8) << "served"
       << std::setw(10) << "kv_mean" << std::setw(9) << "kv_p50" << std::setw(9) << "kv_p99"
       << std::setw(10) << "ttft_mean" << std::setw(10) << "ttft_p50" << std::setw(10) << "ttft_p99"
       << std::setw(7) << "iters" << std::setw(10) << "iter_mean" << std::setw(10) << "iter_p99"
       << std::setw(10) << "coll_mean" << std::setw(10) << "coll_p99" << std::setw(6) << "lost"
       << std::setw(8) << "wall_s" << std::setw(11) << "events/s"
       << "   (times in ms)\n";
}

} // namespace

uint32_t
LlmComparison::GetTotal() const
{
    return static_cast<uint32_t>(m_levels.size() * m_policies.size());
}

LlmLevel
LlmComparison::GetLevel(uint32_t index) const
{
    return m_levels.at(index / m_policies.size());
}

mose::Policy
LlmComparison::GetPolicy(uint32_t index) const
{
    return m_policies.at(index % m_policies.size());
}

std::string
LlmComparison::Describe(uint32_t index) const
{
    return mose::ToString(GetPolicy(index)) + ", " + ToString(GetLevel(index)) + " level";
}

bool
LlmComparison::IsTagged() const
{
    // packet only: the table and files as before the fluid level; otherwise a level column
    return !(m_levels.size() == 1 && m_levels[0] == LlmLevel::PACKET);
}

int
LlmComparison::GetLevelWidth() const
{
    // the level column fits the longest name
    int levelWidth = 7;
    for (LlmLevel level : m_levels)
    {
        levelWidth = std::max(levelWidth, static_cast<int>(ToString(level).size()) + 2);
    }
    return levelWidth;
}

void
LlmComparison::WriteList(std::ostream& os) const
{
    os << "index,level,policy\n";
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        os << i << "," << ToString(GetLevel(i)) << "," << mose::ToString(GetPolicy(i)) << "\n";
    }
}

LlmRun
LlmComparison::BuildRun(uint32_t index, PolicyComparison& comparison, bool progress) const
{
    ExperimentConfig config = m_config;
    config.level = GetLevel(index);
    ValidateLlmConfig(config); // its errors before the scenario is drawn
    // every policy runs on the same requests (the configuration's) and the same scenario,
    // drawn once per level
    return BuildLlmRun(WithPolicy(config, GetPolicy(index)), comparison.Share(config), progress);
}

bool
LlmComparison::HasTrainingPlan() const
{
    return m_config.llm.training && m_config.llm.trainingPlan != nullptr;
}

LlmComparison::RunOutput
LlmComparison::Collect(uint32_t index, const LlmRun& run) const
{
    const Experiment& experiment = *run.experiment;
    const LlmResult& result = *run.result;
    const LlmLevel level = GetLevel(index);
    const bool tagged = IsTagged();
    const std::string tag = tagged ? ToString(level) + "," : std::string();
    const std::string headerTag = tagged ? "level," : std::string();
    RunOutput out;
    out.summary = SummarizeLlmRun(experiment, result);
    // every run's pieces start with the files' header line; the comparison keeps the first's
    std::ostringstream requests;
    std::ostringstream iterations;
    std::ostringstream intervals;
    const mose::Policy policy = experiment.GetConfig().policy;
    WriteLlmRequestsCsv(requests, true, policy, result.requests);
    WriteLlmIterationsCsv(iterations, true, policy, result.iterations);
    WriteLlmIntervalsCsv(intervals, true, experiment, result);
    out.requests = PrefixLines(requests.str(), headerTag, tag);
    out.iterations = PrefixLines(iterations.str(), headerTag, tag);
    out.intervals = PrefixLines(intervals.str(), headerTag, tag);
    if (HasTrainingPlan())
    {
        std::ostringstream collectives;
        WriteLlmCollectivesCsv(collectives, true, policy, result.collectives);
        out.collectives = PrefixLines(collectives.str(), headerTag, tag);
    }
    if (m_keepKvExport)
    {
        std::ostringstream kv;
        WriteLlmKvExport(kv, true, m_kvExportJson, experiment, result);
        // JSON lines: the level as the first key of every object
        out.kv = m_kvExportJson ? (tagged ? PrefixObjects(kv.str(), ToString(level)) : kv.str())
                                : PrefixLines(kv.str(), headerTag, tag);
    }
    if (mose::IsSwitching(GetPolicy(index)))
    {
        std::ostringstream switches;
        PrintSwitchRecords(switches, experiment.GetSwitchRecords());
        out.switches = switches.str();
    }
    return out;
}

void
LlmComparison::PrintRow(std::ostream& os, const LlmSummary& s) const
{
    if (IsTagged())
    {
        os << std::left << std::setw(GetLevelWidth()) << ToString(s.level);
    }
    os << std::left << std::setw(8) << mose::ToString(s.policy) << std::right << std::setw(8)
       << (std::to_string(s.inference.served) + "/" + std::to_string(s.inference.requests))
       << std::setw(10) << Ms(s.inference.kv.mean) << std::setw(9) << Ms(s.inference.kv.p50)
       << std::setw(9) << Ms(s.inference.kv.p99) << std::setw(10) << Ms(s.inference.ttft.mean)
       << std::setw(10) << Ms(s.inference.ttft.p50) << std::setw(10) << Ms(s.inference.ttft.p99)
       << std::setw(7) << s.training.iterations << std::setw(10) << Ms(s.training.iteration.mean)
       << std::setw(10) << Ms(s.training.iteration.p99) << std::setw(10)
       << Ms(s.training.collective.mean) << std::setw(10) << Ms(s.training.collective.p99)
       << std::setw(6) << s.lost << std::setw(8) << std::fixed << std::setprecision(1)
       << s.wallSeconds << std::setw(11) << std::setprecision(0)
       << (s.wallSeconds > 0 ? static_cast<double>(s.events) / s.wallSeconds : 0)
       << std::defaultfloat << std::setprecision(6);
    if (s.errors > 0)
    {
        os << "  (" << s.errors << " errors inside the run)";
    }
    os << std::endl;
    if (s.inference.served < s.inference.requests)
    {
        os << "  " << UnservedText(s) << "\n";
    }
    if (IsFluid(s.level))
    {
        os << "  " << FluidRunText(s) << "\n";
    }
    else
    {
        Experiment::PrintRanks(os, s.eventsPerRank, s.circuitsCut);
    }
}

void
LlmComparison::Run(std::ostream& os, bool showProgress)
{
    NS_LOG_FUNCTION(this);
    if (m_ran)
    {
        throw mose::Error("LlmComparison::Run runs once");
    }
    m_ran = true;
    PrintTableHeader(os, IsTagged(), GetLevelWidth());
    std::vector<RunOutput> outputs;
    PolicyComparison comparison(m_policies);
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        if (i % m_policies.size() == 0)
        {
            comparison = PolicyComparison(m_policies); // the next level's
        }
        const LlmRun run = BuildRun(i, comparison, showProgress);
        run.experiment->Run(GetLlmRunLabel(run.experiment->GetConfig()));
        outputs.push_back(Collect(i, run));
        if (mose::IsSwitching(GetPolicy(i)) && i < m_policies.size())
        {
            m_switches = run.experiment->GetSwitchRecords(); // the first level's
        }
        PrintRow(os, outputs.back().summary);
        if (IsFluid(GetLevel(i)) && m_config.llm.fluidRateEpoch.IsStrictlyPositive())
        {
            // the approximation carries its error: the same run with exact rates
            ExperimentConfig exactConfig = m_config;
            exactConfig.level = GetLevel(i);
            exactConfig.llm.fluidRateEpoch = Seconds(0);
            const LlmRun exact = BuildLlmRun(WithPolicy(exactConfig, GetPolicy(i)),
                                             comparison.GetScenario(),
                                             showProgress);
            exact.experiment->Run(GetLlmRunLabel(exact.experiment->GetConfig()));
            m_exactSummaries.push_back(SummarizeLlmRun(*exact.experiment, *exact.result));
            os << "  "
               << RateEpochErrorText(outputs.back().summary,
                                     m_exactSummaries.back(),
                                     m_config.llm.fluidRateEpoch)
               << "\n";
        }
    }
    Assemble(outputs, os);
}

namespace
{

/**
 * \brief A run of a comparison as a RunPool carries it out: built (Prepare), run (Execute: at
 *        the fluid levels Simulator-free, on a worker thread), its files written (Finish).
 */
class LlmComparisonTask : public RunTask
{
  public:
    /**
     * \param build builds the run (its experiment and result)
     * \param finish fills its record from it
     */
    LlmComparisonTask(std::function<LlmRun()> build,
                      std::function<void(const LlmRun&, RunRecord&)> finish)
        : m_build(std::move(build)),
          m_finish(std::move(finish))
    {
    }

    void Prepare() override
    {
        m_run = m_build();
    }

    void Execute() override
    {
        m_run.experiment->Run(GetLlmRunLabel(m_run.experiment->GetConfig()));
    }

    void Finish(RunRecord& record) override
    {
        m_finish(m_run, record);
        m_run = LlmRun();
    }

  private:
    std::function<LlmRun()> m_build;                         //!< builds it
    std::function<void(const LlmRun&, RunRecord&)> m_finish; //!< its record
    LlmRun m_run;                                            //!< the run
};

/// the names of a run's files, as its record lists them
const char* const REQUESTS_FILE = "requests.csv";
const char* const ITERATIONS_FILE = "iterations.csv";
const char* const INTERVALS_FILE = "intervals.csv";
const char* const COLLECTIVES_FILE = "collectives.csv";
const char* const SWITCHES_FILE = "switches.txt";

} // namespace

bool
LlmComparison::Run(const RunListOptions& options, std::ostream& os, bool showProgress)
{
    NS_LOG_FUNCTION(this);
    if (m_ran)
    {
        throw mose::Error("LlmComparison::Run runs once");
    }
    m_ran = true;
    std::vector<std::string> runs;
    bool packet = false;
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        runs.push_back(Describe(i));
        packet = packet || !IsFluid(GetLevel(i));
    }
    const RunListRunner runner("mose-llm", runs);
    const std::string kvFile = m_kvExportJson ? "kv-export.jsonl" : "kv-export.csv";
    // each level's scenario, drawn once in this process (a process per run draws its own)
    std::vector<PolicyComparison> comparisons(m_levels.size(), PolicyComparison(m_policies));
    std::vector<RunRecord> records;
    const bool whole = runner.Run(
        options,
        packet ? RunWorkers::PROCESSES : RunWorkers::THREADS,
        [&](uint32_t i, const RunRecordStore& store) -> std::unique_ptr<RunTask> {
            return std::make_unique<LlmComparisonTask>(
                [this, i, &comparisons, showProgress, &options]() {
                    return BuildRun(i,
                                    comparisons[i / m_policies.size()],
                                    showProgress && options.jobs == 1);
                },
                [this, i, &store, &kvFile](const LlmRun& run, RunRecord& record) {
                    const RunOutput out = Collect(i, run);
                    LlmMapRunFigures figures;
                    figures.summary = out.summary;
                    LlmMapRunner::PutFigures(figures, record);
                    store.WriteRunFile(record, REQUESTS_FILE, out.requests);
                    store.WriteRunFile(record, ITERATIONS_FILE, out.iterations);
                    store.WriteRunFile(record, INTERVALS_FILE, out.intervals);
                    if (HasTrainingPlan())
                    {
                        store.WriteRunFile(record, COLLECTIVES_FILE, out.collectives);
                    }
                    if (m_keepKvExport)
                    {
                        store.WriteRunFile(record, kvFile, out.kv);
                    }
                    if (mose::IsSwitching(GetPolicy(i)))
                    {
                        store.WriteRunFile(record, SWITCHES_FILE, out.switches);
                    }
                });
        },
        records,
        os);
    if (!whole)
    {
        return false;
    }
    PrintTableHeader(os, IsTagged(), GetLevelWidth());
    std::vector<RunOutput> outputs;
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        const RunRecord& r = records[i];
        RunOutput out;
        out.summary = LlmMapRunner::GetFigures(r).summary;
        if (out.summary.policy != GetPolicy(i) || out.summary.level != GetLevel(i))
        {
            throw mose::Error(r.path + " is not run " + std::to_string(i) + " (" + Describe(i) +
                              "): its summary is another policy's or level's");
        }
        out.requests = RunRecordStore::ReadRunFile(r, REQUESTS_FILE);
        out.iterations = RunRecordStore::ReadRunFile(r, ITERATIONS_FILE);
        out.intervals = RunRecordStore::ReadRunFile(r, INTERVALS_FILE);
        if (HasTrainingPlan())
        {
            out.collectives = RunRecordStore::ReadRunFile(r, COLLECTIVES_FILE);
        }
        if (m_keepKvExport)
        {
            out.kv = RunRecordStore::ReadRunFile(r, kvFile);
        }
        if (mose::IsSwitching(GetPolicy(i)))
        {
            out.switches = RunRecordStore::ReadRunFile(r, SWITCHES_FILE);
        }
        PrintRow(os, out.summary);
        outputs.push_back(std::move(out));
    }
    Assemble(outputs, os);
    return true;
}

void
LlmComparison::Assemble(const std::vector<RunOutput>& outputs, std::ostream& os)
{
    // the first run's pieces whole, the others' after their header line (JSON lines: none)
    const auto rows = [](const std::string& piece, bool first) {
        if (first)
        {
            return piece;
        }
        const std::size_t eol = piece.find('\n');
        return eol == std::string::npos ? std::string() : piece.substr(eol + 1);
    };
    m_summaries.clear();
    m_levelSwitches.clear();
    for (std::size_t i = 0; i < outputs.size(); ++i)
    {
        const RunOutput& o = outputs[i];
        m_summaries.push_back(o.summary);
        m_requestsCsv += rows(o.requests, i == 0);
        m_iterationsCsv += rows(o.iterations, i == 0);
        m_intervalsCsv += rows(o.intervals, i == 0);
        m_collectivesCsv += rows(o.collectives, i == 0);
        m_kvExport += m_kvExportJson ? o.kv : rows(o.kv, i == 0);
        const LlmLevel level = GetLevel(static_cast<uint32_t>(i));
        if (i % m_policies.size() == 0)
        {
            m_levelSwitches.emplace_back(level, std::string());
        }
        if (mose::IsSwitching(GetPolicy(static_cast<uint32_t>(i))))
        {
            m_levelSwitches.back().second = o.switches; // the level's last switching policy's
        }
    }
    if (m_levels.size() == 2)
    {
        PrintLevelDifferences(os);
    }
}

void
LlmComparison::PrintLevelDifferences(std::ostream& os) const
{
    // the first level is the reference the second is compared with
    const std::size_t n = m_policies.size();
    const auto diff = [](double c, double r) {
        return r > 0 ? FormatChange(c, r) : std::string("-");
    };
    const std::string reference = ToString(m_levels[0]);
    const std::string compared = ToString(m_levels[1]);
    os << "\n"
       << compared << " vs " << reference << " (relative difference of the " << compared
       << " figure):\n"
       << std::left << std::setw(8) << "policy" << std::right << std::setw(10) << "kv_mean"
       << std::setw(10) << "ttft_mean" << std::setw(10) << "ttft_p99" << std::setw(11)
       << "iter_mean" << std::setw(10) << "speed-up\n";
    for (std::size_t i = 0; i < n; ++i)
    {
        const LlmSummary& r = m_summaries[i];     // the reference level's
        const LlmSummary& c = m_summaries[n + i]; // the compared level's
        os << std::left << std::setw(8) << mose::ToString(r.policy) << std::right << std::setw(10)
           << diff(c.inference.kv.mean, r.inference.kv.mean) << std::setw(10)
           << diff(c.inference.ttft.mean, r.inference.ttft.mean) << std::setw(10)
           << diff(c.inference.ttft.p99, r.inference.ttft.p99) << std::setw(11)
           << diff(c.training.iteration.mean, r.training.iteration.mean) << std::setw(9)
           << (c.wallSeconds > 0 ? FormatNumber(std::round(r.wallSeconds / c.wallSeconds)) + "x"
                                 : std::string(">1000x"))
           << "\n";
    }
}

const std::vector<LlmSummary>&
LlmComparison::GetSummaries() const
{
    return m_summaries;
}

const std::vector<LlmSummary>&
LlmComparison::GetExactSummaries() const
{
    return m_exactSummaries;
}

const std::vector<MoseSwitchRecord>&
LlmComparison::GetMoseSwitches() const
{
    return m_switches;
}

void
LlmComparison::PrintSwitches(std::ostream& os) const
{
    for (const auto& [level, records] : m_levelSwitches)
    {
        if (records.empty())
        {
            continue;
        }
        os << "\nMoSE switches" << (IsTagged() ? " (" + ToString(level) + " level)" : "") << ":\n"
           << records;
    }
}

void
LlmComparison::PrintSwitchRecords(std::ostream& os, const std::vector<MoseSwitchRecord>& records)
{
    for (const auto& r : records)
    {
        os << "  #" << r.index << " " << mose::ToString(r.from) << " -> " << mose::ToString(r.to)
           << " at " << r.start.GetSeconds() << " s: " << r.removed << " removed, " << r.added
           << " added, " << r.kept << " kept, duration " << Ms(r.GetDuration().GetSeconds())
           << " ms (drain " << Ms(r.drainTime.GetSeconds()) << ", dark "
           << Ms(r.darkTime.GetSeconds()) << "), " << r.packetsHeld << " packets held, " << r.lost
           << " lost" << (r.done ? "" : " (not finished)") << "\n";
    }
}

void
LlmComparison::WriteCsv(const std::string& outputDir) const
{
    NS_LOG_FUNCTION(this << outputDir);
    for (const auto& [name, text] : {std::make_pair("requests.csv", &m_requestsCsv),
                                     std::make_pair("iterations.csv", &m_iterationsCsv),
                                     std::make_pair("intervals.csv", &m_intervalsCsv)})
    {
        const std::string* t = text;
        mose::WriteTextFile(outputDir + "/" + name, [t](std::ostream& os) { os << *t; });
    }
    if (HasTrainingPlan())
    {
        // a training plan's collectives, one row each (no file for the synthetic job)
        mose::WriteTextFile(outputDir + "/collectives.csv",
                            [this](std::ostream& os) { os << m_collectivesCsv; });
    }
}

void
LlmComparison::KeepKvExport(bool json)
{
    NS_LOG_FUNCTION(this << json);
    if (m_ran)
    {
        throw mose::Error("LlmComparison::KeepKvExport: call it before Run()");
    }
    m_keepKvExport = true;
    m_kvExportJson = json;
}

void
LlmComparison::WriteKvExport(const std::string& path) const
{
    NS_LOG_FUNCTION(this << path);
    if (!m_ran || !m_keepKvExport)
    {
        throw mose::Error("LlmComparison::WriteKvExport: call KeepKvExport(), then Run()");
    }
    const std::string* text = &m_kvExport;
    mose::WriteTextFile(path, [text](std::ostream& os) { os << *text; });
}

} // namespace mose
} // namespace ns3
