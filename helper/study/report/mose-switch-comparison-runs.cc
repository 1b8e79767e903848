/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-comparison-runs.h"

#include "mose-experiment-task.h"
#include "mose-policy-comparison.h"
#include "mose-switch-experiment-report.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-scenario.h"

#include <iomanip>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchComparisonRuns");

namespace mose
{

namespace
{

/// the names of a run's files (RunRecordStore::WriteRunFile()) beside its folder's
const std::string REPORT_FILE = "report.txt";     //!< the reported run's printed report
const std::string WORKLOAD_FILE = "workload.txt"; //!< its workload's text
const std::string PLOT_FILE = "goodput.plt";      //!< its goodput figure's script

/// \param record the record \param prefix the summary's prefix \param s a class's summary
void
PutFct(RunRecord& record, const std::string& prefix, const MoseFctSummary& s)
{
    record.Set(prefix + "transfers", static_cast<uint64_t>(s.transfers));
    record.Set(prefix + "completed", static_cast<uint64_t>(s.completed));
    record.Set(prefix + "mean_s", s.meanS);
    record.Set(prefix + "p50_s", s.p50S);
    record.Set(prefix + "p95_s", s.p95S);
    record.Set(prefix + "p99_s", s.p99S);
    record.Set(prefix + "max_s", s.maxS);
    record.Set(prefix + "bytes", s.bytes);
    record.Set(prefix + "goodput_bps", s.goodputBps);
}

/// \param record the record \param name a count's name \return it, at most 2^32 - 1
uint32_t
GetCount32(const RunRecord& record, const std::string& name)
{
    const uint64_t v = record.GetUnsigned(name);
    if (v > UINT32_MAX)
    {
        throw Error(record.path + ": " + name + " = " + std::to_string(v) + " is above 4294967295");
    }
    return static_cast<uint32_t>(v);
}

/// \param record the record \param prefix the summary's prefix \return a class's summary
MoseFctSummary
GetFct(const RunRecord& record, const std::string& prefix)
{
    MoseFctSummary s;
    s.transfers = GetCount32(record, prefix + "transfers");
    s.completed = GetCount32(record, prefix + "completed");
    s.meanS = record.GetReal(prefix + "mean_s");
    s.p50S = record.GetReal(prefix + "p50_s");
    s.p95S = record.GetReal(prefix + "p95_s");
    s.p99S = record.GetReal(prefix + "p99_s");
    s.maxS = record.GetReal(prefix + "max_s");
    s.bytes = record.GetUnsigned(prefix + "bytes");
    s.goodputBps = record.GetReal(prefix + "goodput_bps");
    return s;
}

} // namespace

SwitchComparisonRuns::SwitchComparisonRuns(const ExperimentConfig& config,
                                           const std::vector<mose::Policy>& policies,
                                           uint32_t seeds,
                                           bool writeScenario)
    : m_config(config),
      m_policies(policies),
      m_seeds(seeds),
      m_writeScenario(writeScenario)
{
    NS_LOG_FUNCTION(this << seeds << writeScenario);
    if (policies.empty() || seeds == 0)
    {
        throw Error("SwitchComparisonRuns needs a policy and a seed at least");
    }
}

uint32_t
SwitchComparisonRuns::GetTotal() const
{
    return m_seeds * static_cast<uint32_t>(m_policies.size());
}

ExperimentConfig
SwitchComparisonRuns::GetRunConfig(uint32_t index) const
{
    ExperimentConfig c = m_config;
    const uint32_t seed = index / static_cast<uint32_t>(m_policies.size());
    c.run = m_config.run + seed;
    if (seed > 0)
    {
        c.scenario.firstRun = c.run; // as the seeds of the program's loop did
    }
    return c;
}

void
SwitchComparisonRuns::WriteList(std::ostream& os) const
{
    os << "index,seed,run,policy\n";
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        os << i << "," << i / m_policies.size() << "," << GetRunConfig(i).run << ","
           << mose::ToString(m_policies[i % m_policies.size()]) << "\n";
    }
}

