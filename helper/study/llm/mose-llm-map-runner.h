/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_MAP_RUNNER_H
#define MOSE_LLM_MAP_RUNNER_H

#include "mose-llm-regime-map.h"
#include "mose-run-list-runner.h"
#include "mose-run-list.h"
#include "mose-run-pool.h"

#include <cstdint>
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
 * \brief How LlmMapRunner carries out a map's runs (mose-llm's --jobs, --runs, --part,
 *        --merge, --resume): threads at the fluid levels, a process per packet-level run.
 */
using LlmMapRunnerOptions = RunListOptions;

/**
 * \ingroup mose-study
 * \brief A regime map (or one per level, mose-llm --level=packet,fluid) as a list of
 *        independent runs: lists them, carries out any subset on K workers, keeps each finished
 *        run as a record (RunRecordStore), and puts the maps together from the records when all
 *        are there, in this process or by a merge of the parts other processes left. The list
 *        is a RunListRunner's (one group of runs per level), the one record, resume, part and
 *        merge path of the module's studies.
 *
 * The list is level-major: every run of the first level's map (LlmRegimeMap::ListRuns()), then
 * the next level's. A record carries the run's summary (and per-cycle summaries), its cell,
 * policy, seed and level; a merge checks them against the list. Every number is written so that
 * it reads back as the same double, and the maps are always put together from the records: a
 * map run in one process, with any --jobs, or merged from parts has the same files.
 */
class LlmMapRunner
{
  public:
    /**
     * \param config the map \param levels its levels (one map each, in order)
     */
    LlmMapRunner(const LlmRegimeMapConfig& config, const std::vector<LlmLevel>& levels);

    /// \return the runs in all
    uint32_t GetTotal() const;
    /// \brief Prints the list as CSV: index,level,load,interval_s,dark_s,policy,seed,run
    /// \param os the stream
    void WriteList(std::ostream& os) const;
    /**
     * \brief Carries out what the options select (or merges), records every finished run, and
     *        puts the maps together when every run has its record.
     * \param options how \param os the stream of the lines (kept runs, a part's summary)
     * \return whether the maps are whole (GetMaps() then holds them)
     */
    bool Run(const LlmMapRunnerOptions& options, std::ostream& os);
    /// \return the maps, one per level (after Run() returned true)
    const std::vector<std::unique_ptr<LlmRegimeMap>>& GetMaps() const;

    /**
     * \brief A run's figures as a record's.
     * \param figures the run's \param record the record to fill
     */
    static void PutFigures(const LlmMapRunFigures& figures, RunRecord& record);
    /**
     * \param record a record of PutFigures() \return the run's figures; mose::Error naming
     *        the record for a missing or unreadable figure
     */
    static LlmMapRunFigures GetFigures(const RunRecord& record);

  private:
    /// one run of the list: its map and its run there
    struct Entry
    {
        std::size_t map{0}; //!< the level's map
        LlmMapRun run;      //!< the run in that map's list
    };

    /// \param e a run \return its cell, policy, seed and level in words
    std::string Describe(const Entry& e) const;
    /// \param e a run \param record its record \brief Writes the run's key to the record
    void PutKey(const Entry& e, RunRecord& record) const;
    /// \brief Throws a mose::Error naming the record if its key is not that of run e
    /// \param e a run \param record a record read for it
    void CheckKey(const Entry& e, const RunRecord& record) const;
    LlmRegimeMapConfig m_config;                       //!< the map
    std::vector<LlmLevel> m_levels;                    //!< its levels
    std::vector<std::unique_ptr<LlmRegimeMap>> m_maps; //!< one per level
    std::vector<Entry> m_entries;                      //!< the list
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_MAP_RUNNER_H */
