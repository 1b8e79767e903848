/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-map-runner.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-scenario.h"

#include <map>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmMapRunner");

namespace mose
{

namespace
{

/**
 * Calls visit(name, field) for every figure of a summary the record keeps, by name: its reals
 * (double), 32-bit and 64-bit counts. Of the workloads' own summaries it keeps what the reports
 * read (the counts, mean, P50 and P99 of KV and TTFT times, mean and P99 of iteration and
 * collective times); their other figures are not kept.
 * \param s the summary (const for reading it) \param visit the visitor
 */
template <typename Summary, typename Visit>
void
ForEachFigure(Summary& s, Visit visit)
{
    visit("kv_mean_s", s.inference.kv.mean);
    visit("kv_p50_s", s.inference.kv.p50);
    visit("kv_p99_s", s.inference.kv.p99);
    visit("ttft_mean_s", s.inference.ttft.mean);
    visit("ttft_p50_s", s.inference.ttft.p50);
    visit("ttft_p99_s", s.inference.ttft.p99);
    visit("iter_mean_s", s.training.iteration.mean);
    visit("iter_p99_s", s.training.iteration.p99);
    visit("coll_mean_s", s.training.collective.mean);
    visit("coll_p99_s", s.training.collective.p99);
    visit("wall_seconds", s.wallSeconds);
    visit("simulated_seconds", s.simulatedSeconds);
    visit("requests", s.inference.requests);
    visit("served", s.inference.served);
    visit("iterations", s.training.iterations);
    visit("switches", s.switches);
    visit("circuits_cut", s.circuitsCut);
    visit("unserved_not_arrived", s.unservedNotArrived);
    visit("unserved_in_prefill", s.unservedInPrefill);
    visit("unserved_in_flight", s.unservedInFlight);
    visit("unserved_notice_late", s.unservedNoticeLate);
    visit("lost", s.lost);
    visit("errors", s.errors);
    visit("events", s.events);
    visit("connections", s.connections);
    visit("rate_computations", s.rateComputations);
    visit("transfers", s.transfers);
    visit("flows", s.flows);
}

/// \param record the record \param prefix the summary's prefix \param s the summary
void
PutSummary(RunRecord& record, const std::string& prefix, const LlmSummary& s)
{
    ForEachFigure(s, [&record, &prefix](const char* name, const auto& field) {
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>, uint32_t>)
        {
            record.Set(prefix + name, static_cast<uint64_t>(field));
        }
        else
        {
            record.Set(prefix + name, field);
        }
    });
    record.Set(prefix + "policy", static_cast<uint64_t>(s.policy));
    record.Set(prefix + "level", static_cast<uint64_t>(s.level));
    record.Set(prefix + "notice_delay_ns", static_cast<int64_t>(s.noticeDelay.GetNanoSeconds()));
    record.Set(prefix + "stop_time_ns", static_cast<int64_t>(s.stopTime.GetNanoSeconds()));
    record.Set(prefix + "ranks", static_cast<uint64_t>(s.eventsPerRank.size()));
    for (std::size_t i = 0; i < s.eventsPerRank.size(); ++i)
    {
        record.Set(prefix + "events_rank" + std::to_string(i), s.eventsPerRank[i]);
    }
    if (s.fluidQueues)
    {
        // only with --fluidQueues, so that every other record keeps its figures
        record.Set(prefix + "queue_cuts", s.queueCuts);
        record.Set(prefix + "dropped_bytes", s.droppedBytes);
        record.Set(prefix + "dropping_ports", static_cast<uint64_t>(s.droppingPorts));
    }
}

/// \param record the record \param prefix the summary's prefix \return the summary
LlmSummary
GetSummary(const RunRecord& record, const std::string& prefix)
{
    LlmSummary s;
    ForEachFigure(s, [&record, &prefix](const char* name, auto& field) {
        using Field = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<Field, double>)
        {
            field = record.GetReal(prefix + name);
        }
        else if constexpr (std::is_same_v<Field, uint32_t>)
        {
            const uint64_t v = record.GetUnsigned(prefix + name);
            if (v > UINT32_MAX)
            {
                throw Error(record.path + ": " + prefix + name + " = " + std::to_string(v) +
                            " is above 4294967295");
            }
            field = static_cast<uint32_t>(v);
        }
        else
        {
            field = record.GetUnsigned(prefix + name);
        }
    });
    const uint64_t policy = record.GetUnsigned(prefix + "policy");
    const uint64_t level = record.GetUnsigned(prefix + "level");
    if (policy >= mose::ALL_POLICIES.size() || level >= ALL_LEVELS.size())
    {
        throw Error(record.path + ": no policy " + std::to_string(policy) + " or level " +
                    std::to_string(level) + " (made by another version?)");
    }
    s.policy = static_cast<mose::Policy>(policy);
    s.level = static_cast<LlmLevel>(level);
    s.noticeDelay = NanoSeconds(record.GetSigned(prefix + "notice_delay_ns"));
    s.stopTime = NanoSeconds(record.GetSigned(prefix + "stop_time_ns"));
    const uint64_t ranks = record.GetUnsigned(prefix + "ranks");
    for (uint64_t i = 0; i < ranks; ++i)
    {
        s.eventsPerRank.push_back(record.GetUnsigned(prefix + "events_rank" + std::to_string(i)));
    }
    if (record.figures.count(prefix + "queue_cuts") > 0)
    {
        s.fluidQueues = true;
        s.queueCuts = record.GetUnsigned(prefix + "queue_cuts");
        s.droppedBytes = record.GetReal(prefix + "dropped_bytes");
        const uint64_t ports = record.GetUnsigned(prefix + "dropping_ports");
        s.droppingPorts = static_cast<uint32_t>(ports > UINT32_MAX ? UINT32_MAX : ports);
    }
    return s;
}

