/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-run-options.h"

#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <thread>

namespace ns3
{
namespace mose
{

void
RunOptions::AddOptions(CommandLine& cmd)
{
    cmd.AddValue("jobs",
                 "workers that carry out the map's runs on this machine: threads at the fluid "
                 "levels, a process per packet-level run (1 by default: one after the other; "
                 "the files are the same for every value)",
                 m_jobs);
    cmd.AddValue("runs",
                 "carry out only these runs of the map's list, e.g. 0,3-5 (--listRuns lists "
                 "them): their records go to OUTPUTDIR/runs, and no map is written",
                 m_runs);
    cmd.AddValue("part",
                 "carry out part I of K of the map's list (I/K: the runs whose index modulo K is "
                 "I - 1), e.g. a Slurm array task's; records as with --runs",
                 m_part);
    cmd.AddValue("merge",
                 "put the map together from the run records in these folders (comma-separated; "
                 "each one a --part or --runs run's --outputDir) instead of running anything",
                 m_merge);
    cmd.AddValue("resume",
                 "keep the runs an earlier run with the same options and build left in "
                 "OUTPUTDIR/runs (true by default); false runs them again",
                 m_resume);
    cmd.AddValue("listRuns", "print the map's list of runs as CSV and exit", m_list);
}

void
RunOptions::Read(bool listed, const std::string& oneRun)
{
    const std::vector<std::pair<std::string, const std::string*>> given = {
        {"--jobs", &m_jobs},
        {"--runs", &m_runs},
        {"--part", &m_part},
        {"--merge", &m_merge},
        {"--resume", &m_resume},
    };
    if (!listed)
    {
        for (const auto& [name, text] : given)
        {
            if (!text->empty())
            {
                throw Error(name + " = " + QuoteText(*text) + " acts on a list of runs, and " +
                            oneRun + ": leave it out");
            }
        }
        if (m_list)
        {
            throw Error("--listRuns lists a regime map's runs, and " + oneRun + ": leave it out");
        }
        return;
    }
    if (!m_jobs.empty())
    {
        m_read.jobs = RunPool::ParseJobs("--jobs", m_jobs);
    }
    if (!m_runs.empty() && !m_part.empty())
    {
        throw Error("--runs = " + QuoteText(m_runs) + " and --part = " + QuoteText(m_part) +
                    " both choose runs: give one");
    }
    if (!m_runs.empty())
    {
        m_read.selection = RunSelection::ParseRuns("--runs", m_runs);
    }
    if (!m_part.empty())
    {
        m_read.selection = RunSelection::ParsePart("--part", m_part);
    }
    if (!m_resume.empty())
    {
        m_read.resume = ParseBool("--resume", m_resume);
    }
    if (!m_merge.empty())
    {
        for (const auto& [name, text] : given)
        {
            if (name != "--merge" && !text->empty())
            {
                throw Error(name + " = " + QuoteText(*text) +
                            " and --merge = " + QuoteText(m_merge) +
                            ": --merge runs nothing, it puts the map together from records; "
                            "give one");
            }
        }
        std::vector<std::string_view> dirs;
        SplitAtCommas(m_merge, dirs);
        for (std::string_view d : dirs)
        {
            if (d.empty())
            {
                throw Error("invalid --merge = " + QuoteText(m_merge) +
                            ": folders separated by commas, none empty");
            }
            m_read.merge.emplace_back(d);
        }
    }
}

bool
RunOptions::IsListing() const
{
    return m_list;
}

uint32_t
RunOptions::CountRuns(uint32_t total) const
{
    if (!m_read.merge.empty())
    {
        return 0;
    }
    m_read.selection.Check(total);
    return static_cast<uint32_t>(m_read.selection.Indices(total).size());
}

LlmMapRunnerOptions
RunOptions::Get(const std::string& outputDir, const std::string& options, bool showProgress) const
{
    LlmMapRunnerOptions o = m_read;
    o.outputDir = outputDir;
    o.options = options;
    o.showProgress = showProgress;
    return o;
}

std::vector<std::string>
RunOptions::GetIgnored()
{
    return {"--jobs",
            "--runs",
            "--part",
            "--merge",
            "--resume",
            "--listRuns",
            "--outputDir",
            "--plot",
            "--progress"};
}

} // namespace mose
} // namespace ns3
