/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-experiment-report.h"

#include "ns3/log.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/system-path.h"

#include <array>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchExperimentReport");

namespace mose
{

namespace
{

/// \param t a duration (seconds or Time) \return it as the switching run's reports give
///        times: ms with 3 decimals and the unit ("12.500 ms")
template <typename T>
std::string
Ms(T t)
{
    return FormatDuration(t, DurationStyle::MS);
}

/// \return "0.45 Gb/s"
std::string
Gbps(double bps)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(2) << bps / 1e9 << " Gb/s";
    return o.str();
}

} // namespace

SwitchExperimentReport::SwitchExperimentReport(const Experiment& experiment,
                                               const SwitchResult& result)
    : m_experiment(experiment),
      m_result(result)
{
}

void
SwitchExperimentReport::Print(std::ostream& os) const
{
    const Experiment& ex = m_experiment;
    const SwitchResult& res = m_result;
    const auto& c = ex.GetConfig();
    os << "mose-mode-switch: N=" << c.scenario.nodes << " d=" << c.scenario.degree << ", policy "
       << mose::ToString(c.policy) << ", routing " << mose::ToString(c.scenario.routing) << ", run "
       << c.run << (IsFluid(c.level) ? ", level " + ToString(c.level) : std::string())
       << DescribeTransport(c.IsRdma(), !IsFluid(c.level), c.ecn, c.pfc) << "\n";
    os << "  switcher: " << res.switcherText;
    for (const MoseSwitchRecord& r : ex.GetSwitchRecords())
    {
        if (!r.batches.empty() && r.batches.size() != r.phases)
        {
            os << " (requested; a switch makes at most one batch per removed circuit, so some "
                  "used fewer: see their batches)";
            break;
        }
    }
    os << "; " << res.bytesPerUnit << " bytes per unit of demand\n";
    os << "  timeline:";
    for (const auto& iv : res.intervals)
    {
        os << (iv.index == 0 ? " " : " -> ") << mose::ToString(iv.mode) << " ["
           << iv.start.GetSeconds() * 1e3 << ", " << iv.end.GetSeconds() * 1e3 << ") ms";
    }
    os << "\n";
    for (const auto& iv : res.intervals)
    {
        PrintInterval(os, iv);
    }
    const SwitchRunSummary s = res.GetSummary(ex);
    os << "\nwhole run: " << s.completed << " of " << s.transfers
       << " transfers completed, mean FCT " << Ms(s.meanFctS) << " (KV " << Ms(s.kv.meanS)
       << ", training " << Ms(s.training.meanS) << "), makespan " << Ms(s.makespanS) << "; "
       << s.switches << " switches, " << s.circuitsChanged << " circuits changed, blackout "
       << Ms(s.blackoutTime) << ", packets held "
       << (s.fluid ? std::string("n/a") : std::to_string(s.packetsHeld)) << ", lost "
       << (s.fluid ? std::string("n/a") : std::to_string(s.packetsLost)) << "\n";
    if (c.IsRdma() && !s.fluid)
    {
        os << "  RDMA transport: " << DescribeTransportDrops(res.transportDrops)
           << " packets dropped at the receivers, " << res.batchErrors << " errors\n";
        if (ex.GetPfcCounts().installed)
        {
            os << "  " << DescribePfc(ex.GetPfcCounts()) << "\n";
        }
    }
    os << "  build " << std::fixed << std::setprecision(2) << ex.GetBuildSeconds() << " s, run "
       << ex.GetWallSeconds() << " s wall for " << std::setprecision(4)
       << ex.GetRunFigures().simulatedSeconds << " s simulated, " << ex.GetEvents() << " events"
       << std::defaultfloat << std::setprecision(6) << "\n";
    if (!IsFluid(c.level))
    {
        Experiment::PrintRanks(os, ex.GetEventsPerRank(), ex.GetCircuitsCut());
    }
}