void
SwitchComparisonRuns::PutSummary(const SwitchRunSummary& s, RunRecord& record)
{
    record.Set("summary.policy", static_cast<uint64_t>(s.policy));
    PutFct(record, "summary.kv.", s.kv);
    PutFct(record, "summary.training.", s.training);
    record.Set("summary.transfers", static_cast<uint64_t>(s.transfers));
    record.Set("summary.completed", static_cast<uint64_t>(s.completed));
    record.Set("summary.mean_fct_s", s.meanFctS);
    record.Set("summary.makespan_s", s.makespanS);
    record.Set("summary.switches", static_cast<uint64_t>(s.switches));
    record.Set("summary.circuits_changed", static_cast<uint64_t>(s.circuitsChanged));
    record.Set("summary.switch_time_ns", static_cast<int64_t>(s.switchTime.GetNanoSeconds()));
    record.Set("summary.blackout_time_ns", static_cast<int64_t>(s.blackoutTime.GetNanoSeconds()));
    record.Set("summary.packets_held", s.packetsHeld);
    record.Set("summary.longest_hold_ns", static_cast<int64_t>(s.longestHold.GetNanoSeconds()));
    record.Set("summary.packets_lost", s.packetsLost);
    record.Set("summary.intervals", static_cast<uint64_t>(s.intervalModes.size()));
    for (std::size_t i = 0; i < s.intervalModes.size(); ++i)
    {
        const std::string p = "summary.interval" + std::to_string(i) + ".";
        record.Set(p + "mode", static_cast<uint64_t>(s.intervalModes[i]));
        record.Set(p + "mean_fct_s", s.intervalMeanFctS.at(i));
        record.Set(p + "max_load", s.intervalMaxLoad.at(i));
    }
    record.Set("summary.wall_seconds", s.wallSeconds);
    record.Set("summary.simulated_seconds", s.simulatedSeconds);
    record.Set("summary.fluid", static_cast<uint64_t>(s.fluid ? 1 : 0));
}

SwitchRunSummary
SwitchComparisonRuns::GetSummary(const RunRecord& record)
{
    SwitchRunSummary s;
    const uint64_t policy = record.GetUnsigned("summary.policy");
    if (policy >= mose::ALL_POLICIES.size())
    {
        throw Error(record.path + ": no policy " + std::to_string(policy) +
                    " (made by another version?)");
    }
    s.policy = static_cast<mose::Policy>(policy);
    s.kv = GetFct(record, "summary.kv.");
    s.training = GetFct(record, "summary.training.");
    s.transfers = GetCount32(record, "summary.transfers");
    s.completed = GetCount32(record, "summary.completed");
    s.meanFctS = record.GetReal("summary.mean_fct_s");
    s.makespanS = record.GetReal("summary.makespan_s");
    s.switches = GetCount32(record, "summary.switches");
    s.circuitsChanged = GetCount32(record, "summary.circuits_changed");
    s.switchTime = NanoSeconds(record.GetSigned("summary.switch_time_ns"));
    s.blackoutTime = NanoSeconds(record.GetSigned("summary.blackout_time_ns"));
    s.packetsHeld = record.GetUnsigned("summary.packets_held");
    s.longestHold = NanoSeconds(record.GetSigned("summary.longest_hold_ns"));
    s.packetsLost = record.GetUnsigned("summary.packets_lost");
    const uint64_t intervals = record.GetUnsigned("summary.intervals");
    for (uint64_t i = 0; i < intervals; ++i)
    {
        const std::string p = "summary.interval" + std::to_string(i) + ".";
        const uint64_t mode = record.GetUnsigned(p + "mode");
        if (mode > static_cast<uint64_t>(mose::WorkloadMode::TRAINING_HEAVY))
        {
            throw Error(record.path + ": no workload mode " + std::to_string(mode) + " (" + p +
                        "mode; made by another version?)");
        }
        s.intervalModes.push_back(static_cast<mose::WorkloadMode>(mode));
        s.intervalMeanFctS.push_back(record.GetReal(p + "mean_fct_s"));
        s.intervalMaxLoad.push_back(record.GetReal(p + "max_load"));
    }
    s.wallSeconds = record.GetReal("summary.wall_seconds");
    s.simulatedSeconds = record.GetReal("summary.simulated_seconds");
    s.fluid = record.GetUnsigned("summary.fluid") != 0;
    return s;
}

