/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-seed-list.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <array>
#include <memory>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSeedList");

namespace mose
{

namespace
{

/// A seed as a RunPool carries it out: evaluated on a worker thread, recorded after
class SeedTask : public RunTask
{
  public:
    /// \param seed the seed \param evaluate runs it \param put records it
    /// \param store its record's store
    SeedTask(uint32_t seed,
             const SeedList::Evaluate& evaluate,
             const SeedList::Put& put,
             const RunRecordStore& store)
        : m_seed(seed),
          m_evaluate(evaluate),
          m_put(put),
          m_store(store)
    {
    }

    void Prepare() override
    {
    }

    void Execute() override
    {
        m_evaluate(m_seed);
    }

    void Finish(RunRecord& record) override
    {
        m_put(m_seed, record, m_store);
    }

  private:
    uint32_t m_seed;                      //!< the seed
    const SeedList::Evaluate& m_evaluate; //!< runs it
    const SeedList::Put& m_put;           //!< records it
    const RunRecordStore& m_store;        //!< its store
};

/// a class's metrics and their figures' names
struct ClassField
{
    const char* name;           //!< the figure's name
    double ClassMetrics::*real; //!< the field
};

/// the real-valued fields of ClassMetrics (flows is a count, put apart)
constexpr std::array<ClassField, 6> CLASS_FIELDS{{{"demand", &ClassMetrics::demand},
                                                  {"maxLoad", &ClassMetrics::maxLoad},
                                                  {"p95Load", &ClassMetrics::p95Load},
                                                  {"avgHop", &ClassMetrics::avgHop},
                                                  {"avgCost", &ClassMetrics::avgCost},
                                                  {"p95Cost", &ClassMetrics::p95Cost}}};

/// the three classes of FlowMetrics and their figures' names
constexpr std::array<std::pair<const char*, ClassMetrics FlowMetrics::*>, 3> CLASSES{
    {{"all", &FlowMetrics::all}, {"kv", &FlowMetrics::kv}, {"training", &FlowMetrics::training}}};

/// the two hop histograms of FlowMetrics and their figures' names
constexpr std::array<std::pair<const char*, std::vector<uint64_t> FlowMetrics::*>, 2> HISTOGRAMS{
    {{"hopsKv", &FlowMetrics::hopHistogramKv},
     {"hopsTraining", &FlowMetrics::hopHistogramTraining}}};

} // namespace

SeedList::SeedList(std::string program, uint64_t firstRun, uint32_t seeds)
    : m_program(std::move(program)),
      m_firstRun(firstRun),
      m_seeds(seeds)
{
}

std::string
SeedList::Describe(uint32_t seed) const
{
    return m_program + " seed " + std::to_string(seed) + " (run " +
           std::to_string(m_firstRun + seed) + ")";
}

void
SeedList::Print(std::ostream& os) const
{
    os << "index,run\n";
    for (uint32_t k = 0; k < m_seeds; ++k)
    {
        os << k << "," << Describe(k) << "\n";
    }
}

bool
SeedList::Run(const RunListOptions& options,
              const Evaluate& evaluate,
              const Put& put,
              const Get& get,
              std::ostream& os) const
{
    NS_LOG_FUNCTION(this << options.jobs << m_seeds);
    std::vector<std::string> runs;
    for (uint32_t k = 0; k < m_seeds; ++k)
    {
        runs.push_back(Describe(k));
    }
    const RunListRunner runner(m_program, runs);
    std::vector<RunRecord> records;
    if (!runner.Run(
            options,
            RunWorkers::THREADS,
            [&](uint32_t k, const RunRecordStore& store) -> std::unique_ptr<RunTask> {
                return std::make_unique<SeedTask>(k, evaluate, put, store);
            },
            records,
            os))
    {
        return false;
    }
    // every seed from its record, in seed order: the same for any K and any parts
    for (uint32_t k = 0; k < m_seeds; ++k)
    {
        get(k, records[k]);
    }
    return true;
}

void
SeedList::PutMetrics(RunRecord& record,
                     const RunRecordStore& store,
                     const std::string& prefix,
                     const FlowMetrics& metrics)
{
    for (const auto& [name, member] : CLASSES)
    {
        const ClassMetrics& c = metrics.*member;
        const std::string p = prefix + "." + name + ".";
        record.Set(p + "flows", c.flows);
        for (const ClassField& f : CLASS_FIELDS)
        {
            record.Set(p + f.name, c.*(f.real));
        }
    }
    record.Set(prefix + ".directKv", metrics.directKv);
    record.Set(prefix + ".kvThreePlus", metrics.kvThreePlus);
    for (const auto& [name, member] : HISTOGRAMS)
    {
        const std::vector<uint64_t>& h = metrics.*member;
        record.Set(prefix + "." + name, static_cast<uint64_t>(h.size()));
        for (std::size_t i = 0; i < h.size(); ++i)
        {
            record.Set(prefix + "." + name + "." + std::to_string(i), h[i]);
        }
    }
    if (metrics.load.empty())
    {
        return;
    }
    // per circuit: total, KV and training load, as the record's numbers (they read back
    // exactly); a file, since a fabric has many circuits
    std::string text;
    for (std::size_t i = 0; i < metrics.load.size(); ++i)
    {
        text += FormatNumber(metrics.load[i]) + "," + FormatNumber(metrics.loadKv.at(i)) + "," +
                FormatNumber(metrics.loadTraining.at(i)) + "\n";
    }
    store.WriteRunFile(record, prefix + ".loads", text);
}

FlowMetrics
SeedList::GetMetrics(const RunRecord& record, const std::string& prefix)
{
    FlowMetrics metrics;
    for (const auto& [name, member] : CLASSES)
    {
        ClassMetrics& c = metrics.*member;
        const std::string p = prefix + "." + name + ".";
        c.flows = record.GetUnsigned(p + "flows");
        for (const ClassField& f : CLASS_FIELDS)
        {
            c.*(f.real) = record.GetReal(p + f.name);
        }
    }
    metrics.directKv = record.GetReal(prefix + ".directKv");
    metrics.kvThreePlus = record.GetReal(prefix + ".kvThreePlus");
    for (const auto& [name, member] : HISTOGRAMS)
    {
        std::vector<uint64_t>& h = metrics.*member;
        const uint64_t size = record.GetUnsigned(prefix + "." + name);
        // every entry is a figure of its own: the record has at least that many
        if (size > record.figures.size())
        {
            throw Error(record.path + ": " + prefix + "." + name + " = " + std::to_string(size) +
                        " hop counts, more than the record's " +
                        std::to_string(record.figures.size()) + " figures");
        }
        for (uint64_t i = 0; i < size; ++i)
        {
            h.push_back(record.GetUnsigned(prefix + "." + name + "." + std::to_string(i)));
        }
    }
    const std::string loads = prefix + ".loads";
    if (record.figures.count("file." + loads) == 0)
    {
        return metrics; // no per-circuit loads kept for this evaluation
    }
    std::istringstream text(RunRecordStore::ReadRunFile(record, loads));
    LineReader reader(text, record.path + " (" + loads + ")");
    std::string_view line;
    std::vector<std::string_view> items;
    while (reader.Next(line))
    {
        SplitAtCommas(line, items);
        if (items.size() != 3)
        {
            reader.Fail("expected total, KV and training load, 3 numbers");
        }
        const std::string where = reader.GetName() + ":" + std::to_string(reader.GetLine());
        metrics.load.push_back(ParseReal(where, items[0]));
        metrics.loadKv.push_back(ParseReal(where, items[1]));
        metrics.loadTraining.push_back(ParseReal(where, items[2]));
    }
    return metrics;
}

} // namespace mose
} // namespace ns3
