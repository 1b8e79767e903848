/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-sweep.h"

#include "mose-seed-pool.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

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

/// \return index of a (mode, policy, metric) in SweepResult::summaries
std::size_t
SummaryIndex(WorkloadMode mode, Policy policy, Metric metric)
{
    return (static_cast<std::size_t>(mode) * ALL_POLICIES.size() +
            static_cast<std::size_t>(policy)) *
               METRIC_COUNT +
           static_cast<std::size_t>(metric);
}

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
SweepConfig::Validate() const
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
    // the files, figures and tables name a share by FormatShare() (6 significant digits): two
    // shares that read alike there would write one figure twice, the second over the first
    std::map<std::string, double> shareNames;
    for (double rho : kvShares)
    {
        const auto [named, fresh] = shareNames.emplace(Sweep::FormatShare(rho), rho);
        if (!fresh)
        {
            std::ostringstream both;
            both << std::setprecision(10) << named->second << " and " << rho;
            ThrowBadParameter("--sweepKvShare",
                              both.str(),
                              "both are " + named->first +
                                  " to 6 significant digits, as the files and figures name a "
                                  "share; give shares that differ there");
        }
    }
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
    if (seedPlan.seeds == 0)
    {
        ThrowBadParameter("--seeds", "0", "need at least one seed");
    }
    if (base.flows == 0)
    {
        ThrowBadParameter("--flows", "0", "need at least one flow per mode");
    }
}

Summary
SweepResult::Get(WorkloadMode mode, Policy policy, Metric metric) const
{
    if (skipped)
    {
        throw Error("the sweep point was skipped: " + reason);
    }
    return summaries.at(SummaryIndex(mode, policy, metric));
}

SwitchSummary
SweepResult::GetSwitch(WorkloadMode mode) const
{
    if (skipped)
    {
        throw Error("the sweep point was skipped: " + reason);
    }
    return switches.at(static_cast<std::size_t>(mode));
}

Sweep::Sweep(const SweepConfig& config)
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

const SweepConfig&
Sweep::GetConfig() const
{
    return m_config;
}

const std::vector<SweepPoint>&
Sweep::GetPoints() const
{
    return m_points;
}

FlowExperimentConfig
Sweep::MakeConfig(const SweepPoint& point) const
{
    FlowExperimentConfig c = m_config.base;
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
Sweep::RunPoint(std::size_t index, uint32_t threads)
{
    NS_LOG_FUNCTION(this << index << threads);
    SweepResult& result = m_results[index];
    result = SweepResult();
    result.point = m_points[index];
    const FlowExperimentConfig config = MakeConfig(m_points[index]);
    try
    {
        FlowExperimentHelper study(config, SeedPlan{m_config.seedPlan.seeds, threads});
        study.Run();
        result.summaries.resize(ALL_MODES.size() * ALL_POLICIES.size() * METRIC_COUNT);
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (Metric metric : ALL_METRICS)
                {
                    result.summaries[SummaryIndex(mode, p, metric)] =
                        study.Summarize(mode, p, metric);
                }
            }
            result.switches.push_back(study.SummarizeSwitch(mode, Policy::MOSE));
        }
    }
    catch (const Error& e)
    {
        NS_LOG_INFO("point " << index << " skipped: " << e.what());
        result.skipped = true;
        result.reason = e.what();
        result.summaries.clear();
        result.switches.clear();
    }
}

