/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-seed-pool.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSeedPool");

void
SeedPlan::Validate(uint64_t firstRun) const
{
    NS_LOG_FUNCTION(this << firstRun);
    if (seeds == 0)
    {
        ThrowBadParameter("--seeds", "0", "need at least one seed");
    }
    if (firstRun + seeds < firstRun)
    {
        ThrowBadParameter("--RngRun", std::to_string(firstRun), "run + seeds overflows 64 bits");
    }
}

uint32_t
SeedPlan::GetThreads() const
{
    return std::max<uint32_t>(1, threads != 0 ? threads : std::thread::hardware_concurrency());
}

void
ForEachSeed(uint32_t seeds,
            uint32_t threads,
            const std::function<void(uint32_t)>& work,
            const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(seeds << threads);
    uint32_t workers = threads != 0 ? threads : std::thread::hardware_concurrency();
    workers = std::max<uint32_t>(1, std::min(workers, seeds));
    std::atomic<uint32_t> next{0};
    std::mutex mutex;
    std::exception_ptr failure;
    uint32_t done = 0;
    auto worker = [&]() {
        for (uint32_t seed = next++; seed < seeds; seed = next++)
        {
            try
            {
                work(seed);
                std::lock_guard<std::mutex> lock(mutex);
                ++done;
                if (progress)
                {
                    progress(done, seeds);
                }
            }
            catch (...)
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (!failure)
                {
                    failure = std::current_exception();
                }
                next = seeds; // stop the other workers after their current seed
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    for (uint32_t i = 1; i < workers; ++i)
    {
        pool.emplace_back(worker);
    }
    worker();
    for (std::thread& t : pool)
    {
        t.join();
    }
    if (failure)
    {
        std::rethrow_exception(failure);
    }
}

} // namespace mose
} // namespace ns3
