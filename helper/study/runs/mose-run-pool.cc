/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-run-pool.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRunPool");

namespace mose
{

namespace
{

/// \return wall seconds of a steady clock
double
WallNow()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// \param clock a POSIX clock \return its seconds
double
ClockSeconds(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// \return the peak resident memory of this process, kB
uint64_t
PeakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<uint64_t>(u.ru_maxrss); // Linux: kB
}

/**
 * \brief A run's three steps one after the other, on this thread (one worker, or a run's
 *        process); the task is gone when it returns.
 * \param index the run \param make as RunPool::Run()'s
 * \return its record (index, run and figures)
 */
RunRecord
RunWhole(uint32_t index, const std::function<std::unique_ptr<RunTask>(uint32_t)>& make)
{
    RunRecord r;
    r.index = index;
    std::unique_ptr<RunTask> task = make(index);
    task->Prepare();
    task->Execute();
    task->Finish(r);
    return r;
}

/// Progress bookkeeping shared by the three ways of running
struct Tally
{
    const RunPool::Progress& progress; //!< the caller's
    uint32_t total;                    //!< runs to do
    double start{WallNow()};           //!< when Run() started
    uint32_t done{0};                  //!< runs finished

    /// \brief A run finished \param what the run, in words
    void Add(const std::string& what)
    {
        ++done;
        if (progress)
        {
            const double elapsed = WallNow() - start;
            const double left = elapsed / done * (total - done);
            progress(done, total, what, elapsed, left);
        }
    }
};

} // namespace

RunPool::RunPool(uint32_t jobs, RunWorkers workers)
    : m_jobs(jobs),
      m_workers(workers)
{
    if (jobs == 0)
    {
        ThrowBadParameter("--jobs", "0", "1 or more workers");
    }
}

uint32_t
RunPool::GetJobs() const
{
    return m_jobs;
}

uint32_t
RunPool::ParseJobs(const std::string& option, const std::string& text)
{
    const std::string allowed = "the workers, a whole number 1 or more (this machine has " +
                                std::to_string(std::max(1U, std::thread::hardware_concurrency())) +
                                " cores)";
    uint32_t jobs = 0;
    try
    {
        jobs = ParseUnsigned32(option, text);
    }
    catch (const Error&)
    {
        ThrowBadParameter(option, QuoteText(text), allowed);
    }
    if (jobs == 0)
    {
        ThrowBadParameter(option, QuoteText(text), allowed);
    }
    return jobs;
}

RunPool::Progress
RunPool::MakePrinter(const std::string& program, std::ostream& os)
{
    return
        [program,
         &os](uint32_t done, uint32_t total, const std::string& what, double elapsed, double left) {
            std::ostringstream line;
            line << std::fixed << std::setprecision(1) << "[" << program << "] run " << done << "/"
                 << total << " done: " << what << "; " << elapsed << " s";
            if (done < total)
            {
                line << ", about " << left << " s left";
            }
            os << line.str() << std::endl;
        };
}

void
RunPool::Run(const std::vector<uint32_t>& indices,
             const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
             const std::function<void(const RunRecord&)>& done,
             const Progress& progress) const
{
    NS_LOG_FUNCTION(this << indices.size());
    if (indices.empty())
    {
        return;
    }
    if (m_jobs == 1 || indices.size() == 1)
    {
        RunInline(indices, make, done, progress);
    }
    else if (m_workers == RunWorkers::THREADS)
    {
        RunThreads(indices, make, done, progress);
    }
    else
    {
        RunProcesses(indices, make, done, progress);
    }
}

void
RunPool::RunInline(const std::vector<uint32_t>& indices,
                   const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                   const std::function<void(const RunRecord&)>& done,
                   const Progress& progress) const
{
    Tally tally{progress, static_cast<uint32_t>(indices.size())};
    for (uint32_t index : indices)
    {
        const double wall = WallNow();
        const double cpu = ClockSeconds(CLOCK_PROCESS_CPUTIME_ID);
        RunRecord r = RunWhole(index, make);
        r.resources.wallSeconds = WallNow() - wall;
        r.resources.cpuSeconds = ClockSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
        r.resources.maxRssKb = PeakRssKb();
        done(r);
        tally.Add(r.run);
    }
}

void
RunPool::RunThreads(const std::vector<uint32_t>& indices,
                    const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                    const std::function<void(const RunRecord&)>& done,
                    const Progress& progress) const
{
    // A run's task is prepared and finished here (ns-3's global state is not thread-safe) and
    // executed on a worker; at most K tasks live at once, so memory stays that of K runs.
    struct Slot
    {
        uint32_t index{0};
        std::unique_ptr<RunTask> task;
        double wall{0};
        double cpu{0};
        std::exception_ptr error;
    };

    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::unique_ptr<Slot>> toExecute;
    std::deque<std::unique_ptr<Slot>> executed;
    bool closing = false;
    auto worker = [&]() {
        for (;;)
        {
            std::unique_ptr<Slot> s;
            {
                std::unique_lock<std::mutex> lock(mutex);
                wake.wait(lock, [&]() { return closing || !toExecute.empty(); });
                if (toExecute.empty())
                {
                    return;
                }
                s = std::move(toExecute.front());
                toExecute.pop_front();
            }
            const double cpu = ClockSeconds(CLOCK_THREAD_CPUTIME_ID);
            try
            {
                s->task->Execute();
            }
            catch (...)
            {
                s->error = std::current_exception();
            }
            s->cpu += ClockSeconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
            std::lock_guard<std::mutex> lock(mutex);
            executed.push_back(std::move(s));
            wake.notify_all();
        }
    };
    std::vector<std::thread> threads;
    const uint32_t workers = std::min<uint32_t>(m_jobs, static_cast<uint32_t>(indices.size()));
    for (uint32_t i = 0; i < workers; ++i)
    {
        threads.emplace_back(worker);
    }
    Tally tally{progress, static_cast<uint32_t>(indices.size())};
    std::exception_ptr failure;
    std::size_t next = 0;
    uint32_t inFlight = 0;
    while (inFlight > 0 || (next < indices.size() && !failure))
    {
        while (inFlight < workers && next < indices.size() && !failure)
        {
            auto s = std::make_unique<Slot>();
            s->index = indices[next++];
            s->wall = WallNow();
            const double cpu = ClockSeconds(CLOCK_THREAD_CPUTIME_ID);
            try
            {
                s->task = make(s->index);
                s->task->Prepare();
            }
            catch (...)
            {
                failure = std::current_exception();
                break;
            }
            s->cpu = ClockSeconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
            std::lock_guard<std::mutex> lock(mutex);
            toExecute.push_back(std::move(s));
            ++inFlight;
            wake.notify_all();
        }
        if (inFlight == 0)
        {
            break;
        }
        std::unique_ptr<Slot> s;
        {
            std::unique_lock<std::mutex> lock(mutex);
            wake.wait(lock, [&]() { return !executed.empty(); });
            s = std::move(executed.front());
            executed.pop_front();
        }
        --inFlight;
        if (s->error)
        {
            if (!failure)
            {
                failure = s->error;
            }
            continue;
        }
        if (failure)
        {
            continue; // the pool stops: no more records
        }
        try
        {
            RunRecord r;
            r.index = s->index;
            const double cpu = ClockSeconds(CLOCK_THREAD_CPUTIME_ID);
            s->task->Finish(r);
            s->task.reset();
            r.resources.wallSeconds = WallNow() - s->wall;
            r.resources.cpuSeconds = s->cpu + ClockSeconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
            r.resources.maxRssKb = PeakRssKb();
            done(r);
            tally.Add(r.run);
        }
        catch (...)
        {
            failure = std::current_exception();
        }
    }
    {
        std::lock_guard<std::mutex> lock(mutex);
        closing = true;
        wake.notify_all();
    }
    for (std::thread& t : threads)
    {
        t.join();
    }
    if (failure)
    {
        std::rethrow_exception(failure);
    }
}

namespace
{

/// \param path a child's error file \return its text, or "" if there is none
std::string
ReadWhole(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/**
 * \brief The body of a run's child process: runs the task and leaves its record (or its error)
 *        in the pool's folder; never returns.
 * \param dir the pool's folder \param index the run
 * \param make as RunPool::Run()'s
 */
[[noreturn]] void
RunChild(const std::string& dir,
         uint32_t index,
         const std::function<std::unique_ptr<RunTask>(uint32_t)>& make)
{
    int status = 0;
    try
    {
        const double wall = WallNow();
        RunRecord r = RunWhole(index, make);
        rusage u{};
        getrusage(RUSAGE_SELF, &u); // a forked child's counts start at 0
        r.resources.wallSeconds = WallNow() - wall;
        r.resources.cpuSeconds =
            static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
            static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
        r.resources.maxRssKb = static_cast<uint64_t>(u.ru_maxrss);
        const std::string text = r.ToText();
        WriteTextFile(dir + "/run-" + std::to_string(index) + ".txt",
                      [&text](std::ostream& os) { os << text; });
    }
    catch (const std::exception& e)
    {
        std::ofstream(dir + "/run-" + std::to_string(index) + ".err") << e.what();
        status = 3;
    }
    catch (...)
    {
        status = 4;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(status); // no atexit handlers, no destructors of the parent's objects
}

} // namespace

void
RunPool::RunProcesses(const std::vector<uint32_t>& indices,
                      const std::function<std::unique_ptr<RunTask>(uint32_t)>& make,
                      const std::function<void(const RunRecord&)>& done,
                      const Progress& progress) const
{
    // the children's records pass through a private folder, a file per run
    std::string pattern = (std::filesystem::temp_directory_path() / "mose-runs-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
    {
        throw Error("cannot create a folder for the runs' processes in " +
                    std::filesystem::temp_directory_path().string() + ": " + std::strerror(errno));
    }
    const std::string dir = pattern;
    Tally tally{progress, static_cast<uint32_t>(indices.size())};
    std::map<pid_t, uint32_t> running;
    std::string failure;
    std::exception_ptr doneFailure;
    std::size_t next = 0;
    while (!running.empty() || (next < indices.size() && failure.empty() && !doneFailure))
    {
        while (running.size() < m_jobs && next < indices.size() && failure.empty() && !doneFailure)
        {
            const uint32_t index = indices[next++];
            std::cout.flush();
            std::cerr.flush();
            std::fflush(nullptr); // the child would write the parent's buffered text again
            const pid_t pid = fork();
            if (pid < 0)
            {
                failure = "cannot start a process for run " + std::to_string(index) + ": " +
                          std::strerror(errno);
                break;
            }
            if (pid == 0)
            {
                RunChild(dir, index, make);
            }
            running[pid] = index;
        }
        if (running.empty())
        {
            break;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            failure =
                std::string("waiting for the runs' processes failed: ") + std::strerror(errno);
            break;
        }
        const auto it = running.find(pid);
        if (it == running.end())
        {
            continue; // not one of ours
        }
        const uint32_t index = it->second;
        running.erase(it);
        const std::string base = dir + "/run-" + std::to_string(index);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        {
            try
            {
                const RunRecord r = RunRecord::ReadFile(base + ".txt");
                std::filesystem::remove(base + ".txt");
                if (!failure.empty() || doneFailure)
                {
                    continue;
                }
                done(r);
                tally.Add(r.run);
            }
            catch (...)
            {
                if (!doneFailure)
                {
                    doneFailure = std::current_exception();
                }
            }
            continue;
        }
        std::string why;
        if (WIFSIGNALED(status))
        {
            why = "its process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                  strsignal(WTERMSIG(status)) + ")";
        }
        else
        {
            why = ReadWhole(base + ".err");
            if (why.empty())
            {
                why = "its process exited with status " +
                      std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            }
        }
        if (failure.empty())
        {
            failure = "run " + std::to_string(index) + " failed: " + why;
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (doneFailure)
    {
        std::rethrow_exception(doneFailure);
    }
    if (!failure.empty())
    {
        throw Error(failure);
    }
}

} // namespace mose
} // namespace ns3