std::unique_ptr<RunTask>
SwitchComparisonRuns::MakeTask(uint32_t i,
                               const RunRecordStore& store,
                               std::vector<PolicyComparison>& comparisons)
{
    const std::size_t n = m_policies.size();
    const ExperimentConfig config = GetRunConfig(i);
    const uint32_t seed = i / static_cast<uint32_t>(n);
    const mose::Policy policy = m_policies[i % n];
    const bool reported = seed == 0 && policy == m_config.policy;
    // the workload's result, set when the task makes its experiment
    auto result = std::make_shared<std::shared_ptr<const SwitchResult>>();
    return std::make_unique<ExperimentTask>(
        [config, seed, policy, &comparisons, result]() {
            auto e = std::make_unique<Experiment>(WithPolicy(config, policy));
            if (auto scenario = comparisons[seed].Share(config))
            {
                e->SetScenario(std::move(scenario));
            }
            *result = InstallSwitchWorkload(*e);
            return e;
        },
        [this, &store, seed, policy, reported, result](const Experiment& e, RunRecord& record) {
            const SwitchResult& r = **result;
            PutSummary(r.GetSummary(e), record);
            record.Set("experiment_wall_seconds", e.GetWallSeconds());
            if (seed > 0)
            {
                return; // a further seed's runs give their summaries only
            }
            const SwitchExperimentReport report(e, r);
            const std::string folder = store.GetScratchFolder(record.index);
            report.WriteCsv(folder, mose::ToString(policy) + "_");
            if (reported && m_writeScenario)
            {
                WriteScenarioFiles(e.GetScenario(), folder);
            }
            store.KeepRunFolder(record, folder);
            if (!reported)
            {
                return;
            }
            std::ostringstream text;
            report.Print(text);
            store.WriteRunFile(record, REPORT_FILE, text.str());
            store.WriteRunFile(record, WORKLOAD_FILE, r.GetWorkloadText(e));
            std::ostringstream script;
            report.MakeGoodputPlot("goodput_" + mose::ToString(policy) + ".png")
                .GenerateOutput(script);
            store.WriteRunFile(record, PLOT_FILE, script.str());
        });
}

bool
SwitchComparisonRuns::Run(const RunListOptions& options,
                          const std::string& dir,
                          std::ostream& os,
                          const Plot& plot)
{
    NS_LOG_FUNCTION(this << dir);
    ValidateSwitchConfig(m_config); // its errors before a scenario is drawn
    const std::size_t n = m_policies.size();
    std::vector<std::string> runs;
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        const std::string policy = mose::ToString(m_policies[i % n]);
        runs.push_back(m_seeds == 1 ? policy
                                    : "seed " + std::to_string(i / n) + " (run " +
                                          std::to_string(GetRunConfig(i).run) + "), " + policy);
    }
    const RunListRunner runner("mose-mode-switch", runs);
    // each seed's scenario, drawn once in this process when several policies run; a process
    // per run draws its own, the same
    std::vector<PolicyComparison> comparisons(m_seeds, PolicyComparison(m_policies));
    std::vector<RunRecord> records;
    const bool whole = runner.Run(
        options,
        RunWorkers::PROCESSES,
        [&](uint32_t i, const RunRecordStore& store) { return MakeTask(i, store, comparisons); },
        records,
        os);
    if (!whole)
    {
        return false;
    }
    m_comparisons.assign(m_seeds, SwitchComparison());
    for (uint32_t i = 0; i < GetTotal(); ++i)
    {
        const RunRecord& r = records[i];
        const uint32_t seed = i / static_cast<uint32_t>(n);
        const mose::Policy policy = m_policies[i % n];
        const SwitchRunSummary summary = GetSummary(r);
        if (summary.policy != policy)
        {
            throw Error(r.path + ": summary.policy is " + mose::ToString(summary.policy) +
                        ", not " + mose::ToString(policy) + " (run " + std::to_string(i) + ")");
        }
        m_comparisons[seed].Add(summary);
        if (seed > 0)
        {
            continue;
        }
        const bool reported = policy == m_config.policy;
        if (reported)
        {
            m_comparisons[seed].SetWorkload(RunRecordStore::ReadRunFile(r, WORKLOAD_FILE));
            if (m_writeScenario)
            {
                os << "wrote " << dir << "/{uniform,pd-biased,compromise}.{csv,dot} and "
                   << "{roles,assignment,flows}_{inference,training}.csv" << std::endl;
            }
        }
        RunRecordStore::CopyRunFolder(r, dir);
        if (!reported)
        {
            os << "ran " << mose::ToString(policy) << ": " << std::fixed << std::setprecision(2)
               << r.GetReal("experiment_wall_seconds") << " s wall" << std::defaultfloat
               << std::setprecision(6) << std::endl;
            continue;
        }
        const std::string prefix = mose::ToString(policy) + "_";
        os << RunRecordStore::ReadRunFile(r, REPORT_FILE);
        os << "wrote " << dir << "/" << prefix << "{intervals,circuits,goodput,transfers}.csv"
           << std::endl;
        if (plot)
        {
            plot("goodput_" + mose::ToString(policy), RunRecordStore::ReadRunFile(r, PLOT_FILE));
        }
        os << std::endl;
    }
    return true;
}

const std::vector<SwitchComparison>&
SwitchComparisonRuns::GetComparisons() const
{
    return m_comparisons;
}

} // namespace mose
} // namespace ns3
