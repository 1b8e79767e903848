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