/**
 * \brief A run of the list as a RunPool carries it out: the experiment is built (Prepare), run
 *        (Execute: at the fluid levels Simulator-free, on a worker thread) and summarised.
 */
class LlmMapTask : public RunTask
{
  public:
    /**
     * \param map the run's map \param run the run \param what the run in words
     * \param key writes the run's key to its record
     * \param scenario the seed's scenario, drawn by an earlier run of this process (shared)
     * \param showProgress simulated-time progress (one worker only)
     */
    LlmMapTask(const LlmRegimeMap& map,
               const LlmMapRun& run,
               std::string what,
               std::function<void(RunRecord&)> key,
               std::shared_ptr<const mose::Scenario>& scenario,
               bool showProgress)
        : m_map(map),
          m_run(run),
          m_what(std::move(what)),
          m_key(std::move(key)),
          m_scenario(scenario),
          m_showProgress(showProgress)
    {
    }

    void Prepare() override
    {
        m_experiment = m_map.BuildRun(m_run, m_scenario, m_showProgress);
    }

    void Execute() override
    {
        m_experiment.experiment->Run(GetLlmRunLabel(m_experiment.experiment->GetConfig()));
    }

    void Finish(RunRecord& record) override
    {
        LlmMapRunner::PutFigures(m_map.Collect(m_run, m_experiment), record);
        m_key(record);
        record.run = m_what;
        m_experiment = LlmRun();
    }

  private:
    const LlmRegimeMap& m_map;                         //!< the run's map
    LlmMapRun m_run;                                   //!< the run
    std::string m_what;                                //!< in words
    std::function<void(RunRecord&)> m_key;             //!< writes its key
    std::shared_ptr<const mose::Scenario>& m_scenario; //!< the seed's scenario
    bool m_showProgress;                               //!< simulated-time progress
    LlmRun m_experiment;                               //!< the experiment and its result
};

} // namespace

LlmMapRunner::LlmMapRunner(const LlmRegimeMapConfig& config, const std::vector<LlmLevel>& levels)
    : m_config(config),
      m_levels(levels)
{
    for (LlmLevel level : levels)
    {
        LlmRegimeMapConfig c = config;
        c.base.level = level;
        c.Validate();
        m_maps.push_back(std::make_unique<LlmRegimeMap>(c));
        for (const LlmMapRun& r : m_maps.back()->ListRuns())
        {
            m_entries.push_back(Entry{m_maps.size() - 1, r});
        }
    }
}

uint32_t
LlmMapRunner::GetTotal() const
{
    return static_cast<uint32_t>(m_entries.size());
}

std::string
LlmMapRunner::Describe(const Entry& e) const
{
    const std::string what = m_maps[e.map]->Describe(e.run);
    return m_levels.size() > 1 ? ToString(m_levels[e.map]) + " level, " + what : what;
}

void
LlmMapRunner::WriteList(std::ostream& os) const
{
    os << "index,level,load,interval_s,dark_s,policy,seed,run\n";
    for (std::size_t i = 0; i < m_entries.size(); ++i)
    {
        const Entry& e = m_entries[i];
        os << i << "," << ToString(m_levels[e.map]) << "," << mose::FormatNumber(e.run.load) << ","
           << mose::FormatNumber(e.run.interval.GetSeconds()) << ","
           << (e.run.darkTime ? mose::FormatNumber(e.run.darkTime->GetSeconds()) : "") << ","
           << mose::ToString(e.run.policy) << "," << e.run.seed << ","
           << m_config.base.run + e.run.seed << "\n";
    }
}