void
SwitchExperimentReport::PrintInterval(std::ostream& os, const SwitchInterval& iv) const
{
    const Experiment& ex = m_experiment;
    const auto& c = ex.GetConfig();
    const ExperimentInterval& probe = ex.GetIntervals()[iv.index];
    os << "\ninterval " << iv.index << ": " << mose::ToString(iv.mode) << " [" << Ms(iv.start)
       << ", " << Ms(iv.end) << "), template " << mose::ToString(iv.templateId)
       << (probe.graphRealised ? "" : " (NOT realised)") << "\n";
    if (const MoseSwitchRecord* sw = ex.GetIntervalSwitch(iv.index))
    {
        const MoseSwitchRecord& r = *sw;
        os << "  switch " << r.index << ": " << mose::ToString(r.from) << " -> "
           << mose::ToString(r.to) << ", " << Ms(r.start) << " .. "
           << (r.done ? Ms(r.end)
                      : "UNFINISHED (the run stopped at " + Ms(r.until) + "; figures up to then)")
           << ": kept " << r.kept << ", removed " << r.removed << ", added " << r.added;
        if (!r.batches.empty() && r.batches.size() != r.phases)
        {
            os << ", " << r.batches.size() << " batches (K=" << r.phases
               << " requested: at most one batch per removed circuit)";
        }
        os << "; drain " << Ms(r.drainTime) << ", dark " << Ms(r.darkTime) << ", blackout "
           << Ms(r.blackoutTime) << "; packets held ";
        if (IsFluid(c.level))
        {
            os << "n/a, lost n/a (fluid flows)\n";
        }
        else
        {
            os << r.packetsHeld << " (longest " << Ms(r.longestHold) << "), lost " << r.lost
               << "\n";
        }
    }
    else if (iv.index > 0)
    {
        os << "  switch: none (the simulation ended first)\n";
    }
    const mose::FlowMetrics& m = iv.metrics;
    os << "  flow level (" << iv.flows << " flows): MaxLoad " << m.all.maxLoad << ", P95 load "
       << m.all.p95Load << ", AvgHop " << std::setprecision(4) << m.all.avgHop << ", DirectKV "
       << m.directKv << ", 3+hop " << m.kvThreePlus << "; cost KV avg " << m.kv.avgCost << " P95 "
       << m.kv.p95Cost << ", training avg " << m.training.avgCost << " P95 " << m.training.p95Cost
       << std::setprecision(6) << "\n";
    os << "  " << std::left << std::setw(10) << "class" << std::right << std::setw(10)
       << "transfers" << std::setw(8) << "done" << std::setw(13) << "FCT mean" << std::setw(13)
       << "P50" << std::setw(13) << "P95" << std::setw(13) << "P99" << std::setw(13) << "goodput"
       << "\n";
    for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
    {
        const MoseFctSummary& f = iv.GetFct(cls);
        os << "  " << std::left << std::setw(10) << mose::ToString(cls) << std::right
           << std::setw(10) << f.transfers << std::setw(8) << f.completed << std::setw(13)
           << Ms(f.meanS) << std::setw(13) << Ms(f.p50S) << std::setw(13) << Ms(f.p95S)
           << std::setw(13) << Ms(f.p99S) << std::setw(13) << Gbps(f.goodputBps) << "\n";
    }
    os << "  circuits: " << probe.circuitBytes.size() << ", payload bytes max "
       << probe.GetMaxCircuitBytes() << ", mean " << std::fixed << std::setprecision(0)
       << probe.GetMeanCircuitBytes() << std::defaultfloat << std::setprecision(6)
       << " (while in place), " << probe.bytesDuringSwitch
       << " during the switch; packets lost in the interval "
       << (IsFluid(c.level) ? std::string("n/a") : std::to_string(probe.packetsLost));
    if (probe.packetsLost > 0)
    {
        os << " (";
        bool first = true;
        for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
        {
            if (probe.drops[p] > 0)
            {
                os << (first ? "" : ", ")
                   << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p)) << " "
                   << probe.drops[p];
                first = false;
            }
        }
        os << ")";
    }
    os << "\n";
}

void
SwitchExperimentReport::WriteSwitchColumns(std::ostream& os, uint32_t interval) const
{
    const Experiment& ex = m_experiment;
    if (const MoseSwitchRecord* sw = ex.GetIntervalSwitch(interval))
    {
        const MoseSwitchRecord& r = *sw;
        os << r.index << ',' << mose::ToString(r.from) << ',' << r.start.GetSeconds() << ',';
        if (r.done)
        {
            os << r.end.GetSeconds();
        }
        os << ',' << (r.done ? 1 : 0) << ',' << r.until.GetSeconds() << ',' << r.kept << ','
           << r.removed << ',' << r.added << ',' << r.batches.size() << ','
           << r.drainTime.GetSeconds() << ',' << r.darkTime.GetSeconds() << ','
           << r.blackoutTime.GetSeconds() << ',';
        if (IsFluid(ex.GetConfig().level))
        {
            os << "n/a,n/a,n/a,n/a,"; // queues and packets: the packet level's
        }
        else
        {
            os << r.drainTimeouts << ',' << r.packetsHeld << ',' << r.longestHold.GetSeconds()
               << ',' << r.lost << ',';
        }
    }
    else
    {
        os << ",,,,,,,,,,,,,,,,,";
    }
}

