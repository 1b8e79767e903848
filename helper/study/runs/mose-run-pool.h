/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_RUN_POOL_H
#define MOSE_RUN_POOL_H

#include "mose-run-list.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief One run of a study's list as a RunPool carries it out, in three steps.
 *
 * Prepare() and Finish() may use ns-3's global state (attribute defaults, the Simulator, global
 * values): the pool calls them on the calling thread, one run at a time, or in the run's own
 * process. Execute() is the run itself: with RunWorkers::THREADS it runs on a worker thread
 * beside other runs' Execute() and must touch no ns-3 global state (the fluid and aggregate
 * levels: mose::FluidLlmRun); with RunWorkers::PROCESSES the three steps run in a process of
 * the run's own (a child forked from the calling process: one Simulator per process).
 */
class RunTask
{
  public:
    virtual ~RunTask() = default;
    /// \brief Builds what the run needs (calling thread, or the run's process)
    virtual void Prepare() = 0;
    /// \brief Runs it (a worker thread, or the run's process)
    virtual void Execute() = 0;
    /**
     * \brief Its figures (calling thread, or the run's process); the task is destroyed after.
     * \param record the record to fill: run (what it is, in words) and figures
     */
    virtual void Finish(RunRecord& record) = 0;
};

/**
 * \ingroup mose-study
 * \brief How a RunPool's workers run: threads of this process, or a process per run.
 */
enum class RunWorkers : uint8_t
{
    THREADS,   //!< worker threads; RunTask::Execute() must not touch ns-3's global state
    PROCESSES, //!< a child process per run (fork): one Simulator per process
};

/**
 * \ingroup mose-study
 * \brief Carries out a list of independent runs on K workers and hands each finished run's
 *        record back on the calling thread, with progress and an estimate of the time left.
 *
 * Each run writes only its own record, and a record depends on its run alone, so the records
 * (and what a study makes of them) do not depend on K or on the order runs finish in. With one
 * worker the runs run one after the other on the calling thread, as a study did before there
 * was a pool. With several, THREADS runs RunTask::Execute() on worker threads, PROCESSES forks
 * a child per run (the child prepares, executes and finishes it, and passes the record back in
 * a file); a child that fails or is killed stops the pool: no new run starts, the runs under
 * way finish, and a mose::Error names the run and the cause. Forking needs a POSIX system;
 * the module's programs run on Linux.
 */
class RunPool
{
  public:
    /**
     * \brief Progress after each finished run.
     * \param done runs finished \param total runs to do \param what the run, in words
     * \param elapsed wall seconds since Run() started
     * \param left an estimate of the seconds left: the mean wall time per run so far times the
     *        runs left, over the workers (0 when done)
     */
    using Progress = std::function<
        void(uint32_t done, uint32_t total, const std::string& what, double elapsed, double left)>;

    /**
     * \param jobs K, the workers (1: one after the other on the calling thread); at least 1
     * \param workers threads or processes (with K > 1)
     */
    RunPool(uint32_t jobs, RunWorkers workers);

    /**
     * \brief Carries out the runs.
     * \param indices the runs' indices, in the order they start
     * \param make makes run `index`'s task (called on the calling thread, or in the run's
     *        process)
     * \param done called on the calling thread with each finished run's record (its index,
     *        run, figures and resources set), in the order runs finish
     * \param progress may be empty
     */
    void Run(const std::vector<uint32_t>& indices,
             const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
             const std::function<void(const RunRecord&)>& done,
             const Progress& progress = {}) const;

    /// \return K
    uint32_t GetJobs() const;

    /**
     * \param program the program's name
     * \param os the stream (standard error in the programs)
     * \return a Progress that prints "[PROGRAM] run K/T done: WHAT; E s, about L s left"
     */
    static Progress MakePrinter(const std::string& program, std::ostream& os);

    /**
     * \brief Reads --jobs.
     * \param option the option as typed ("--jobs") \param text its value
     * \return K, 1 or more; mose::Error naming the option for 0, a sign or no number
     */
    static uint32_t ParseJobs(const std::string& option, const std::string& text);

  private:
    /// \brief Run() with one worker \param indices as Run()'s \param make as Run()'s
    /// \param done as Run()'s \param progress as Run()'s
    void RunInline(const std::vector<uint32_t>& indices,
                   const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                   const std::function<void(const RunRecord&)>& done,
                   const Progress& progress) const;
    /// \brief Run() on threads \param indices as Run()'s \param make as Run()'s
    /// \param done as Run()'s \param progress as Run()'s
    void RunThreads(const std::vector<uint32_t>& indices,
                    const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                    const std::function<void(const RunRecord&)>& done,
                    const Progress& progress) const;
    /// \brief Run() on processes \param indices as Run()'s \param make as Run()'s
    /// \param done as Run()'s \param progress as Run()'s
    void RunProcesses(const std::vector<uint32_t>& indices,
                      const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                      const std::function<void(const RunRecord&)>& done,
                      const Progress& progress) const;

    uint32_t m_jobs;      //!< K
    RunWorkers m_workers; //!< threads or processes
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_RUN_POOL_H */