void
Sweep::Run(const std::function<void(uint32_t, uint32_t, const SweepResult&)>& progress)
{
    NS_LOG_FUNCTION(this);
    m_results.assign(m_points.size(), SweepResult());
    const uint32_t total = static_cast<uint32_t>(m_points.size());
    const uint32_t threads = m_config.seedPlan.GetThreads();
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

std::string
Sweep::Describe(std::size_t index) const
{
    const SweepPoint& p = m_points.at(index);
    return "N=" + std::to_string(p.nodes) + " d=" + std::to_string(p.degree) +
           " r=" + std::to_string(p.reservedPorts) + " rho=" + FormatShare(p.kvShare) + " " +
           ToString(p.construction);
}

namespace
{

/// \param record the record \param prefix the summary's name \param s the summary
void
PutSummary(RunRecord& record, const std::string& prefix, const Summary& s)
{
    record.Set(prefix + ".mean", s.mean);
    record.Set(prefix + ".ci95", s.ci95);
    record.Set(prefix + ".n", static_cast<uint64_t>(s.n));
}

/// \param record the record \param prefix the summary's name \return the summary
Summary
GetSummary(const RunRecord& record, const std::string& prefix)
{
    Summary s;
    s.mean = record.GetReal(prefix + ".mean");
    s.ci95 = record.GetReal(prefix + ".ci95");
    const uint64_t n = record.GetUnsigned(prefix + ".n");
    if (n > UINT32_MAX)
    {
        throw Error(record.path + ": " + prefix + ".n = " + std::to_string(n) +
                    " is above 4294967295");
    }
    s.n = static_cast<uint32_t>(n);
    return s;
}

/**
 * \brief A point of the sweep as a RunPool carries it out: its study runs on a worker thread
 *        (flow level: no Simulator, no ns-3 global state), its result goes to the record.
 */
class SweepPointTask : public RunTask
{
  public:
    /// \param run runs the point \param result its result, once run \param store its records
    SweepPointTask(std::function<void()> run,
                   const SweepResult& result,
                   const RunRecordStore& store)
        : m_run(std::move(run)),
          m_result(result),
          m_store(store)
    {
    }

    void Prepare() override
    {
    }

    void Execute() override
    {
        m_run();
    }

    void Finish(RunRecord& record) override
    {
        Sweep::PutResult(m_result, record);
        if (m_result.skipped)
        {
            // why, as skipped.csv gives it: any text, so a file of the run
            m_store.WriteRunFile(record, "reason.txt", m_result.reason);
        }
    }

  private:
    std::function<void()> m_run;   //!< runs the point
    const SweepResult& m_result;   //!< its result
    const RunRecordStore& m_store; //!< its records
};

} // namespace

void
Sweep::PutResult(const SweepResult& result, RunRecord& record)
{
    record.Set("skipped", static_cast<uint64_t>(result.skipped ? 1 : 0));
    record.Set("summaries", static_cast<uint64_t>(result.summaries.size()));
    for (std::size_t i = 0; i < result.summaries.size(); ++i)
    {
        PutSummary(record, "s" + std::to_string(i), result.summaries[i]);
    }
    record.Set("switches", static_cast<uint64_t>(result.switches.size()));
    for (std::size_t i = 0; i < result.switches.size(); ++i)
    {
        PutSummary(record, "w" + std::to_string(i) + ".kept", result.switches[i].kept);
        PutSummary(record, "w" + std::to_string(i) + ".added", result.switches[i].added);
    }
}

SweepResult
Sweep::GetResult(const RunRecord& record, const SweepPoint& point)
{
    SweepResult r;
    r.point = point;
    r.skipped = record.GetUnsigned("skipped") != 0;
    if (r.skipped)
    {
        r.reason = RunRecordStore::ReadRunFile(record, "reason.txt");
    }
    const uint64_t summaries = record.GetUnsigned("summaries");
    const uint64_t switches = record.GetUnsigned("switches");
    if (summaries > ALL_MODES.size() * ALL_POLICIES.size() * METRIC_COUNT ||
        switches > ALL_MODES.size())
    {
        throw Error(record.path + ": " + std::to_string(summaries) + " summaries and " +
                    std::to_string(switches) +
                    " switches are not a sweep point's (made by "
                    "another version?)");
    }
    for (uint64_t i = 0; i < summaries; ++i)
    {
        r.summaries.push_back(GetSummary(record, "s" + std::to_string(i)));
    }
    for (uint64_t i = 0; i < switches; ++i)
    {
        SwitchSummary w;
        w.kept = GetSummary(record, "w" + std::to_string(i) + ".kept");
        w.added = GetSummary(record, "w" + std::to_string(i) + ".added");
        r.switches.push_back(w);
    }
    return r;
}

bool
Sweep::Run(const RunListOptions& options, uint32_t seedThreads, std::ostream& os)
{
    NS_LOG_FUNCTION(this << options.jobs << seedThreads);
    m_results.assign(m_points.size(), SweepResult());
    std::vector<std::string> runs;
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        runs.push_back(Describe(i));
    }
    const RunListRunner runner("mose-sweep", runs);
    std::vector<RunRecord> records;
    if (!runner.Run(
            options,
            RunWorkers::THREADS,
            [this, seedThreads](uint32_t i,
                                const RunRecordStore& store) -> std::unique_ptr<RunTask> {
                return std::make_unique<SweepPointTask>(
                    [this, i, seedThreads]() { RunPoint(i, std::max<uint32_t>(1, seedThreads)); },
                    m_results[i],
                    store);
            },
            records,
            os))
    {
        m_results.clear();
        return false;
    }
    // the results as the records give them: the same for any workers and parts
    for (std::size_t i = 0; i < m_points.size(); ++i)
    {
        m_results[i] = GetResult(records[i], m_points[i]);
    }
    return true;
}

const std::vector<SweepResult>&
Sweep::GetResults() const
{
    return m_results;
}

std::string
Sweep::FormatShare(double share)
{
    std::ostringstream os;
    os << std::setprecision(6) << share;
    return os.str();
}

} // namespace mose
} // namespace ns3