void
LlmMapRunner::PutKey(const Entry& e, RunRecord& record) const
{
    record.Set("key.level", static_cast<uint64_t>(m_levels[e.map]));
    record.Set("key.load", e.run.load);
    record.Set("key.interval_ns", static_cast<int64_t>(e.run.interval.GetNanoSeconds()));
    record.Set("key.dark_ns",
               static_cast<int64_t>(e.run.darkTime ? e.run.darkTime->GetNanoSeconds() : -1));
    record.Set("key.policy", static_cast<uint64_t>(e.run.policy));
    record.Set("key.seed", static_cast<uint64_t>(e.run.seed));
}

void
LlmMapRunner::CheckKey(const Entry& e, const RunRecord& record) const
{
    RunRecord expected;
    PutKey(e, expected);
    for (const auto& [name, value] : expected.figures)
    {
        const auto it = record.figures.find(name);
        if (it == record.figures.end() || it->second != value)
        {
            throw Error(record.path + " is not run " + std::to_string(record.index) +
                        " of this map (" + Describe(e) + "): its " + name + " is " +
                        (it == record.figures.end() ? "missing" : QuoteText(it->second)) +
                        ", not " + QuoteText(value));
        }
    }
}

void
LlmMapRunner::PutFigures(const LlmMapRunFigures& figures, RunRecord& record)
{
    PutSummary(record, "run.", figures.summary);
    record.Set("cycles", static_cast<uint64_t>(figures.cycles.size()));
    for (std::size_t y = 0; y < figures.cycles.size(); ++y)
    {
        PutSummary(record, "cycle" + std::to_string(y) + ".", figures.cycles[y]);
    }
}

LlmMapRunFigures
LlmMapRunner::GetFigures(const RunRecord& record)
{
    LlmMapRunFigures f;
    f.summary = GetSummary(record, "run.");
    const uint64_t cycles = record.GetUnsigned("cycles");
    for (uint64_t y = 0; y < cycles; ++y)
    {
        f.cycles.push_back(GetSummary(record, "cycle" + std::to_string(y) + "."));
    }
    return f;
}

bool
LlmMapRunner::Run(const LlmMapRunnerOptions& options, std::ostream& os)
{
    NS_LOG_FUNCTION(this);
    // the one list runner of the module's studies (records, resume, parts, merge); a level's
    // runs on its kind of workers: threads for the Simulator-free levels
    std::vector<std::string> runs;
    for (const Entry& e : m_entries)
    {
        runs.push_back(Describe(e));
    }
    const RunListRunner runner("mose-llm", runs, "map");
    std::vector<RunGroup> groups;
    for (std::size_t m = 0; m < m_maps.size(); ++m)
    {
        groups.push_back(
            RunGroup{static_cast<uint32_t>(m_maps[m]->ListRuns().size()),
                     IsFluid(m_levels[m]) ? RunWorkers::THREADS : RunWorkers::PROCESSES});
    }
    // each seed's scenario is drawn once per map and shared (it depends on the run and the
    // scenario options only); in a process per run each draws its own, the same
    std::vector<std::vector<std::shared_ptr<const mose::Scenario>>> scenarios(m_maps.size());
    for (std::size_t m = 0; m < m_maps.size(); ++m)
    {
        scenarios[m].resize(m_config.seeds);
    }
    std::vector<RunRecord> records;
    // each map's wall time (PrintTiming()): its runs' here, and the recorded ones' of the runs
    // it took from records
    std::vector<double> seconds;
    if (!runner.Run(
            options,
            groups,
            [&](uint32_t i, const RunRecordStore&) -> std::unique_ptr<RunTask> {
                const Entry& e = m_entries[i];
                return std::make_unique<LlmMapTask>(
                    *m_maps[e.map],
                    e.run,
                    runs[i],
                    [this, &e](RunRecord& r) { PutKey(e, r); },
                    scenarios[e.map][e.run.seed],
                    options.showProgress && options.jobs == 1);
            },
            records,
            os,
            &seconds))
    {
        return false;
    }
    std::vector<LlmMapRunFigures> figures;
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        CheckKey(m_entries[i], records[i]);
        figures.push_back(GetFigures(records[i]));
    }
    std::size_t next = 0;
    for (std::size_t m = 0; m < m_maps.size(); ++m)
    {
        const std::size_t n = m_maps[m]->ListRuns().size();
        std::vector<LlmMapRunFigures> own(figures.begin() + static_cast<std::ptrdiff_t>(next),
                                          figures.begin() + static_cast<std::ptrdiff_t>(next + n));
        next += n;
        m_maps[m]->Assemble(own, seconds[m]);
    }
    return true;
}

const std::vector<std::unique_ptr<LlmRegimeMap>>&
LlmMapRunner::GetMaps() const
{
    return m_maps;
}

} // namespace mose
} // namespace ns3
