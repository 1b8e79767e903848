/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-comparison.h"

#include "mose-study-statistics.h"

#include "ns3/log.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-policy.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchComparison");

namespace mose
{

void
SwitchComparison::Add(const SwitchRunSummary& summary)
{
    NS_LOG_FUNCTION(this << mose::ToString(summary.policy));
    m_runs.push_back(summary);
}

void
SwitchComparison::SetWorkload(const std::string& workload)
{
    m_workload = workload;
}

const std::string&
SwitchComparison::GetWorkload() const
{
    return m_workload;
}

const std::vector<SwitchRunSummary>&
SwitchComparison::GetSummaries() const
{
    return m_runs;
}

const SwitchRunSummary*
SwitchComparison::GetBestStatic() const
{
    const SwitchRunSummary* best = nullptr;
    for (const auto& r : m_runs)
    {
        if (!mose::IsSwitching(r.policy) && (!best || r.meanFctS < best->meanFctS))
        {
            best = &r;
        }
    }
    return best;
}

const SwitchRunSummary*
SwitchComparison::GetMose() const
{
    for (const auto& r : m_runs)
    {
        if (mose::IsSwitching(r.policy))
        {
            return &r;
        }
    }
    return nullptr;
}

std::optional<double>
SwitchComparison::GetMargin() const
{
    const SwitchRunSummary* mose = GetMose();
    const SwitchRunSummary* best = GetBestStatic();
    if (!mose || !best || !(best->meanFctS > 0))
    {
        return std::nullopt;
    }
    return (mose->meanFctS - best->meanFctS) / best->meanFctS;
}

std::string
DescribeSwitchVerdict(const SwitchComparison& comparison)
{
    const SwitchRunSummary* mose = comparison.GetMose();
    const SwitchRunSummary* best = comparison.GetBestStatic();
    if (!mose || !best)
    {
        return "verdict: needs MoSE and at least one static policy on the same run "
               "(--policies=MoSE,S-Train,...)";
    }
    std::ostringstream o;
    const bool wins = mose->meanFctS < best->meanFctS;
    o << "verdict: switching " << (wins ? "pays off" : "does not pay off") << ": MoSE's mean FCT "
      << FormatDuration(mose->meanFctS, DurationStyle::MS) << " is "
      << FormatChange(mose->meanFctS, best->meanFctS) << " against the best static policy "
      << mose::ToString(best->policy) << " (" << FormatDuration(best->meanFctS, DurationStyle::MS)
      << "); KV " << FormatDuration(mose->kv.meanS, DurationStyle::MS) << " vs "
      << FormatDuration(best->kv.meanS, DurationStyle::MS) << " ("
      << FormatChange(mose->kv.meanS, best->kv.meanS) << "), training "
      << FormatDuration(mose->training.meanS, DurationStyle::MS) << " vs "
      << FormatDuration(best->training.meanS, DurationStyle::MS) << " ("
      << FormatChange(mose->training.meanS, best->training.meanS) << "), makespan "
      << FormatDuration(mose->makespanS, DurationStyle::MS) << " vs "
      << FormatDuration(best->makespanS, DurationStyle::MS) << " ("
      << FormatChange(mose->makespanS, best->makespanS) << "); MoSE paid " << mose->switches
      << " switches: " << mose->circuitsChanged << " circuits changed, "
      << FormatDuration(mose->switchTime, DurationStyle::MS) << " switching, blackout "
      << FormatDuration(mose->blackoutTime, DurationStyle::MS);
    if (mose->fluid)
    {
        o << " (fluid flows: no packets held or lost)";
    }
    else
    {
        o << ", " << mose->packetsHeld << " packets held (longest "
          << FormatDuration(mose->longestHold, DurationStyle::MS) << "), " << mose->packetsLost
          << " lost";
    }
    if (mose->completed < mose->transfers || best->completed < best->transfers)
    {
        o << " [incomplete transfers: MoSE " << mose->transfers - mose->completed << ", "
          << mose::ToString(best->policy) << " " << best->transfers - best->completed << "]";
    }
    if (!comparison.GetWorkload().empty())
    {
        o << "\nthe verdict holds for this workload only: " << comparison.GetWorkload();
    }
    return o.str();
}

void
PrintSwitchComparison(std::ostream& os, const SwitchComparison& comparison)
{
    const std::vector<SwitchRunSummary>& runs = comparison.GetSummaries();
    os << std::left << std::setw(8) << "policy" << std::right << std::setw(11) << "done"
       << std::setw(12) << "FCT mean" << std::setw(12) << "KV mean" << std::setw(12) << "KV P99"
       << std::setw(12) << "train mean" << std::setw(12) << "train P99" << std::setw(13)
       << "makespan" << std::setw(10) << "changed" << std::setw(12) << "blackout" << std::setw(8)
       << "held" << std::setw(6) << "lost"
       << "\n";
    for (const auto& r : runs)
    {
        os << std::left << std::setw(8) << mose::ToString(r.policy) << std::right << std::setw(11)
           << (std::to_string(r.completed) + "/" + std::to_string(r.transfers)) << std::setw(12)
           << FormatDuration(r.meanFctS, DurationStyle::MS) << std::setw(12)
           << FormatDuration(r.kv.meanS, DurationStyle::MS) << std::setw(12)
           << FormatDuration(r.kv.p99S, DurationStyle::MS) << std::setw(12)
           << FormatDuration(r.training.meanS, DurationStyle::MS) << std::setw(12)
           << FormatDuration(r.training.p99S, DurationStyle::MS) << std::setw(13)
           << FormatDuration(r.makespanS, DurationStyle::MS) << std::setw(10) << r.circuitsChanged
           << std::setw(12) << FormatDuration(r.blackoutTime, DurationStyle::MS) << std::setw(8)
           << (r.fluid ? std::string("n/a") : std::to_string(r.packetsHeld)) << std::setw(6)
           << (r.fluid ? std::string("n/a") : std::to_string(r.packetsLost)) << "\n";
    }
    if (!runs.empty())
    {
        os << "mean FCT per interval (flow-level MaxLoad of its graph and flows):\n";
        os << std::left << std::setw(8) << "policy" << std::right;
        for (std::size_t i = 0; i < runs.front().intervalModes.size(); ++i)
        {
            os << std::setw(26)
               << (std::to_string(i) + " " + mose::ToString(runs.front().intervalModes[i]));
        }
        os << "\n";
        for (const auto& r : runs)
        {
            os << std::left << std::setw(8) << mose::ToString(r.policy) << std::right;
            for (std::size_t i = 0; i < r.intervalMeanFctS.size(); ++i)
            {
                std::ostringstream cell;
                cell << FormatDuration(r.intervalMeanFctS[i], DurationStyle::MS) << " ("
                     << r.intervalMaxLoad[i] << ")";
                os << std::setw(26) << cell.str();
            }
            os << "\n";
        }
    }
    os << DescribeSwitchVerdict(comparison) << "\n";
}

void
WriteSwitchComparisonCsv(const SwitchComparison& comparison, const std::string& path)
{
    std::ostringstream csv;
    csv << std::setprecision(12);
    csv << "policy,transfers,completed,fct_mean_s,makespan_s";
    for (const char* cls : {"kv", "training"})
    {
        csv << ',' << cls << "_fct_mean_s," << cls << "_fct_p50_s," << cls << "_fct_p95_s," << cls
            << "_fct_p99_s," << cls << "_goodput_bps";
    }
    csv << ",switches,circuits_changed,switch_time_s,blackout_s,packets_held,longest_hold_s,"
           "packets_lost\n";
    for (const auto& r : comparison.GetSummaries())
    {
        csv << mose::ToString(r.policy) << ',' << r.transfers << ',' << r.completed << ','
            << r.meanFctS << ',' << r.makespanS;
        for (const MoseFctSummary* f : {&r.kv, &r.training})
        {
            csv << ',' << f->meanS << ',' << f->p50S << ',' << f->p95S << ',' << f->p99S << ','
                << f->goodputBps;
        }
        csv << ',' << r.switches << ',' << r.circuitsChanged << ',' << r.switchTime.GetSeconds()
            << ',' << r.blackoutTime.GetSeconds() << ',';
        if (r.fluid)
        {
            csv << "n/a,n/a,n/a\n"; // packets exist at the packet level only
        }
        else
        {
            csv << r.packetsHeld << ',' << r.longestHold.GetSeconds() << ',' << r.packetsLost
                << '\n';
        }
    }
    const std::string body = csv.str();
    mose::WriteTextFile(path, [&body](std::ostream& os) { os << body; });
}

std::string
DescribeSeedsVerdict(const std::vector<SwitchComparison>& seeds,
                     uint64_t firstRun,
                     double tolerance)
{
    std::vector<double> margins;
    std::ostringstream each;
    for (std::size_t k = 0; k < seeds.size(); ++k)
    {
        const std::optional<double> m = seeds[k].GetMargin();
        each << (k ? ", " : "");
        if (m)
        {
            margins.push_back(*m);
            each << FormatPercent(*m) << " vs " << mose::ToString(seeds[k].GetBestStatic()->policy);
        }
        else
        {
            each << "-";
        }
    }
    const MeanInterval interval = ComputeMeanInterval(margins);
    const MarginVerdict verdict = DecideMargin(interval, tolerance);
    std::ostringstream o;
    o << "verdict with 95% confidence over " << seeds.size()
      << (seeds.size() == 1 ? " seed" : " seeds") << " (run" << (seeds.size() == 1 ? " " : "s ")
      << firstRun;
    if (seeds.size() > 1)
    {
        o << " to " << firstRun + seeds.size() - 1;
    }
    o << "; MoSE's margin on the mean FCT against each seed's best static policy, tie band +-"
      << tolerance * 100 << "%): " << ToString(verdict);
    if (interval.n == 0)
    {
        o << ": no seed has MoSE and a static policy";
    }
    else if (!interval.halfWidth)
    {
        o << ": one sample (" << each.str() << ") gives no interval; --seeds=3 or more gives one";
    }
    else
    {
        o << ": mean " << FormatPercent(interval.mean) << ", 95% interval ["
          << FormatPercent(*interval.GetLow()) << ", " << FormatPercent(*interval.GetHigh())
          << "] over " << interval.n << " samples (" << each.str() << ")";
    }
    return o.str();
}

} // namespace mose
} // namespace ns3
