/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-run-options.h"

#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-seed-list.h"

#include "ns3/mose-command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <iostream>
#include <thread>
#include <tuple>

namespace ns3
{
namespace mose
{

void
RunOptions::AddOptions(CommandLine& cmd, const std::string& byDefault)
{
    AddTextOption(
        cmd,
        "jobs",
        "workers that carry out the study's runs on this machine: threads where a run "
        "needs no Simulator, a process per packet-level run (" +
            (byDefault.empty() ? std::string("1 by default: one after the other") : byDefault) +
            "; the files are the same for every value)",
        m_jobs,
        m_jobsGiven);
    AddTextOption(cmd,
                  "runs",
                  "carry out only these runs of the study's list, e.g. 0,3-5 (--listRuns lists "
                  "them): their records go to OUTPUTDIR/runs, and no result is written",
                  m_runs,
                  m_runsGiven);
    AddTextOption(
        cmd,
        "part",
        "carry out part I of K of the study's list (I/K: the runs whose index modulo K is "
        "I - 1), e.g. a Slurm array task's; records as with --runs",
        m_part,
        m_partGiven);
    AddTextOption(
        cmd,
        "merge",
        "put the study's files together from the run records in these folders (comma-separated; "
        "each one a --part or --runs run's --outputDir) instead of running anything",
        m_merge,
        m_mergeGiven);
    AddTextOption(cmd,
                  "resume",
                  "keep the runs an earlier run with the same options and build left in "
                  "OUTPUTDIR/runs (true by default); false runs them again",
                  m_resume,
                  m_resumeGiven);
    AddBoolOption(cmd, "listRuns", "print the study's list of runs as CSV and exit", m_list);
}

void
RunOptions::AddOptionsForSeeds(CommandLine& cmd)
{
    AddOptions(cmd,
               "as many as --threads by default, each a seed; give one of --jobs and --threads");
}

void
RunOptions::Read(bool listed, const std::string& oneRun)
{
    // an option given with an empty value is given: it is read, and refused as any bad value
    const std::vector<std::tuple<std::string, const std::string*, bool>> given = {
        {"--jobs", &m_jobs, m_jobsGiven},
        {"--runs", &m_runs, m_runsGiven},
        {"--part", &m_part, m_partGiven},
        {"--merge", &m_merge, m_mergeGiven},
        {"--resume", &m_resume, m_resumeGiven},
    };
    if (!listed)
    {
        for (const auto& [name, text, isGiven] : given)
        {
            if (isGiven)
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
    if (m_jobsGiven)
    {
        m_read.jobs = RunPool::ParseJobs("--jobs", m_jobs);
    }
    if (m_runsGiven && m_partGiven)
    {
        throw Error("--runs = " + QuoteText(m_runs) + " and --part = " + QuoteText(m_part) +
                    " both choose runs: give one");
    }
    if (m_runsGiven)
    {
        m_read.selection = RunSelection::ParseRuns("--runs", m_runs);
    }
    if (m_partGiven)
    {
        m_read.selection = RunSelection::ParsePart("--part", m_part);
    }
    if (m_resumeGiven)
    {
        m_read.resume = ParseBool("--resume", m_resume);
    }
    if (m_mergeGiven)
    {
        for (const auto& [name, text, isGiven] : given)
        {
            if (name != "--merge" && isGiven)
            {
                throw Error(name + " = " + QuoteText(*text) +
                            " and --merge = " + QuoteText(m_merge) +
                            ": --merge runs nothing, it puts the study together from records; "
                            "give one");
            }
        }
        if (m_list)
        {
            throw Error("--listRuns and --merge = " + QuoteText(m_merge) +
                        ": --listRuns prints the study's list and exits, so --merge would put "
                        "nothing together; give one");
        }
        std::vector<std::string_view> dirs;
        SplitAtCommas(m_merge, dirs);
        if (dirs.empty())
        {
            throw Error("invalid --merge = " + QuoteText(m_merge) +
                        ": folders separated by commas, none empty");
        }
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

const std::vector<std::string>&
RunOptions::GetMergeFolders() const
{
    return m_read.merge;
}

bool
RunOptions::IsListing() const
{
    return m_list;
}

std::string
RunOptions::DescribeJobs() const
{
    return m_jobsGiven ? "--jobs = " + QuoteText(m_jobs) : std::string();
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

std::optional<LlmMapRunnerOptions>
RunOptions::ReadForSeeds(const std::string& name,
                         const ScenarioOptions& scenario,
                         const FlowExperimentConfig& largest,
                         const SeedPlan& plan,
                         Program& program,
                         int argc,
                         char** argv)
{
    Read(true, "");
    if (m_jobsGiven && scenario.IsGiven("threads"))
    {
        throw Error(DescribeJobs() + " and --threads = " + scenario.Describe("threads") +
                    ": both set the worker threads (the seeds evaluated at once); give one");
    }
    if (m_list)
    {
        SeedList(name, largest.firstRun, plan.seeds).Print(std::cout);
        return std::nullopt;
    }
    std::vector<std::string> ignored = GetIgnored();
    ignored.emplace_back("--threads"); // the workers: no figure depends on them
    LlmMapRunnerOptions o = Get(program.GetOutputDir(),
                                StudyOptionsText(argc, argv, ignored),
                                program.IsShowingProgress());
    if (!m_jobsGiven)
    {
        o.jobs = Program::GetStudyWorkers(plan);
    }
    // memory: one seed per worker
    program.CheckStudy(largest, SeedPlan{plan.seeds, o.jobs});
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
