/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RUN_LIST_RUNNER_H
#define MOSE_RUN_LIST_RUNNER_H

#include "mose-run-list.h"
#include "mose-run-pool.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief How a list of runs is carried out (the programs' --jobs, --runs, --part, --merge,
 *        --resume; RunOptions reads them).
 */
struct RunListOptions
{
    /// K workers: threads where a run needs no Simulator, else a process per run
    uint32_t jobs{1};
    RunSelection selection{RunSelection::All()}; //!< the runs this process carries out
    /// the folder of the records (outputDir/runs) and of the study's files
    std::string outputDir;
    /// the options that decide the figures (StudyOptionsText()): every record carries them
    std::string options;
    /// keep the records a run with the same options and build left in outputDir/runs
    bool resume{true};
    /// put the study together from these folders' records instead of running anything
    std::vector<std::string> merge;
    bool showProgress{false}; //!< progress lines on standard error
};

/**
 * \ingroup mose-study
 * \brief Consecutive runs of a list that run on one kind of workers (RunListRunner::Run()): a
 *        list may mix them, e.g. mose-llm's map at the packet level (a process per run) and at
 *        the fluid level (threads).
 */
struct RunGroup
{
    uint32_t runs{0};                        //!< how many runs, from where the group before ended
    RunWorkers workers{RunWorkers::THREADS}; //!< their workers
};

/**
 * \ingroup mose-study
 * \brief A study as a list of independent runs, each known by its text ("MoSE, packet
 *        level"): carries out what the options select on a RunPool, keeps each finished run
 *        as a record (RunRecordStore, with the files its run wrote), and hands back every
 *        run's record once all are there, from this process or from the parts a merge reads.
 *
 * A record's `run` is its run's text: a record of another list (another program, or the same
 * program with other runs) is refused by it, naming the file. The study is always put
 * together from the records, so it does not depend on K, the order runs finish in, or the
 * parts it was run in.
 */
class RunListRunner
{
  public:
    /**
     * \param program the program's name (progress lines, messages)
     * \param runs each run's text, in the list's order
     * \param study the study in the messages ("map": "the map is not whole"); empty: "PROGRAM
     *        study"
     */
    RunListRunner(std::string program, std::vector<std::string> runs, std::string study = "");

    /// \return the runs in all
    uint32_t GetTotal() const;
    /// \param index a run \return its text
    const std::string& Describe(uint32_t index) const;

    /// makes run `index`'s task, which may write files (RunRecordStore::WriteRunFile())
    using MakeTask =
        std::function<std::unique_ptr<RunTask>(uint32_t index, const RunRecordStore& store)>;

    /**
     * \brief Carries out the selected runs that have no record yet (or merges), on workers of
     *        the given kind.
     * \param options how \param workers threads or processes (with --jobs above 1)
     * \param make makes a run's task
     * \param records filled with every run's record, in the list's order, when the study is
     *        whole (their path set: RunRecordStore::ReadRunFile() reads their files)
     * \param os the stream of the lines (kept runs, a part's summary)
     * \return whether the study is whole (false after a part: --runs, --part)
     */
    bool Run(const RunListOptions& options,
             RunWorkers workers,
             const MakeTask& make,
             std::vector<RunRecord>& records,
             std::ostream& os) const;

    /**
     * \brief Run() for a list of groups of runs, each on workers of its kind: the groups run one
     *        after the other, each on a RunPool of its own.
     * \param options as Run()'s
     * \param groups the groups, in the list's order; their runs add up to GetTotal()
     * \param make as Run()'s \param records as Run()'s \param os as Run()'s
     * \param seconds if given, filled per group: the wall seconds its runs took in this process,
     *        plus those its kept or merged records carry
     * \return as Run()'s
     */
    bool Run(const RunListOptions& options,
             const std::vector<RunGroup>& groups,
             const MakeTask& make,
             std::vector<RunRecord>& records,
             std::ostream& os,
             std::vector<double>* seconds = nullptr) const;

    /**
     * \param indices ascending run indices
     * \return them as a --runs value ("0,3-5")
     */
    static std::string RunsText(const std::vector<uint32_t>& indices);

  private:
    /// \brief Throws a mose::Error naming the record if it is not run `index`'s
    /// \param index a run \param record a record read for it
    void CheckRun(uint32_t index, const RunRecord& record) const;
    /// \brief Run(): the records from the merged folders \param options as Run()'s
    /// \param records as Run()'s
    void Merge(const RunListOptions& options, std::vector<RunRecord>& records) const;

    std::string m_program;           //!< the program
    std::vector<std::string> m_runs; //!< each run's text
    std::string m_study;             //!< the study in the messages ("mose-llm study", "map")
    std::string m_whole;             //!< the whole of it ("the whole study", "the map")
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_RUN_LIST_RUNNER_H */