std::string
SwitchExperimentReport::IntervalsCsv() const
{
    const Experiment& ex = m_experiment;
    const SwitchResult& res = m_result;
    std::ostringstream intervals;
    intervals << std::setprecision(12);
    intervals
        << "interval,mode,template,start_s,end_s,switch,switch_from,switch_start_s,switch_end_s,"
           "switch_done,switch_until_s,kept,removed,added,batches,drain_s,dark_s,blackout_s,drain_"
           "timeouts,"
           "packets_held,longest_hold_s,switch_lost,flows,max_load,p95_load,avg_hop,direct_kv,"
           "kv_3plus_hop,kv_avg_cost,kv_p95_cost,training_avg_cost,training_p95_cost";
    for (const char* cls : {"kv", "training"})
    {
        intervals << ',' << cls << "_transfers," << cls << "_completed," << cls << "_fct_mean_s,"
                  << cls << "_fct_p50_s," << cls << "_fct_p95_s," << cls << "_fct_p99_s," << cls
                  << "_goodput_bps";
    }
    intervals << ",circuits,graph_realised,circuit_bytes_max,circuit_bytes_mean,"
                 "bytes_during_switch,packets_lost";
    for (uint32_t p = 0; p < MoseLossMonitor::N_POINTS; ++p)
    {
        intervals << ",lost_"
                  << MoseLossMonitor::GetPointName(static_cast<MoseLossMonitor::Point>(p));
    }
    intervals << '\n';
    for (const auto& iv : res.intervals)
    {
        const ExperimentInterval& probe = ex.GetIntervals()[iv.index];
        intervals << iv.index << ',' << mose::ToString(iv.mode) << ','
                  << mose::ToString(iv.templateId) << ',' << iv.start.GetSeconds() << ','
                  << iv.end.GetSeconds() << ',';
        WriteSwitchColumns(intervals, iv.index);
        const mose::FlowMetrics& m = iv.metrics;
        intervals << iv.flows << ',' << m.all.maxLoad << ',' << m.all.p95Load << ',' << m.all.avgHop
                  << ',' << m.directKv << ',' << m.kvThreePlus << ',' << m.kv.avgCost << ','
                  << m.kv.p95Cost << ',' << m.training.avgCost << ',' << m.training.p95Cost;
        for (mose::TrafficClass cls : {mose::TrafficClass::KV, mose::TrafficClass::TRAINING})
        {
            const MoseFctSummary& f = iv.GetFct(cls);
            intervals << ',' << f.transfers << ',' << f.completed << ',' << f.meanS << ',' << f.p50S
                      << ',' << f.p95S << ',' << f.p99S << ',' << f.goodputBps;
        }
        intervals << ',' << probe.circuitBytes.size() << ',' << (probe.graphRealised ? 1 : 0) << ','
                  << probe.GetMaxCircuitBytes() << ',' << probe.GetMeanCircuitBytes() << ','
                  << probe.bytesDuringSwitch << ',';
        if (IsFluid(ex.GetConfig().level))
        {
            intervals << "n/a";
            for (std::size_t p = 0; p < probe.drops.size(); ++p)
            {
                intervals << ",n/a";
            }
        }
        else
        {
            intervals << probe.packetsLost;
            for (uint64_t d : probe.drops)
            {
                intervals << ',' << d;
            }
        }
        intervals << '\n';
    }

    return intervals.str();
}

std::string
SwitchExperimentReport::CircuitsCsv() const
{
    const Experiment& ex = m_experiment;
    const SwitchResult& res = m_result;
    std::ostringstream circuits;
    circuits << "interval,circuit,u,v,load,expected_bytes,bytes\n";
    for (const auto& iv : res.intervals)
    {
        const std::vector<uint64_t>& bytes = ex.GetIntervals()[iv.index].circuitBytes;
        for (uint32_t k = 0; k < iv.graph.GetNCircuits(); ++k)
        {
            const mose::Circuit& e = iv.graph.GetCircuits()[k];
            const double load = k < iv.metrics.load.size() ? iv.metrics.load[k] : 0.0;
            circuits << iv.index << ',' << k << ',' << e.u << ',' << e.v << ',' << load << ','
                     << load * static_cast<double>(res.bytesPerUnit) << ','
                     << (k < bytes.size() ? bytes[k] : 0) << '\n';
        }
    }

    return circuits.str();
}

