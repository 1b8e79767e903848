/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-run-list-runner.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRunListRunner");

namespace mose
{

namespace
{

/// A run's task with its record's run text set (progress lines and the record name the run)
class NamedTask : public RunTask
{
  public:
    /// \param task the run's task \param run its text
    NamedTask(std::unique_ptr<RunTask> task, std::string run)
        : m_task(std::move(task)),
          m_run(std::move(run))
    {
    }

    void Prepare() override
    {
        m_task->Prepare();
    }

    void Execute() override
    {
        m_task->Execute();
    }

    void Finish(RunRecord& record) override
    {
        m_task->Finish(record);
        m_task.reset();
        record.run = m_run;
    }

  private:
    std::unique_ptr<RunTask> m_task; //!< the run's task
    std::string m_run;               //!< its text
};

} // namespace

RunListRunner::RunListRunner(std::string program, std::vector<std::string> runs, std::string study)
    : m_program(std::move(program)),
      m_runs(std::move(runs)),
      m_study(study.empty() ? m_program + " study" : study),
      m_whole(study.empty() ? "the whole study" : "the " + study)
{
}

uint32_t
RunListRunner::GetTotal() const
{
    return static_cast<uint32_t>(m_runs.size());
}

const std::string&
RunListRunner::Describe(uint32_t index) const
{
    return m_runs.at(index);
}

std::string
RunListRunner::RunsText(const std::vector<uint32_t>& indices)
{
    std::string out;
    for (std::size_t i = 0; i < indices.size();)
    {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
        {
            ++j;
        }
        out += (out.empty() ? "" : ",") + std::to_string(indices[i]);
        if (j > i)
        {
            out += "-" + std::to_string(indices[j]);
        }
        i = j + 1;
    }
    return out;
}

void
RunListRunner::CheckRun(uint32_t index, const RunRecord& record) const
{
    if (record.run != m_runs[index])
    {
        throw Error(record.path + " is not run " + std::to_string(index) + " of this " +
                    (m_study == m_program + " study" ? m_program + " list" : m_study) + " (" +
                    m_runs[index] + "): it holds " + QuoteText(record.run) +
                    " (a record of another program or list)");
    }
}

void
RunListRunner::Merge(const RunListOptions& options, std::vector<RunRecord>& records) const
{
    std::vector<RunRecordStore> stores;
    for (const std::string& dir : options.merge)
    {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir + "/runs", ec))
        {
            throw Error("invalid --merge: " + QuoteText(dir) + " has no folder runs/ of run " +
                        "records (a folder a --part or --runs run of this " + m_study +
                        " wrote into)");
        }
        stores.emplace_back(dir, options.options);
    }
    std::vector<uint32_t> missing;
    records.clear();
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        std::optional<RunRecord> found;
        for (const RunRecordStore& s : stores)
        {
            std::optional<RunRecord> r = s.Find(i);
            if (r && found)
            {
                throw Error("run " + std::to_string(i) + " (" + m_runs[i] + ") is given twice: " +
                            found->path + " and " + r->path + "; merge each run once");
            }
            if (r)
            {
                found = std::move(r);
            }
        }
        if (!found)
        {
            missing.push_back(i);
            continue;
        }
        CheckRun(i, *found);
        records.push_back(std::move(*found));
    }
    if (!missing.empty())
    {
        std::string where;
        for (const RunRecordStore& s : stores)
        {
            where += (where.empty() ? "" : ", ") + s.GetFolder();
        }
        throw Error(
            "the " + m_study + " is not whole: " + std::to_string(missing.size()) + " of " +
            std::to_string(GetTotal()) + " runs have no record in " + where + " (the first, run " +
            std::to_string(missing.front()) + ": " + m_runs[missing.front()] + ", would be " +
            stores.front().GetPath(missing.front()) +
            "); run them with --runs=" + RunsText(missing) + ", or resubmit the parts that failed");
    }
}

bool
RunListRunner::Run(const RunListOptions& options,
                   RunWorkers workers,
                   const MakeTask& make,
                   std::vector<RunRecord>& records,
                   std::ostream& os) const
{
    return Run(options, {RunGroup{GetTotal(), workers}}, make, records, os);
}

bool
RunListRunner::Run(const RunListOptions& options,
                   const std::vector<RunGroup>& groups,
                   const MakeTask& make,
                   std::vector<RunRecord>& records,
                   std::ostream& os,
                   std::vector<double>* seconds) const
{
    NS_LOG_FUNCTION(this << GetTotal() << groups.size());
    // each run's group
    std::vector<std::size_t> groupOf;
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        groupOf.insert(groupOf.end(), groups[g].runs, g);
    }
    if (groupOf.size() != GetTotal())
    {
        throw Error("the " + m_study + "'s groups hold " + std::to_string(groupOf.size()) +
                    " runs, and its list " + std::to_string(GetTotal()));
    }
    if (seconds)
    {
        seconds->assign(groups.size(), 0);
    }
    if (!options.merge.empty())
    {
        Merge(options, records);
        for (const RunRecord& r : records)
        {
            if (seconds)
            {
                (*seconds)[groupOf[r.index]] += r.resources.wallSeconds;
            }
        }
        return true;
    }
    options.selection.Check(GetTotal());
    const RunRecordStore store(options.outputDir, options.options);
    const std::vector<uint32_t> selected = options.selection.Indices(GetTotal());
    RunRecordStore::KeptRuns found =
        store.FindKept(selected,
                       GetTotal(),
                       options.resume,
                       [this](uint32_t i, const RunRecord& r) {
                           return r.run == m_runs[i] ? std::string()
                                                     : r.path + " holds " + QuoteText(r.run) +
                                                           ", not " + QuoteText(m_runs[i]);
                       });
    std::vector<std::optional<RunRecord>>& got = found.records;
    const std::vector<uint32_t>& todo = found.todo;
    for (const std::optional<RunRecord>& r : got)
    {
        if (r && seconds)
        {
            (*seconds)[groupOf[r->index]] += r->resources.wallSeconds;
        }
    }
    store.PrintKept(os, found);
    const RunPool::Progress progress =
        options.showProgress ? RunPool::MakePrinter(m_program, std::cerr) : nullptr;
    for (std::size_t g = 0; g < groups.size(); ++g)
    {
        std::vector<uint32_t> mine;
        for (uint32_t i : todo)
        {
            if (groupOf[i] == g)
            {
                mine.push_back(i);
            }
        }
        const RunPool pool(options.jobs, groups[g].workers);
        const auto start = std::chrono::steady_clock::now();
        pool.Run(
            mine,
            [&](uint32_t i) -> std::unique_ptr<RunTask> {
                return std::make_unique<NamedTask>(make(i, store), m_runs[i]);
            },
            [&](const RunRecord& r) {
                RunRecord kept = r;
                store.Write(kept);
                kept.build = GetModuleBuildId();
                kept.options = store.GetOptions();
                kept.path = store.GetPath(r.index);
                got[r.index] = std::move(kept);
            },
            progress);
        if (seconds)
        {
            (*seconds)[g] +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    }
    if (!options.selection.IsAll())
    {
        os << options.selection.Describe() << ": " << selected.size() << " of " << GetTotal()
           << " runs done (" << selected.size() - todo.size() << " kept), their records in "
           << store.GetFolder() << "; " << m_whole
           << ": the same options with --merge=FOLDER,... once every part is done\n";
        return false;
    }
    records.clear();
    for (auto& r : got)
    {
        records.push_back(std::move(*r));
    }
    return true;
}

} // namespace mose
} // namespace ns3
