/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RUN_OPTIONS_H
#define MOSE_RUN_OPTIONS_H

#include "mose-llm-map-runner.h"

#include "ns3/command-line.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

class Program;
class ScenarioOptions;
struct FlowExperimentConfig;
struct SeedPlan;

/**
 * \ingroup mose-study
 * \brief How a program carries out its list of runs: --jobs=K workers, --runs=LIST or
 *        --part=I/K (a share of the list), --merge=DIR,... (put the result together from the
 *        records of parts), --resume (keep the runs an earlier run finished), --listRuns.
 *
 * They act on a list of runs (mose-llm's regime map and comparison, mose-packet's policies,
 * mose-mode-switch's seeds and policies, mose-sweep's points). With one run they do nothing, and a
 * given one is refused with the reason; --merge runs nothing, so --jobs, --runs, --part and
 * --resume are refused beside it; --runs and --part exclude each other.
 */
class RunOptions
{
  public:
    /**
     * \brief Adds the options
     * \param cmd the command line
     * \param byDefault --jobs's default, as its help says it ("1 by default: one after the
     *        other" if empty; a seed study: "by default --threads")
     */
    void AddOptions(CommandLine& cmd, const std::string& byDefault = "");

    /// \brief AddOptions() for a study whose runs are its seeds (ReadForSeeds()): --jobs is
    ///        --threads by default \param cmd the command line
    void AddOptionsForSeeds(CommandLine& cmd);

    /**
     * \brief Reads them after cmd.Parse(); a mose::Error names the first bad one.
     * \param listed whether the program runs a list (mose-llm: --map)
     * \param oneRun why it does not, for the message ("--map=false runs one experiment")
     */
    void Read(bool listed, const std::string& oneRun);

    /// \return whether --listRuns was given
    bool IsListing() const;
    /// \return --jobs as given ("--jobs = \"2\""), or empty when not given
    std::string DescribeJobs() const;
    /**
     * \param total the runs in the list
     * \return how many runs this process carries out (0 with --merge); mose::Error naming
     *         --runs or --part for a selection the list does not hold
     */
    uint32_t CountRuns(uint32_t total) const;
    /**
     * \param outputDir the program's output folder
     * \param options the options that decide the figures (StudyOptionsText())
     * \param showProgress progress lines
     * \return the runner's options
     */
    LlmMapRunnerOptions Get(const std::string& outputDir,
                            const std::string& options,
                            bool showProgress) const;

    /**
     * \brief Read() and Get() for a flow-level study whose runs are its seeds (mose-paper,
     *        mose-baselines, mose-break-even: SeedList), and the study's memory and output
     *        checked (Program::CheckStudy(), one seed per worker). Without --jobs the workers are
     *        --threads, as before (0: one per core); --jobs and --threads both given are
     *        refused, naming both.
     * \param name the program's name, in its runs' texts ("mose-paper")
     * \param scenario the scenario options (--threads as given)
     * \param largest the largest scenario a seed evaluates (its first run is seed 0's)
     * \param plan the seeds \param program the program (output folder, progress, checks)
     * \param argc as main()'s \param argv as main()'s (the options the records carry)
     * \return the runner's options; none after --listRuns printed the seeds' list (the program
     *         has nothing more to do)
     */
    std::optional<LlmMapRunnerOptions> ReadForSeeds(const std::string& name,
                                                    const ScenarioOptions& scenario,
                                                    const FlowExperimentConfig& largest,
                                                    const SeedPlan& plan,
                                                    Program& program,
                                                    int argc,
                                                    char** argv);

    /// \return the folders of --merge (empty without it), after Read()
    const std::vector<std::string>& GetMergeFolders() const;

    /// \return the options StudyOptionsText() leaves out: these and the output options
    static std::vector<std::string> GetIgnored();

  private:
    std::string m_jobs;         //!< --jobs (empty: not given)
    std::string m_runs;         //!< --runs (empty: not given)
    std::string m_part;         //!< --part (empty: not given)
    std::string m_merge;        //!< --merge (empty: not given)
    std::string m_resume;       //!< --resume (empty: not given)
    bool m_jobsGiven{false};    //!< --jobs given
    bool m_runsGiven{false};    //!< --runs given
    bool m_partGiven{false};    //!< --part given
    bool m_mergeGiven{false};   //!< --merge given
    bool m_resumeGiven{false};  //!< --resume given
    bool m_list{false};         //!< --listRuns
    LlmMapRunnerOptions m_read; //!< what Read() made of them
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_RUN_OPTIONS_H */