std::string
SwitchExperimentReport::GoodputCsv() const
{
    const Experiment& ex = m_experiment;
    const SwitchResult& res = m_result;
    std::ostringstream goodput;
    const std::vector<std::array<uint64_t, 2>>& bins = res.goodputBins;
    const double width = ex.GetConfig().binWidth.GetSeconds();
    goodput << "time_s,kv_bps,training_bps\n";
    for (std::size_t b = 0; b < bins.size(); ++b)
    {
        goodput << static_cast<double>(b) * width << ','
                << static_cast<double>(bins[b][0]) * 8.0 / width << ','
                << static_cast<double>(bins[b][1]) * 8.0 / width << '\n';
    }

    return goodput.str();
}

std::string
SwitchExperimentReport::TransfersCsv() const
{
    const SwitchResult& res = m_result;
    std::ostringstream transfers;
    transfers << "interval,index,src,dst,class,demand,bytes,received,start_s,end_s,fct_s,"
                 "complete\n";
    for (const auto& iv : res.intervals)
    {
        for (std::size_t i = 0; i < iv.transfers.size(); ++i)
        {
            const auto& t = iv.transfers[i];
            transfers << iv.index << ',' << i << ',' << t.src << ',' << t.dst << ','
                      << mose::ToString(t.cls) << ',' << t.demand << ',' << t.bytes << ','
                      << t.received << ',' << t.start.GetSeconds() << ',';
            if (t.complete)
            {
                transfers << t.end.GetSeconds() << ',' << t.GetCompletionTime().GetSeconds()
                          << ",1\n";
            }
            else
            {
                transfers << ",,0\n";
            }
        }
    }
    return transfers.str();
}

void
SwitchExperimentReport::WriteCsv(const std::string& dir, const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << dir << prefix);
    SystemPath::MakeDirectories(dir);
    const std::vector<std::string> names = GetCsvFileNames();
    const std::string texts[] = {IntervalsCsv(), CircuitsCsv(), GoodputCsv(), TransfersCsv()};
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        const std::string& body = texts[i];
        mose::WriteTextFile(dir + "/" + prefix + names[i],
                            [&body](std::ostream& os) { os << body; });
    }
}

std::vector<std::string>
SwitchExperimentReport::GetCsvFileNames()
{
    // in the order WriteCsv() fills its texts
    return {"intervals.csv", "circuits.csv", "goodput.csv", "transfers.csv"};
}

Gnuplot
SwitchExperimentReport::MakeGoodputPlot(const std::string& pngFile) const
{
    const Experiment& ex = m_experiment;
    const SwitchResult& res = m_result;
    Gnuplot plot(pngFile);
    plot.SetTerminal("pngcairo size 1000,500");
    plot.SetTitle("goodput per class, policy " + mose::ToString(ex.GetConfig().policy) + ", N=" +
                  std::to_string(ex.GetConfig().scenario.nodes) + " (" + res.switcherText + ")");
    plot.SetLegend("time (ms)", "goodput (Gb/s)");
    plot.AppendExtra("set key top right");
    const std::vector<std::array<uint64_t, 2>>& bins = res.goodputBins;
    const double width = ex.GetConfig().binWidth.GetSeconds();
    for (int cls = 0; cls < 2; ++cls)
    {
        Gnuplot2dDataset data(cls == 0 ? "KV" : "training");
        data.SetStyle(Gnuplot2dDataset::STEPS);
        for (std::size_t b = 0; b < bins.size(); ++b)
        {
            data.Add(static_cast<double>(b) * width * 1e3,
                     static_cast<double>(bins[b][cls]) * 8.0 / width / 1e9);
        }
        plot.AddDataset(data);
    }
    for (const auto& iv : res.intervals)
    {
        std::ostringstream label;
        label << "set label \"" << mose::ToString(iv.mode) << "\" at "
              << iv.start.GetSeconds() * 1e3 << ", graph 0.97 offset 0.5,0 font \",9\"";
        plot.AppendExtra(label.str());
    }
    for (const auto& r : ex.GetSwitchRecords())
    {
        std::ostringstream start;
        start << "set arrow from " << r.start.GetSeconds() * 1e3 << ", graph 0 to "
              << r.start.GetSeconds() * 1e3 << ", graph 1 nohead lc rgb \"red\" lw 1.5";
        plot.AppendExtra(start.str());
        if (r.done)
        {
            std::ostringstream end;
            end << "set arrow from " << r.end.GetSeconds() * 1e3 << ", graph 0 to "
                << r.end.GetSeconds() * 1e3 << ", graph 1 nohead lc rgb \"red\" dt 2";
            plot.AppendExtra(end.str());
        }
    }
    return plot;
}

} // namespace mose
} // namespace ns3
