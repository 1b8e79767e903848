/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SEED_POOL_H
#define MOSE_SEED_POOL_H

#include <cstdint>
#include <functional>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief How a study runs its seeds: how many, and on how many worker threads.
 *
 * It is kept apart from the scenario (FlowExperimentConfig: N, d, roles, templates, flows,
 * routing rule and the first seed's run), which says what one seed draws; a SeedPlan says how
 * many seeds a study, a sweep point, a baseline comparison or a switch-cost study evaluates, and
 * on how many threads. Seed k uses run firstRun + k.
 */
struct SeedPlan
{
    uint32_t seeds{20};  //!< number of seeds (--seeds)
    uint32_t threads{0}; //!< worker threads (--threads; 0: one per core); no effect on results

    /**
     * \brief Throws a mose::Error naming --seeds without a seed, or --RngRun if the runs
     *        firstRun .. firstRun + seeds - 1 do not fit in 64 bits.
     * \param firstRun the ns-3 run of the first seed (FlowExperimentConfig::firstRun)
     */
    void Validate(uint64_t firstRun) const;

    /// \return the worker threads: threads, or the hardware's threads for 0 (at least 1)
    uint32_t GetThreads() const;
};

/**
 * \ingroup mose-study
 * \brief Runs a study's independent seeds (or any independent units, such as a sweep's points)
 *        on worker threads.
 *
 * Workers take the next seed index and call work(seed); each seed writes only its own slots,
 * so the results do not depend on the number of threads or on scheduling. After each seed,
 * progress(seeds done, seeds) is called under a lock (from any worker). The first exception a
 * seed throws stops the other workers after their current seed and is rethrown here, once
 * all have stopped. The calling thread is one of the workers.
 * \param seeds the number of seeds (indices 0 .. seeds - 1)
 * \param threads worker threads; 0: one per core; at most `seeds` are used
 * \param work the work of one seed
 * \param progress called after each seed, may be empty
 */
void ForEachSeed(uint32_t seeds,
                 uint32_t threads,
                 const std::function<void(uint32_t)>& work,
                 const std::function<void(uint32_t, uint32_t)>& progress = {});

} // namespace mose
} // namespace ns3

#endif /* MOSE_SEED_POOL_H */
