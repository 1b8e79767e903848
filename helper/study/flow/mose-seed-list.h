/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SEED_LIST_H
#define MOSE_SEED_LIST_H

#include "mose-run-list-runner.h"

#include "ns3/mose-metrics.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief A flow-level study's seeds as a list of runs (RunListRunner): run k is seed k, the
 *        ns-3 run firstRun + k, and its record holds every figure the study keeps of the seed.
 *
 * mose-paper, mose-baselines and mose-break-even run their seeds through it: --jobs=K seeds at
 * once on worker threads (a seed needs no Simulator), --part=I/K a share of the seeds, --merge
 * the parts' records. The study's means are always taken from the records, in seed order, so
 * its files do not depend on K, on the order seeds finish in or on the parts. A run's text
 * names the program ("mose-paper seed 0 (run 1)"): a record of another program's seeds is
 * refused by name.
 */
class SeedList
{
  public:
    /**
     * \param program the program whose seeds these are ("mose-paper")
     * \param firstRun the ns-3 run of seed 0 \param seeds how many
     */
    SeedList(std::string program, uint64_t firstRun, uint32_t seeds);

    /// \param seed a seed \return its run's text: "PROGRAM seed K (run R)"
    std::string Describe(uint32_t seed) const;

    /// \brief Prints the list as CSV (--listRuns): "index,run" and a line per seed
    /// \param os the stream
    void Print(std::ostream& os) const;

    /// evaluates a seed into the study's own slots (a worker thread: no ns-3 global state)
    using Evaluate = std::function<void(uint32_t seed)>;
    /// puts a seed's figures into its record (the calling thread)
    using Put = std::function<void(uint32_t seed, RunRecord& record, const RunRecordStore& store)>;
    /// takes a seed's figures from its record into the study's slots (the calling thread)
    using Get = std::function<void(uint32_t seed, const RunRecord& record)>;

    /**
     * \brief Carries out the selected seeds that have no record yet (or merges parts), then,
     *        when every seed has its record, gives each record to `get`, in seed order.
     * \param options how (--jobs, --part, --merge, ...)
     * \param evaluate runs a seed \param put records it \param get reads it back
     * \param os the stream of the runner's lines (kept runs, a part's summary)
     * \return whether the study is whole (false after a part)
     */
    bool Run(const RunListOptions& options,
             const Evaluate& evaluate,
             const Put& put,
             const Get& get,
             std::ostream& os) const;

    /**
     * \brief Puts one evaluation's metrics into a record as figures PREFIX.NAME, exactly
     *        (RunRecord::Set()); its per-circuit loads, when it has them, as a file of the run,
     *        PREFIX.loads (RunRecordStore::WriteRunFile()).
     * \param record the record \param store its store (the loads' file)
     * \param prefix the figures' prefix: letters, digits and '.' ("m0.p3")
     * \param metrics the metrics
     */
    static void PutMetrics(RunRecord& record,
                           const RunRecordStore& store,
                           const std::string& prefix,
                           const FlowMetrics& metrics);
    /**
     * \param record a record PutMetrics() filled \param prefix as given to it
     * \return the metrics, the same as those put; a mose::Error naming the record for a
     *         figure or file that is missing or does not read
     */
    static FlowMetrics GetMetrics(const RunRecord& record, const std::string& prefix);

  private:
    std::string m_program; //!< the program
    uint64_t m_firstRun;   //!< the run of seed 0
    uint32_t m_seeds;      //!< the seeds
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SEED_LIST_H */
